"""Running a CP-SAT model: one solution, a count, or a stream of solutions.

Shared by every CP-SAT formulation (``cpsat``, ``cpsat-board``): the model
files only build a model and say how to read a placement out of a solution;
this module owns the solver parameters and the solution callback.

Exact enumeration needs care, checked against the reference in the tests:

* ``enumerate_all_solutions = True`` makes the solver continue after each
  solution and keeps presolve from removing feasible solutions;
* ``num_workers = 1``: enumeration is only defined for one worker. With more
  workers the solver was seen here to report OPTIMAL while 12 of the 92
  solutions of 8 queens were missing, and other settings gave duplicates.

Streaming: CP-SAT calls us back from its own thread, but a Python generator
must be driven by its consumer. So ``stream`` runs the solver on a worker
thread that hands solutions over a bounded queue. When the consumer stops
(``limit`` reached, ``close()``, ``break``), the callback sees the stop flag
and calls ``StopSearch()``, the thread ends, and memory never holds more than
the queue's few hundred placements however many solutions exist.
"""

from __future__ import annotations

import atexit
import queue
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from ortools.sat.python import cp_model

from cp_queens.engines._cpsat.settings import SolverSettings
from cp_queens.handover import QUEUE_SIZE, put_unless_stopped
from cp_queens.problem import Placement
from cp_queens.stats import COMPLETE, STOPPED, TIME_LIMIT, Stats

# OR-Tools finishes loading on its first CpModel (a NumPy version check, the method
# aliases: 15-30 ms): here, with the import, not in the first model a call builds.
cp_model.CpModel()

#: Reads the columns of one solution inside a solution callback.
Decoder = Callable[[cp_model.CpSolverSolutionCallback], tuple[int, ...]]

#: Seconds between two progress reports of a count.
PROGRESS_EVERY = 0.2

_DONE = object()

#: Streams whose solver thread may still run: stopped and joined at interpreter exit, because
#: a C++ solver thread still running when the interpreter tears down aborts the process.
_LIVE: weakref.WeakSet[_SolverThread] = weakref.WeakSet()


#: Time CP-SAT's presolve and its search apart (``presolve_time``, ``search_time`` in the
#: statistics), from the lines of its own log that start them, read as CP-SAT writes them
#: (its response reports only the whole solve's time). Off by default: the log costs a
#: few tenths of a millisecond a solve, a tenth of a small one. ``compare`` turns it on
#: in the process of each of its runs.
TIME_PHASES = False

#: Which log line starts which phase: ``Starting presolve at 0.00s``, ``Starting search
#: at 0.00s with 1 workers.``
_PHASE_LINES = {"Starting presolve": "presolve", "Starting search": "search"}

#: The moments each watched solver started its phases (``time.perf_counter()``).
_PHASES: weakref.WeakKeyDictionary[cp_model.CpSolver, dict[str, float]] = (
    weakref.WeakKeyDictionary()
)


def watch_phases(solver: cp_model.CpSolver) -> None:
    """With ``TIME_PHASES``: note when ``solver`` starts presolving and searching.

    The log goes to the callback only (to stdout as well when the user asked for it).
    """
    if not TIME_PHASES:
        return
    marks: dict[str, float] = {}
    params = solver.parameters
    if not params.log_search_progress:
        params.log_search_progress = True
        params.log_to_stdout = False

    def line(text: str) -> None:
        if text.startswith("Starting "):  # one test for the thousands of other lines
            for start, phase in _PHASE_LINES.items():
                if text.startswith(start) and phase not in marks:
                    marks[phase] = time.perf_counter()

    solver.log_callback = line
    _PHASES[solver] = marks


def _record_phases(stats: Stats, solver: cp_model.CpSolver) -> None:
    """``presolve_time`` and ``search_time`` of a watched solver, as far as it got."""
    marks = _PHASES.pop(solver, None)
    if not marks or "presolve" not in marks:
        return
    ended = time.perf_counter()
    searched = marks.get("search", ended)
    stats.extra["presolve_time"] = round(searched - marks["presolve"], 6)
    if "search" in marks:
        stats.extra["search_time"] = round(ended - searched, 6)


def record(
    stats: Stats, solver: cp_model.CpSolver, status: cp_model.CpSolverStatus, stopped: bool
) -> None:
    """Copy the solver's own figures into ``stats``.

    Raises:
        EngineOptionError: CP-SAT refused the call before searching (``MODEL_INVALID``):
            our models are checked by the tests, so it is the user's ``parameters``
            (``num_search_workers`` beside the ``num_workers`` we set); not a time limit.
    """
    if status == cp_model.MODEL_INVALID:
        from cp_queens.errors import EngineOptionError

        said = solver.solution_info() or "no reason given"
        raise EngineOptionError(
            f"CP-SAT refused to solve: {said} (check the parameters given to the engine)"
        )
    stats.branches = solver.num_branches
    stats.conflicts = solver.num_conflicts
    stats.extra["solver_status"] = solver.status_name(status)
    stats.extra["solver_wall_time"] = round(solver.wall_time, 4)
    _record_phases(stats, solver)
    if stopped:
        stats.status = STOPPED
    elif status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        stats.status = COMPLETE
    else:
        # Ctrl-C never gets here (see solve()): unfinished means a limit stopped the search.
        stats.status = TIME_LIMIT


def solve(
    solver: cp_model.CpSolver,
    model: cp_model.CpModel,
    callback: cp_model.CpSolverSolutionCallback | None = None,
) -> cp_model.CpSolverStatus:
    """``solver.solve``, but a Ctrl-C stops it at once and arrives as ``KeyboardInterrupt``.

    CP-SAT would otherwise catch Ctrl-C itself and return as if its time ran out,
    which cannot be told apart from a real time limit. So on the main thread the
    search runs on a helper thread while the main thread waits in short slices,
    where Python's own handler raises ``KeyboardInterrupt``; the search is then
    stopped and waited for, so no solver thread outlives the call.
    """
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model, callback)  # signals are delivered to the main thread only
    search = _SolverThread(solver, model, callback)
    try:
        while not search.done.wait(0.05):
            pass
    finally:
        search.end()  # at once when the search is over; else (Ctrl-C) stop it and wait
    return search.result()


class _First(cp_model.CpSolverSolutionCallback):
    """Takes the first solution in the solution callback, as the card's model hands every
    solution over (a model with no objective stops at its first solution anyway)."""

    def __init__(self, decode: Decoder) -> None:
        super().__init__()
        self._decode = decode
        self.found: tuple[int, ...] | None = None

    def on_solution_callback(self) -> None:
        if self.found is None:
            self.found = self._decode(self)


def first(
    model: cp_model.CpModel, decode: Decoder, settings: SolverSettings, stats: Stats
) -> Placement | None:
    """One solution with all workers (the portfolio), through the callback, or ``None``."""
    solver = settings.solver(enumerate_all=False)
    watch_phases(solver)
    callback = _First(decode)
    status = solve(solver, model, callback)
    record(stats, solver, status, stopped=False)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # The callback saw it; a CpSolver answers value() like a callback, should it not have.
        found = callback.found if callback.found is not None else decode(solver)  # type: ignore[arg-type]
        return Placement(found)
    return None


class _Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self, progress: Callable[[int], None] | None) -> None:
        super().__init__()
        self.count = 0
        self._progress = progress
        self._last_report = time.perf_counter()

    def on_solution_callback(self) -> None:
        self.count += 1
        if self._progress is not None:
            now = time.perf_counter()
            if now - self._last_report >= PROGRESS_EVERY:
                self._last_report = now
                self._progress(self.count)


def count(
    model: cp_model.CpModel,
    settings: SolverSettings,
    stats: Stats,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Count every solution in the callback, keeping none of them."""
    solver = settings.solver(enumerate_all=True)
    watch_phases(solver)
    counter = _Counter(progress)
    status = solve(solver, model, counter)
    record(stats, solver, status, stopped=False)
    return counter.count


#: Takes the columns of each solution inside the solver's callback; False stops the search.
Visitor = Callable[[tuple[int, ...]], bool]


class _Visit(cp_model.CpSolverSolutionCallback):
    def __init__(self, decode: Decoder, visitor: Visitor) -> None:
        super().__init__()
        self._decode = decode
        self._visitor = visitor
        self.stopped = False
        self.error: BaseException | None = None

    def on_solution_callback(self) -> None:
        try:
            go_on = self._visitor(self._decode(self))
        except BaseException as error:  # re-raised by visit() once the solver returns
            self.error, go_on = error, False
        if not go_on:
            self.stopped = True
            self.stop_search()


def visit(
    model: cp_model.CpModel,
    decode: Decoder,
    settings: SolverSettings,
    stats: Stats,
    visitor: Visitor,
) -> None:
    """Hand every solution to ``visitor`` right in the callback: no thread, no queue.

    For a caller that keeps up with the solver anyway (the fast path's worker
    processes): measured about a third cheaper per solution than ``stream``,
    which must hand each solution over to another thread.
    """
    solver = settings.solver(enumerate_all=True)
    watch_phases(solver)
    callback = _Visit(decode, visitor)
    status = solve(solver, model, callback)
    record(stats, solver, status, stopped=callback.stopped)
    if callback.error is not None:
        raise callback.error


class _Handover(cp_model.CpSolverSolutionCallback):
    """Puts each solution on a bounded queue; stops the search once told to."""

    def __init__(self, decode: Decoder, out: queue.Queue, stop: threading.Event) -> None:
        super().__init__()
        self._decode = decode
        self._out = out
        self._stop = stop
        self.produced = 0

    def on_solution_callback(self) -> None:
        self.produced += 1
        if not put_unless_stopped(self._out, self._decode(self), self._stop):
            self.stop_search()


class _SolverThread:
    """One CP-SAT search on a daemon thread, with a stop flag, that anyone can end.

    Waiting uses an event, never ``Thread.join``: on Python 3.11 a join that a
    Ctrl-C interrupts marks the thread as stopped while it still runs, and a
    CP-SAT thread still running when the interpreter exits aborts the process.
    """

    def __init__(
        self,
        solver: cp_model.CpSolver,
        model: cp_model.CpModel,
        callback: cp_model.CpSolverSolutionCallback | None,
        after: Callable[[], object] | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        self.solver = solver
        self.stop = stop or threading.Event()
        self.done = threading.Event()
        self._outcome: dict[str, Any] = {}
        # Ctrl-C belongs to Python (see solve()); on a thread CP-SAT's own handler aborts.
        solver.parameters.catch_sigint_signal = False

        def run() -> None:
            try:
                self._outcome["status"] = solver.solve(model, callback)
            except BaseException as error:  # handed to the caller by result()
                self._outcome["error"] = error
            finally:
                self.done.set()
            if after is not None:
                after()

        _LIVE.add(self)
        threading.Thread(target=run, name="cp-queens-cpsat", daemon=True).start()

    def end(self) -> None:
        """Stop the search (also while it finds nothing) and wait until it has returned."""
        self.stop.set()
        if not self.done.is_set():
            self.solver.stop_search()
            while not self.done.wait(0.1):
                self.solver.stop_search()  # in case the search had not yet started
        _LIVE.discard(self)

    def result(self) -> cp_model.CpSolverStatus:
        """The solver's status, or its exception raised here."""
        if "error" in self._outcome:
            raise self._outcome["error"]
        return self._outcome["status"]


@atexit.register
def _end_live_streams() -> None:
    """A generator left open at exit (never closed, or kept alive by a traceback) ends here."""
    for live in list(_LIVE):
        live.end()


def stream(
    model: cp_model.CpModel, decode: Decoder, settings: SolverSettings, stats: Stats
) -> Iterator[Placement]:
    """Yield every solution as the solver finds it (see the module docstring)."""
    solver = settings.solver(enumerate_all=True)
    watch_phases(solver)
    handover: queue.Queue = queue.Queue(maxsize=QUEUE_SIZE)
    stop = threading.Event()
    callback = _Handover(decode, handover, stop)
    search = _SolverThread(
        solver, model, callback, after=lambda: put_unless_stopped(handover, _DONE, stop), stop=stop
    )
    finished = False
    try:
        while (item := handover.get()) is not _DONE:
            yield Placement(item)
        finished = True
    finally:
        search.end()
        status = search.result()
        record(stats, solver, status, stopped=not finished)
        stats.extra["solver_found"] = callback.produced
