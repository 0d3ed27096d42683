"""Counting on many cores or many machines: subproblems on any ``concurrent.futures`` executor.

The subproblems of :mod:`cp_queens.engines.fast.subproblems` are independent, so a count is
a map and a sum. They travel in *tasks* (a few dozen subproblems each, dealt
round-robin so every task gets a mix of large and small subtrees and the
workers finish together), on whatever executor is given:

* nothing: a local process pool on every core (the kernels are compiled once
  in this process before the pool forks, so workers start warm);
* ``distributed.Client(...).get_executor()``: a Dask cluster, see
  :mod:`cp_queens.parallel.dask`. Dask reruns the tasks of a worker that dies.

A lost local worker breaks a ``ProcessPoolExecutor`` for good; a pool we own
is then replaced and the unfinished tasks resubmitted, so the total stays exact.

With a :class:`~cp_queens.parallel.checkpoint.Checkpoint`, every finished task is on
disk before it is added to the total: an interrupted count (Ctrl-C raises
:class:`Interrupted`) resumes by skipping what the file lists.

Examples:
    >>> result = count_board(10, workers=2)
    >>> result.total, result.unique, result.complete
    (724, 92, True)
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cp_queens.engines.fast import subproblems as split_module
from cp_queens.engines.fast.subproblems import PartialCount, Subproblem
from cp_queens.parallel.checkpoint import Checkpoint

#: Tasks per run: enough to balance the load and show progress, few enough that
#: scheduling costs nothing next to the search (Dask spends ~1 ms per task).
TASKS = 256
#: How often a broken local pool is replaced before giving up.
POOL_RESTARTS = 3


@dataclass(frozen=True)
class Progress:
    """How far a count is, for a progress bar."""

    done: int
    subproblems: int
    solutions: int
    elapsed: float
    #: Subproblems finished by this run (not read from a checkpoint).
    done_this_run: int

    @property
    def rate(self) -> float:
        """Subproblems per second in this run."""
        return self.done_this_run / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        """Seconds left at the current rate, or ``None`` before the first result."""
        if not self.done_this_run:
            return None
        return (self.subproblems - self.done) / self.rate


ProgressCallback = Callable[[Progress], None]


@dataclass(frozen=True)
class CountResult:
    """The outcome of a count: totals, and how it went."""

    n: int
    total: int
    #: Solutions up to symmetry; ``None`` with pre-placed queens.
    unique: int | None
    nodes: int
    subproblems: int
    #: Subproblems taken from the checkpoint file instead of searched.
    resumed: int
    #: False when a deadline stopped the count: ``total`` is then a lower bound.
    complete: bool
    wall_time: float
    #: Times a local pool was replaced after losing a worker process.
    restarts: int = 0


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a count; says how far it got and where the work is saved."""

    def __init__(self, done: int, subproblems: int, checkpoint: Path | None) -> None:
        super().__init__(f"interrupted after {done} of {subproblems} subproblems")
        self.done = done
        self.subproblems = subproblems
        self.checkpoint = checkpoint


def count_board(
    n: int,
    *,
    fixed: Mapping[int, int] | None = None,
    depth: int | None = None,
    **options: Any,
) -> CountResult:
    """Split the count of ``n`` (with ``fixed`` queens) and run it; see :func:`count`."""
    subs = split_module.split(n, depth=depth, fixed=fixed)
    return count(subs, n=n, symmetric=not fixed, **options)


def count(
    subproblems: Sequence[Subproblem],
    *,
    n: int | None = None,
    symmetric: bool | None = None,
    executor: Executor | None = None,
    workers: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: ProgressCallback | None = None,
    deadline: float | None = None,
    force_python: bool = False,
) -> CountResult:
    """Count ``subproblems`` on ``executor`` (default: a pool of ``workers`` local processes).

    ``workers=None`` means every core; ``workers=1`` counts in this process.
    ``deadline`` is a ``time.perf_counter()`` instant after which the count
    stops early (``complete=False``).
    """
    started = time.perf_counter()
    if n is None:
        if not subproblems:
            raise ValueError("count() needs n when there are no subproblems")
        n = subproblems[0].n
    if symmetric is None:
        symmetric = not any(s.fixed for s in subproblems)
    ledger = _Ledger(n, subproblems, checkpoint)
    try:
        todo = [s for s in subproblems if s.key not in ledger.done]
        ledger.resumed = len(subproblems) - len(todo)
        complete = True
        if todo:
            report = _reporter(ledger, started, progress)
            report()
            complete = _run(todo, executor, workers, deadline, force_python, ledger, report)
    except KeyboardInterrupt:
        raise Interrupted(len(ledger.done), len(subproblems), ledger.path) from None
    finally:
        ledger.close()
    parts = ledger.done.values()
    return CountResult(
        n=n,
        total=sum(p.total for p in parts),
        unique=sum(p.unique for p in parts) if symmetric else None,
        nodes=sum(p.nodes for p in parts),
        subproblems=len(subproblems),
        resumed=ledger.resumed,
        complete=complete,
        wall_time=time.perf_counter() - started,
        restarts=ledger.restarts,
    )


class _Ledger:
    """Finished subproblems, in memory and (optionally) in the checkpoint file."""

    def __init__(
        self, n: int, subs: Sequence[Subproblem], path: str | os.PathLike[str] | None
    ) -> None:
        self.file = None if path is None else Checkpoint.open(path, n, subs)
        self.path = None if self.file is None else self.file.path
        self.done: dict[str, PartialCount] = dict(self.file.done) if self.file else {}
        #: Running total of ``done``, so progress reports cost nothing per task.
        self.solutions = sum(part.total for part in self.done.values())
        self.subproblems = len(subs)
        self.resumed = 0
        self.restarts = 0

    def record(self, results: list[tuple[str, PartialCount]]) -> None:
        fresh = [(key, part) for key, part in results if key not in self.done]
        if self.file is not None:
            self.file.record(fresh)
        self.done.update(fresh)
        self.solutions += sum(part.total for _, part in fresh)

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def _reporter(
    ledger: _Ledger, started: float, progress: ProgressCallback | None
) -> Callable[[], None]:
    def report() -> None:
        if progress is not None:
            progress(
                Progress(
                    done=len(ledger.done),
                    subproblems=ledger.subproblems,
                    solutions=ledger.solutions,
                    elapsed=time.perf_counter() - started,
                    done_this_run=len(ledger.done) - ledger.resumed,
                )
            )

    return report


def count_chunk(
    subs: Sequence[Subproblem], force_python: bool = False
) -> list[tuple[str, PartialCount]]:
    """The task a worker runs: count a few subproblems (a module-level function, so it pickles)."""
    parts = split_module.count_many(subs, force_python=force_python)
    return [(s.key, part) for s, part in zip(subs, parts, strict=True)]


def chunks(subs: Sequence[Subproblem], tasks: int | None = None) -> list[list[Subproblem]]:
    """Deal ``subs`` round-robin into at most ``tasks`` lists of mixed sizes.

    By default :data:`TASKS`, or one task per 64 subproblems for the huge
    splits of large boards, so a task (and what Ctrl-C can lose) stays short.
    """
    if tasks is None:
        tasks = max(TASKS, len(subs) // 64)
    many = max(1, min(tasks, len(subs)))
    return [list(subs[i::many]) for i in range(many)]


def _run(
    todo: list[Subproblem],
    executor: Executor | None,
    workers: int | None,
    deadline: float | None,
    force_python: bool,
    ledger: _Ledger,
    report: Callable[[], None],
) -> bool:
    """Submit the tasks and collect them; False if the deadline came first."""
    if executor is None and workers == 1:
        return _run_here(todo, deadline, force_python, ledger, report)
    own = executor is None
    if own:
        split_module.warm_up(force_python)
        executor = local_pool(workers)
    assert executor is not None
    waiting = chunks(todo)
    restarts = 0
    try:
        while waiting:
            pending: dict[Future, list[Subproblem]] = {
                executor.submit(count_chunk, chunk, force_python): chunk for chunk in waiting
            }
            waiting = []
            broken = False
            while pending:
                timeout = None if deadline is None else max(0.0, deadline - time.perf_counter())
                finished, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
                if not finished:
                    for future in pending:
                        future.cancel()
                    return False
                for future in finished:
                    chunk = pending.pop(future)
                    try:
                        results = future.result()
                    except BrokenProcessPool:
                        if not own or restarts >= POOL_RESTARTS:
                            raise
                        broken = True
                        waiting.append(chunk)
                        continue
                    ledger.record(results)
                    report()
                if broken:
                    break
            if broken:
                # A worker died: its pool is unusable. Start a fresh one for the rest.
                waiting.extend(pending.values())
                restarts += 1
                ledger.restarts = restarts
                executor.shutdown(wait=False, cancel_futures=True)
                executor = local_pool(workers)
        return True
    except BaseException:
        if own:
            _stop_now(executor)
        raise
    finally:
        if own:
            executor.shutdown(wait=True, cancel_futures=True)


def _run_here(
    todo: list[Subproblem],
    deadline: float | None,
    force_python: bool,
    ledger: _Ledger,
    report: Callable[[], None],
) -> bool:
    """One worker: no pool at all, the same tasks in this process."""
    for chunk in chunks(todo):
        if deadline is not None and time.perf_counter() > deadline:
            return False
        ledger.record(count_chunk(chunk, force_python))
        report()
    return True


def local_pool(workers: int | None) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes (all cores for ``None``) that leave Ctrl-C to us."""
    return ProcessPoolExecutor(
        max_workers=workers or os.cpu_count() or 1, initializer=_ignore_interrupts
    )


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group; only the parent should react,
    # by saving its checkpoint and stopping the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_now(executor: Executor) -> None:
    """Cancel what has not started and end our own worker processes at once."""
    executor.shutdown(wait=False, cancel_futures=True)
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
