"""What a graded task asks of ``model(n)``, how an answer is judged, and what it earns.

Two tasks. ``solutions``: every solution of the n-queens problem, each once,
judged by ``cp_queens.grading.tasks.solutions.judge`` against the reference engine. ``dominate``:
the squares of as few queens as possible that occupy or attack every square
(lesson 11), judged by the independent checker ``cp_queens.dominate.check``
and marked by quality, as Coursera's Discrete Optimization grades: full
points at the known minimum, a share of them for each queen above it (the
rubric's ``above_minimum``), none for a set that leaves a square undominated.

Why the share of a ``solutions`` size is ``found x exact`` by default: a mark
must tell mistakes apart. A model that checks no diagonal returns every
permutation (40,320 boards for n = 8, 92 of them right); one that forgets
one diagonal returns 2,113; a right model returns 92. All three *find* every
solution, so marking by what was found (minus a flat penalty for "something
invalid") gave the first two the same mark. ``exact``, the share of what was
returned that is right, orders them as a teacher would, and a model that
returns one stray board among 92 loses about 1 %, not half.

Examples:
    >>> from cp_queens.grading.rubric import load
    >>> rubric = load()
    >>> answer = [[1, 3, 0, 2], [2, 0, 3, 1], [2, 0, 3, 1]]
    >>> row = judge("solutions", 4, answer, reference("solutions", 4))
    >>> row.verdict(), share(row, rubric)
    ('1 duplicate', Fraction(2, 3))
    >>> row = judge("dominate", 4, [(0, 0), (2, 2)], reference("dominate", 4))
    >>> row.verdict(), share(row, rubric)
    ('ok', Fraction(1, 1))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import cp_queens.grading.tasks.variants as variants
from cp_queens.dominate.check import attacks, dominates
from cp_queens.grading.points import exact
from cp_queens.grading.tasks.solutions.answers import UnusableOutput, describe, is_int, shown
from cp_queens.grading.tasks.solutions.judge import CheckRow, reference_solutions
from cp_queens.grading.tasks.solutions.judge import judge as judge_solutions
from cp_queens.grading.tasks.variants import Instance
from cp_queens.problem import Problem

if TYPE_CHECKING:
    from cp_queens.grading.rubric import Rubric

#: OEIS A075458: the fewest queens that dominate the n x n board, n = 1..25. The grader's
#: thresholds only: every answer is judged by the checker, never by this table, and the
#: tests hold the table's small values to the brute force of ``cp_queens.dominate.check``.
DOMINATION_NUMBERS = (
    1,
    1,
    1,
    2,
    3,
    3,
    4,
    5,
    5,
    5,
    5,
    6,
    7,
    8,
    9,
    9,
    9,
    9,
    10,
    11,
    11,
    12,
    12,
    13,
    13,
)

#: The largest board graded, per task: ``solutions`` lists every solution of each size once
#: per class (n = 12: 14,200, about a second); ``dominate`` reaches as far as the table.
LARGEST = {"solutions": 12, "dominate": len(DOMINATION_NUMBERS)}

#: One part of a list of board sizes: ``8`` or ``4..9`` (ASCII digits, a few of them: no
#: board graded has more than two).
_SIZES = re.compile(r"(?P<low>[0-9]{1,6})(?:\.\.(?P<high>[0-9]{1,6}))?")


def parse_sizes(text: str, task: str = "solutions") -> list[int]:
    """The board sizes to grade from ``"1..9"``, ``"8"`` or ``"4,6,8"`` (ranges
    inclusive), sorted, each from 1 to the task's largest (``LARGEST``): the grader's own
    reading, with its own bounds, not a comparison's.

    Examples:
        >>> parse_sizes("4..6, 9")
        [4, 5, 6, 9]
        >>> parse_sizes("1..20")
        Traceback (most recent call last):
        ...
        cp_queens.grading.results.GradeError: board size 20: the grader takes 1..12 for task solutions
    """  # noqa: E501
    from cp_queens.grading.results import GradeError

    largest = LARGEST[task]
    sizes: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        match = _SIZES.fullmatch(part)
        if match is None:
            raise GradeError(
                f"cannot read {_short(part)} in {_short(text)} (expected e.g. 1..9 or 4,6,8)"
            )
        low = int(match["low"])
        high = low if match["high"] is None else int(match["high"])
        if high < low:
            raise GradeError(f"{_short(part)} is an empty range (the end is below the start)")
        for n in (low, high):
            if not 1 <= n <= largest:
                raise GradeError(f"board size {n}: the grader takes 1..{largest} for task {task}")
        sizes.update(range(low, high + 1))
    return sorted(sizes)


def _short(text: str) -> str:
    """``text`` for a one-line message: quoted, cut after 20 characters."""
    return repr(text) if len(text) <= 24 else f"{text[:20]!r}..."


#: A dominate answer longer than this is refused unread: n x n squares at most are useful.
MOST_SQUARES = 25 * 25


@dataclass(slots=True)
class DominateRow:
    """What ``model(n)`` returned for one size of the ``dominate`` task, judged."""

    n: int
    minimum: int  # the fewest queens that dominate the board (A075458)
    queens: int = 0  # how many squares were returned
    valid: bool = False  # every square dominated, every queen on the board, none twice
    reason: str = ""  # why not valid: the checker's words
    uncovered: tuple[tuple[int, int], ...] = ()  # squares neither occupied nor attacked
    board: str | None = None  # the answer drawn, the undominated squares marked
    error: str | None = None  # model(n) raised or returned something unusable
    came_back: str = ""  # what model(n) returned, shown, when it was not squares at all
    seconds: float = 0.0

    @property
    def expected(self) -> int:  # the feedback's "best" column, like CheckRow.expected
        return self.minimum

    @property
    def ok(self) -> bool:
        return self.error is None and self.valid and self.queens <= self.minimum

    def verdict(self) -> str:
        if self.error is not None:
            return "error"
        if not self.valid:
            return "not dominating" if self.uncovered else "invalid"
        if self.queens <= self.minimum:
            return "ok"
        extra = self.queens - self.minimum
        return f"{extra} above the minimum"


Row = CheckRow | DominateRow


class Completions(list[tuple[int, ...]]):
    """The solutions of one student's board (``--variant``), with its ``Problem``: the
    judge checks given queens and blocked squares by it, and names a broken one."""

    problem: Problem


class Minimum(int):
    """The fewest queens that guard one student's board with holes (``--variant``)."""

    holes: frozenset[tuple[int, int]]


def reference(task: str, n: int, instance: Instance | None = None) -> Any:
    """What an answer of size ``n`` is judged against: the solutions, or the minimum; of
    the student's own ``instance`` under ``--variant`` (computed here, never stored)."""
    if instance is not None and task == "dominate":
        minimum = Minimum(variants.minimum_dominating(n, instance.blocked))
        minimum.holes = frozenset(instance.blocked)
        return minimum
    if instance is not None:
        import cp_queens

        problem = instance.problem()
        found = Completions(tuple(p) for p in cp_queens.solutions(problem, engine="reference"))
        found.problem = problem
        return found
    if task == "dominate":
        return DOMINATION_NUMBERS[n - 1]
    return reference_solutions(n)


def judge(task: str, n: int, produced: Any, expected: Any) -> Row:
    """What ``model(n)`` returned, judged for ``task``; never raises: whatever came back,
    a failure to judge it is that size's verdict (an error row saying what came back), so
    one strange answer never costs the class its marks."""
    try:
        if task == "dominate":
            return judge_dominate(n, produced, expected)
        return judge_solutions(n, produced, expected, "model")
    except Exception as error:  # the judge's own limits must not become the class's
        row = error_row(
            task,
            n,
            expected,
            f"model({n}) returned {shown(produced)}, which the grader could not judge "
            f"({describe(error)}): return plain lists of whole numbers",
        )
        row.came_back = shown(produced, 24)
        return row


def error_row(task: str, n: int, expected: Any, problem: str) -> Row:
    """The row of a size that raised, hit a limit or never answered."""
    if task == "dominate":
        return DominateRow(n, expected, error=problem)
    return CheckRow(n, len(expected), error=problem)


def judge_dominate(n: int, produced: Any, minimum: int) -> DominateRow:
    """A set of ``(row, column)`` squares checked by ``cp_queens.dominate.check.dominates``;
    when a square is left undominated, all such squares are found and drawn."""
    row = DominateRow(n, minimum)
    try:
        squares = _squares(n, produced)
    except UnusableOutput as error:
        row.error = str(error)
        row.came_back = shown(produced, 24)
        return row
    row.queens = len(squares)
    holes = getattr(minimum, "holes", None)
    if holes is not None:  # one student's board with holes (--variant)
        row.reason, left = variants.check_holes(n, squares, holes)
        row.valid, row.uncovered = not row.reason, tuple(left)
        if left:
            row.board = draw_domination(n, squares, left, holes)
        return row
    verdict = dominates(n, squares)
    row.valid, row.reason = verdict.ok, verdict.reason
    if not verdict.ok and "neither occupied nor attacked" in verdict.reason:
        on_board = [square for square in squares if 0 <= square[0] < n and 0 <= square[1] < n]
        row.uncovered = tuple(
            (r, c)
            for r in range(n)
            for c in range(n)
            if not any(attacks(queen, (r, c)) for queen in on_board)
        )
        row.board = draw_domination(n, on_board, row.uncovered)
        first = row.uncovered[0]
        row.reason = (
            f"square {first} (row {first[0]}, column {first[1]}) is neither occupied nor "
            f"attacked; {len(row.uncovered)} square{'s' if len(row.uncovered) > 1 else ''} "
            "in all are not dominated"
        )
    return row


def _squares(n: int, produced: Any) -> list[tuple[int, int]]:
    if produced is None:
        raise UnusableOutput(
            f"model({n}) returned None: it must return the squares of the queens, "
            "e.g. [(0, 0), (2, 2)]"
        )
    if isinstance(produced, str | bytes | int | float | Mapping) or not isinstance(
        produced, Iterable
    ):
        raise UnusableOutput(
            f"model({n}) returned {shown(produced)}, not a list of (row, column) squares"
        )
    if _is_board(produced, n):
        raise UnusableOutput(
            f"model({n}) returned {shown(produced)}, a {n} x {n} 0/1 board, not a list of "
            "(row, column) squares: return [(r, c) for r in range(n) for c in range(n) "
            "if board[r][c]]"
        )
    squares = []
    try:
        for index, item in enumerate(produced):
            if index >= MOST_SQUARES:
                raise UnusableOutput(f"model({n}) returned more than {MOST_SQUARES} squares")
            pair = list(item) if isinstance(item, list | tuple) else None
            if pair is None or len(pair) != 2 or not all(is_int(v) for v in pair):
                raise UnusableOutput(
                    f"model({n}) returned {shown(produced)}: item {index + 1}, {shown(item)}, "
                    "is not a (row, column) pair of whole numbers"
                )
            squares.append((int(pair[0]), int(pair[1])))
    except UnusableOutput:
        raise
    except Exception as error:  # a generator of the student's that raised while read
        raise UnusableOutput(f"model({n}) could not be read: {describe(error)}") from None
    return squares


def _is_board(produced: Any, n: int) -> bool:
    """An ``n x n`` grid of 0s and 1s (or booleans): the formulation's variables, not the
    squares of the queens (n >= 3: for n = 2, [[0, 1], [1, 0]] may be two squares)."""
    if not isinstance(produced, list | tuple) or len(produced) != n or n < 3:
        return False
    return all(
        isinstance(line, list | tuple)
        and len(line) == n
        and all(is_int(v) or isinstance(v, bool) for v in line)
        and all(v in (0, 1) for v in line)
        for line in produced
    )


def draw_domination(
    n: int,
    queens: Iterable[tuple[int, int]],
    uncovered: Iterable[tuple[int, int]],
    holes: Iterable[tuple[int, int]] = (),
) -> str:
    """The board row by row: ``Q`` a queen, ``!`` a square no queen dominates, ``#`` a
    hole (``--variant``), ``.`` others."""
    marks = {square: "#" for square in holes}
    marks.update({square: "!" for square in uncovered})
    marks.update({square: "Q" for square in queens})
    return "\n".join(" ".join(marks.get((r, c), ".") for c in range(n)) for r in range(n))


def share(row: Row, rubric: Rubric) -> Fraction:
    """The share (0..1) of a size's points this row earns under ``rubric``, exact: a ratio
    of counts, never rounded (``cp_queens.grading.points``)."""
    if row.error is not None:
        return Fraction(0)
    if isinstance(row, DominateRow):
        if not row.valid:
            return Fraction(0)
        extra = max(0, row.queens - row.minimum)
        shares = rubric.above_minimum
        return exact(shares[extra]) if extra < len(shares) else Fraction(0)
    if rubric.scheme == "exact":
        return Fraction(1 if row.ok else 0)
    found = Fraction(row.correct, row.expected) if row.expected else Fraction(1)
    if rubric.scheme == "penalties":
        value = found
        if row.invalid:
            value -= exact(rubric.invalid_penalty)
        if row.duplicates:
            value -= exact(rubric.duplicate_penalty)
        return max(Fraction(0), value)
    precise = Fraction(row.correct, row.returned) if row.returned else Fraction(1)
    return found * precise


def points(row: Row, worth: float, rubric: Rubric) -> Fraction:
    """The points a size's row earns: its worth times its share, exact."""
    return exact(worth) * share(row, rubric)
