"""The ``dominate`` task (lesson 11): the squares of as few queens as possible that
occupy or attack every square, marked by quality.

Judged by the independent checker ``cp_queens.dominate.check`` and marked as Coursera's
Discrete Optimization grades: full points at the known minimum, a share of them for each
queen above it (the rubric's ``above_minimum``), none for a set that leaves a square
undominated. Under ``--variant`` a student's board has holes (``blocked``): no queen stands
on one, none attacks across one, a hole need not be guarded; its minimum is computed
(CP-SAT, proven optimal), never stored.

Examples:
    >>> from cp_queens.grading.rubric import load
    >>> task = Dominate()
    >>> row = task.judge(4, [(0, 0), (2, 2)], task.reference(4))
    >>> row.verdict(), task.share(row, load().for_task("dominate"))
    ('ok', Fraction(1, 1))
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from cp_queens.dominate.check import attacks, dominates
from cp_queens.grading.points import exact
from cp_queens.grading.tasks import register
from cp_queens.grading.tasks.base import Instance, Square, Task, VariantError, came_back_cell
from cp_queens.grading.tasks.came_back import UnusableOutput, describe, is_int, shown

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


#: A dominate answer longer than this is refused unread: n x n squares at most are useful.
MOST_SQUARES = 25 * 25


@dataclass(frozen=True, slots=True)
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


class Minimum(int):
    """The fewest queens that guard one student's board with holes (``--variant``)."""

    holes: frozenset[tuple[int, int]]


@register
class Dominate(Task):
    """As few queens as possible that occupy or attack every square."""

    name = "dominate"
    summary = "the squares of queens that dominate the board, marked by how few"
    largest = len(DOMINATION_NUMBERS)  # as far as the table reaches
    row_type = DominateRow
    columns = ("fewest queens possible", "your queens")
    all_right = "Every board size is right: dominated by the fewest queens possible."
    #: A board with holes needs its minimum proven (CP-SAT): 0.2 s of CPU at n = 7, 1.5 to
    #: 4.6 s at n = 8, over 30 s at n = 9 (measured on the two-core machine these docs
    #: were written on, under load).
    variant_largest = 8
    variant_call = "model(n, blocked=[(row, column), ...])"
    variant_returns = (
        "returns the squares of as few queens as possible that occupy or attack every "
        "square that is not a hole (no queen in a hole, none attacks across one)"
    )
    variant_legend = "# a hole."

    def reference(self, n: int, instance: Instance | None = None) -> Any:
        """The fewest queens that dominate the board (A075458), or that guard the
        student's own board with holes (computed)."""
        if instance is None:
            return DOMINATION_NUMBERS[n - 1]
        minimum = Minimum(minimum_dominating(n, instance.blocked))
        minimum.holes = frozenset(instance.blocked)
        return minimum

    def judge(self, n: int, produced: Any, expected: Any) -> DominateRow:
        return judge_dominate(n, produced, expected)

    def error_row(self, n: int, expected: Any, problem: str) -> DominateRow:
        return DominateRow(n, expected, error=problem)

    def share(self, row: Any, rubric: Any) -> Fraction:
        """Full points at the minimum, the rubric's ``above_minimum`` share for each queen
        above it, none for an error or a set that does not dominate."""
        if row.error is not None or not row.valid:
            return Fraction(0)
        extra = max(0, row.queens - row.minimum)
        shares = rubric.above_minimum
        return exact(shares[extra]) if extra < len(shares) else Fraction(0)

    def cells(self, row: Any) -> tuple[str, ...]:
        minimum = "-" if row is None else str(row.expected)
        usable = isinstance(row, DominateRow) and row.error is None
        queens = str(row.queens) if usable else came_back_cell(row)
        return minimum, queens

    def answers(self, n: int) -> tuple[Any, Any]:
        """A smallest dominating set (the checker's brute force, small n); and one queen too
        few (one queen on the board's corner for n = 1)."""
        from cp_queens.dominate.check import smallest_dominating_set

        right = [tuple(square) for square in smallest_dominating_set(n)]
        return right, right[1:] if len(right) > 1 else [(0, 0), (0, 0)]

    def details(self, rows: Sequence[Any]) -> list[str]:
        """A set that does not dominate (one board drawn), or one above the minimum."""
        details = []
        drawn = False
        for row in rows:
            if not isinstance(row, DominateRow) or row.error is not None or row.ok:
                continue
            if not row.valid:
                line = f"n={row.n}: {row.reason}"
                if row.board is not None and not drawn:  # one board shows the pattern
                    drawn = True
                    line += "\n" + row.board
                details.append(line)
            else:
                details.append(
                    f"n={row.n}: your {row.queens} queens dominate the board; {row.minimum} "
                    "can (OEIS A075458)"
                )
        return details

    def instance(self, chance: random.Random, n: int) -> Instance:
        """A board with ``n // 2`` holes (at least one, never every square)."""
        squares = [(r, c) for r in range(n) for c in range(n)]
        count = max(1, n // 2)
        blocked = tuple(sorted(chance.sample(squares, min(count, len(squares) - 1))))
        return Instance(self.name, n, {}, blocked, keywords=("blocked",))


def judge_dominate(n: int, produced: Any, minimum: int) -> DominateRow:
    """A set of ``(row, column)`` squares checked by ``cp_queens.dominate.check.dominates``;
    when a square is left undominated, all such squares are found and drawn."""
    try:
        squares = _squares(n, produced)
    except UnusableOutput as error:
        return DominateRow(n, minimum, error=str(error), came_back=shown(produced, 24))
    holes = getattr(minimum, "holes", None)
    if holes is not None:  # one student's board with holes (--variant)
        reason, left = check_holes(n, squares, holes)
        return DominateRow(
            n,
            minimum,
            queens=len(squares),
            valid=not reason,
            reason=reason,
            uncovered=tuple(left),
            board=draw_domination(n, squares, left, holes) if left else None,
        )
    verdict = dominates(n, squares)
    row = DominateRow(n, minimum, queens=len(squares), valid=verdict.ok, reason=verdict.reason)
    if not verdict.ok and "neither occupied nor attacked" in verdict.reason:
        on_board = [square for square in squares if 0 <= square[0] < n and 0 <= square[1] < n]
        uncovered = tuple(
            (r, c)
            for r in range(n)
            for c in range(n)
            if not any(attacks(queen, (r, c)) for queen in on_board)
        )
        first = uncovered[0]
        row = replace(
            row,
            uncovered=uncovered,
            board=draw_domination(n, on_board, uncovered),
            reason=f"square {first} (row {first[0]}, column {first[1]}) is neither occupied "
            f"nor attacked; {len(uncovered)} square{'s' if len(uncovered) > 1 else ''} in "
            "all are not dominated",
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


def guarded(n: int, queen: Square, holes: frozenset[Square]) -> set[Square]:
    """The squares a queen on ``queen`` occupies or attacks when ``holes`` cut its lines:
    along each of the eight directions, up to the first hole or the edge."""
    seen = {queen}
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)):
        r, c = queen[0] + dr, queen[1] + dc
        while 0 <= r < n and 0 <= c < n and (r, c) not in holes:
            seen.add((r, c))
            r, c = r + dr, c + dc
    return seen


def unguarded(n: int, queens: list[Square], holes: frozenset[Square]) -> list[Square]:
    """The squares (holes aside) that no queen occupies or attacks, row by row."""
    covered: set[Square] = set()
    for queen in queens:
        covered |= guarded(n, queen, holes)
    return [
        (r, c) for r in range(n) for c in range(n) if (r, c) not in holes and (r, c) not in covered
    ]


def minimum_dominating(n: int, holes: tuple[Square, ...]) -> int:
    """The fewest queens that guard every square of the board with ``holes``: CP-SAT,
    proven optimal (one worker: the same answer on every machine), computed when asked."""
    return len(smallest_guarding_set(n, holes))


def smallest_guarding_set(n: int, holes: Iterable[Square]) -> tuple[Square, ...]:
    """A smallest set of queens guarding the board with ``holes`` (proven optimal)."""
    return _smallest(n, tuple(sorted(holes)))


@lru_cache(maxsize=4096)
def _smallest(n: int, holes: tuple[Square, ...]) -> tuple[Square, ...]:
    from ortools.sat.python import cp_model

    cut = frozenset(holes)
    squares = [(r, c) for r in range(n) for c in range(n) if (r, c) not in cut]
    model = cp_model.CpModel()
    queen = {s: model.new_bool_var(f"q{s}") for s in squares}
    sees = {s: guarded(n, s, cut) for s in squares}
    for target in squares:
        model.add_bool_or([queen[s] for s in squares if target in sees[s]])
    model.minimize(sum(queen.values()))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 120.0
    if solver.solve(model) != cp_model.OPTIMAL:
        raise VariantError(f"the minimum of a {n} x {n} variant could not be proven in 120 s")
    return tuple(s for s in squares if solver.value(queen[s]))


def check_holes(n: int, queens: list[Square], holes: frozenset[Square]) -> tuple[str, list[Square]]:
    """Why ``queens`` do not guard the board with ``holes`` ("" when they do), and the
    squares left unguarded."""
    seen: set[Square] = set()
    for row, col in queens:
        if not (0 <= row < n and 0 <= col < n):
            return f"queen ({row}, {col}) is off the {n} x {n} board", []
        if (row, col) in seen:
            return f"two queens on ({row}, {col})", []
        if (row, col) in holes:
            return f"queen ({row}, {col}) stands in a hole (a blocked square)", []
        seen.add((row, col))
    left = unguarded(n, queens, holes)
    if left:
        first = left[0]
        return (
            f"square {first} (row {first[0]}, column {first[1]}) is neither occupied nor "
            f"attacked (holes cut the lines); {len(left)} square"
            f"{'s' if len(left) > 1 else ''} in all are not guarded",
            left,
        )
    return "", []
