"""``cpsat-board``: the 0/1 board formulation, solved by OR-Tools CP-SAT.

One Boolean per square instead of one integer per row::

    x[r][c] = 1  <=>  a queen stands on (r, c)
    sum over c of x[r][c] == 1      for every row      (exactly one)
    sum over r of x[r][c] == 1      for every column   (exactly one)
    sum over a diagonal     <= 1    for every diagonal of length >= 2, both directions

This is the formulation of an integer-programming course (and of the ``mip``
engine); CP-SAT reads ``exactly_one`` / ``at_most_one`` as clauses and
cardinality constraints, so its search is a SAT search over n^2 literals
rather than over n integer domains. Pre-placed queens fix ``x[r][c] = 1``,
blocked squares ``x[r][c] = 0``.
Running the model (enumeration parameters, streaming, statistics) is shared
with ``cpsat`` in ``cp_queens.engines._cpsat.runner``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ortools.sat.python import cp_model

import cp_queens.engines._cpsat.runner as runner
from cp_queens.engines import register
from cp_queens.engines._cpsat.settings import SolverSettings
from cp_queens.engines.base import Call, Engine
from cp_queens.problem import Placement, Problem, diagonals

Board = list[list[cp_model.IntVar]]


def build_model(problem: Problem) -> tuple[cp_model.CpModel, Board]:
    """Booleans ``x[r][c]``: exactly one per row and column, at most one per diagonal."""
    n = problem.n
    model = cp_model.CpModel()
    x = [[model.new_bool_var(f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for i in range(n):
        model.add_exactly_one(x[i][c] for c in range(n))  # row i
        model.add_exactly_one(x[r][i] for r in range(n))  # column i
    for squares in diagonals(n):
        model.add_at_most_one(x[r][c] for r, c in squares)
    for row, col in problem.fixed.items():
        model.add(x[row][col] == 1)
    for row, col in problem.blocked:
        model.add(x[row][col] == 0)
    return model, x


def _columns_of(x: Board) -> runner.Decoder:
    """Read the queen's column in each row out of a solution."""

    def decode(solution: Any) -> tuple[int, ...]:
        return tuple(
            next(c for c, square in enumerate(row) if solution.boolean_value(square)) for row in x
        )

    return decode


@register
class CpSatBoardEngine(Engine):
    """CP-SAT on the 0/1 board model; solutions arrive through a solution callback."""

    name = "cpsat-board"
    #: Peak RSS over n^2: 170 MB at n = 200.
    bytes_per_square = 4_000
    #: A linear model per line of the board: n = 400 needed some 5 s before the search
    #: could stop (3 s limit, ended at 5.2 s); half that, to refuse only a sure overrun.
    setup_seconds_per_square = 1e-5
    seconds_per_solution = 5e-4
    description = "OR-Tools CP-SAT on 0/1 squares x[r][c]: one per row/column, <= 1 per diagonal"

    def __init__(
        self,
        *,
        solver_workers: int = 0,
        log: bool = False,
        seed: int | None = None,
        parameters: dict[str, Any] | None = None,
    ) -> None:
        """
        Args:
            solver_workers: CP-SAT's own search threads for one solution (0: all cores).
            log: print CP-SAT's search log.
            seed: CP-SAT's ``random_seed``.
            parameters: any other CP-SAT parameter by name.
        """
        super().__init__()
        self.settings = SolverSettings.checked(
            solver_workers=solver_workers,
            log=log,
            seed=seed,
            parameters=parameters,
        )

    def _settings(self, call: Call) -> SolverSettings:
        return self.settings.within(call.remaining())

    def _solutions(self, problem: Problem, call: Call) -> Iterator[Placement]:
        with call.building():
            model, x = build_model(problem)
        return runner.stream(model, _columns_of(x), self._settings(call), call.stats)

    def _count(self, problem: Problem, call: Call) -> int:
        with call.building():
            model, _ = build_model(problem)
        return runner.count(model, self._settings(call), call.stats, call.report)

    def _first(self, problem: Problem, call: Call) -> Placement | None:
        with call.building():
            model, x = build_model(problem)
        return runner.first(model, _columns_of(x), self._settings(call), call.stats)
