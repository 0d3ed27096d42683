"""``cpsat``: the textbook constraint model, solved by OR-Tools CP-SAT.

The whole model (:mod:`cp_queens.engines.cpsat.model`, one screen), as a student would
write it on a board::

    q[r] in 0..n-1          the column of the queen in row r  (one queen per row)
    AllDifferent(q[r])          no two queens in one column
    AllDifferent(q[r] + r)      no two on one "/" diagonal
    AllDifferent(q[r] - r)      no two on one "\\" diagonal

Pre-placed queens (the completion problem) are just fixed domains.
How the model is *run* (parameters for exact enumeration, the solution
callback, streaming) lives in :mod:`cp_queens.engines.cpsat.runner`.

Options a course can compare:

* ``symmetry="none" | "mirror" | "full"`` adds symmetry-breaking constraints
  (:mod:`cp_queens.engines.cpsat.symmetry`); the engine then finds only the
  solutions those constraints keep (``"full"``: one per orbit).
* ``method="plain" | "fast" | "auto"`` says how to enumerate and count:
  ``plain`` is this one model with ``enumerate_all_solutions``; ``fast``
  searches one solution per orbit in many small models run in parallel
  processes and expands the orbits (:mod:`cp_queens.engines.cpsat.orbits`),
  the same solutions more than ten times faster from n = 12 on.
  ``auto`` (the default) takes ``fast`` for complete searches of boards with
  n >= 10 and no pre-placed queens, ``plain`` otherwise: below n = 10 the
  whole plain search is quicker than starting processes, given queens break the
  symmetry, and a stream stopped after ``limit`` solutions is best served by
  one search that starts at once. Both stream at bounded memory; ``fast``
  yields whole orbits in a fixed order. ``processes`` (default: the number of
  cores) sets the size of its process pool; its ``stats.extra`` reports
  ``subproblems`` and ``enumerated`` (solutions CP-SAT found before the
  canonical filter).
* ``strategy="auto" | "portfolio" | "fixed" | "greedy"`` with
  ``variable_order`` and ``value_order`` says how CP-SAT searches
  (:mod:`cp_queens.engines.cpsat.search`). ``auto`` uses ``greedy`` for
  :meth:`first` - a randomised greedy search on the 0/1 view of this model
  that answers n = 1000 in seconds (:mod:`cp_queens.engines.cpsat.greedy`)
  - and CP-SAT's own search for counting and enumeration. A strategy other
  than ``auto`` enumerates with the ``plain`` method, so that it is the
  strategy that is measured.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ortools.sat.python import cp_model

from cp_queens.engines import register
from cp_queens.engines.base import Engine, ProgressCallback, UniqueCount
from cp_queens.engines.cpsat import greedy as channel
from cp_queens.engines.cpsat import orbits as fast
from cp_queens.engines.cpsat import runner
from cp_queens.engines.cpsat.model import build_model
from cp_queens.engines.cpsat.search import SearchStrategy, add_fixed_search, fixed_parameters
from cp_queens.engines.cpsat.symmetry import add_symmetry_breaking, check_level
from cp_queens.errors import CpQueensError, UnsupportedTaskError
from cp_queens.problem import Placement, Problem
from cp_queens.stats import TIME_LIMIT

#: Values of the ``method`` option.
METHODS = ("auto", "plain", "fast")
#: ``method="auto"`` enumerates with the fast path from this board size on.
FAST_FROM = 10


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
        symmetry: str = "none",
        method: str = "auto",
        processes: int | None = None,
        strategy: str = "auto",
        variable_order: str = "input",
        value_order: str = "min",
    ) -> None:
        super().__init__(time_limit=time_limit)
        if method not in METHODS:
            raise CpQueensError(
                f"unknown enumeration method '{method}' (choose one of: {', '.join(METHODS)})"
            )
        self.symmetry = check_level(symmetry)
        if method == "fast" and symmetry != "none":
            raise CpQueensError(
                f"method 'fast' yields every solution; it cannot be combined with "
                f"symmetry '{symmetry}'"
            )
        self.search = SearchStrategy(strategy, variable_order, value_order)
        if method == "fast" and strategy != "auto":
            raise CpQueensError(
                f"method 'fast' has its own search; it cannot be combined with "
                f"strategy '{strategy}'"
            )
        if strategy == "greedy" and symmetry != "none":
            raise CpQueensError(
                f"strategy 'greedy' searches the 0/1 board; it cannot be combined with "
                f"symmetry '{symmetry}'"
            )
        self.method = method
        self.processes = processes or fast.default_processes()
        self._limit: int | None = None
        self.settings = runner.SolverSettings(
            time_limit=time_limit,
            workers=workers,
            log=log,
            seed=seed,
            parameters=dict(parameters or {}),
        )

    def solutions(self, problem: Problem, *, limit: int | None = None) -> Iterator[Placement]:
        self._limit = limit  # method="auto" streams a short list with the plain model
        return super().solutions(problem, limit=limit)

    def _solutions(self, problem: Problem) -> Iterator[Placement]:
        if self._use_fast(problem, streaming=True):
            return fast.stream(problem, self.settings, self.stats, self.processes)
        model, decode, settings = self._searched_model(problem, "solutions")
        return runner.stream(model, decode, settings, self.stats)

    def _count(self, problem: Problem, progress: ProgressCallback | None) -> int:
        if self._use_fast(problem):
            return self._fast_count(problem, progress).total
        model, _, settings = self._searched_model(problem, "count")
        return runner.count(model, settings, self.stats, progress)

    def _count_unique(self, problem: Problem, progress: ProgressCallback | None) -> UniqueCount:
        if self.symmetry != "none":
            raise UnsupportedTaskError(
                f"unique counts need every solution; symmetry '{self.symmetry}' removes some"
            )
        if self._use_fast(problem):
            return self._fast_count(problem, progress)
        return super()._count_unique(problem, progress)

    def _fast_count(self, problem: Problem, progress: ProgressCallback | None) -> UniqueCount:
        return fast.count_unique(problem, self.settings, self.stats, self.processes, progress)

    def _use_fast(self, problem: Problem, *, streaming: bool = False) -> bool:
        if self.method == "fast" and problem.fixed:
            raise UnsupportedTaskError(
                "method 'fast' needs a board without pre-placed queens (they break the symmetry)"
            )
        if self.method != "auto":
            return self.method == "fast"
        return (
            self.search.name == "auto"
            and self.symmetry == "none"
            and not problem.fixed
            and problem.n >= FAST_FROM
            and not (streaming and self._limit is not None)
        )

    def _first(self, problem: Problem) -> Placement | None:
        model, decode, settings = self._searched_model(problem, "first")
        if settings.time_limit is not None:
            # The limit covers the whole call: building a large model takes time too.
            remaining = self._deadline() - time.perf_counter()
            if remaining <= 0:
                self.stats.status = TIME_LIMIT
                return None
            settings = replace(settings, time_limit=remaining)
        return runner.first(model, decode, settings, self.stats)

    def _searched_model(
        self, problem: Problem, task: str
    ) -> tuple[cp_model.CpModel, runner.Decoder, runner.SolverSettings]:
        """The model, its decoder and the solver settings for ``task`` under the strategy."""
        strategy = self.search.resolve(task)
        if strategy == "greedy" and self.symmetry != "none":
            strategy = "portfolio"  # auto with symmetry breaking: the integer model
        self.stats.extra["strategy"] = (
            self.search.describe(task) if strategy == self.search.resolve(task) else strategy
        )
        if strategy == "greedy":
            settings = self.settings.with_defaults(channel.GREEDY_PARAMETERS)
            return channel.build_model(problem), channel.decoder(problem.n), settings
        model, q = build_model(problem)
        add_symmetry_breaking(model, q, self.symmetry)
        if strategy == "fixed":
            add_fixed_search(model, q, self.search, self.settings.seed)
            return model, _columns_of(q), self.settings.with_defaults(fixed_parameters(self.search))
        return model, _columns_of(q), self.settings


def _columns_of(q: list[cp_model.IntVar]) -> runner.Decoder:
    def decode(solution: cp_model.CpSolverSolutionCallback) -> tuple[int, ...]:
        return tuple(solution.value(v) for v in q)

    return decode
