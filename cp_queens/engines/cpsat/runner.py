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
must be driven by its consumer. So :func:`stream` runs the solver on a worker
thread that hands solutions over a bounded queue. When the consumer stops
(``limit`` reached, ``close()``, ``break``), the callback sees the stop flag
and calls ``StopSearch()``, the thread ends, and memory never holds more than
the queue's few hundred placements however many solutions exist.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from ortools.sat.python import cp_model

from cp_queens.engines.cpsat.settings import SolverSettings
from cp_queens.problem import Placement
from cp_queens.stats import COMPLETE, STOPPED, TIME_LIMIT, Stats

#: Reads the columns of one solution inside a solution callback.
Decoder = Callable[[cp_model.CpSolverSolutionCallback], tuple[int, ...]]

#: Solutions waiting for the consumer; bounds the memory of a stream.
QUEUE_SIZE = 256
#: Seconds between two progress reports of a count.
PROGRESS_EVERY = 0.2

#: Seconds short of its time limit a search may stop and still count as timed out.
INTERRUPT_MARGIN = 0.1

_DONE = object()


def record(stats: Stats, solver: cp_model.CpSolver, status: int, stopped: bool) -> None:
    """Copy the solver's own figures into ``stats``."""
    stats.branches = solver.num_branches
    stats.conflicts = solver.num_conflicts
    stats.extra["solver_status"] = solver.status_name(status)
    stats.extra["solver_wall_time"] = round(solver.wall_time, 4)
    if stopped:
        stats.status = STOPPED
    elif status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        stats.status = COMPLETE
    elif solver.wall_time + INTERRUPT_MARGIN < 0.9 * solver.parameters.max_time_in_seconds:
        # CP-SAT catches Ctrl-C itself and returns early as if time ran out, and
        # Python never sees the signal. Unfinished well before the time limit
        # (or without one) means the user interrupted: say so, as Python would.
        # (The margin keeps a tiny limit on a busy machine from looking like Ctrl-C.)
        stats.status = STOPPED
        raise KeyboardInterrupt
    else:
        stats.status = TIME_LIMIT


def first(
    model: cp_model.CpModel, decode: Decoder, settings: SolverSettings, stats: Stats
) -> Placement | None:
    """One solution with all workers (the portfolio), or ``None``."""
    solver = settings.solver(enumerate_all=False)
    status = solver.solve(model)
    record(stats, solver, status, stopped=False)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Placement(decode(solver))
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
    counter = _Counter(progress)
    status = solver.solve(model, counter)
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
    processes): measured about a third cheaper per solution than :func:`stream`,
    which must hand each solution over to another thread.
    """
    solver = settings.solver(enumerate_all=True)
    callback = _Visit(decode, visitor)
    status = solver.solve(model, callback)
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


def put_unless_stopped(out: queue.Queue, item: object, stop: threading.Event) -> bool:
    """Block until ``item`` is queued, unless the consumer stops first (then False)."""
    while not stop.is_set():
        try:
            out.put(item, timeout=0.05)
            return True
        except queue.Full:
            continue
    return False


def stream(
    model: cp_model.CpModel, decode: Decoder, settings: SolverSettings, stats: Stats
) -> Iterator[Placement]:
    """Yield every solution as the solver finds it (see the module docstring)."""
    solver = settings.solver(enumerate_all=True)
    # The solver runs on a worker thread, where CP-SAT's own Ctrl-C handler
    # aborts the process; leave Ctrl-C to Python, whose KeyboardInterrupt in
    # the consumer stops the search through the stop flag like any early close.
    solver.parameters.catch_sigint_signal = False
    handover: queue.Queue = queue.Queue(maxsize=QUEUE_SIZE)
    stop = threading.Event()
    outcome: dict[str, Any] = {}
    callback = _Handover(decode, handover, stop)

    def run() -> None:
        try:
            outcome["status"] = solver.solve(model, callback)
        except BaseException as error:  # handed to the consumer below
            outcome["error"] = error
        put_unless_stopped(handover, _DONE, stop)

    worker = threading.Thread(target=run, name="cp-queens-cpsat", daemon=True)
    worker.start()
    finished = False
    try:
        while (item := handover.get()) is not _DONE:
            yield Placement(item)
        finished = True
    finally:
        stop.set()
        worker.join()
        if "error" in outcome:
            raise outcome["error"]
        record(stats, solver, outcome["status"], stopped=not finished)
        stats.extra["solver_found"] = callback.produced
