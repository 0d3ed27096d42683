"""What a mark means: the judge survives whatever a model returns (that size's verdict says
what came back), and the feedback never contradicts the mark.

Judging is tested in this process on hostile return values (fast); a few runs go through
the grader's runner, where what came back crossed the sandbox's JSON channel first.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from cp_queens.grading import tasks
from cp_queens.grading.grade import SizeResult, StudentResult, grade, grade_file
from cp_queens.grading.marks import feedback, reason
from cp_queens.grading.rubric import load

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


def result_of(task: str, answers: dict[int, Any]) -> StudentResult:
    """A submission's answers judged and marked as the grader does, without running it."""
    rubric = load().for_task(task)
    result = StudentResult("student", Path("student.py"), task=task)
    for n, produced in answers.items():
        row = tasks.judge(task, n, produced, tasks.reference(task, n))
        worth = rubric.points_for(n)
        status = "error" if row.error is not None else row.verdict()
        result.sizes.append(SizeResult(n, status, tasks.points(row, worth, rubric), worth, row))
    return result


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

RIGHT = """
def model(n):
    def place(q):
        if len(q) == n:
            yield list(q)
            return
        for c in range(n):
            if all(c != d and abs(c - d) != len(q) - r for r, d in enumerate(q)):
                yield from place(q + [c])
    return list(place([]))
"""


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
