"""Running many independent tasks on any ``concurrent.futures`` executor, resumably.

Engines that split their work (``fast`` counts subproblems, ``cpsat`` counts
orbits of first-row prefixes) hand it here as *items* with a stable ``key``
and a module-level *work* function that turns a list of items into
``(key, record)`` pairs. This module does the rest, the same way for all:

* **where**: a local process pool (``local_pool``, from ``cp_queens.parallel.local``:
  workers that leave Ctrl-C to the parent), one process (``workers=1``: no pool at all), or any
  executor, e.g. a Dask cluster's (``cp_queens.parallel.dask``);
* **how**: items are dealt round-robin into a few hundred tasks, so every
  task mixes large and small items and the workers finish together;
* **faults**: a lost local worker breaks a ``ProcessPoolExecutor`` for good;
  a pool we own is replaced and the unfinished tasks resubmitted, so the
  result stays exact (Dask reruns a lost worker's tasks itself);
* **resuming**: with a checkpoint (``cp_queens.parallel.checkpoint``),
  every finished task is on disk before it counts; a rerun skips what the
  file lists. Ctrl-C raises ``Interrupted``, which says what was saved;
* **time limits**: once its ``clock`` (the call's ``Clock``) runs out, the run stops and
  reports ``complete=False``.

Examples:
    >>> result = run(["a", "b", "c"], _demo_work, key=str, workers=1)
    >>> sorted(result.records.items()), result.complete
    ([('a', 1), ('b', 1), ('c', 1)], True)
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from cp_queens.budget import Clock
from cp_queens.budget import resolve_workers as resolve_workers
from cp_queens.errors import ClusterLostError, CpQueensError

# Also importable as ``parallel.<name>``: the engines, ``dask`` and ``compare`` use them so.
from cp_queens.parallel.local import die_with_parent as die_with_parent
from cp_queens.parallel.local import fork_server as fork_server
from cp_queens.parallel.local import local_pool as local_pool
from cp_queens.parallel.local import start_method, stop_now
from cp_queens.parallel.local import started_pool as started_pool

if TYPE_CHECKING:
    # Imported where a pool or an executor is used: a count in this process (every
    # small board) needs neither, and they cost more than its whole search.
    import multiprocessing.context
    from concurrent.futures import Executor, Future, ProcessPoolExecutor
    from pathlib import Path

#: Seconds a cluster may have no worker at all, tasks in flight, before the run gives up.
LOST_WORKERS_TIMEOUT = 30.0

Item = TypeVar("Item")
Record = TypeVar("Record")

#: Tasks per run: enough to balance the load and show progress, few enough that
#: scheduling costs nothing next to the search (Dask spends ~1 ms per task).
TASKS = 256
#: Tasks of a run on a given executor (a Dask cluster): see ``_run_on_executor``.
EXECUTOR_TASKS = 64
#: Items per task when the items are streamed (a generator): about 100 tasks at n = 16,
#: each well under 2 % of the count (so the workers finish together), where a task
#: costs some 0.1 ms.
BATCH = 8
#: Items per task of a streamed run on a given executor (Dask: ~1 ms a task, each way).
EXECUTOR_BATCH = 128
#: Tasks in flight at once on a given executor (a local pool: four per process).
AHEAD = 32
#: How often a broken local pool is replaced before giving up.
POOL_RESTARTS = 3


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run; says how far it got and where the finished work is saved."""

    def __init__(self, done: int, items: int | None, checkpoint: Path | None) -> None:
        of = "" if items is None else f" of {items}"
        super().__init__(f"interrupted after {done}{of} subproblems")
        self.done = done
        self.items = items
        self.checkpoint = checkpoint


@dataclass(frozen=True)
class RunResult(Generic[Record]):
    """What a run finished: a record per item key, and how it went."""

    records: dict[str, Record]
    #: False when the time limit stopped the run: ``records`` then lack some items.
    complete: bool
    #: Items taken from the checkpoint file instead of computed.
    resumed: int
    #: Times a local pool was replaced after losing a worker process.
    restarts: int
    #: Where it ran, for people: "this process", "2 local processes", "Dask cluster at ...".
    where: str
    #: Seconds spent starting local worker processes before they took work (``None``: no
    #: pool of ours); start-up, not search: the engines report it as ``Stats.pool_start``.
    pool_start: float | None = None


#: Told after every finished task: (its new records, items done, items in all, items resumed).
#: The first call hands over the records read from the checkpoint. Items in all is ``None``
#: while a streamed run has not drawn its last item.
Report = Callable[[list[Any], int, int | None, int], None]


def run(
    items: Iterable[Item],
    work: Callable[[list[Item]], list[tuple[str, Record]]],
    *,
    key: Callable[[Item], str],
    executor: Executor | None = None,
    where: str | None = None,
    workers: int | None = None,
    checkpoint: Any = None,
    report: Report | None = None,
    clock: Clock | None = None,
    prepare: Callable[[], None] | None = None,
    context: multiprocessing.context.BaseContext | None = None,
    batch: int | None = None,
    workers_alive: Callable[[], int] | None = None,
    lost_timeout: float = LOST_WORKERS_TIMEOUT,
) -> RunResult[Record]:
    """Compute ``work`` over ``items`` and collect one record per item key.

    Args:
        items: independent pieces of work, picklable. A sequence is dealt
            round-robin into tasks of mixed sizes; any other iterable (a
            generator) is read as the run goes, ``batch`` items a task, so the
            whole list never exists (a huge split starts counting at once).
        work: a module-level function (it travels to other processes) from a
            list of items to ``(key, record)`` pairs.
        key: the stable name of an item (what a checkpoint file stores).
        executor: where tasks run; ``None`` means local processes.
        where: how to describe ``executor`` to people.
        workers: local processes when ``executor`` is ``None``: ``1`` runs in
            this process, ``None``/``0`` every core.
        checkpoint: an open ``Checkpoint``
            whose ``done`` records are skipped and to which new ones are added
            (``items`` must then be a sequence: the file names the whole job).
        report: called after every finished task (progress displays).
        clock: the call's ``Clock``; once it runs out the run stops.
        prepare: called once in this process before a local pool starts (e.g. to
            compile kernels, so that forked workers start warm).
        context: the ``multiprocessing`` context of a local pool (default:
            ``start_method``, preloading the module that defines ``work``).
        batch: items per task when ``items`` is streamed (default ``BATCH``).
        workers_alive: how many workers the executor has now (a Dask cluster's); when
            it stays 0 for ``lost_timeout`` seconds with tasks in flight, the run stops
            with ``ClusterLostError`` instead of waiting for ever.
        lost_timeout: seconds without a worker before the run gives up.

    Returns:
        A ``RunResult``; ``complete`` is False if the clock ran out first.

    Raises:
        Interrupted: on Ctrl-C, after stopping every worker this run started.
    """
    records: dict[str, Record] = dict(checkpoint.done) if checkpoint is not None else {}
    local = executor is None
    processes = resolve_workers(workers) if local else 0
    if local:
        where = "this process" if processes == 1 else f"{processes} local processes"
    tasks, total, resumed = _tasks(items, key, records, local, checkpoint, batch)
    ledger = _Ledger(records, total, resumed, checkpoint, report)
    if total is None:
        tasks = _told_when_done(tasks, ledger)
    try:
        pool = _Pool(processes, context, prepare, _module_of(work))
        if local and processes == 1:
            complete = _run_here(tasks, work, clock, ledger)
        else:
            ahead = 4 * processes if local else AHEAD
            watch = None if workers_alive is None else _Watch(workers_alive, lost_timeout)
            complete = _run_on_executor(tasks, work, executor, pool, clock, ledger, ahead, watch)
    except KeyboardInterrupt:
        path = None if checkpoint is None else checkpoint.path
        raise Interrupted(len(records), total, path) from None
    except _Cancelled:
        what = f"lost the {where or 'executor'}: it cancelled the tasks it held (did the "
        raise _lost(what + "scheduler stop?)", len(records), total, checkpoint) from None
    except _WorkersLost as lost:
        what = f"every worker of the {where or 'executor'} left and none came back within "
        raise _lost(what + f"{lost.seconds:g} s,", len(records), total, checkpoint) from None
    return RunResult(
        records, complete, resumed, ledger.restarts, where or "an executor", pool.started
    )


def _tasks(
    items: Iterable[Item],
    key: Callable[[Item], str],
    records: dict[str, Any],
    local: bool,
    checkpoint: Any,
    batch: int | None,
) -> tuple[Iterator[list[Item]], int | None, int]:
    """The tasks of a run, how many items it has in all (``None`` while a stream is
    unread) and how many the checkpoint already holds (``records``' keys)."""
    if not isinstance(items, Sequence):
        if checkpoint is not None:
            raise CpQueensError("a checkpointed run needs its items as a sequence")
        return _batches(iter(items), batch or (EXECUTOR_BATCH if not local else BATCH)), None, 0
    todo = [item for item in items if key(item) not in records]
    if local:
        return iter(chunks(todo)), len(items), len(items) - len(todo)
    # A task on a cluster costs milliseconds of scheduling and messages at each
    # end; a local pool's costs microseconds: fewer, larger tasks there.
    tasks = iter(chunks(todo, max(EXECUTOR_TASKS, len(todo) // 512)))
    return tasks, len(items), len(items) - len(todo)


def _lost(what: str, done: int, total: int | None, checkpoint: Any) -> ClusterLostError:
    """The error of a run whose executor is gone: ``what`` happened, how far it got, and
    whether what finished was saved."""
    saved = (
        "nothing was saved (a checkpoint file makes a count resumable)"
        if checkpoint is None
        else f"finished ones are saved in {checkpoint.path}: run it again to resume"
    )
    of = "" if total is None else f" of {total}"
    return ClusterLostError(f"{what} after {done}{of} subproblems; {saved}")


def _module_of(work: Callable[..., Any]) -> str:
    """The module that defines ``work`` (through ``functools.partial``)."""
    return str(getattr(getattr(work, "func", work), "__module__", __name__))


def _told_when_done(tasks: Iterator[list[Item]], ledger: _Ledger) -> Iterator[list[Item]]:
    """Pass the tasks on, one drawn ahead: with the last one the ledger learns the total,
    so the last report of a streamed run says how many items there were."""
    drawn = 0
    chunk = next(tasks, None)
    while chunk is not None:
        following = next(tasks, None)
        drawn += len(chunk)
        if following is None:
            ledger.items = drawn
        yield chunk
        chunk = following


def _batches(items: Iterator[Item], size: int) -> Iterator[list[Item]]:
    """Consecutive lists of ``size`` items (the last one shorter)."""
    while True:
        chunk = list(itertools.islice(items, size))
        if not chunk:
            return
        yield chunk


class _Ledger:
    """Finished records, in memory and (optionally) in the checkpoint file."""

    def __init__(
        self,
        records: dict[str, Any],
        items: int | None,
        resumed: int,
        checkpoint: Any,
        report: Report | None,
    ) -> None:
        self.records = records
        self.items = items
        self.resumed = resumed
        self.checkpoint = checkpoint
        self.report = report
        self.restarts = 0
        self.tell(list(records.values()))

    def record(self, results: list[tuple[str, Any]]) -> None:
        fresh = [(key, record) for key, record in results if key not in self.records]
        if self.checkpoint is not None:
            self.checkpoint.record(fresh)  # on disk before it counts
        self.records.update(fresh)
        self.tell([record for _, record in fresh])

    def tell(self, fresh: list[Any]) -> None:
        if self.report is not None:
            self.report(fresh, len(self.records), self.items, self.resumed)


def chunks(items: Sequence[Item], tasks: int | None = None) -> list[list[Item]]:
    """Deal ``items`` round-robin into at most ``tasks`` lists of mixed sizes.

    By default ``TASKS``, or one task per 64 items for the huge splits of
    large boards, so a task (and what Ctrl-C can lose) stays short.

    Examples:
        >>> chunks(list(range(7)), tasks=3)
        [[0, 3, 6], [1, 4], [2, 5]]
    """
    if tasks is None:
        tasks = max(TASKS, len(items) // 64)
    many = max(1, min(tasks, len(items)))
    return [list(items[i::many]) for i in range(many)]


#: Set by a signal handler (the CLI's) on Ctrl-C or SIGTERM. The handler also raises
#: ``KeyboardInterrupt``, but where that lands inside a callback from C (a
#: library calling back into Python) Python prints "Exception ignored" and goes on:
#: the count would then run to its end. So the
#: runners look at this flag between tasks as well.
interrupted = threading.Event()

#: Seconds between two looks at ``interrupted`` while tasks run elsewhere.
POLL = 0.5


def _stop_if_interrupted() -> None:
    if interrupted.is_set():
        raise KeyboardInterrupt


def _run_here(
    tasks: Iterator[list[Any]],
    work: Callable[[list[Any]], list[Any]],
    clock: Clock | None,
    ledger: _Ledger,
) -> bool:
    """One worker: no pool at all, the same tasks in this process.

    With a time limit the items of a task run one at a time, the clock read between
    them: nothing can stop a compiled search once it runs, and a task of a large
    board (8 subproblems of n = 20) can take many seconds. Without one, a task is
    one call, as in a worker process.
    """
    for chunk in tasks:
        _stop_if_interrupted()
        if clock is None or not clock.limited:
            ledger.record(work(chunk))
            continue
        for item in chunk:
            if clock.expired():
                return False
            ledger.record(work([item]))
            _stop_if_interrupted()
    return True


class _Cancelled(Exception):
    """A task that the executor cancelled on its own: it lost its scheduler."""


class _WorkersLost(Exception):
    """The executor had no worker for ``seconds``: nothing would ever finish."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class _Watch:
    """Notices an executor left without workers. Why: Dask keeps the tasks of a worker
    that died and waits, silently and for ever, for another to join."""

    def __init__(self, workers: Callable[[], int], timeout: float) -> None:
        self.workers = workers
        self.timeout = timeout
        self.since: float | None = None

    def check(self) -> None:
        """Raise ``_WorkersLost`` once no worker has been seen for the timeout."""
        now = time.monotonic()
        if self.workers() > 0:
            self.since = None
        elif self.since is None:
            self.since = now
        elif now - self.since >= self.timeout:
            raise _WorkersLost(self.timeout)


@dataclass
class _Pool:
    """How to start the local pool a run owns (and restarts when a worker dies), and the
    seconds its starts took (``started``: ``None`` until one starts)."""

    processes: int
    context: multiprocessing.context.BaseContext | None
    prepare: Callable[[], None] | None
    module: str  # the work's, for a fork server to preload
    started: float | None = None

    def start(self, clock: Clock | None) -> ProcessPoolExecutor | None:
        """A pool with every worker started, or ``None`` when ``clock`` ran out first."""
        # Decided at each start: a replacement pool may start while other threads run.
        context = self.context or start_method([self.module])
        executor, seconds = started_pool(self.processes, clock, context=context)
        self.started = (self.started or 0.0) + seconds
        return executor


def _run_on_executor(
    tasks: Iterator[list[Any]],
    work: Callable[[list[Any]], list[Any]],
    executor: Executor | None,
    pool: _Pool,
    clock: Clock | None,
    ledger: _Ledger,
    ahead: int,
    watch: _Watch | None = None,
) -> bool:
    """Submit the tasks, ``ahead`` at a time, and collect them; False if the clock ran out
    first. Only ``ahead`` tasks are in flight, so a streamed split stays small; ``watch``
    ends a run whose executor has lost every worker."""
    from concurrent.futures import FIRST_COMPLETED, wait

    own = executor is None
    if own:
        if pool.prepare is not None:
            pool.prepare()
        executor = pool.start(clock)
        if executor is None:
            return False  # the clock ran out while the workers started
    assert executor is not None
    flight = _InFlight(executor, work, own, ledger)
    try:
        while True:
            broken = flight.fill(tasks, ahead)
            if not flight.pending and not broken:
                return True
            _stop_if_interrupted()
            left = None if clock is None else clock.remaining()
            poll = POLL if left is None else min(left, POLL)
            finished: set[Future] = set()
            if not broken:
                finished, _ = wait(flight.pending, timeout=poll, return_when=FIRST_COMPLETED)
            if not finished and not broken:
                if watch is not None:
                    watch.check()
                if left is None or left > poll:
                    continue  # nothing finished yet: look at the flag, wait again
                flight.abandon()
                return False
            if (flight.collect(finished) or broken) and not flight.restart(pool, clock):
                return False
    except BaseException:
        if own:
            stop_now(flight.executor)
        raise
    finally:
        if own:
            flight.executor.shutdown(wait=True, cancel_futures=True)


class _InFlight:
    """The tasks submitted to an executor and not yet collected, and the tasks to submit
    again because a worker died (a pool we own is then replaced)."""

    def __init__(
        self, executor: Executor, work: Callable[[list[Any]], list[Any]], own: bool, ledger: _Ledger
    ) -> None:
        self.executor = executor
        self.work = work
        self.own = own
        self.ledger = ledger
        self.pending: dict[Future, list[Any]] = {}
        self.retry: list[list[Any]] = []

    def can_restart(self) -> bool:
        """Whether a broken pool may be replaced: only our own, a few times."""
        return self.own and self.ledger.restarts < POOL_RESTARTS

    def fill(self, tasks: Iterator[list[Any]], ahead: int) -> bool:
        """Submit tasks until ``ahead`` are in flight or none is left; True if the pool
        turned out broken (its task is kept to retry)."""
        from concurrent.futures.process import BrokenProcessPool

        while len(self.pending) < ahead:
            chunk = self.retry.pop() if self.retry else next(tasks, None)
            if chunk is None:
                return False
            try:
                self.pending[self.executor.submit(self.work, chunk)] = chunk
            except BrokenProcessPool:
                # A worker died since the last look: the pool takes no more tasks.
                if not self.can_restart():
                    raise
                self.retry.append(chunk)
                return True
        return False

    def collect(self, finished: set[Future]) -> bool:
        """Record the results of ``finished``; True if one found the pool broken."""
        from concurrent.futures import CancelledError
        from concurrent.futures.process import BrokenProcessPool

        broken = False
        for future in finished:
            chunk = self.pending.pop(future)
            try:
                results = future.result()
            except CancelledError:
                if self.own:
                    raise
                raise _Cancelled from None  # we cancel only once the clock ran out
            except BrokenProcessPool:
                if not self.can_restart():
                    raise
                broken = True
                self.retry.append(chunk)
                continue
            self.ledger.record(results)
        return broken

    def restart(self, pool: _Pool, clock: Clock | None) -> bool:
        """A worker died: its pool is unusable. Start a fresh one for the rest; False when
        the clock ran out while it started."""
        import gc
        from concurrent.futures import Executor

        self.retry.extend(self.pending.values())
        self.pending.clear()
        self.ledger.restarts += 1
        stop_now(self.executor)
        # The dead pool's queues hold named semaphores in reference cycles: collected at
        # a random later moment, one may be finalized while the resource tracker holds
        # its lock for the new pool's, which 3.12 refuses ("called reentrantly ... might
        # leak"). Collect them now, before the new pool registers any.
        self.executor = Executor()  # a stand-in that runs nothing, until `fresh`
        gc.collect()
        fresh = pool.start(clock)
        if fresh is None:
            return False
        self.executor = fresh
        return True

    def abandon(self) -> None:
        """The clock ran out: cancel what waits, and end the work of a pool we own."""
        for future in self.pending:
            future.cancel()
        if self.own:
            # A task of a large board can run for hours: end it, do not wait.
            stop_now(self.executor)


def _demo_work(items: list[str]) -> list[tuple[str, int]]:
    """The work function of the module example: every item counts once."""
    return [(item, 1) for item in items]
