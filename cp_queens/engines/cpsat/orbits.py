"""Fast exact enumeration with CP-SAT: one solution per orbit, many small models, many processes.

One CP-SAT model with ``enumerate_all_solutions`` gets slower *per solution*
as the solutions pile up (measured here: about 0.5 ms each at n = 12 and
0.7 ms at n = 13). So instead of one big search we run many small ones:

1. **Symmetry.** Only canonical solutions (smallest of their orbit, see
   ``cp_queens.symmetry``) are searched for; each is then expanded into
   its orbit of 1, 2, 4 or 8 solutions. A canonical solution starting in
   column ``k`` has ``k <= (n-1)/2`` and no border queen closer than ``k``
   to a corner: cheap domain restrictions that leave about 1.3 solutions per
   canonical one. ``is_canonical`` removes the rest in Python. (The complete
   lex-leader constraints of ``symmetry="full"`` leave exactly one, but made
   each search node dearer and the whole run slower.)
2. **Decomposition.** The first row (for n >= 13 the first two rows) is fixed
   in every way the restrictions allow; each prefix is an independent model.
   The search is fixed (``FIXED_SEARCH``): the row with the fewest columns
   left first (first-fail), its smallest column first. With a row fixed, this
   plain order beat CP-SAT's default search here, and first-fail beat taking
   the rows top to bottom by about a fifth.
3. **Processes.** The subproblems run in a process pool (``fork``, so the
   children need not import OR-Tools again); exact enumeration needs
   ``num_workers = 1`` inside each model, so processes are the only way to
   use more cores.

Each subproblem runs through ``runner`` with the same careful
enumeration parameters as the plain model: ``cp_queens.engines._cpsat.runner.visit`` in the
worker processes (solutions handled in the callback, no extra thread), and
``cp_queens.engines._cpsat.runner.stream`` when streaming in this process.

Streaming keeps memory bounded and the order deterministic: subproblem ``i``
writes chunks of representatives to queue ``i mod processes``; the consumer
reads the subproblems in order and starts subproblem ``i + processes`` only
once subproblem ``i`` is used up, so at most ``processes`` subproblems and
``processes * SLOT_CHUNKS`` chunks are alive at any time.
"""

from __future__ import annotations

import functools
import queue
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import Any

from ortools.sat.python import cp_model

import cp_queens.engines._cpsat.runner as runner
import cp_queens.parallel as parallel
from cp_queens.budget import Clock
from cp_queens.engines.base import Call, UniqueCount
from cp_queens.engines.cpsat.model import build_model
from cp_queens.problem import Placement, Problem, attack_reason
from cp_queens.stats import COMPLETE, STOPPED, TIME_LIMIT, Stats
from cp_queens.symmetry import is_canonical_columns, orbit_columns

#: Representatives per chunk sent from a worker to the consumer.
CHUNK = 256
#: A worker also sends a partial chunk when it is this old (seconds), so a slow
#: subproblem still streams.
FLUSH_EVERY = 0.1
#: Chunks a subproblem may have waiting for the consumer; bounds memory.
SLOT_CHUNKS = 16

_DONE = "done"
_ERROR = "error"


#: Largest boards split three and two rows deep: about n^depth / 2 subproblems, kept
#: under 50,000 so that the split stays well under a second on any board.
MAX_DEPTH_3 = 46
MAX_DEPTH_2 = 316


def prefix_rows(n: int) -> int:
    """How many rows each subproblem fixes: more rows, smaller and more subproblems.

    Measured here: fixing one row was best up to n = 12, two rows at n = 13
    (each model slows down with its own number of solutions).
    """
    if n <= 12:
        return 1
    if n <= 15 or n > MAX_DEPTH_3:
        return 2 if n <= MAX_DEPTH_2 else 1
    return 3


def subproblems(n: int, depth: int | None = None) -> list[tuple[int, ...]]:
    """First-row prefixes that a canonical solution can start with, in lexicographic order."""
    depth = min(n, prefix_rows(n) if depth is None else depth)
    last = n - 1
    found: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...]) -> None:
        row = len(prefix)
        if row == depth:
            found.append(prefix)
            return
        k = prefix[0] if prefix else None
        for col in range(n):
            if row == 0 and 2 * col > last:
                break
            if k is not None and not _border_allows(n, k, row, col):
                continue
            if any(attack_reason(r, c, row, col) for r, c in enumerate(prefix)):
                continue
            extend((*prefix, col))

    extend(())
    return found


def _border_allows(n: int, k: int, row: int, col: int) -> bool:
    """Whether a canonical solution with ``q[0] = k`` may have its queen of ``row`` at ``col``.

    Every image starts with the distance of some border queen to a corner, so
    in the smallest image no border queen is closer to a corner than ``k``.
    """
    last = n - 1
    if row == last and not k <= col <= last - k:
        return False
    return not ((row < k or row > last - k) and col in (0, last))


def subproblem_model(n: int, prefix: tuple[int, ...]) -> tuple[cp_model.CpModel, list]:
    """The plain model with ``prefix`` fixed, the border restrictions, first-fail search.

    The prefix rows are given queens, so ``q`` holds the rows after them, in order.
    """

    model, q = build_model(Problem(n, dict(enumerate(prefix))))
    queen_of = dict(zip(range(len(prefix), n), q, strict=True))
    k = prefix[0]
    last = n - 1
    if last in queen_of:  # the last row is free (it is in the prefix only when n == 1)
        model.add(queen_of[last] >= k)
        model.add(queen_of[last] <= last - k)
    for row, queen in queen_of.items():
        if row < k or row > last - k:
            model.add(queen != 0)
            model.add(queen != last)
    model.add_decision_strategy(q, cp_model.CHOOSE_MIN_DOMAIN_SIZE, cp_model.SELECT_MIN_VALUE)
    return model, q


@dataclass
class _Outcome:
    """What one subproblem reports back (picklable, small)."""

    enumerated: int = 0
    unique: int = 0
    total: int = 0
    branches: int = 0
    conflicts: int = 0
    status: str = COMPLETE


def _subproblem_settings(
    settings: runner.SolverSettings, clock: Clock
) -> runner.SolverSettings | None:
    """Settings for one subproblem: the time left, fixed search; ``None`` if time is up.

    ``clock`` is the call's own (``Call.clock``, on ``time.monotonic()``, which the
    worker processes of this machine share: it travels to them pickled)."""
    remaining = clock.remaining()
    if remaining is not None:
        if remaining <= 0:
            return None
        settings = replace(settings, time_limit=remaining)
    return _with_fixed_search(settings)


def _keep(outcome: _Outcome, cols: tuple[int, ...]) -> bool:
    """Tally one solution of a subproblem; True when it is its orbit's representative."""
    outcome.enumerated += 1
    if not is_canonical_columns(cols):
        return False
    outcome.unique += 1
    outcome.total += len(orbit_columns(cols))
    return True


def _close(outcome: _Outcome, stats: Stats) -> None:
    outcome.branches += stats.branches or 0
    outcome.conflicts += stats.conflicts or 0
    if stats.status != COMPLETE and outcome.status == COMPLETE:
        outcome.status = stats.status


def _solve(
    n: int,
    prefix: tuple[int, ...],
    settings: runner.SolverSettings,
    clock: Clock,
    take: Callable[[tuple[int, ...]], bool],
) -> _Outcome:
    """Run one subproblem inside the solver's callback; ``take`` gets each representative
    and returns False to stop. Used in the worker processes, where nobody else waits."""
    outcome = _Outcome()
    chosen = _subproblem_settings(settings, clock)
    if chosen is None:
        outcome.status = TIME_LIMIT
        return outcome
    model, q = subproblem_model(n, prefix)
    stats = Stats()

    def visitor(cols: tuple[int, ...]) -> bool:
        if _stop is not None and _stop.is_set():  # the consumer stopped or was interrupted
            outcome.status = STOPPED
            return False
        return not _keep(outcome, cols) or take(cols)

    try:
        runner.visit(model, _decoder(prefix, q), chosen, stats, visitor)
    finally:
        _close(outcome, stats)
    return outcome


def _representatives(
    n: int,
    prefix: tuple[int, ...],
    settings: runner.SolverSettings,
    clock: Clock,
    outcome: _Outcome,
) -> Iterator[tuple[int, ...]]:
    """The canonical solutions of one subproblem as a generator (the in-process stream)."""
    chosen = _subproblem_settings(settings, clock)
    if chosen is None:
        outcome.status = TIME_LIMIT
        return
    model, q = subproblem_model(n, prefix)
    stats = Stats()
    try:
        for placement in runner.stream(model, _decoder(prefix, q), chosen, stats):
            if _keep(outcome, placement.cols):
                yield placement.cols
    finally:
        _close(outcome, stats)


def _with_fixed_search(settings: runner.SolverSettings) -> runner.SolverSettings:
    """The user's parameters, plus the model's own search order (unless they chose otherwise).

    CP-SAT's own Ctrl-C handler is turned off: in a worker process it aborted
    the process (``std::bad_function_call``); the consumer handles Ctrl-C.
    """
    parameters: dict[str, Any] = {
        "search_branching": cp_model.FIXED_SEARCH,
        "catch_sigint_signal": False,
    }
    parameters.update(
        (name, value) for name, value in settings.parameters.items() if name != "search_branching"
    )
    return replace(settings, parameters=parameters)


def _decoder(prefix: tuple[int, ...], q: list) -> runner.Decoder:
    """The whole board: the prefix rows (given, so not in the model), then ``q``."""

    def decode(solution: cp_model.CpSolverSolutionCallback) -> tuple[int, ...]:
        return prefix + tuple(solution.value(v) for v in q)

    return decode


def count_task(
    prefixes: list[tuple[int, ...]],
    n: int,
    settings: runner.SolverSettings,
    clock: Clock,
) -> list[tuple[str, _Outcome]]:
    """The task a worker runs: count a few subproblems (module-level, so it pickles)."""
    return [(_key(prefix), _solve(n, prefix, settings, clock, _take_all)) for prefix in prefixes]


def _take_all(cols: tuple[int, ...]) -> bool:
    return True


def _key(prefix: tuple[int, ...]) -> str:
    return ".".join(map(str, prefix))


# -- worker-process side of streaming --------------------------------------------

_slots: list[Any] = []
_stop: Any = None


def _init_worker(slots: list[Any], stop: Any) -> None:
    global _slots, _stop
    _slots, _stop = slots, stop
    for slot in slots:
        # Never block process exit on chunks nobody will read (the consumer stopped).
        slot.cancel_join_thread()


def _put(slot: Any, item: object) -> bool:
    while not _stop.is_set():
        try:
            slot.put(item, timeout=0.05)
            return True
        except queue.Full:
            continue
    return False


def _stream_one(
    n: int,
    prefix: tuple[int, ...],
    settings: runner.SolverSettings,
    clock: Clock,
    slot_index: int,
) -> None:
    slot = _slots[slot_index]
    chunk: list[tuple[int, ...]] = []
    flushed = time.perf_counter()

    def send(cols: tuple[int, ...]) -> bool:
        nonlocal chunk, flushed
        chunk.append(cols)
        if len(chunk) < CHUNK and time.perf_counter() - flushed <= FLUSH_EVERY:
            return True
        full, chunk, flushed = chunk, [], time.perf_counter()
        return _put(slot, full)

    try:
        outcome = _solve(n, prefix, settings, clock, send)
    except BaseException as error:  # handed to the consumer, which re-raises it
        _put(slot, (_ERROR, _portable(error)))
        return
    if outcome.status == STOPPED or (chunk and not _put(slot, chunk)):
        return
    _put(slot, (_DONE, outcome))


# -- the consumer side ---------------------------------------------------------------


def _merge(stats: Stats, outcome: _Outcome, tasks: int, processes: int) -> None:
    stats.branches = (stats.branches or 0) + outcome.branches
    stats.conflicts = (stats.conflicts or 0) + outcome.conflicts
    if outcome.status != COMPLETE:
        stats.status = outcome.status
    _named(stats, tasks, processes)
    stats.extra["enumerated"] = stats.extra.get("enumerated", 0) + outcome.enumerated


def _named(stats: Stats, tasks: int, processes: int) -> None:
    """Say how the call ran, whatever it got done (a pool that never started too)."""
    stats.extra["method"] = "fast"
    stats.extra["subproblems"] = tasks
    stats.extra["processes"] = processes


def count_unique(
    problem: Problem, settings: runner.SolverSettings, call: Call, workers: int
) -> UniqueCount:
    """All solutions and canonical ones, summing orbit sizes over the subproblems.

    The subproblems run through ``cp_queens.parallel.run``, the same runner
    (pool, Ctrl-C, progress) as every engine that splits its work.
    """
    n = problem.n
    prefixes = subproblems(n)
    used = max(1, min(workers, len(prefixes)))
    running = {"solutions": 0}

    def report(fresh: list[_Outcome], done: int, items: int | None, resumed: int) -> None:
        running["solutions"] += sum(outcome.total for outcome in fresh)
        call.report(running["solutions"], done=done, total=items)

    result = parallel.run(
        prefixes,
        functools.partial(count_task, n=n, settings=settings, clock=call.clock),
        key=_key,
        workers=used,
        report=report,
        clock=call.clock,
        context=parallel.start_method([__name__]) if used > 1 else None,
    )
    call.stats.pool_start = result.pool_start
    total = unique = 0
    for outcome in result.records.values():
        total += outcome.total
        unique += outcome.unique
        _merge(call.stats, outcome, len(prefixes), used)
    _named(call.stats, len(prefixes), used)
    if not result.complete:
        call.stop_for_time()
    return UniqueCount(total, unique)


def stream(
    problem: Problem, settings: runner.SolverSettings, call: Call, processes: int
) -> Iterator[Placement]:
    """Every solution, orbit by orbit, subproblem by subproblem (see the module docstring)."""
    n = problem.n
    prefixes = subproblems(n)
    clock, stats = call.clock, call.stats
    if processes <= 1 or len(prefixes) <= 1:
        for prefix in prefixes:
            outcome = _Outcome()
            try:
                for cols in _representatives(n, prefix, settings, clock, outcome):
                    yield from _orbit(cols)
            finally:
                _merge(stats, outcome, len(prefixes), 1)
        return
    yield from _stream_in_processes(n, prefixes, settings, call, processes)


def _orbit(cols: tuple[int, ...]) -> Iterator[Placement]:
    for image in sorted(orbit_columns(cols)):
        yield Placement(image)


def _portable(error: BaseException) -> Exception | str:
    """The worker's exception as the consumer will raise it: itself where it crosses a
    process whole (an ``EngineOptionError`` stays one, as ``count`` raises it in this
    process), else its type and words. Checked here: a queue's feeder thread that fails
    to pickle an item drops it, and the consumer would wait for it forever."""
    import pickle

    text = f"{type(error).__name__}: {error}"
    if not isinstance(error, Exception):
        return text
    try:
        again = pickle.loads(pickle.dumps(error))
    except Exception:
        return text
    return again if type(again) is type(error) and str(again) == str(error) else text


def _stream_in_processes(
    n: int,
    prefixes: list[tuple[int, ...]],
    settings: runner.SolverSettings,
    call: Call,
    processes: int,
) -> Iterator[Placement]:
    clock, stats = call.clock, call.stats
    context = parallel.start_method([__name__])
    used = min(processes, len(prefixes))
    _named(stats, len(prefixes), used)
    slots = [context.Queue(maxsize=SLOT_CHUNKS) for _ in range(used)]
    stop = context.Event()
    pool, stats.pool_start = parallel.started_pool(
        used, clock, context=context, initializer=_init_worker, initargs=(slots, stop)
    )
    if pool is None:  # the time limit ran out while the workers started
        for slot in slots:
            slot.close()
            slot.join_thread()
        call.stop_for_time()
        return
    futures: dict[int, Future] = {}

    def submit(index: int) -> None:
        if index < len(prefixes):
            futures[index] = pool.submit(
                _stream_one, n, prefixes[index], settings, clock, index % used
            )

    try:
        for index in range(used):
            submit(index)
        for index in range(len(prefixes)):
            slot = slots[index % used]
            while True:
                item = _next_item(slot, futures[index])
                if isinstance(item, tuple) and item[0] == _DONE:
                    _merge(stats, item[1], len(prefixes), used)
                    break
                if isinstance(item, tuple) and item[0] == _ERROR:
                    if isinstance(item[1], Exception):
                        raise item[1]  # an EngineOptionError is one from every door
                    raise RuntimeError(f"subproblem {prefixes[index]} failed: {item[1]}")
                for cols in item:
                    yield from _orbit(cols)
            futures.pop(index).result()
            submit(index + used)
    finally:
        stop.set()
        for slot in slots:
            _drain(slot)
        pool.shutdown(wait=True, cancel_futures=True)
        for slot in slots:
            slot.close()
            slot.join_thread()


def _next_item(slot: Any, future: Future) -> Any:
    """The next chunk of a subproblem; raises if its worker died without saying why."""
    while True:
        try:
            return slot.get(timeout=0.1)
        except queue.Empty:
            if future.done():
                future.result()  # re-raises whatever ended the worker


def _drain(slot: Any) -> None:
    try:
        while True:
            slot.get_nowait()
    except (queue.Empty, OSError, ValueError):
        return
