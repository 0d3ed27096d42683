"""What a mark means: the judge survives whatever a model returns (that size's verdict says
what came back), and the feedback never contradicts the mark.

Judging is tested in this process on hostile return values (fast); a few runs go through
the grader's runner, where what came back crossed the sandbox's JSON channel first.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cp_queens.grading import tasks
from cp_queens.grading.grade import grade, grade_file
from cp_queens.grading.marking.marks import feedback, reason
from cp_queens.grading.results import StudentResult
from cp_queens.grading.rubric import load
from tests.grading.judged import marked
from tests.hostile import RIGHT

TASKS = ("solutions", "dominate")


class Key(Mapping[Any, Any]):
    """A hashable Mapping: a dict key the grader once could not hash after decoding."""

    def __getitem__(self, key: Any) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[Any]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __hash__(self) -> int:
        return 1


class Hostile:
    """An object whose every dunder raises: repr, iter, len, eq, hash."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __iter__(self) -> Iterator[Any]:
        raise RuntimeError("no iter")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no eq")

    def __hash__(self) -> int:
        raise RuntimeError("no hash")


def raising_generator() -> Iterator[list[int]]:
    yield [0]
    raise ValueError("broken halfway")


STRANGE: list[Any] = [
    [{Key(): 1}],
    {Key(): 1},
    [Hostile()],
    Hostile(),
    [[Hostile(), 0]],
    [float("nan"), 1],
    [[10**100] * 4],
    [[[[[[[0]]]]]]],
    raising_generator,
    [(0, 0), (Hostile(), 1)],
    [b"\x00\x1b[2J"],
]


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("index", range(len(STRANGE)))
def test_the_judge_never_raises_whatever_came_back(task: str, index: int) -> None:
    value = STRANGE[index]
    produced = value() if callable(value) and not isinstance(value, Hostile) else value
    row = tasks.judge(task, 4, produced, tasks.reference(task, 4))
    assert not row.ok
    assert row.verdict() != "ok"
    assert tasks.share(row, load()) < 1


@functools.cache
def expected(task: str, n: int) -> Any:
    """``tasks.reference(task, n)``, once per test process: the grader too computes it once
    per class and judges every submission against it (n = 10: 0.06 s of CPU, asked for
    three times)."""
    return tasks.reference(task, n)


def result_of(task: str, answers: dict[int, Any]) -> StudentResult:
    """A submission's answers judged and marked as the grader does, without running it."""
    return marked(answers, task, expected=expected)


def test_a_count_is_told_it_is_an_int_not_that_all_is_right() -> None:
    result = result_of("solutions", {n: 1 for n in range(1, 6)})
    text = feedback(result)
    assert result.points == 0
    assert "returned 1 (an int), not a collection of solutions" in text
    assert "`1 (an int)`" in text  # the table's row says what came back
    assert "Every board size is right" not in text
    assert "returned 1 (an int)" in reason(result)


def test_a_dominate_matrix_is_told_it_is_a_board_not_squares() -> None:
    def matrix(n: int) -> list[list[int]]:
        board = [[0] * n for _ in range(n)]
        board[0][0] = 1
        return board

    result = result_of("dominate", {n: matrix(n) for n in range(4, 7)})
    text = feedback(result)
    assert result.points == 0
    assert "a 4 x 4 0/1 board, not a list of (row, column) squares" in text
    assert "Every board size is right" not in text
    assert "fewest queens possible." not in text


def test_no_row_that_lost_points_goes_unexplained() -> None:
    """Whatever the answers, the feedback says "every board size is right" only at full
    marks; every size that is not right has its row with what came back (counts, or the
    value shown) and its status, and an error is said in words."""
    answers: list[dict[int, Any]] = [
        {4: [[1, 3, 0, 2]], 5: []},
        {4: [[1, 3, 0, 2], [2, 0, 3, 1], [2, 0, 3, 1]]},
        {4: None, 5: "x"},
        {4: iter([[1, 3, 0, 2], [2, 0, 3, 1]])},
    ]
    for given in answers:
        result = result_of("solutions", given)
        text = feedback(result)
        full = result.points == result.max_points
        assert ("Every board size is right" in text) == full
        for size in result.sizes:
            [line] = [line for line in text.splitlines() if line.startswith(f"| {size.n} |")]
            assert size.status in line
            if size.status == "error":
                assert f"model({size.n}) returned" in text and "`" in line


KEYED = "class Key(__import__('collections.abc').abc.Mapping):\n" + "\n".join(
    [
        "    def __getitem__(self, k): raise KeyError(k)",
        "    def __iter__(self): return iter(())",
        "    def __len__(self): return 0",
        "    def __hash__(self): return 1",
        "",
        "def model(n):",
        "    return [{Key(): 1}]",
        "",
    ]
)


def test_a_hashable_mapping_key_costs_only_its_own_sizes(tmp_path: Path) -> None:
    """Issue 35: ``[{Key(): 1}]`` crashed the grader (no marks.csv for anyone)."""
    (tmp_path / "keyed.py").write_text(KEYED, encoding="utf-8")
    (tmp_path / "right.py").write_text(RIGHT, encoding="utf-8")
    results = {r.student: r for r in grade(tmp_path, [1, 4])}
    assert results["right"].full_marks
    keyed = results["keyed"]
    assert keyed.points == 0
    assert keyed.statuses() == ["1 missing, 1 invalid", "2 missing, 1 invalid"]
    assert "expected the keys 0..0" in feedback(keyed)
    dominate = grade_file(tmp_path / "keyed.py", [4], task="dominate")
    assert dominate.points == 0 and dominate.statuses() == ["error"]
    assert "is not a (row, column) pair" in feedback(dominate)


# -- points exact until shown ---------------------------------------------------------------


def test_one_missing_solution_of_724_is_not_full_marks() -> None:
    """Issue 36: rounded per size, 723 of 724 (n = 10) scored 2 of 2 points."""
    truth = expected("solutions", 10)
    result = result_of("solutions", {10: truth[1:]})
    assert result.points < result.max_points == 2 and not result.full_marks
    text = feedback(result)
    assert "**Points: 1.99 of 2.**" in text and "| 1.99 of 2 |" in text
    right = result_of("solutions", {10: truth})
    assert right.full_marks and right.points == 2


def test_shares_add_up_exactly() -> None:
    """Thirds of a size add up to the whole, not to 0.9999; only the display rounds."""
    from cp_queens.grading.points import exact, shown

    row = tasks.judge("solutions", 4, [[1, 3, 0, 2], [2, 0, 3, 1], [2, 0, 3, 1]], queens4())
    share = tasks.share(row, load())
    assert share * 3 == 2 and shown(share) == "0.67" and shown(exact(0.1) * 3) == "0.3"


def queens4() -> list[tuple[int, ...]]:
    return tasks.reference("solutions", 4)


#: A right model but for one solution dropped at n = 10. A bitmask backtracker: the
#: room's run takes 0.01 s of CPU at n = 10 (the list-scanning one took 0.25 s).
MISSING_ONE_AT_10 = """
def model(n):
    found = []
    every = (1 << n) - 1
    def place(q, columns, left, right):
        if len(q) == n:
            found.append(q)
            return
        free = every & ~(columns | left | right)
        while free:
            bit = free & -free
            free ^= bit
            place(q + [bit.bit_length() - 1], columns | bit, (left | bit) << 1, (right | bit) >> 1)
    place([], 0, 0, 0)
    return found[1:] if n == 10 else found
"""


def test_grade_file_exits_1_for_one_missing_of_724(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.helpers import run_cli

    path = tmp_path / "almost.py"
    path.write_text(MISSING_ONE_AT_10, encoding="utf-8")
    code, out, _ = run_cli(capsys, "grade", str(path), "--n", "10")
    assert code == 1
    assert "**Points: 1.99 of 2.**" in out and "1 missing" in out


# -- overrides: points, of a maximum, or a correction ---------------------------------------


def test_an_override_may_be_a_correction(tmp_path: Path) -> None:
    from cp_queens.grading.marking.overrides import apply_overrides, read_overrides

    result = result_of("solutions", {4: queens4(), 5: tasks.reference("solutions", 5)[2:]})
    result = replace(result, student="eve")
    path = tmp_path / "overrides.csv"
    path.write_text("student,points,reason\neve,-0.5,helper copied from lesson 02\n")
    computed = result.computed_points
    [result], _ = apply_overrides([result], read_overrides(path), str(path))
    assert result.points == computed - exact_half()
    assert "The lecturer's correction (-0.5): helper copied" in feedback(result)


def exact_half() -> Fraction:
    return Fraction(1, 2)


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ("12/15", "decided against a maximum of 15; this rubric gives 4: decide again"),
        ("5", "5 points is more than the maximum 4"),
        ("-5", "-5 takes the computed 3 points below 0"),
        ("+2", "5 points (3 +2) is more than the maximum 4"),
    ],
)
def test_a_decision_that_no_longer_fits_the_rubric_is_flagged(
    tmp_path: Path, points: str, message: str
) -> None:
    from cp_queens.grading.marking.marks import reason
    from cp_queens.grading.marking.overrides import apply_overrides, read_overrides

    result = result_of("solutions", {4: queens4(), 5: tasks.reference("solutions", 5)[:5]})
    result = replace(result, student="eve")
    assert result.computed_points == 3 and result.max_points == 4
    path = tmp_path / "overrides.csv"
    path.write_text(f"student,points,reason\neve,{points},why\n")
    [result], refused = apply_overrides([result], read_overrides(path), str(path))
    assert len(refused) == 1 and refused[0].startswith(f"{path}: eve: ")
    assert message in refused[0]
    # not applied, and the class keeps its marks: the row says so
    assert result.override is None and result.points == 3
    assert message in reason(result)
