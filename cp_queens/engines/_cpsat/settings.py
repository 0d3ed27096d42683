"""The CP-SAT parameters a user may set, kept apart so that naming them loads no solver."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from cp_queens.engines.base import check_seed
from cp_queens.errors import CpQueensError, CpQueensWarning

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

#: CP-SAT's own threads at most: its portfolio gains nothing from more.
MAX_SOLVER_WORKERS = 64


@dataclass
class SolverSettings:
    """CP-SAT parameters a user may set; anything else stays at CP-SAT's default.

    Attributes:
        time_limit: ``max_time_in_seconds``; ``None`` for no limit. Never an engine's
            setting: set for one solve from what the call's deadline leaves
            (``within`` with ``call.remaining()``) as the solver starts.
        solver_workers: ``num_workers`` for a single solution (0 = all cores).
        log: print CP-SAT's own search log (``log_search_progress``).
        seed: ``random_seed``, for reproducible runs.
        parameters: any other ``SatParameters`` field by name, e.g.
            ``{"linearization_level": 0}``; enum fields also take the value's
            name, e.g. ``{"search_branching": "FIXED_SEARCH"}``.
    """

    time_limit: float | None = None
    solver_workers: int = 0
    log: bool = False
    seed: int | None = None
    parameters: dict[str, Any] = field(default_factory=dict)

    def solver(self, *, enumerate_all: bool) -> cp_model.CpSolver:
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        params = solver.parameters
        for name, value in self.parameters.items():
            _set_parameter(params, name, value)
        if self.time_limit is not None:
            params.max_time_in_seconds = self.time_limit
        if self.seed is not None:
            params.random_seed = self.seed
        params.log_search_progress = self.log
        if enumerate_all:
            params.enumerate_all_solutions = True
            params.num_workers = 1
        else:
            from cp_queens.budget import available_cores

            params.num_workers = self.solver_workers or available_cores()
        return solver

    @classmethod
    def checked(
        cls,
        *,
        solver_workers: int,
        log: bool,
        seed: int | None,
        parameters: dict[str, Any] | None,
    ) -> SolverSettings:
        """Settings from an engine's options, ``solver_workers`` checked (a whole number >= 0)."""
        if isinstance(solver_workers, bool) or not isinstance(solver_workers, int):
            raise CpQueensError(f"solver_workers must be a whole number, got {solver_workers!r}")
        if solver_workers < 0:
            raise CpQueensError(f"solver_workers must be >= 0, got {solver_workers}")
        if solver_workers > MAX_SOLVER_WORKERS:
            warnings.warn(
                f"solver_workers capped at {MAX_SOLVER_WORKERS}: CP-SAT's portfolio gains "
                "nothing from more threads",
                CpQueensWarning,
                stacklevel=3,
            )
            solver_workers = MAX_SOLVER_WORKERS
        return cls(None, solver_workers, log, check_seed(seed), dict(parameters or {}))

    def within(self, seconds: float | None) -> SolverSettings:
        """These settings with at most ``seconds`` left (what a call's deadline leaves)."""
        return self if seconds is None else replace(self, time_limit=seconds)

    def with_defaults(self, defaults: dict[str, Any]) -> SolverSettings:
        """A copy whose parameters are ``defaults`` overridden by the user's own.

        ``num_workers`` in ``defaults`` applies only while the user left
        ``solver_workers`` at 0 (CP-SAT's choice).
        """
        merged = {k: v for k, v in defaults.items() if k != "num_workers"}
        merged.update(self.parameters)
        workers = self.solver_workers or defaults.get("num_workers", 0)
        return replace(self, solver_workers=workers, parameters=merged)


def _set_parameter(params: Any, name: str, value: Any) -> None:
    """``setattr``, turning an enum value's name or number into the enum OR-Tools wants."""
    current = getattr(params, name)
    if isinstance(value, (str, int)) and not isinstance(current, (str, int, float, bool)):
        enum = type(current)
        value = getattr(enum, value) if isinstance(value, str) else enum(value)
    setattr(params, name, value)
