"""Running a domination model: the best set found, the bound proved, the gap between them.

An optimisation run answers two questions at once, and may be stopped between
them: *how few queens suffice* (the best set found so far, an upper bound) and
*how few could possibly do* (the solver's proven lower bound). While the two
differ the answer is only "between bound and best"; the run is over when they
meet (proven optimal) or when the time limit cuts it short. So the result
carries both numbers and the trail of improvements, never just "the answer".
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cp_queens.dominate.check import Square, classic_lower_bound, dominates
from cp_queens.dominate.models import build_cp, build_mip, check_options
from cp_queens.errors import CpQueensError

#: Largest board the models are built for: n^2 Booleans and n^2 covering rows of about
#: 4n terms each, so n = 100 is already 10,000 rows of 400 terms before any search.
MAX_N = 100


@dataclass(frozen=True)
class Step:
    """One moment of a run: a better set found or a better bound proved."""

    seconds: float
    best: int | None  # queens in the best set so far (None: none found yet)
    bound: int  # proven: no set with fewer queens exists

    @property
    def gap(self) -> float | None:
        """(best - bound) / best: the share of the best set not yet proven necessary."""
        return None if self.best is None else (self.best - self.bound) / self.best


@dataclass(frozen=True)
class Domination:
    """The answer of ``dominate``: the best set, the bound, whether they meet, and how."""

    n: int
    independent: bool
    model: str
    symmetry: str
    queens: tuple[Square, ...]  # the best set found; () if none was found in time
    bound: int  # the best proven lower bound (with the classic bound folded in)
    optimal: bool
    seconds: float
    statistics: dict[str, Any] = field(default_factory=dict)
    steps: tuple[Step, ...] = ()

    @property
    def size(self) -> int | None:
        """Queens in the best set found, or ``None`` when none was found."""
        return len(self.queens) if self.queens else None

    @property
    def gap(self) -> float | None:
        """(size - bound) / size; 0 when proven optimal, ``None`` with no set found."""
        return None if self.size is None else (self.size - self.bound) / self.size


def dominate(
    n: int,
    *,
    independent: bool = False,
    model: str = "cp",
    symmetry: str = "none",
    time_limit: float | None = None,
    workers: int = 1,
    classic_bound: bool = True,
    on_step: Callable[[Step], None] | None = None,
) -> Domination:
    """The smallest set of queens that occupies or attacks every square of the n x n board
    (with ``independent``, of queens that do not attack each other), by CP-SAT (``cp``) or
    by SCIP on the same rows (``mip``).

    With ``classic_bound`` the model is told that at least ceil((n - 1) / 2) queens are
    needed (``cp_queens.dominate.check.classic_lower_bound``): a solver that finds a
    set of that size can stop at once, without proving by search what is already known.
    ``on_step`` hears of every better set and (CP-SAT only) every better bound as the
    search runs. A run cut short by ``time_limit`` returns its best set and bound with
    ``optimal=False``; the set returned is checked by the independent checker first.

    Examples:
        >>> result = dominate(5)
        >>> result.size, result.optimal, result.bound
        (3, True, 3)
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise CpQueensError(f"N must be a whole number >= 1, got {n!r}")
    if n > MAX_N:
        raise CpQueensError(
            f"N={n} is too large for the domination models (at most {MAX_N}: "
            f"{n * n:,} Booleans and as many covering rows)"
        )
    check_options(model, symmetry)
    if time_limit is not None and not time_limit > 0:
        raise CpQueensError(f"time limit must be > 0 seconds, got {time_limit}")
    if workers < 1:
        raise CpQueensError(f"workers must be at least 1, got {workers}")
    run = _run_cp if model == "cp" else _run_mip
    floor = classic_lower_bound(n) if classic_bound else 0
    result = run(
        n, independent, symmetry, floor, time_limit, workers, on_step or (lambda step: None)
    )
    if result.queens:
        verdict = dominates(n, result.queens, independent=independent)
        if not verdict.ok:  # a bug in a model, never the user's fault
            raise AssertionError(f"the {model} model returned a wrong set: {verdict.reason}")
    return result


def _run_cp(
    n: int,
    independent: bool,
    symmetry: str,
    floor: int,
    time_limit: float | None,
    workers: int,
    on_step: Callable[[Step], None],
) -> Domination:
    from ortools.sat.python import cp_model

    model, x = build_cp(n, independent=independent, symmetry=symmetry, at_least=floor)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    steps: list[Step] = []
    started = time.perf_counter()

    def record(best: int | None, bound: float) -> None:
        bound_now = max(floor, math.ceil(bound - 1e-9), steps[-1].bound if steps else 0)
        if steps and (steps[-1].best, steps[-1].bound) == (best, bound_now):
            return  # a fractional bound that rounds to the same whole number
        step = Step(time.perf_counter() - started, best, bound_now)
        steps.append(step)
        on_step(step)

    class Listener(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            record(round(self.objective_value), self.best_objective_bound)

    def bound_improved(bound: float) -> None:
        record(steps[-1].best if steps else None, bound)

    solver.best_bound_callback = bound_improved
    status = solver.solve(model, Listener())
    seconds = time.perf_counter() - started
    queens: tuple[Square, ...] = ()
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        queens = tuple((r, c) for r in range(n) for c in range(n) if solver.boolean_value(x[r][c]))
    bound = max(floor, math.ceil(solver.best_objective_bound - 1e-9))
    searched = status == cp_model.OPTIMAL
    optimal = searched or (bool(queens) and len(queens) <= bound)
    bound = len(queens) if optimal else bound
    record(len(queens) if queens else None, bound)  # the bound that closed the gap
    statistics = {
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        "workers": workers,
        "status": solver.status_name(status),
        "proof": _proof(searched, optimal),
    }
    return Domination(
        n, independent, "cp", symmetry, queens, bound, optimal, seconds, statistics, tuple(steps)
    )


def _run_mip(
    n: int,
    independent: bool,
    symmetry: str,
    floor: int,
    time_limit: float | None,
    workers: int,
    on_step: Callable[[Step], None],
) -> Domination:
    from ortools.linear_solver import pywraplp

    solver, x = build_mip(n, independent=independent, symmetry=symmetry, at_least=floor)
    if time_limit is not None:
        solver.SetTimeLimit(max(1, int(time_limit * 1000)))
    if workers > 1:
        solver.SetNumThreads(workers)
    started = time.perf_counter()
    status = solver.Solve()
    seconds = time.perf_counter() - started
    queens: tuple[Square, ...] = ()
    if status in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
        queens = tuple((r, c) for r in range(n) for c in range(n) if x[r][c].solution_value() > 0.5)
    proved = solver.Objective().BestBound() if queens else 0.0
    bound = max(floor, math.ceil(proved - 1e-6))
    searched = status == pywraplp.Solver.OPTIMAL
    optimal = searched or (bool(queens) and len(queens) <= bound)
    bound = len(queens) if optimal else bound
    step = Step(seconds, len(queens) if queens else None, bound)
    on_step(step)
    statistics = {
        "nodes": solver.nodes(),
        "lp_iterations": solver.iterations(),
        "status": _MIP_STATUS.get(status, str(status)),
        "proof": _proof(searched, optimal),
    }
    return Domination(
        n, independent, "mip", symmetry, queens, bound, optimal, seconds, statistics, (step,)
    )


def _proof(searched: bool, optimal: bool) -> str:
    """Who proved the set optimal: the solver's search, or the classic bound it met."""
    if searched:
        return "search"
    return "classic bound" if optimal else "none"


_MIP_STATUS = {0: "OPTIMAL", 1: "FEASIBLE", 2: "INFEASIBLE", 3: "UNBOUNDED", 6: "NOT_SOLVED"}


def lp_bound(n: int, *, independent: bool = False) -> float:
    """The optimum of the LP relaxation (x in [0, 1] instead of {0, 1}): a lower bound
    that a MIP solver starts from, and how far below the classic bound it stays."""
    solver, _ = build_mip(n, independent=independent, relaxed=True)
    solver.Solve()
    return float(solver.Objective().Value())
