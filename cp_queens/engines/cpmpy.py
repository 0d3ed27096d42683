"""``cpmpy``: the card's model written once in CPMpy, run on any of CPMpy's solvers.

The model (``build_model``) is the design card's, as in ``cpsat/model.py``::

    q[r] in 0..n-1            the column of the queen in row r
    AllDifferent(q)           no two queens in one column
    AllDifferent(q[r] + r)    no two on one "/" diagonal
    AllDifferent(q[r] - r)    no two on one "\\" diagonal

Given queens and blocked squares shrink it: a given queen's row has no
variable, and a free row's closed columns are removed from its domain.

The option ``solver`` picks the backend; each has its own way to enumerate,
which is what a comparison of them measures as much as the search itself:

============  ==========================  =========================================
solver        family                      how ``solutions`` / ``count`` enumerate
============  ==========================  =========================================
``ortools``   lazy clause generation      native: CP-SAT's solution callback, one
              (CP-SAT)                    search (a worker thread hands solutions
                                          over a bounded queue: flat memory)
``choco``     CP with propagation         native: Choco's ``solve()`` called again
                                          returns the next solution of one search
``exact``     pseudo-Boolean              in the solver: Exact excludes each solution
                                          itself (``invalidateLastSol``) and goes on,
                                          no round trip through CPMpy
``pumpkin``   lazy clause generation      blocking
``pysat``     SAT (PySAT's default        blocking (the integers and sums are
              solver; needs ``pypblib``)  encoded to clauses, the sums by PBLib)
============  ==========================  =========================================

``enumeration="blocking"`` forces CPMpy's generic blocking route (solve, add
a clause forbidding the solution, solve again) on ``ortools``, ``choco`` and
``exact`` too, to show what the native route saves. Blocking is a true
generator but not flat memory: after k solutions the solver holds k extra
clauses, and each new search starts over with them, so its cost grows faster
than the number of solutions (``docs/solvers.md`` has the numbers).

Statistics are the solver's own where CPMpy reaches them: CP-SAT's branches
and conflicts, Choco's nodes and fails, PySAT's decisions and conflicts;
``extra["solver_calls"]`` counts the searches started.
"""

from __future__ import annotations

import queue
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from cp_queens.budget import Clock
from cp_queens.engines import register
from cp_queens.engines._reported import Reported
from cp_queens.engines.base import Call, Engine
from cp_queens.errors import CpQueensError
from cp_queens.handover import QUEUE_SIZE, put_unless_stopped
from cp_queens.problem import Placement, Problem, Residue
from cp_queens.stats import TIME_LIMIT

#: The CPMpy backends this engine offers, each a family of solvers.
FAMILIES = {
    "ortools": "lazy clause generation",
    "choco": "CP with propagation",
    "exact": "pseudo-Boolean",
    "pumpkin": "lazy clause generation",
    "pysat": "SAT",
}
SOLVERS = tuple(FAMILIES)
#: Backends with a native enumeration (no blocking clauses).
NATIVE = frozenset({"ortools", "choco", "exact"})
#: Backends whose solver must stay on the thread that made it.
ON_CALLER_THREAD = frozenset({"pumpkin", "pysat"})
ENUMERATIONS = ("auto", "native", "blocking")
#: What each backend costs, for the checks before work (``cp_queens.limits``). Measured
#: with ``build_model`` and the backend's constructor (where CPMpy transforms and
#: encodes) at n = 8..200 on the 2-core development machine under a load of 6 to 9,
#: the times then halved for an idle machine. The encodings that cannot look at the
#: clock are the pseudo-Boolean one of ``exact`` (n = 50: 11.5 s, 94 MB; about n^2)
#: and the SAT one of ``pysat`` (n = 16: 3.4 s, 68 MB; n = 20: 14.7 s, 311 MB; n = 24:
#: 49 s, 529 MB; about n^5 seconds and n^4 bytes, not halved): a limit shorter than
#: their setup ends the call at once, a board whose encoding cannot fit is refused.
COSTS: dict[str, dict[str, float | None]] = {
    # n = 200: 36 s of CPU under a load of 20 for one solution, mostly CPMpy's
    # transformations (about 9e-4 s a square; halved as above).
    "ortools": {
        "bytes_per_square": 300,
        "setup_seconds_per_square": 4.5e-4,
        "seconds_per_solution": 1e-3,
    },
    "choco": {"bytes_per_square": 500, "seconds_per_solution": 1e-3},
    "exact": {
        "bytes_per_square": 40_000,
        "setup_seconds_per_square": 2e-3,
        "seconds_per_solution": 1e-2,
    },
    "pumpkin": {"bytes_per_square": 300, "seconds_per_solution": 1e-2},
    "pysat": {
        "bytes_per_square": 1_600,
        "memory_growth": 4,
        "setup_seconds_per_square": 5e-6,
        "setup_growth": 5,
        "seconds_per_solution": 1e-2,
    },
}
INSTALL = "the 'solvers' extra: pip install '.[solvers]' in a clone"

_DONE = object()


class _Stop(Exception):
    """Raised in a blocking loop's callback once the consumer has stopped reading."""


def build_model(problem: Problem) -> tuple[Any, list[Any], Residue]:
    """The card's model in CPMpy on the free rows of ``problem``: ``(model, q, residue)``."""
    import cpmpy as cp

    residue = problem.residue()
    rows = residue.rows
    model = cp.Model()
    q = []
    for i, row in enumerate(rows):
        columns = residue.open_columns(i)
        if not columns:  # a free row with no open square: no completion exists
            model += cp.BoolVal(False)
            columns = (0,)
        var = cp.intvar(columns[0], columns[-1], name=f"q{row}")
        model += [var != c for c in range(columns[0], columns[-1] + 1) if c not in columns]
        q.append(var)
    if len(q) > 1:
        model += cp.AllDifferent(q)
        model += cp.AllDifferent([v + r for v, r in zip(q, rows, strict=True)])
        model += cp.AllDifferent([v - r for v, r in zip(q, rows, strict=True)])
    return model, q, residue


@register
class CpmpyEngine(Engine):
    """The card's model in CPMpy on the backend ``solver`` (see the module docstring).

    Examples:
        >>> engine = CpmpyEngine(solver="ortools")
        >>> engine.count(Problem(6)).value, engine.family
        (4, 'lazy clause generation')
    """

    name = "cpmpy"
    description = "the card's model in CPMpy on any CPMpy solver (solver=ortools, choco, ...)"
    option_choices: ClassVar[dict[str, tuple[str, ...]]] = {
        "solver": SOLVERS,
        "enumeration": ENUMERATIONS,
    }
    #: Costs for the checks before work (see cp_queens.limits): CPMpy builds a model of
    #: n variables and 3 AllDifferent, then the backend's own; each backend's figures
    #: (``COSTS``) replace these on the instance.
    bytes_per_square = 300
    seconds_per_solution = 1e-3

    def __init__(self, *, solver: str = "ortools", enumeration: str = "auto") -> None:
        super().__init__()
        if solver not in SOLVERS:
            raise CpQueensError(
                f"cpmpy: unknown solver '{solver}' (choose from {', '.join(SOLVERS)})"
            )
        if enumeration not in ENUMERATIONS:
            raise CpQueensError(
                f"cpmpy: unknown enumeration '{enumeration}' (choose from "
                f"{', '.join(ENUMERATIONS)})"
            )
        if enumeration == "native" and solver not in NATIVE:
            raise CpQueensError(
                f"cpmpy: solver '{solver}' has no native enumeration through CPMpy "
                f"(only {', '.join(sorted(NATIVE))}); use enumeration=blocking or auto"
            )
        _check_installed(solver)
        self.solver = solver
        self.family = FAMILIES[solver]
        for figure, value in COSTS[solver].items():
            setattr(self, figure, value)
        native = solver in NATIVE and enumeration != "blocking"
        self.enumeration = "native" if native else "blocking"

    # -- tasks ----------------------------------------------------------------

    # -- in a child process (see cp_queens.engines._child) ---------------------
    #
    # CPMpy's transformations and encodings cannot be interrupted (the SAT encoding of
    # n = 200 takes minutes and gigabytes before the solver starts), Choco's JVM ends
    # the whole process when it cannot start, and backends print their own noise
    # (Pumpkin's "unsendable" traceback): so every call runs in a child process tied
    # to ours, killed at the deadline plus a grace whatever it does, its output kept
    # out of the user's terminal.

    #: True in the child process itself: the calls run there, in-process.
    in_child = False

    def _first(self, problem: Problem, call: Call) -> Placement | None:
        if not problem.residue().rows:
            return problem.residue().place([])  # every queen given: the board is its answer
        if self.in_child:
            return self._first_here(problem, call)
        found = None
        for message in self._child(call, "first", problem):
            if message[0] == "done" and message[1] is not None:
                found = Placement(message[1])
        return found

    def _count(self, problem: Problem, call: Call) -> int:
        if not problem.residue().rows:
            return 1  # every queen given (a solver without variables finds nothing to count)
        if self.in_child:
            if self.solver == "ortools" and self.enumeration == "native":
                return self._count_in_callback(problem, call)
            return super()._count(problem, call)
        total = 0
        for message in self._child(call, "count", problem):
            if message[0] in ("report", "done"):
                total = message[1]
            if message[0] == "report":
                call.report(total)
        return total

    def _solutions(self, problem: Problem, call: Call) -> Iterator[Placement]:
        if not problem.residue().rows:
            return iter([problem.residue().place([])])  # every queen given
        if self.in_child:
            return self._solutions_here(problem, call)
        return self._streamed(problem, call)

    def _streamed(self, problem: Problem, call: Call) -> Iterator[Placement]:
        for message in self._child(call, "solutions", problem):
            if message[0] == "solutions":
                yield from map(Placement, message[1])

    def _child(self, call: Call, task: str, problem: Problem) -> Iterator[tuple[Any, ...]]:
        """The messages of ``task`` run in a child process; its figures land in ``call``."""
        from cp_queens.engines._child import ChildRun

        run = ChildRun(
            _run_in_child,
            (self.solver, self.enumeration, task, problem, call.clock),
            what=f"cpmpy ({self.solver})",
            clock=call.clock,
            preload=("cpmpy",),
        )
        for message in run.messages():
            if message[0] == "done":
                _apply(call, message[2])
            yield message
        if run.timed_out:  # killed at the deadline, in a phase that could not stop itself
            call.stop_for_time()

    # -- in this process (the child's side) ------------------------------------

    def _first_here(self, problem: Problem, call: Call) -> Placement | None:
        model, q, _ = build_model(problem)
        if call.expired():
            call.stop_for_time()
            return None
        solver = self._backend(model, q, call)
        if call.expired():
            call.stop_for_time()
            return None
        found = self._solve(solver, call)
        self._record(solver, call)
        if found is None:
            return None
        # The backend's word is checked before it is believed (engines/_reported.py).
        return Reported(problem, f"cpmpy ({self.solver})").residue_row([int(v.value()) for v in q])

    def _solutions_here(self, problem: Problem, call: Call) -> Iterator[Placement]:
        """Every board the backend reports, checked (valid, new) before it is counted or
        sent (engines/_reported.py): the backend is not our code."""
        checker = Reported(problem, f"cpmpy ({self.solver})")
        stream = self._reported_here(problem, call)
        try:
            for placement in stream:
                yield checker.board(placement)
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()

    def _reported_here(self, problem: Problem, call: Call) -> Iterator[Placement]:
        model, q, residue = build_model(problem)
        if call.expired():
            call.stop_for_time()
            return iter(())
        solver = self._backend(model, q, call)
        if self.solver == "choco" and self.enumeration == "native":
            return self._choco_next(solver, q, residue, call)
        if self.solver in ON_CALLER_THREAD:
            return self._blocking(solver, q, residue, call)
        return self._callback_stream(solver, q, residue, call)

    # -- the ways to enumerate ------------------------------------------------

    def _blocking(
        self, solver: Any, q: list[Any], residue: Residue, call: Call
    ) -> Iterator[Placement]:
        """Solve, forbid the solution found with one clause, solve again: on the
        consumer's own thread, for backends whose solver object must stay on the
        thread that made it (Pumpkin's Rust core panics on another)."""
        import cpmpy as cp

        calls = 0
        try:
            while True:
                if call.expired():
                    call.stop_for_time()
                    return
                calls += 1
                if self._solve(solver, call) is None:
                    return
                values = [int(v.value()) for v in q]
                yield residue.place(values)
                if not q:
                    return  # the one solution of a board with nothing left to place
                if not _block_in_pysat(solver, q, values):
                    solver += cp.any([v != x for v, x in zip(q, values, strict=True)])
        finally:
            call.stats.extra["solver_calls"] = calls
            self._record(solver, call)

    def _choco_next(
        self, solver: Any, q: list[Any], residue: Residue, call: Call
    ) -> Iterator[Placement]:
        """Choco's own enumeration: each ``solve()`` of one search returns the next solution."""
        chosen = [solver.solver_var(v) for v in q]
        choco = solver.chc_model.get_solver()
        remaining = call.remaining()
        if remaining is not None:
            # Set once: Choco's limit counts from the start of its one search.
            choco.limit_time(f"{max(remaining, 0.001):.3f}s")
        try:
            while not call.expired():
                if not choco.solve():
                    # No next solution: the search is over (TERMINATED) or its limit hit.
                    if choco.get_search_state() != "TERMINATED":
                        call.stop_for_time()
                    return
                yield residue.place([int(v.get_value()) for v in chosen])
            call.stop_for_time()
        finally:
            _choco_figures(choco, call)

    def _callback_stream(
        self, solver: Any, q: list[Any], residue: Residue, call: Call
    ) -> Iterator[Placement]:
        """CPMpy's ``solveAll`` on a worker thread, its solutions over a bounded queue.

        ``solveAll`` calls us back for each solution (from inside CP-SAT's search, or
        between the searches of a blocking loop); a generator must be driven by its
        consumer, so the two meet at a queue of at most a few hundred solutions.
        When the consumer stops, CP-SAT is told ``stop_search()``; a blocking loop is
        left by an exception raised in its callback.
        """
        handover: queue.Queue = queue.Queue(maxsize=QUEUE_SIZE)
        stop = threading.Event()
        done = threading.Event()
        outcome: dict[str, Any] = {}
        solve_all = self._solve_all(solver)

        def display() -> None:
            if not put_unless_stopped(handover, [int(v.value()) for v in q], stop):
                if self.solver == "ortools" and self.enumeration == "native":
                    solver.ort_solver.stop_search()
                else:
                    raise _Stop

        def run() -> None:
            try:
                outcome["found"] = solve_all(display=display, **self._limit(call))
            except _Stop:
                pass
            except BaseException as error:  # handed to the consumer below
                outcome["error"] = error
            finally:
                put_unless_stopped(handover, _DONE, stop)
                done.set()

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "solver state will be invalid": we drop it
            threading.Thread(target=run, name="cp-queens-cpmpy", daemon=True).start()
        finished = False
        try:
            while (item := handover.get()) is not _DONE:
                yield residue.place(item)
            finished = True
        finally:
            stop.set()
            while not done.wait(0.05):
                ort = getattr(solver, "ort_solver", None)
                if ort is not None:
                    ort.stop_search()
            if "error" in outcome:
                raise outcome["error"]
            self._record(solver, call)
            if finished and not _proven(solver):
                call.stop_for_time()

    def _solve_all(self, solver: Any) -> Any:
        """The backend's own ``solveAll``, or CPMpy's generic blocking loop."""
        if self.enumeration == "blocking":
            from cpmpy.solvers.solver_interface import SolverInterface

            return SolverInterface.solveAll.__get__(solver)
        return solver.solveAll

    def _count_in_callback(self, problem: Problem, call: Call) -> int:
        """CP-SAT counts in its callback: no thread, no queue, nothing kept."""
        model, q, _ = build_model(problem)
        solver = self._backend(model, q, call)
        if call.expired():
            call.stop_for_time()
            return 0
        found = [0]

        def display() -> None:
            found[0] += 1
            if found[0] % 4096 == 0:
                call.report(found[0])

        solver.solveAll(display=display, **self._limit(call))
        self._record(solver, call)
        if not _proven(solver):
            call.stop_for_time()
        return found[0]

    # -- the backend ----------------------------------------------------------

    def _backend(self, model: Any, q: list[Any], call: Call) -> Any:
        import cpmpy as cp

        call.stats.extra["solver"] = self.solver
        call.stats.extra["enumeration"] = self.enumeration
        call.stats.extra["family"] = self.family
        solver = cp.SolverLookup.get(self.solver, model)
        # A variable in no constraint (n = 1) is unknown to the solver and gets no value.
        solver.user_vars.update(q)
        return solver

    @staticmethod
    def _limit(call: Call) -> dict[str, float]:
        remaining = call.remaining()
        return {} if remaining is None else {"time_limit": max(remaining, 0.001)}

    def _solve(self, solver: Any, call: Call) -> bool | None:
        """One search: True with a solution, None when there is none (or time ran out)."""
        if solver.solve(**self._limit(call)):
            return True
        if not _proven(solver):
            call.stop_for_time()
        return None

    def _record(self, solver: Any, call: Call) -> None:
        """The solver's own figures, where CPMpy reaches them."""
        stats = call.stats
        status = solver.status()
        stats.extra["solver_status"] = status.exitstatus.name
        if self.solver == "ortools" and hasattr(solver, "ort_solver"):
            stats.branches = solver.ort_solver.num_branches
            stats.conflicts = solver.ort_solver.num_conflicts
        elif self.solver == "pysat" and hasattr(solver, "pysat_solver"):
            figures = solver.pysat_solver.accum_stats() or {}
            stats.branches = figures.get("decisions")
            stats.conflicts = figures.get("conflicts")
        elif self.solver == "choco" and hasattr(solver, "chc_solver"):
            _choco_figures(solver.chc_solver, call)


#: Solutions the child sends in one message (fewer when they come slowly).
BATCH = 256


def _run_in_child(
    solver: str,
    enumeration: str,
    task: str,
    problem: Problem,
    clock: Clock,
    send: Callable[[tuple[Any, ...]], None],
) -> None:
    """The child's side of a call: run ``task`` here and send what it finds.

    ``("report", count)`` now and then while counting, ``("solutions", [columns, ...])``
    in batches (sent at once while they come slowly), then ``("done", answer, figures)``.
    """
    import time

    from cp_queens.stats import Stats

    engine = CpmpyEngine(solver=solver, enumeration=enumeration)
    engine.in_child = True
    call = Call(task, problem, Stats(engine=engine.name, task=task, n=problem.n))
    call.clock = clock  # the parent's: its monotonic time is the machine's
    call.progress = lambda progress: send(("report", progress.solutions))
    answer: Any = None
    if task == "first":
        found = engine._first(problem, call)
        answer = None if found is None else tuple(found)
    elif task == "count":
        answer = engine._count(problem, call)
    else:
        batch: list[tuple[int, ...]] = []
        sent = 0.0
        for placement in engine._solutions(problem, call):
            batch.append(tuple(placement))
            if len(batch) >= BATCH or time.monotonic() - sent > 0.05:
                send(("solutions", batch))
                batch, sent = [], time.monotonic()
        if batch:
            send(("solutions", batch))
    stats = call.stats
    figures = {
        "status": stats.status,
        "branches": stats.branches,
        "conflicts": stats.conflicts,
        "extra": dict(stats.extra),
    }
    send(("done", answer, figures))


def _apply(call: Call, figures: dict[str, Any]) -> None:
    """The child's statistics, into the parent's call."""
    stats = call.stats
    stats.branches = figures["branches"]
    stats.conflicts = figures["conflicts"]
    stats.extra.update(figures["extra"])
    if figures["status"] == TIME_LIMIT:
        call.stop_for_time()


def _choco_figures(choco: Any, call: Call) -> None:
    """Choco's fails and backtracks (pychoco 0.4's node count returns the time instead)."""
    call.stats.conflicts = choco.get_fail_count()
    call.stats.extra["backtracks"] = choco.get_backtrack_count()


def _block_in_pysat(solver: Any, q: list[Any], values: list[int]) -> bool:
    """Forbid a solution with one clause straight into PySAT, over the literals of
    ``q[i] == values[i]`` in CPMpy's encoding of the integers: the same clause CPMpy
    would add, without running its transformations for every solution (they took
    half of a count's time). False when this is not PySAT or not the direct encoding.
    """
    ivarmap = getattr(solver, "ivarmap", None)
    sat = getattr(solver, "pysat_solver", None)
    if ivarmap is None or sat is None:
        return False
    from cpmpy.expressions.variables import _BoolVarImpl

    try:
        literals = [ivarmap[v.name].eq(x) for v, x in zip(q, values, strict=True)]
    except (KeyError, AttributeError):
        return False
    if not all(isinstance(lit, _BoolVarImpl) for lit in literals):
        return False
    sat.add_clause([solver.solver_var(~lit) for lit in literals])
    return True


def _proven(solver: Any) -> bool:
    """The last search ended by proof: every solution found, or none exists.

    After ``solveAll`` CPMpy says FEASIBLE when the time limit stopped the enumeration
    with solutions found, so only OPTIMAL and UNSATISFIABLE are proofs.
    """
    from cpmpy.solvers.solver_interface import ExitStatus

    return solver.status().exitstatus in (ExitStatus.OPTIMAL, ExitStatus.UNSATISFIABLE)


def _check_installed(solver: str) -> None:
    """A backend that is not installed: one line naming what to install."""
    try:
        import cpmpy as cp
    except ImportError:
        raise CpQueensError(f"engine 'cpmpy' needs CPMpy: {INSTALL}") from None
    import importlib.util

    if solver == "choco":
        # Only look: importing pychoco starts its JVM, which ends this whole process
        # (exit 1, "graal_create_isolate error") when it cannot reserve its memory.
        # The child process of each call imports it, where that failure is ours to report.
        supported = importlib.util.find_spec("pychoco") is not None
    else:
        try:
            supported = cp.SolverLookup.lookup(solver).supported()
        except Exception:
            supported = False
    if supported and solver == "pysat":
        supported = importlib.util.find_spec("pypblib") is not None
    if not supported:
        raise CpQueensError(
            f"cpmpy: solver '{solver}' is not installed here ({INSTALL}; pysat also needs "
            "pypblib and pindakaas)"
        )
