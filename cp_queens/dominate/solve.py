"""Running a domination model: the best set found, the bound proved, the gap between them.

An optimisation run answers two questions at once, and may be stopped between
them: *how few queens suffice* (the best set found so far, an upper bound) and
*how few could possibly do* (the solver's proven lower bound). While the two
differ the answer is only "between bound and best"; the run is over when they
meet (proven optimal) or when the time limit cuts it short. So the result
carries both numbers and the trail of improvements, never just "the answer".

A run always has a set in hand: before any model is built, a dominating set is
constructed (``cp_queens.dominate.construct``), and it is handed to the solver as
a hint (CP-SAT) or an initial solution (SCIP). A time limit that strikes while the
model is still being built, or before the solver beats the constructed set,
returns that set with the classic bound and the gap between them, never nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cp_queens.budget import Budget, Clock, check_budget
from cp_queens.dominate.check import Square, classic_lower_bound, dominates
from cp_queens.dominate.construct import greedy
from cp_queens.dominate.models import (
    AUTO,
    build_cp,
    build_mip,
    check_options,
    default_model,
    literals,
)
from cp_queens.dominate.symmetric import canonical
from cp_queens.errors import CpQueensError
from cp_queens.limits import check_bytes

if TYPE_CHECKING:
    from cp_queens.answer import Answer

#: Peak bytes per term of the covering rows (``models.literals``), model and solver
#: together: measured 358 MB (CP-SAT) and 579 MB (SCIP) at n = 100, 3.3 million terms,
#: about 110 and 175 bytes a term with the interpreter's own 100 MB; rounded up.
BYTES_PER_LITERAL = {"cp": 150.0, "mip": 200.0}
#: CPU seconds per term for a solver to take the model in before its own clock starts
#: (CP-SAT copies and presolves it), measured with a 0.1-second limit: 0.4 s at n = 100
#: (3.3 million terms), 4.7 s at n = 200 (26.5 million). With less time left than this
#: the solve is skipped: it could only overrun the limit, not improve on the constructed
#: set. (Wall seconds on a busy machine are more; the limit is on wall time.)
LOAD_SECONDS_PER_LITERAL = 1.8e-7


@dataclass(frozen=True)
class Step:
    """One moment of a run: a better set found or a better bound proved."""

    seconds: float
    best: int | None  # queens in the best set so far (the constructed set at first)
    bound: int  # proven: no set with fewer queens exists

    @property
    def gap(self) -> float | None:
        """(best - bound) / best: the share of the best set not yet proven necessary."""
        return None if self.best is None else (self.best - self.bound) / self.best


@dataclass(frozen=True)
class Domination:
    """The answer of ``dominate``: the best set, the bound, whether they meet, and how.

    ``queens`` is never empty: at worst it is the constructed set the run started from.
    ``optimal`` is False only when the time limit stopped the run before the proof.
    """

    n: int
    independent: bool
    model: str
    symmetry: str
    queens: tuple[Square, ...]  # the best set found (checked by the independent checker)
    bound: int  # the best proven lower bound (with the classic bound folded in)
    optimal: bool
    seconds: float
    statistics: dict[str, Any] = field(default_factory=dict)
    steps: tuple[Step, ...] = ()
    #: The time limit the run had (``None``: none): its record of what stopped it.
    time_limit: float | None = None

    @property
    def size(self) -> int:
        """Queens in the best set found."""
        return len(self.queens)

    @property
    def gap(self) -> float:
        """(size - bound) / size; 0 when proven optimal."""
        return (self.size - self.bound) / self.size

    def answer(self) -> Answer:
        """This result as the one ``Answer`` every command writes (``--format json``).

        The set goes in ``value`` when proven optimal, in ``partial`` when the time limit
        cut the run short (a set that works, not proven the smallest); ``bound`` and
        ``gap`` are written beside it either way, so a reader of an incomplete answer
        knows how far from the optimum it can be.
        """
        from cp_queens.answer import Answer
        from cp_queens.problem import Problem
        from cp_queens.stats import COMPLETE, STOPPED, TIME_LIMIT, Stats

        found = {"size": self.size, "queens": [list(queen) for queen in self.queens]}
        known = {"branches", "nodes", "conflicts", "status", "proof"}
        stats = Stats(
            engine=f"dominate:{self.model}",
            task="dominate",
            n=self.n,
            wall_time=self.seconds,
            solutions=1,  # one set, the best found
            # Why it stopped, as it was: unproven without a time limit means stopped (the
            # solver heard Ctrl-C), never a limit that was not set.
            status=COMPLETE if self.optimal else STOPPED if self.time_limit is None else TIME_LIMIT,
            branches=self.statistics.get("branches"),
            conflicts=self.statistics.get("conflicts"),
            time_limit=self.time_limit,
            extra={
                **({"nodes": self.statistics["nodes"]} if "nodes" in self.statistics else {}),
                "solver_status": self.statistics.get("status"),
                **{k: v for k, v in self.statistics.items() if k not in known},
            },
        )
        return Answer(
            "dominate",
            Problem(self.n),
            found if self.optimal else None,
            complete=self.optimal,
            partial=None if self.optimal else found,
            reason=stats.status,
            stats=stats,
            details={
                "independent": self.independent,
                "model": self.model,
                "symmetry": self.symmetry,
                "bound": self.bound,
                "gap": self.gap,
                "proof": self.statistics.get("proof", "none"),
            },
        )


def _interruptible(solver: Any, model: Any, listener: Any) -> Any:
    """``solver.solve``, stopped at once by Ctrl-C or SIGTERM (``KeyboardInterrupt``).

    CP-SAT takes Ctrl-C for itself and returns as if its time ran out ("stopped by the
    time limit", exit 4, with no limit set), and while it runs on the main thread no
    Python signal handler does (SIGTERM was ignored). The engines' runner solves on a
    helper thread it registers before starting it, stops and waits for it however the
    wait ends (and at exit): a search thread left running when the process ended was a
    C++ ``std::terminate``, an abort (``terminate called without an active exception``).
    """
    from cp_queens.engines._cpsat.runner import solve

    return solve(solver, model, listener)


class _OutOfTime(Exception):
    """The clock ran out, or nearly, before the search could start."""


@dataclass
class _Search:
    """What one solver run found: its set (maybe none), its bound and how it ended."""

    queens: tuple[Square, ...]
    bound: float
    searched: bool  # the solver proved its set optimal
    statistics: dict[str, Any]


def dominate(
    n: int,
    *,
    independent: bool = False,
    model: str = AUTO,
    symmetry: str = "none",
    budget: Budget | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    classic_bound: bool = True,
    on_step: Callable[[Step], None] | None = None,
) -> Domination:
    """The smallest set of queens that occupies or attacks every square of the n x n board
    (with ``independent``, of queens that do not attack each other), by CP-SAT (``cp``) or
    by SCIP on the same rows (``mip``); by default (``auto``) the one that proves the
    optimum fastest here (``default_model``), named in the result's ``model``.

    The run settings come as ``budget`` (a ``cp_queens.Budget``) or as its two keywords
    that apply here, ``time_limit`` and ``workers``, checked by ``Budget.of`` like every
    other call's. ``workers`` is how many cores the solver may use; domination runs in
    this one process, so they are the solver's threads (CP-SAT's search workers, SCIP's
    threads): ``0`` means every core, more than the cores is capped with one warning,
    and the default, 1, makes runs repeatable. A budget's ``where``, ``checkpoint`` and
    ``recheck`` have no meaning here and are refused.

    The time limit covers the whole call but loading the solver's library, as an
    engine's does: constructing the first set, building the model (seconds of Python
    on a large board) and the search. The library's import (OR-Tools, the first time:
    ``statistics["startup_time"]``) comes before the clock starts. A run cut short
    returns its best set (at worst the constructed one) and bound with ``optimal=False``.

    With ``classic_bound`` the model is told that at least ceil((n - 1) / 2) queens are
    needed (``cp_queens.dominate.check.classic_lower_bound``): a set of that size ends
    the search at once, and a constructed set of that size needs no search at all.
    ``on_step`` hears of the constructed set, then of every better set and (CP-SAT
    only) every better bound as the search runs. Every set returned has passed the
    independent checker.

    Raises:
        CpQueensError: a bad argument, or a board whose model would not fit in memory.

    Examples:
        >>> result = dominate(5)
        >>> result.size, result.optimal, result.bound
        (3, True, 3)
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise CpQueensError(f"N must be a whole number >= 1, got {n!r}")
    check_options(model, symmetry)
    if model == AUTO:
        model = default_model(n, independent)
    budget = _settings(budget, time_limit, workers)
    threads = 1 if budget.workers is None else budget.workers
    check_model_size(n, model)
    clock = budget.clock()
    floor = classic_lower_bound(n) if classic_bound else 0
    steps: list[Step] = []

    def record(best: int, bound: float) -> None:
        best = min(best, steps[-1].best if steps and steps[-1].best else best)
        bound_now = max(floor, math.ceil(bound - 1e-9), steps[-1].bound if steps else 0)
        bound_now = min(bound_now, best)
        if steps and (steps[-1].best, steps[-1].bound) == (best, bound_now):
            return  # a fractional bound that rounds to the same whole number
        step = Step(clock.elapsed(), best, bound_now)
        steps.append(step)
        if on_step is not None:
            on_step(step)

    constructed = greedy(n, independent=independent)
    record(len(constructed), floor)
    unsearched = dict.fromkeys(
        ("branches", "conflicts") if model == "cp" else ("nodes", "lp_iterations"), 0
    )
    search = _Search((), floor, False, {**unsearched, "status": "NOT_RUN"})
    startup = 0.0
    if len(constructed) > floor:  # else the classic bound proves it optimal: no search
        # The solver's library loads outside the limit, as an engine's does before its
        # call's clock starts (``Engine.prepare``): OR-Tools took 0.6 to 1.4 s of the
        # 0.3 s of ``dominate 14 --time-limit 0.3``, which then reported 1.7 s.
        startup = load_solver(model)
        clock = clock.shifted(startup)
        run = _run_cp if model == "cp" else _run_mip
        hint = canonical(n, constructed, symmetry)
        try:
            search = run(n, independent, symmetry, floor, clock, threads, hint, record)
        except _OutOfTime:
            search = _Search(
                (), floor, False, {**unsearched, "status": "TIME_LIMIT (before the search)"}
            )
    queens = constructed
    if search.queens and len(search.queens) <= len(constructed):
        queens = search.queens
    verdict = dominates(n, queens, independent=independent)
    if not verdict.ok:  # a bug in a model or the construction, never the user's fault
        raise AssertionError(f"dominate returned a wrong set: {verdict.reason}")
    bound = max(floor, math.ceil(search.bound - 1e-9))
    searched = search.searched and len(search.queens) == len(queens)
    optimal = searched or len(queens) <= bound
    bound = len(queens) if optimal else bound
    record(len(queens), bound)  # the bound that closed the gap
    statistics = {
        **search.statistics,
        "threads": threads,
        "constructed": len(constructed),
        "proof": _proof(searched, optimal, len(queens) <= floor),
        "startup_time": round(startup, 6),
    }
    seconds = clock.elapsed()
    return Domination(
        n,
        independent,
        model,
        symmetry,
        queens,
        bound,
        optimal,
        seconds,
        statistics,
        tuple(steps),
        budget.time_limit,
    )


#: The library each model's solver needs, loaded before the clock (``load_solver``).
SOLVER_MODULES = {"cp": "ortools.sat.python.cp_model", "mip": "ortools.linear_solver.pywraplp"}
#: What SCIP's child process needs loaded (a fork server imports it once).
MIP_PRELOAD = ("ortools.linear_solver.pywraplp", __name__)


def load_solver(model: str) -> float:
    """Load the solver library of ``model`` (OR-Tools: about half a second on an idle
    machine) if it is not loaded yet, and for SCIP the fork server its child starts
    from; the seconds it took (0 when all was ready).

    SCIP runs in a child process. Forked from this one, it starts with the library
    loaded; but with threads alive here (NumPy's, once the checker has loaded it) the
    child comes from a fork server, whose own start (a Python importing OR-Tools, about
    a second) would otherwise fall inside the limit: it starts here instead.
    """
    import importlib
    import time

    begun = time.perf_counter()
    importlib.import_module(SOLVER_MODULES[model])
    if model == "mip":
        from cp_queens.parallel.local import start_method

        context = start_method(MIP_PRELOAD)
        if context.get_start_method() == "forkserver":  # started, and ready: one no-op child
            ready = context.Process(target=_ready, daemon=True)  # type: ignore[attr-defined]
            ready.start()
            ready.join()
    return time.perf_counter() - begun


def _ready() -> None:
    """A child that does nothing: its start waits for the fork server to be ready."""


def _settings(budget: Budget | None, time_limit: float | None, workers: int | None) -> Budget:
    """The budget of a call: given, or made by ``Budget.of`` from its two keywords
    (checked either way); the fields that mean nothing here refused."""
    if budget is None:
        return _local(Budget.of(time_limit=time_limit, workers=workers))
    if time_limit is not None or workers is not None:
        raise CpQueensError("give budget= or time_limit=/workers=, not both")
    checked = check_budget(budget)
    assert checked is not None
    return _local(checked)


def _local(budget: Budget) -> Budget:
    for name in ("where", "checkpoint", "recheck"):
        if getattr(budget, name) is not None:
            raise CpQueensError(
                f"dominate runs in this process, so a budget's {name} has no meaning for it"
            )
    return budget


def model_bytes(n: int, model: str = "cp") -> float:
    """Rough peak bytes of the model of an n x n board and its solver (see BYTES_PER_LITERAL)."""
    return BYTES_PER_LITERAL[model] * literals(n)


def largest_n(model: str = "cp", memory: float | None = None) -> int:
    """The largest board whose model fits in ``memory`` bytes (default: what a call
    may plan on now, ``limits.MEMORY_SHARE`` of the memory available)."""
    from cp_queens.limits import MEMORY_SHARE, available_memory

    have = MEMORY_SHARE * available_memory() if memory is None else memory
    n = 1
    while model_bytes(n + 1, model) <= have:
        n += 1
    return n


def check_model_size(n: int, model: str) -> None:
    """Refuse, before anything is built, a board whose model would not fit in memory.

    The covering rows grow as n^3 (about 3.3 n^3 terms): n = 100 needs about 0.5 GB,
    n = 200 about 4 GB, n = 300 about 13 GB. Small boards are not checked.
    """
    if n <= 100:
        return
    check_bytes(
        model_bytes(n, model),
        f"the domination model '{model}' for N={n} ({literals(n):,} terms in its covering rows)",
        f"the largest board that fits now is about N={largest_n(model)}",
    )


def _ticker(clock: Clock) -> Callable[[], None]:
    """A ``tick`` for the model builders: raises ``_OutOfTime`` once the clock ran out."""

    def tick() -> None:
        if clock.expired():
            raise _OutOfTime

    return tick


def _left(clock: Clock, n: int) -> float | None:
    """Seconds left on the clock (``None``: no limit); raises ``_OutOfTime`` when they
    would not even cover the solver's taking in the model."""
    left = clock.remaining()
    if left is not None and left <= LOAD_SECONDS_PER_LITERAL * literals(n):
        raise _OutOfTime
    return left


def _run_cp(
    n: int,
    independent: bool,
    symmetry: str,
    floor: int,
    clock: Clock,
    threads: int,
    hint: tuple[Square, ...],
    record: Callable[[int, float], None],
) -> _Search:
    from ortools.sat.python import cp_model

    model, x = build_cp(
        n, independent=independent, symmetry=symmetry, at_least=floor, tick=_ticker(clock)
    )
    chosen = set(hint)
    for r in range(n):
        for c in range(n):
            model.add_hint(x[r][c], (r, c) in chosen)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = threads
    left = _left(clock, n)
    if left is not None:
        solver.parameters.max_time_in_seconds = left
    best = [len(hint)]

    class Listener(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            best[0] = min(best[0], round(self.objective_value))
            record(best[0], self.best_objective_bound)

    solver.best_bound_callback = lambda bound: record(best[0], bound)
    status = _interruptible(solver, model, Listener())
    queens: tuple[Square, ...] = ()
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        queens = tuple((r, c) for r in range(n) for c in range(n) if solver.boolean_value(x[r][c]))
    statistics = {
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        "status": solver.status_name(status),
    }
    return _Search(queens, solver.best_objective_bound, status == cp_model.OPTIMAL, statistics)


def _run_mip(
    n: int,
    independent: bool,
    symmetry: str,
    floor: int,
    clock: Clock,
    threads: int,
    hint: tuple[Square, ...],
    record: Callable[[int, float], None],
) -> _Search:
    """SCIP on the covering rows, in a child process that we can stop.

    In this process neither Ctrl-C nor SIGTERM could stop it: pywraplp's ``Solve``
    holds the interpreter (no Python signal handler runs until it returns), and SCIP
    takes Ctrl-C for itself, prints "pressed CTRL-C" on stdout and returns as if its
    time ran out. The child ignores Ctrl-C (SCIP is told not to catch it) and is
    killed the moment ours arrives; its output goes to a file, never to stdout.
    """
    from cp_queens.engines._child import ChildRun

    run = ChildRun(
        _mip_child,
        (n, independent, symmetry, floor, clock, threads, hint),
        what="dominate (SCIP)",
        clock=clock,
        preload=MIP_PRELOAD,
    )
    found: tuple[Any, ...] | None = None
    for message in run.messages():
        if message[0] == "out of time":
            raise _OutOfTime
        if message[0] == "done":
            found = message[1:]
    if found is None:  # the child overran the deadline and was killed
        return _Search((), floor, False, {"nodes": 0, "lp_iterations": 0, "status": "TIME_LIMIT"})
    queens, proved, optimal, statistics = found
    if queens:
        record(len(queens), proved)
    return _Search(tuple(queens), proved, optimal, statistics)


def _mip_child(
    n: int,
    independent: bool,
    symmetry: str,
    floor: int,
    clock: Clock,
    threads: int,
    hint: tuple[Square, ...],
    send: Callable[[tuple[Any, ...]], None],
) -> None:
    """``_run_mip``'s child: build, solve, send ``("done", queens, bound, optimal,
    statistics)`` (or ``("out of time",)`` when the call's clock, the parent's own,
    ran out first). The statistics carry the child's CPU seconds (``child_cpu_time``):
    they are not in the parent's own CPU time, and a benchmark needs them."""
    import time

    from ortools.linear_solver import pywraplp

    begun = time.process_time()
    try:
        solver, x = build_mip(
            n, independent=independent, symmetry=symmetry, at_least=floor, tick=_ticker(clock)
        )
        left = _left(clock, n)
    except _OutOfTime:
        send(("out of time",))
        return
    solver.SetSolverSpecificParametersAsString("misc/catchctrlc = FALSE\n")
    chosen = set(hint)
    variables = [x[r][c] for r in range(n) for c in range(n)]
    solver.SetHint(variables, [1.0 if divmod(i, n) in chosen else 0.0 for i in range(n * n)])
    if left is not None:
        solver.SetTimeLimit(max(1, int(left * 1000)))
    if threads > 1:
        solver.SetNumThreads(threads)
    status = solver.Solve()
    queens: tuple[Square, ...] = ()
    if status in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
        queens = tuple((r, c) for r in range(n) for c in range(n) if x[r][c].solution_value() > 0.5)
    proved = solver.Objective().BestBound() if queens else 0.0
    statistics = {
        "nodes": solver.nodes(),
        "lp_iterations": solver.iterations(),
        "status": _MIP_STATUS.get(status, str(status)),
        "child_cpu_time": round(time.process_time() - begun, 3),
    }
    send(("done", queens, proved, status == pywraplp.Solver.OPTIMAL, statistics))


def _proof(searched: bool, optimal: bool, on_floor: bool) -> str:
    """Who proved the set optimal: the solver's search (its status, or its bound meeting
    the set), or the classic bound the set meets."""
    if not optimal:
        return "none"
    return "classic bound" if on_floor and not searched else "search"


_MIP_STATUS = {0: "OPTIMAL", 1: "FEASIBLE", 2: "INFEASIBLE", 3: "UNBOUNDED", 6: "NOT_SOLVED"}


def lp_bound(n: int, *, independent: bool = False) -> float:
    """The optimum of the LP relaxation (x in [0, 1] instead of {0, 1}): a lower bound
    that a MIP solver starts from, and how far below the classic bound it stays."""
    solver, _ = build_mip(n, independent=independent, relaxed=True)
    solver.Solve()
    return float(solver.Objective().Value())
