"""``cpsat``: the textbook constraint model, solved by OR-Tools CP-SAT.

The whole model, as a student would write it on a board::

    q[r] in 0..n-1          the column of the queen in row r  (one queen per row)
    AllDifferent(q[r])          no two queens in one column
    AllDifferent(q[r] + r)      no two on one "/" diagonal
    AllDifferent(q[r] - r)      no two on one "\\" diagonal

Pre-placed queens (the completion problem) are just fixed domains.
How the model is *run* (parameters for exact enumeration, the solution
callback, streaming) lives in :mod:`cp_queens.engines._cpsat_runner`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ortools.sat.python import cp_model

from cp_queens.engines import _cpsat_runner as runner
from cp_queens.engines import register
from cp_queens.engines.base import Engine, ProgressCallback
from cp_queens.problem import Placement, Problem


def build_model(problem: Problem) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The design card's model: ``q[r]`` and three ``AllDifferent`` constraints."""
    n = problem.n
    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    model.add_all_different(q)
    model.add_all_different(q[r] + r for r in range(n))
    model.add_all_different(q[r] - r for r in range(n))
    for row, col in problem.fixed.items():
        model.add(q[row] == col)
    return model, q


@register
class CpSatEngine(Engine):
    """CP-SAT on the integer model; every solution arrives through a solution callback."""

    name = "cpsat"
    description = "OR-Tools CP-SAT on q[r] with AllDifferent on q, q+r, q-r"

    def __init__(
        self,
        *,
        time_limit: float | None = None,
        workers: int = 0,
        log: bool = False,
        seed: int | None = None,
        parameters: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(time_limit=time_limit)
        self.settings = runner.SolverSettings(
            time_limit=time_limit,
            workers=workers,
            log=log,
            seed=seed,
            parameters=dict(parameters or {}),
        )

    def _solutions(self, problem: Problem) -> Iterator[Placement]:
        model, q = build_model(problem)
        return runner.stream(model, _columns_of(q), self.settings, self.stats)

    def _count(self, problem: Problem, progress: ProgressCallback | None) -> int:
        model, _ = build_model(problem)
        return runner.count(model, self.settings, self.stats, progress)

    def _first(self, problem: Problem) -> Placement | None:
        model, q = build_model(problem)
        return runner.first(model, _columns_of(q), self.settings, self.stats)


def _columns_of(q: list[cp_model.IntVar]) -> runner.Decoder:
    def decode(solution: cp_model.CpSolverSolutionCallback) -> tuple[int, ...]:
        return tuple(solution.value(v) for v in q)

    return decode
