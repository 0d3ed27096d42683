"""Marks a lecturer can defend: partial credit that tells mistakes apart, overrides with a
reason, marks.csv that says by which rubric, the ``dominate`` task marked by quality, and a
student's own check (``cp-queens grade FILE``, ``check_model``) that is the grader.

The scoring and the feedback are tested in this process on judged rows (fast); the runs
through the grader's runner are few and small, and the whole example classes are slow.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import replace
from itertools import permutations
from pathlib import Path

import pytest

from cp_queens.dominate.check import smallest_dominating_set
from cp_queens.grading import tasks
from cp_queens.grading.grade import grade, grade_file
from cp_queens.grading.marking.marks import feedback, reason, write_feedback, write_marks
from cp_queens.grading.marking.overrides import OverrideError, apply_overrides, read_overrides
from cp_queens.grading.results import SizeResult, StudentResult
from cp_queens.grading.rubric import RubricError, load
from cp_queens.grading.tasks.dominate import DOMINATION_NUMBERS, DominateRow
from tests.grading.judged import marked as marked_as
from tests.helpers import ROOT, refusal, run_cli

ASSIGNMENT = ROOT / "examples" / "assignment"


def queens(n: int) -> list[tuple[int, ...]]:
    return tasks.reference("solutions", n)


def no_diagonal(n: int) -> list[list[int]]:
    return [list(q) for q in permutations(range(n))]


def one_diagonal(n: int) -> list[list[int]]:  # checks q[r] + r, forgets q[r] - r
    return [list(q) for q in permutations(range(n)) if len({c + r for r, c in enumerate(q)}) == n]


def one_based(n: int) -> list[list[int]]:
    return [[c + 1 for c in q] for q in queens(n)]


def marked(model, sizes=range(1, 8), rubric=None) -> StudentResult:  # type: ignore[no-untyped-def]
    """``model`` judged and marked as the grader does, without running it apart."""
    answers = {n: model(n) for n in sizes}
    return marked_as(answers, rubric=rubric, expected=lambda _, n: queens(n))


@functools.cache
def marked_once(model) -> StudentResult:  # type: ignore[no-untyped-def]
    """``marked(model)`` judged once per test process, for the tests that only read it:
    ``no_diagonal`` returns 5,913 boards for n = 1..7 (0.1 s of CPU to judge)."""
    return marked(model)


# -- partial credit that tells mistakes apart ------------------------------------------------


def test_no_diagonal_marks_below_one_forgotten_below_a_right_model() -> None:
    right = marked(lambda n: queens(n))
    forgot_one = marked_once(one_diagonal)
    forgot_both = marked_once(no_diagonal)
    assert right.points == right.max_points == 11
    assert 0 < forgot_both.points < forgot_one.points < right.points
    # size by size too, wherever the two mistakes return different boards
    for both, one in zip(forgot_both.sizes[3:], forgot_one.sizes[3:], strict=True):
        assert both.points < one.points


def test_a_few_wrong_boards_cost_a_little_and_thousands_nearly_all() -> None:
    rubric = load()
    row = tasks.judge("solutions", 8, [*queens(8), [0] * 8], queens(8))
    assert tasks.share(row, rubric) == pytest.approx(92 / 93, abs=1e-4)
    row = marked_once(no_diagonal).sizes[6].row  # judged as tasks.judge judges n = 7
    assert row is not None and row.returned == 5040
    assert tasks.share(row, rubric) == pytest.approx(40 / 5040, abs=1e-4)
    half = tasks.judge("solutions", 8, queens(8)[:46], queens(8))
    assert tasks.share(half, rubric) == 0.5
    twice = tasks.judge("solutions", 8, queens(8) * 2, queens(8))
    assert tasks.share(twice, rubric) == 0.5


@pytest.mark.parametrize(("scheme", "expected"), [("penalties", 0.5), ("exact", 0.0)])
def test_the_other_schemes(tmp_path: Path, scheme: str, expected: float) -> None:
    path = tmp_path / "rubric.toml"
    path.write_text(f'[credit]\nscheme = "{scheme}"\n', encoding="utf-8")
    rubric = load(path)
    row = tasks.judge("solutions", 6, no_diagonal(6), queens(6))  # all found, 716 invalid
    assert tasks.share(row, rubric) == expected
    right = tasks.judge("solutions", 6, queens(6), queens(6))
    assert tasks.share(right, rubric) == 1.0


def test_a_rubric_has_a_name_and_a_digest_of_every_value(tmp_path: Path) -> None:
    default = load()
    assert (default.name, default.task, default.scheme) == ("default", "solutions", "shares")
    assert len(default.digest) == 12 and load().digest == default.digest
    path = tmp_path / "week3.toml"
    path.write_text("[limits]\ncpu_seconds = 5\n", encoding="utf-8")
    assert load(path).name == "week3"
    assert load(path).digest == default.digest  # the same values: the same digest
    path.write_text('name = "week 3"\n[limits]\ncpu_seconds = 6\n', encoding="utf-8")
    assert load(path).name == "week 3" and load(path).digest != default.digest
    assert default.for_task("dominate").digest != default.digest


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('task = "count"\n', "task: one of dominate, solutions"),
        ('[credit]\nscheme = "generous"\n', "credit.scheme: one of shares"),
        ("[credit]\nbonus = 1\n", "credit.bonus: unknown"),
        ("[dominate]\nabove_minimum = []\n", "dominate.above_minimum: a list"),
        ("[dominate]\nabove_minimum = [1, 2]\n", "above_minimum[1]: must be 0..1"),
        ("name = 3\n", "name: a line of text"),
    ],
)
def test_a_wrong_judging_key_is_one_clear_line(tmp_path: Path, text: str, message: str) -> None:
    assert message in refusal(tmp_path / "rubric.toml", text, load, RubricError)


# -- feedback: the patterns, the drawings' letters -------------------------------------------


def test_the_feedback_names_each_diagonal_mistake() -> None:
    both = feedback(marked_once(no_diagonal))
    assert "all 6 permutations of the columns: no diagonal is checked" in both
    one = feedback(marked_once(one_diagonal))
    assert "going down to the right (q[i] - i == q[j] - j)" in one
    assert "permutations" not in one
    # X is explained under the first drawing that has one
    assert "X = one of two queens that attack each other" in one


def test_the_one_based_hint_waits_for_a_board_that_shows_it() -> None:
    text = feedback(marked(one_based))
    assert "hint (n=4): every invalid board becomes a solution" in text
    assert "they run 0..0" not in text and "hint (n=1)" not in text


# -- overrides -------------------------------------------------------------------------------


def test_an_override_shows_in_marks_csv_and_the_feedback(tmp_path: Path) -> None:
    eve = replace(marked(one_based), student="eve")
    ada = replace(marked(lambda n: queens(n)), student="ada")
    decisions = tmp_path / "overrides.csv"
    decisions.write_text(
        'student,points,reason\neve,10,"right model, columns from 1: one point off"\n',
        encoding="utf-8",
    )
    [ada, eve], _ = apply_overrides([ada, eve], read_overrides(decisions))
    assert (eve.points, eve.computed_points) == (10, 2)
    write_marks([ada, eve], tmp_path / "marks.csv", load())
    with (tmp_path / "marks.csv").open(encoding="utf-8") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert rows["eve"]["points"] == "10" and rows["eve"]["computed"] == "2"
    assert rows["eve"]["reason"] == "override: right model, columns from 1: one point off"
    assert rows["ada"]["reason"] == "" and rows["ada"]["rubric"] == "default"
    assert rows["ada"]["rubric_sha256"] == load().digest
    assert list(rows["ada"])[-7:] == [f"n={n}" for n in range(1, 8)]
    text = feedback(eve)
    assert "**Points: 10 of 11.** The lecturer's decision: right model, columns from 1" in text
    assert "(the rubric gave 2)" in text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,points,reason\n", "line 1: the header must be student,points,reason"),
        ("student,points,reason\neve,twelve,why\n", "line 2: points must be a number"),
        ("student,points,reason\neve,-x,why\n", "line 2: points must be a number >= 0"),
        ("student,points,reason\neve,12/0,why\n", "or a correction (-3, +1.5), got '12/0'"),
        ("student,points,reason\neve,-3/13,why\n", "line 2: points must be"),
        ("student,points,reason\neve,--1,why\n", "line 2: points must be"),
        ("student,points,reason\neve,12,\n", "line 2: eve: an override needs a reason"),
        ("student,points,reason\neve,12,a,b\n", "line 2: 4 fields"),
        ("student,points,reason\neve,1,a\neve,2,b\n", "line 3: eve is overridden twice"),
    ],
)
def test_a_wrong_overrides_file_is_one_clear_line(tmp_path: Path, text: str, message: str) -> None:
    assert message in refusal(tmp_path / "overrides.csv", text, read_overrides, OverrideError)


def test_an_override_for_nobody_or_above_the_maximum_is_not_applied(tmp_path: Path) -> None:
    """Told after the class ran, a decision that cannot stand is a warning and a flagged
    row: the class keeps its computed marks (``read_for_class`` refuses these before a
    class runs; see test_cli_grade_overrides_are_checked_before_the_class_runs)."""
    eve = replace(marked(one_based), student="eve")
    computed = eve.points
    path = tmp_path / "overrides.csv"
    path.write_text("student,points,reason\nevee,12,typo\n", encoding="utf-8")
    [eve], refused = apply_overrides([eve], read_overrides(path))
    assert len(refused) == 1 and "evee: no such student" in refused[0]
    assert eve.override is None and eve.points == computed
    path.write_text("student,points,reason\neve,120,typo\n", encoding="utf-8")
    [eve], refused = apply_overrides([eve], read_overrides(path))
    assert len(refused) == 1 and "120 points is more than the maximum 11" in refused[0]
    assert eve.override is None and eve.points == computed
    assert reason(eve).startswith("override 120 not applied: 120 points is more than")


def test_grading_again_into_a_folder_leaves_no_stale_feedback(tmp_path: Path) -> None:
    first = replace(marked(one_based), student="old")
    second = replace(marked(lambda n: queens(n)), student="new")
    write_feedback([first, second], tmp_path / "feedback")
    write_feedback([second], tmp_path / "feedback")
    assert sorted(p.name for p in (tmp_path / "feedback").glob("*.md")) == ["new.md"]


# -- the dominate task -----------------------------------------------------------------------


def test_the_grader_s_minima_are_the_brute_force_s() -> None:
    for n in range(1, 6):
        assert DOMINATION_NUMBERS[n - 1] == len(smallest_dominating_set(n))


def test_a_dominating_set_is_marked_by_how_many_queens_above_the_minimum() -> None:
    rubric = load().for_task("dominate")

    def judged(n: int, squares: object) -> DominateRow:
        row = tasks.judge("dominate", n, squares, tasks.reference("dominate", n))
        assert isinstance(row, DominateRow)
        return row

    optimum = list(smallest_dominating_set(5))
    assert tasks.share(judged(5, optimum), rubric) == 1.0
    assert tasks.share(judged(5, [*optimum, (4, 4)]), rubric) == 0.5
    assert tasks.share(judged(5, [*optimum, (4, 4), (4, 3)]), rubric) == 0.25
    assert tasks.share(judged(5, [*optimum, (4, 4), (4, 3), (4, 2)]), rubric) == 0.0
    corner = judged(4, [(0, 0)])
    assert tasks.share(corner, rubric) == 0.0 and corner.verdict() == "not dominating"
    assert corner.reason.startswith("square (1, 2) (row 1, column 2) is neither occupied")
    assert corner.board == "Q . . .\n. . ! !\n. ! . !\n. ! ! ."
    for junk, words in [
        (None, "returned None"),
        ([(0, 0, 1)], "is not a (row, column) pair"),
        ([("a", 1)], "is not a (row, column) pair"),
        (7, "not a list of (row, column) squares"),
    ]:
        row = judged(4, junk)
        assert row.error is not None and words in row.error
        assert tasks.share(row, rubric) == 0.0
    off = judged(4, [(0, 0), (2, 2), (4, 4)])
    assert off.verdict() == "invalid" and "off the 4 x 4 board" in off.reason


def test_the_dominate_feedback_names_an_undominated_square_and_explains_the_marks() -> None:
    rubric = load().for_task("dominate")
    sizes = []
    for n in (4, 5):
        row = tasks.judge("dominate", n, [(0, 0)], tasks.reference("dominate", n))
        sizes.append(SizeResult(n, row.verdict(), tasks.points(row, 2, rubric), 2, row))
    result = StudentResult("cora", Path("cora.py"), tuple(sizes), task="dominate")
    text = feedback(result, rubric)
    assert "| 4 | 2 | 1 | not dominating | 0 of 2 |" in text
    assert "n=4: square (1, 2) (row 1, column 2) is neither occupied nor attacked" in text
    assert "! = a square no queen occupies or attacks" in text
    assert reason(result).startswith("n=4: square (1, 2) (row 1, column 2) is neither")


# -- through the grader's runner -------------------------------------------------------------

RIGHT = ASSIGNMENT / "submissions" / "ada.py"


def test_grade_file_exits_0_on_full_marks_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "grade", str(RIGHT), "--n", "1..6")
    assert code == 0
    assert out.startswith("# Feedback for ada") and "**Points: 9 of 9.**" in out
    wrong = ASSIGNMENT / "submissions" / "eve.py"
    code, out, _ = run_cli(capsys, "grade", str(wrong), "--n", "1..6", "--out", str(tmp_path))
    assert code == 1 and "count from 1" in out
    assert (tmp_path / "feedback" / "eve.md").read_text(encoding="utf-8") == out
    code, _, err = run_cli(capsys, "grade", str(RIGHT), "--overrides", "x.csv")
    assert code == 2 and "--overrides: for a class" in err


def test_a_syntax_error_is_reported_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "typo.py"
    path.write_text(
        "def model(n):\n    x = 1\n    return [[0]] if n = 1 else []\n", encoding="utf-8"
    )
    result = grade_file(path, [1])
    assert any("SyntaxError" in note and "(line 3)" in note for note in result.notes)


@pytest.mark.slow
def test_the_dominate_class_is_marked_by_quality(tmp_path: Path) -> None:
    results = {r.student: r for r in grade(ASSIGNMENT / "dominate", range(4, 10), task="dominate")}
    assert {name: r.points for name, r in results.items()} == {"opal": 12, "gail": 9, "cora": 0}
    assert results["gail"].statuses() == [
        "ok", "ok", "1 above the minimum", "1 above the minimum", "ok", "1 above the minimum",
    ]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("folder", ["submissions", "dominate"])
def test_grade_file_agrees_with_the_class_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], folder: str
) -> None:
    """The issue's acceptance, from the command line: the class graded with ``--n 1..8``
    (an override for the 1-based model), the dominate class with ``--n 4..9``; then for
    every sample submission, ``cp-queens grade FILE`` exits 0 exactly when the folder run
    gives it full marks, with the same points."""
    task, sizes = ("dominate", "4..9") if folder == "dominate" else ("solutions", "1..8")
    out = tmp_path / "class"
    decisions = tmp_path / "decisions.csv"
    decisions.write_text(
        "student,points,reason\neve,12,right model with 1-based columns\n", encoding="utf-8"
    )
    extra = ["--overrides", str(decisions)] if folder == "submissions" else []
    code, _, err = run_cli(
        capsys, "grade", str(ASSIGNMENT / folder), "--task", task, "--n", sizes, "--out", str(out),
        *extra,
    )  # fmt: skip
    assert code == 0, err
    rows = {row["student"]: row for row in csv.DictReader((out / "marks.csv").open())}
    points = {name: float(row["points"]) for name, row in rows.items()}
    if folder == "submissions":
        assert points["ada"] == 13
        assert points["lou"] < points["max"] < points["ada"]  # no diagonal < one forgotten
        assert rows["eve"]["points"] == "12" and rows["eve"]["computed"] == "2"
        assert rows["eve"]["reason"] == "override: right model with 1-based columns"
    else:
        assert points == {"opal": 12, "gail": 9, "cora": 0}
    for name, row in rows.items():
        [path] = [p for p in (ASSIGNMENT / folder).iterdir() if p.stem == name]
        code, printed, err = run_cli(capsys, "grade", str(path), "--task", task, "--n", sizes)
        assert code == (0 if row["computed"] == row["max"] else 1), (name, err)
        assert f"**Points: {row['computed']} of {row['max']}.**" in printed, name


# -- check_model: the grader's verdict -------------------------------------------------------

STUDENT_SCRIPT = """
import os
from itertools import permutations

from cp_queens.course import check_model

SIZES = (1, 2, 3)


def safe(q, i, j):
    return abs(q[i] - q[j]) != i - j


def model(n):
    found = permutations(range(n))
    return [list(q) for q in found if all(safe(q, i, j) for i in range(n) for j in range(i))]


def forks(n):
    os.fork()
    return model(n)


for function in (model, forks):
    report = check_model(function, n_max=5)
    print(function.__name__, bool(report), report.summary())
"""


def check_lines(printed: str) -> None:
    """What STUDENT_SCRIPT prints: the right model passes, the forking one gets 0."""
    lines = printed.splitlines()
    assert lines[0].startswith("model True OK: model finds every solution exactly once")
    # a function rebuilt from the script is not the file handed in: the mark says so
    assert lines[0].endswith(
        "7 of 7 points, for model rebuilt from this script (the grader marks the file you hand in)"
    )
    assert lines[1].startswith("forks False WRONG") and "0 of 7 points" in lines[1]


def test_check_model_in_a_script_run_here_gives_the_grader_s_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The default run's twin of the test below: the script run in this process as
    ``__main__`` (``runpy``, as ``python mine.py`` runs it, its functions of module
    ``__main__``), without a fresh interpreter's 0.4 s of start-up. Its models still go
    to the grader's rooms; ``forks`` never runs here."""
    import runpy

    script = tmp_path / "mine.py"
    script.write_text(STUDENT_SCRIPT, encoding="utf-8")
    runpy.run_path(str(script), run_name="__main__")
    check_lines(capsys.readouterr().out)


@pytest.mark.slow
def test_check_model_in_a_script_gives_the_grader_s_verdict(tmp_path: Path) -> None:
    """A model that starts a process passes a check in the student's own process and
    gets 0 from the grader; check_model of a script's (or notebook's) model says so.
    Slow: the real script, in its own interpreter; the default run runs it with runpy."""
    import subprocess
    import sys

    script = tmp_path / "mine.py"
    script.write_text(STUDENT_SCRIPT, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    check_lines(done.stdout)


def test_a_model_is_rebuilt_as_a_file_with_what_it_uses(tmp_path: Path) -> None:
    import runpy

    from cp_queens.grading.as_graded import NotRebuilt, submission_source

    script = tmp_path / "mine.py"
    script.write_text(STUDENT_SCRIPT.split("for function")[0], encoding="utf-8")
    namespace = runpy.run_path(str(script), run_name="__main__")
    source = submission_source(namespace["forks"])  # type: ignore[arg-type]
    assert "import os" in source and "from itertools import permutations" in source
    assert "def safe(" in source and "def model(" in source and "SIZES" not in source
    assert source.rstrip().endswith("model = forks")
    with pytest.raises(NotRebuilt, match="lambda"):
        submission_source(lambda n: [])


@pytest.mark.parametrize(
    ("line", "message"),
    [("evee,12,typo", "evee: no such student"), ("eve,14,why", "14 points is more than")],
)
def test_a_wrong_override_stops_the_run_before_any_submission_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    decisions = tmp_path / "overrides.csv"
    decisions.write_text(f"student,points,reason\n{line}\n", encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run_cli(
        capsys, "grade", str(ASSIGNMENT / "submissions"), "--n", "1..8",
        "--overrides", str(decisions), "--out", str(out),
    )  # fmt: skip
    assert code == 2 and message in err and "\n" not in err.strip()
    assert not (out / "marks.csv").exists()
