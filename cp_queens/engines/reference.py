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
the tables before the search starts and their rows are passed over; each
empty row tries only its *open* columns: not in a given queen's column or on
its diagonals, not blocked. A board of 5521 with 5500 queens given is a
search of 21 rows of a few columns each.

The search keeps its own stack (``tried[depth]``: how far along its list of
columns the row at that depth has got) instead of calling itself once per row,
so a board of any size fits; Python's recursion limit would stop at about 1000.

Statistics: ``branches`` counts queens placed (search nodes), ``conflicts``
counts open squares tried and rejected because a queen placed earlier attacks them.

``tracer=callback`` reports every step (``place``, ``reject``, ``dead-end``,
``solution``, ``undo``; see ``cp_queens.engines.base.Tracer``), which is
how ``cp_queens.course.drawing.trace`` draws the search.
"""

from __future__ import annotations

from collections.abc import Iterator

from cp_queens.engines import register
from cp_queens.engines.base import Call, Engine, Tracer
from cp_queens.problem import Placement, Problem

#: How many queens are placed between two looks at the clock and the progress callback.
CHECK_EVERY = 1 << 14


@register
class ReferenceEngine(Engine):
    """Plain backtracking with a column table and two diagonal tables."""

    name = "reference"
    seconds_per_solution = 1e-4
    #: 3.9 s of CPU for the 2.0 million nodes of n = 14 with one queen given.
    seconds_per_node = 2e-6
    #: Lexicographic first solution: 58.7 million nodes at n = 30, 88 million at n = 32,
    #: more than 260 million from n = 36 (counted by the fast kernel in the same order);
    #: at some 10^5 nodes a second n = 30 takes ten minutes, up to 29 about a minute.
    first_reach = 29
    description = "readable backtracker (column + two diagonal tables), lexicographic order"

    def __init__(self, *, tracer: Tracer | None = None) -> None:
        super().__init__()
        self.tracer = tracer

    def _solutions(self, problem: Problem, call: Call) -> Iterator[Placement]:
        for cols in self._search(problem, call, report=False):
            yield Placement(tuple(cols))

    def _count(self, problem: Problem, call: Call) -> int:
        return sum(1 for _ in self._search(problem, call, report=True))

    def _search(self, problem: Problem, call: Call, *, report: bool) -> Iterator[list[int]]:
        """Yield the (live, reused) column list at every solution."""
        tables = _Tables(problem, self.tracer)
        n, cols, rows_to_fill = problem.n, tables.cols, tables.rows_to_fill
        column_used = tables.column_used
        diagonal_used, antidiagonal_used = tables.diagonal_used, tables.antidiagonal_used
        place, lift = tables.place, tables.lift
        columns_to_try: list[list[int] | None] = [None] * len(rows_to_fill)
        stats = call.stats
        stats.branches = stats.conflicts = 0
        tracer = self.tracer
        solutions = 0

        # tried[depth]: how many of its open columns row rows_to_fill[depth] has tried.
        tried = [0] * len(rows_to_fill)
        placed_any = [False] * len(rows_to_fill)  # only kept up when tracing: dead ends
        depth = 0
        while depth >= 0:
            if depth == len(rows_to_fill):  # every row has its queen
                solutions += 1
                if tracer is not None:
                    tracer("solution", -1, -1)
                yield cols
                depth -= 1  # back up: the last row tries its next column
                if depth >= 0:
                    lift(rows_to_fill[depth])
                continue
            row = rows_to_fill[depth]
            placed = False
            open_columns = columns_to_try[depth]
            if open_columns is None:
                open_columns = columns_to_try[depth] = tables.open_columns(row)
            while tried[depth] < len(open_columns):
                col = open_columns[tried[depth]]
                tried[depth] += 1
                if (
                    column_used[col]
                    or diagonal_used[row + col]
                    or antidiagonal_used[row - col + n - 1]
                ):
                    stats.conflicts += 1
                    if tracer is not None:
                        tracer("reject", row, col)
                    # On a large board most of the work is squares rejected (thousands per
                    # queen placed at n = 3000): look at the clock here too.
                    if stats.conflicts % CHECK_EVERY == 0 and call.expired():
                        call.stop_for_time()
                        return
                    continue
                place(row, col)
                placed = True
                if tracer is not None:
                    placed_any[depth] = True
                    tracer("place", row, col)
                break
            if placed:
                stats.branches += 1
                if stats.branches % CHECK_EVERY == 0:
                    if call.expired():
                        call.stop_for_time()
                        return
                    if report:
                        call.report(solutions)
                depth += 1
                if depth < len(rows_to_fill):
                    tried[depth] = 0  # a new row starts from the left
                    placed_any[depth] = False
            else:  # this row has no column left: back up one row
                if tracer is not None and not placed_any[depth]:
                    tracer("dead-end", row, -1)
                depth -= 1
                if depth >= 0:
                    lift(rows_to_fill[depth])


class _Tables:
    """The three tables of what is attacked, and the columns each empty row may try.

    Given queens are marked before the search starts. Squares on a given queen's
    diagonal, and blocked squares, stay closed for the whole search: each row lists
    its open columns once, when the search first reaches it, and tries only those.
    (Its own code, not ``Problem.residue``: the reference stays an independent oracle.)
    """

    def __init__(self, problem: Problem, tracer: Tracer | None) -> None:
        n = self.n = problem.n
        self.tracer = tracer
        self.cols = [-1] * n
        self.column_used = [False] * n
        self.diagonal_used = [False] * (2 * n - 1)
        self.antidiagonal_used = [False] * (2 * n - 1)
        for row, col in problem.fixed.items():
            self.place(row, col)
        self.blocked = problem.blocked
        self.rows_to_fill = [row for row in range(n) if row not in problem.fixed]
        self.free_columns = [col for col in range(n) if not self.column_used[col]]
        self.given_diagonal = self.diagonal_used.copy()
        self.given_antidiagonal = self.antidiagonal_used.copy()
        self.nothing_closed = not problem.fixed and not problem.blocked

    def open_columns(self, row: int) -> list[int]:
        """The columns of ``row`` no given queen attacks and no block closes."""
        if self.nothing_closed:
            return self.free_columns
        n = self.n
        return [
            col
            for col in self.free_columns
            if not self.given_diagonal[row + col]
            and not self.given_antidiagonal[row - col + n - 1]
            and (row, col) not in self.blocked
        ]

    def place(self, row: int, col: int) -> None:
        self.cols[row] = col
        self.column_used[col] = self.diagonal_used[row + col] = True
        self.antidiagonal_used[row - col + self.n - 1] = True

    def lift(self, row: int) -> None:
        col = self.cols[row]
        self.column_used[col] = self.diagonal_used[row + col] = False
        self.antidiagonal_used[row - col + self.n - 1] = False
        self.cols[row] = -1
        if self.tracer is not None:
            self.tracer("undo", row, col)
