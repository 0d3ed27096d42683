"""``reference``: the hand-written backtracker every other engine is checked against.

Written to be read, not to be fast. Queens go in row by row; three tables
remember what is already attacked:

* ``column_used[c]``            - a queen stands in column ``c``;
* ``diagonal_used[r + c]``      - on the "/" diagonal through ``(r, c)``
  (every square of it has the same ``r + c``, from 0 to ``2n - 2``);
* ``antidiagonal_used[r - c + n - 1]`` - on the "\\" diagonal
  (same ``r - c``; ``+ n - 1`` shifts it to 0..2n-2 so it can index a list).

Columns are tried from left to right in every row, so solutions come out in
lexicographic order. Pre-placed queens (the completion problem) are marked in
the tables before the search starts, so no earlier row can attack them, and
their rows are simply passed through.

Statistics: ``branches`` counts queens placed (search nodes), ``conflicts``
counts squares tried and rejected because they were attacked.

``tracer=callback`` reports every step (``place``, ``reject``, ``dead-end``,
``solution``, ``undo``; see :data:`cp_queens.engines.base.Tracer`), which is
how :mod:`cp_queens.course.trace` draws the search.
"""

from __future__ import annotations

from collections.abc import Iterator

from cp_queens.engines import register
from cp_queens.engines.base import Call, Engine, Tracer
from cp_queens.problem import Placement, Problem

#: How many queens are placed between two looks at the clock and the progress callback.
CHECK_EVERY = 1 << 14


class _TimeUp(Exception):
    pass


@register
class ReferenceEngine(Engine):
    """Plain backtracking with a column table and two diagonal tables."""

    name = "reference"
    description = "readable backtracker (column + two diagonal tables), lexicographic order"

    def __init__(self, *, time_limit: float | None = None, tracer: Tracer | None = None) -> None:
        super().__init__(time_limit=time_limit)
        self.tracer = tracer

    def _solutions(self, problem: Problem, call: Call) -> Iterator[Placement]:
        for cols in self._search(problem, call, report=False):
            yield Placement(tuple(cols))

    def _count(self, problem: Problem, call: Call) -> int:
        return sum(1 for _ in self._search(problem, call, report=True))

    def _search(self, problem: Problem, call: Call, *, report: bool) -> Iterator[list[int]]:
        """Yield the (live, reused) column list at every solution."""
        n = problem.n
        fixed = problem.fixed
        cols = [-1] * n
        column_used = [False] * n
        diagonal_used = [False] * (2 * n - 1)
        antidiagonal_used = [False] * (2 * n - 1)
        for row, col in fixed.items():
            cols[row] = col
            column_used[col] = diagonal_used[row + col] = True
            antidiagonal_used[row - col + n - 1] = True

        stats = call.stats
        stats.branches = stats.conflicts = 0
        tracer = self.tracer
        solutions = 0

        def place_queen_in(row: int) -> Iterator[list[int]]:
            nonlocal solutions
            if row == n:
                solutions += 1
                if tracer is not None:
                    tracer("solution", -1, -1)
                yield cols
                return
            if row in fixed:
                yield from place_queen_in(row + 1)
                return
            placed_any = False
            for col in range(n):
                if (
                    column_used[col]
                    or diagonal_used[row + col]
                    or antidiagonal_used[row - col + n - 1]
                ):
                    stats.conflicts += 1
                    if tracer is not None:
                        tracer("reject", row, col)
                    continue
                placed_any = True
                if tracer is not None:
                    tracer("place", row, col)
                stats.branches += 1
                if stats.branches % CHECK_EVERY == 0:
                    if call.expired():
                        raise _TimeUp
                    if report:
                        call.report(solutions)
                cols[row] = col
                column_used[col] = diagonal_used[row + col] = True
                antidiagonal_used[row - col + n - 1] = True
                yield from place_queen_in(row + 1)
                column_used[col] = diagonal_used[row + col] = False
                antidiagonal_used[row - col + n - 1] = False
                if tracer is not None:
                    tracer("undo", row, col)
            cols[row] = -1
            if not placed_any and tracer is not None:
                tracer("dead-end", row, -1)

        try:
            yield from place_queen_in(0)
        except _TimeUp:
            call.stop_for_time()
