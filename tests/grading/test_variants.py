"""A task of one's own (``--variant SEED``): each student's instance comes from their id
and the lecturer's secret seed; each is graded against their own; the keys shipped with
the repository, written for the plain task, answer nothing.

Instances and judging are checked in this process; one class of three runs through the
grader, and the command that tells a student their board.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cp_queens.grading import tasks
from cp_queens.grading.grade import grade, grade_file
from cp_queens.grading.marking.marks import feedback
from cp_queens.grading.rubric import load
from cp_queens.grading.tasks.base import VariantError
from cp_queens.grading.tasks.variants import Variant
from tests.helpers import ROOT, run_cli
from tests.mistakes import COMPLETIONS

SEED = "the lecturer's secret"
TASKS = ("solutions", "dominate")


#: A right model for the variant of the first assignment: every completion, each once.
def instances(variant: Variant, task: str, student: str) -> list[object]:
    return [variant.instance(task, student, n) for n in range(4, 9)]


@pytest.mark.parametrize("task", TASKS)
def test_two_students_get_different_instances_and_each_always_the_same(task: str) -> None:
    variant = Variant(SEED)
    first, second = instances(variant, task, "s1001"), instances(variant, task, "s1002")
    assert first != second
    assert first == instances(Variant(SEED), task, "s1001")  # computed, not stored
    assert first != instances(Variant("another seed"), task, "s1001")


def test_every_completion_instance_has_a_completion() -> None:
    variant = Variant(SEED)
    for student in ("ada", "ben", "s1001"):
        for n in range(4, 10):
            instance = variant.instance("solutions", student, n)
            assert instance.queens and len(tasks.reference("solutions", n, instance)) >= 1
            assert not set(instance.queens.items()) & set(instance.blocked)


def test_a_student_is_graded_against_their_own_instance() -> None:
    """Student 1's right answers are right for student 1, and lose points on student 2's
    boards (at a size where two boards share their answers, as small boards may, they
    are right for both: across the sizes, they are not)."""
    variant, rubric = Variant(SEED), load()
    for task in TASKS:
        elsewhere = []
        for n in range(4, 10) if task == "solutions" else range(4, 7):
            mine = variant.instance(task, "s1001", n)
            theirs = variant.instance(task, "s1002", n)
            answer = _right_answer(task, n, mine)
            row = tasks.judge(task, n, answer, tasks.reference(task, n, mine))
            assert row.ok, (task, n, row.verdict())
            other = tasks.judge(task, n, answer, tasks.reference(task, n, theirs))
            elsewhere.append(tasks.share(other, rubric))
        assert sum(elsewhere) < len(elsewhere) / 2, (task, elsewhere)


def _right_answer(task: str, n: int, instance):  # type: ignore[no-untyped-def]
    if task == "solutions":
        return [list(q) for q in tasks.reference(task, n, instance)]
    from cp_queens.grading.tasks.dominate import smallest_guarding_set

    return [list(square) for square in smallest_guarding_set(n, instance.blocked)]


@pytest.mark.parametrize("n", [4, 5])
def test_the_minimum_with_holes_is_the_brute_force_s(n: int) -> None:
    """CP-SAT's minimum against every set of 1, 2, ... queens, on three boards with holes."""
    from itertools import combinations

    from cp_queens.grading.tasks.dominate import minimum_dominating, unguarded

    for student in ("a", "b", "c"):
        holes = frozenset(Variant(SEED).instance("dominate", student, n).blocked)
        free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in holes]
        smallest = next(
            k
            for k in range(1, len(free) + 1)
            if any(not unguarded(n, list(chosen), holes) for chosen in combinations(free, k))
        )
        assert minimum_dominating(n, tuple(holes)) == smallest


@pytest.mark.parametrize(
    "dominate_up_to",
    [6, pytest.param(7, marks=pytest.mark.slow, id="7-slow")],
)
def test_the_plain_keys_answer_nothing_on_a_variant(dominate_up_to: int) -> None:
    """Even wrapped to take the student's board and ignore it: every solution of the empty
    board (``ada``'s answer) against a completion is a few right among many wrong; lesson
    11's sets against boards with holes lose half the points or more. (Unwrapped, a key's
    ``model(n)`` cannot take the board at all: 0, tested through the grader below.)
    Lesson 11's sets up to n = 6 in the default run; its n = 7 (0.3 s of CP-SAT, the
    test's whole cost) in the slow run."""
    variant, rubric = Variant(SEED), load()
    for n in (6, 7, 8, 9):
        instance = variant.instance("solutions", "s1001", n)
        plain = [list(q) for q in tasks.reference("solutions", n)]
        row = tasks.judge("solutions", n, plain, tasks.reference("solutions", n, instance))
        assert not row.ok and tasks.share(row, rubric) <= 0.25
    from examples.solutions.lesson11 import optimal

    rows = [
        tasks.judge(
            "dominate",
            n,
            optimal(n),
            tasks.reference("dominate", n, variant.instance("dominate", "s1001", n)),
        )
        for n in range(4, dominate_up_to + 1)
    ]
    assert sum(tasks.share(row, rubric) for row in rows) <= len(rows) / 2


def test_a_seed_must_be_given(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match="non-empty"):
        Variant("  ")
    with pytest.raises(VariantError, match="cannot read the seed"):
        Variant.from_option(f"@{tmp_path / 'missing.txt'}")
    (tmp_path / "seed.txt").write_text(SEED + "\n", encoding="utf-8")
    assert (
        Variant.from_option(f"@{tmp_path / 'seed.txt'}").fingerprint()
        == Variant(SEED).fingerprint()
    )


def test_a_class_is_graded_each_against_their_own_board(tmp_path: Path) -> None:
    (tmp_path / "s1001.py").write_text(COMPLETIONS, encoding="utf-8")
    (tmp_path / "s1002.py").write_text(COMPLETIONS, encoding="utf-8")
    shutil.copy(ROOT / "examples" / "assignment" / "submissions" / "ada.py", tmp_path)
    results = {r.student: r for r in grade(tmp_path, range(4, 8), variant=Variant(SEED))}
    assert results["s1001"].full_marks and results["s1002"].full_marks
    assert results["ada"].points == 0
    told = feedback(results["ada"])
    assert "model(n, queens" in told  # the calling convention, told
    assert "(line" not in told  # not the grader's own line after the student's last
    mine, theirs = feedback(results["s1001"]), feedback(results["s1002"])
    board = Variant(SEED).instance("solutions", "s1001", 7).describe()
    assert board in mine and board not in theirs


def test_the_lecturer_tells_each_student_their_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run_cli(
        capsys, "grade", "--variant", SEED, "--show-instance", "s1001", "--n", "4..6"
    )
    assert code == 0
    assert Variant(SEED).instance("solutions", "s1001", 5).describe() in out
    assert Variant(SEED).instance("solutions", "s1001", 5).call() in out
    assert "model(n, queens=" in out
    code, other, _ = run_cli(
        capsys, "grade", "--variant", SEED, "--show-instance", "s1002", "--n", "4..6"
    )
    assert code == 0 and other != out
    code, _, err = run_cli(capsys, "grade", "--show-instance", "s1001")
    assert code == 2 and "--show-instance needs --variant" in err


def test_with_a_roster_the_board_comes_from_the_roster_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ada_lovelace.py`` on a roster line ``201, Lovelace, Ada``: graded on student 201's
    boards, the ones ``--show-instance 201`` prints."""
    roster = tmp_path / "roster.csv"
    roster.write_text('Student,ID\n"Lovelace, Ada",201\n"Turing, Alan",202\n', "utf-8")
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ada_lovelace.py").write_text(COMPLETIONS, encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run_cli(
        capsys, "grade", str(folder), "--variant", SEED, "--roster", str(roster),
        "--n", "6..7", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    [text] = [p.read_text("utf-8") for p in (out / "feedback").glob("*.md") if "Lovelace" in p.name]
    assert Variant(SEED).instance("solutions", "201", 7).describe() in text
    assert "Points: 6 of 6" in text  # n = 6, 7 handed out, n = 8 hidden


#: A right model for the variant of the domination task, by brute force (small boards).
GUARDS = """
from itertools import combinations


def model(n, blocked=()):
    holes = {tuple(square) for square in blocked}
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in holes]

    def sees(queen):
        seen = {queen}
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, c = queen[0] + dr, queen[1] + dc
                while (dr or dc) and 0 <= r < n and 0 <= c < n and (r, c) not in holes:
                    seen.add((r, c))
                    r, c = r + dr, c + dc
        return seen

    for k in range(1, len(free) + 1):
        for chosen in combinations(free, k):
            if set().union(*(sees(q) for q in chosen)) >= set(free):
                return [list(q) for q in chosen]
"""


@pytest.mark.slow
def test_the_domination_variant_through_the_grader(tmp_path: Path) -> None:
    """The sample class's best submission (12 of 12 on the plain task) scores 0 on its
    boards with holes; a model that searches the board it is given scores them all."""
    variant = Variant(SEED)
    opal = ROOT / "examples" / "assignment" / "dominate" / "opal.py"
    plain = grade_file(opal, range(4, 6), task="dominate", variant=variant)
    assert plain.points == 0
    (tmp_path / "guards.py").write_text(GUARDS, encoding="utf-8")
    right = grade_file(tmp_path / "guards.py", range(4, 6), task="dominate", variant=variant)
    assert right.full_marks, right.statuses()
