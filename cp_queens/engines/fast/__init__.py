"""``fast``: a compiled bitmask backtracker with full symmetry reduction.

The search itself lives in ``cp_queens.engines.fast.kernels`` (plain functions, with C
twins compiled when the package is installed: ``_kernels.c``); the symmetry classes and
the split into subproblems in ``cp_queens.engines.fast.subproblems``; running them on
several cores or a cluster in ``cp_queens.parallel``. This module only wires them to the
engine interface.

* ``count`` / ``count_unique``: one pass over the canonical representatives
  gives both the total (each weighted by its orbit size) and the number of
  orbits. With pre-placed queens there is no symmetry left to use, so every
  completion is counted once.
* ``solutions``: the plain lexicographic search, emitting solutions in batches
  of arrays, so the order and the set are the reference's and memory stays flat.
* ``workers``: processes for a count (``None``, the default: every core from
  n = 16 on, this process below, where a pool costs more than it saves; ``0``
  every core; ``1`` this process). ``scheduler``/``cluster``/``executor`` run it
  on Dask or any executor instead, ``checkpoint`` makes it resumable (see
  ``cp_queens.parallel``). The library and the CLI take this same door.

Boards up to n = 62 fit the 64-bit masks (far beyond anything countable).
Installed without a C compiler, the same kernels run interpreted, after one warning.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

import cp_queens.parallel as parallel
from cp_queens.engines import register
from cp_queens.engines.base import (
    Budget,
    Call,
    Engine,
    Solutions,
    UniqueCount,
    call_budget,
    check_limit,
)
from cp_queens.engines.fast import kernels
from cp_queens.engines.fast import subproblems as split_module
from cp_queens.engines.fast import where as where_module
from cp_queens.engines.fast.subproblems import (
    MITM_FROM,
    PartialCount,
    RecheckError,
    Subproblem,
    check_known_total,
)
from cp_queens.errors import EngineOptionError
from cp_queens.problem import Placement, Problem

#: Solutions per kernel call when streaming; the first calls are small so that
#: ``first()`` and small limits do not pay for a full batch.
BATCH_SIZES = (1, 64, 4096)
#: Solutions per kernel call for ``FastEngine.solution_arrays``: big blocks, so that
#: formatting them costs little per solution, but a quick first one.
ARRAY_BATCH_SIZES = (1024, 1 << 16)
#: Search nodes per kernel call at most, so time limits and Ctrl-C are seen promptly.
NODES_PER_CALL = 1 << 22
#: Rows preset per subproblem of a count in this process (corner subproblems need two).
HERE_DEPTH = 2


@register
class FastEngine(Engine):
    """Compiled (C) bitmask kernel: symmetry-reduced counts, lexicographic batched enumeration."""

    name = "fast"
    #: Meeting in the middle: 1.5 s of CPU for the 95.8 million solutions of n = 17 (the
    #: cost a solution falls with n: 0.9e-8 s at n = 18); the estimate errs long.
    seconds_per_solution = 1.6e-8
    #: 0.51 s of CPU for the 82 million nodes of CSPLib prob079's gen-20-4-1 (4 given
    #: queens, 706,604 completions; Knuth's estimate of its plain tree: 67 million).
    seconds_per_node = 1e-8
    counts_on_every_core = True
    #: Rows in order, like ``reference`` but ~1000 times faster a node: n = 30 in 1 s,
    #: n = 34 in 44 s, n = 36 not within 60 s (measured under load 5-8).
    first_reach = 34
    description = (
        "compiled bitmask backtracker (C), full symmetry reduction, all cores or a Dask cluster"
    )
    max_n = kernels.MAX_N
    budget_keys = ("time_limit", "workers", "where", "checkpoint", "recheck")
    #: Each subproblem's count of canonical solutions comes with its total.
    unique_for_free = True

    def __init__(
        self,
        *,
        depth: int | None = None,
        force_python: bool = False,
        lost_workers_timeout: float = parallel.LOST_WORKERS_TIMEOUT,
    ) -> None:
        """
        Args:
            depth: rows preset per subproblem (default grows with n).
            force_python: run the interpreted kernels (exact, much slower).
            lost_workers_timeout: seconds a Dask cluster may have no worker at all
                before the count stops with ``ClusterLostError``
                (finished subproblems stay in the checkpoint).

        The run settings come with each call's ``Budget``:
        ``workers`` (local processes for a count: ``None`` every core from n = 16 on,
        this process below; ``0`` every core; ``1`` this process), ``where`` (a Dask
        address ``tcp://HOST:8786``, ``local[:W]`` for a local Dask cluster started
        for the call, or any ``concurrent.futures.Executor``) and ``checkpoint`` (a
        file recording finished subproblems; the same count resumes from it).

        Examples:
            >>> from cp_queens.budget import Budget
            >>> FastEngine().count_unique(Problem(8), budget=Budget.of(workers=1)).value
            UniqueCount(total=92, unique=12)
        """
        super().__init__()
        self.depth = depth
        self.force_python = force_python
        if isinstance(lost_workers_timeout, bool) or not (
            isinstance(lost_workers_timeout, int | float) and 0 < lost_workers_timeout < 1e9
        ):
            raise EngineOptionError(
                "lost_workers_timeout must be a number of seconds > 0, "
                f"got {lost_workers_timeout!r}"
            )
        self.lost_workers_timeout = float(lost_workers_timeout)

    # -- counting ---------------------------------------------------------

    def _count(self, problem: Problem, call: Call) -> int:
        return self._split_count(problem, call).total

    def _count_unique(self, problem: Problem, call: Call) -> UniqueCount:
        return self._split_count(problem, call)

    def _split_count(self, problem: Problem, call: Call) -> UniqueCount:
        """Split the count into subproblems and run them where the options say."""
        if problem.n >= MITM_FROM and problem.is_empty_board and not self.force_python:
            from cp_queens.engines.fast import meet

            if meet.applies(problem, self.force_python):
                return meet.count(problem, call, lost_timeout=self.lost_workers_timeout)
        stats = call.stats
        budget = call.budget
        subs: Sequence[Subproblem] | Iterator[Subproblem]
        if budget.checkpoint is None:
            # Streamed: the count starts at once and never holds the whole split.
            subs = split_module.iter_split(
                problem.n,
                depth=self._depth(problem, call),
                fixed=problem.fixed,
                blocked=problem.blocked,
            )
        else:
            try:  # a checkpoint's header names the whole split
                subs = split_module.split(
                    problem.n,
                    depth=self.depth,
                    fixed=problem.fixed,
                    blocked=problem.blocked,
                    clock=call.clock,
                )
            except split_module.SplitExpired:
                stats.extra["subproblems"] = "time ran out while splitting"
                call.stop_for_time()
                return UniqueCount(0, 0)
        running = {"solutions": 0}
        sized: SplitSize | None = None

        def report(fresh: list[PartialCount], done: int, items: int | None, resumed: int) -> None:
            running["solutions"] += sum(part.total for part in fresh)
            if items is None and sized is not None:
                items = sized.total  # known once the split has been counted through
            call.report(running["solutions"], done=done, total=items, resumed=resumed)

        with contextlib.ExitStack() as stack:
            if budget.checkpoint is None and call.progress is not None:
                # A streamed split has no length: count it through beside the search, so
                # that the progress line gets its parts total, fraction and ETA.
                sized = stack.enter_context(SplitSize(problem, depth=self._depth(problem, call)))
            executor, where, alive = where_module.executor(
                stack, call, problem.n, self.force_python
            )
            checkpoint = None
            if budget.checkpoint is not None:
                from cp_queens.parallel.checkpoint import Checkpoint

                assert isinstance(subs, list)

                job = _job(problem, subs)
                keys = [sub.key for sub in subs]
                symmetric = not problem.fixed and not problem.blocked
                checkpoint = stack.enter_context(
                    Checkpoint.open(
                        budget.checkpoint, job, keys, PartialCount, sane=_sane(subs, symmetric)
                    )
                )
                if budget.recheck:
                    checked = _recheck(subs, checkpoint.done, budget.recheck, self.force_python)
                    # What was checked, and only that: the other records are trusted as read.
                    resumed = sum(sub.key in checkpoint.done for sub in subs)
                    stats.extra["rechecked"] = f"{checked} of {resumed} resumed: ok"
            result = parallel.run(
                subs,
                functools.partial(count_chunk, force_python=self.force_python),
                key=_key,
                executor=executor,
                where=where,
                workers_alive=alive,
                lost_timeout=self.lost_workers_timeout,
                workers=where_module.workers(problem, call),
                checkpoint=checkpoint,
                report=report,
                clock=call.clock,
                prepare=functools.partial(split_module.warm_up, self.force_python, problem.n),
            )
        parts = result.records.values()
        stats.extra["subproblems"] = len(result.records)
        stats.branches = sum(part.nodes for part in parts)
        stats.extra["where"] = result.where
        stats.pool_start = result.pool_start
        if result.resumed:
            stats.extra["resumed"] = result.resumed
        if not result.complete:
            call.stop_for_time()
        total = sum(part.total for part in parts)
        if result.resumed and result.complete and problem.is_empty_board:
            check_known_total(problem.n, total)
        return UniqueCount(total, sum(part.unique for part in parts))

    def _depth(self, problem: Problem, call: Call) -> int | None:
        """Rows preset per subproblem: the default split's, except in this process.

        Workers need many small subproblems; one process does not, and the search
        (``count_dynamic``) chooses its rows
        best from as high up as it may: with ``HERE_DEPTH`` rows preset it visits
        about 3 % fewer nodes at n = 16 and the split costs nothing. A time limit
        needs small subproblems, for the clock is read only between them: workers are
        stopped at the deadline, but a search in this process cannot be, so there the
        split goes as deep as ``deadline_depth``.
        """
        plain = not problem.fixed and not problem.blocked
        here = not call.budget.elsewhere and where_module.workers(problem, call) == 1
        if self.depth is None and plain and here and not call.clock.limited:
            return HERE_DEPTH
        if self.depth is None and here and call.clock.limited:
            return split_module.deadline_depth(problem.n)
        return self.depth

    # -- enumeration ------------------------------------------------------

    def solution_arrays(
        self, problem: Problem, *, limit: int | None = None, budget: Budget | None = None
    ) -> Solutions:
        """Stream the solutions of ``solutions`` in blocks, for writers of big files.

        Each item is a NumPy array of shape ``(k, n)``, one row of columns per
        solution, in the same order as ``solutions`` (lexicographic). A
        writer that formats a whole block at once (``cp-queens enumerate``) then
        spends no Python work per solution. ``limit`` and the time limit work as
        for ``solutions`` (``budget``: the run settings of the call); the stream's
        ``stats`` count solutions.

        Examples:
            >>> [block.shape for block in FastEngine().solution_arrays(Problem(8))]
            [(92, 8)]
        """
        budget = call_budget(budget)
        self._check(problem, "enumerate", self.able_to("enumerate"), budget)
        call = self._call("solutions", problem, limit=check_limit(limit), budget=budget)
        blocks = self._blocks(problem, call, ARRAY_BATCH_SIZES)
        return Solutions(self._stream(problem, call, blocks), call.stats)

    def _solutions(self, problem: Problem, call: Call) -> Iterator[Placement]:
        for block in self._blocks(problem, call, BATCH_SIZES):
            for cols in block.tolist():
                yield _trusted(tuple(cols))

    def _blocks(
        self, problem: Problem, call: Call, sizes: tuple[int, ...]
    ) -> Generator[Any, None, None]:
        """The lexicographic search, ``sizes[i]`` solutions per kernel call (the last repeats)."""
        import numpy as np

        code, compiled = split_module.backend(self.force_python, problem.n)
        n = problem.n
        allow_list, _ = split_module.allow_masks(
            split_module.Subproblem(
                n,
                split_module.PLAIN,
                (),
                tuple(problem.fixed.items()),
                tuple(sorted(problem.blocked)),
            )
        )

        def new(size: int, compiled: bool) -> Any:  # NumPy arrays: blocks leave as arrays
            return np.zeros(size, dtype=np.int64) if compiled else [0] * size

        allow = new(n, compiled)
        for row, mask in enumerate(allow_list):
            allow[row] = mask
        stack = [new(n + 1, compiled) for _ in range(4)]
        bits = new(n, compiled)
        state = new(1, compiled)
        stack[0][0] = allow[0]
        out = new(max(sizes) * n, compiled)
        call.stats.branches = 0
        calls = 0
        while state[0] >= 0:
            capacity = sizes[min(calls, len(sizes) - 1)]
            calls += 1
            found, nodes = code.enumerate_batch(
                n, allow, state, *stack, bits, out, capacity, NODES_PER_CALL
            )
            call.stats.branches += int(nodes)
            if found:
                if compiled:
                    yield out[: found * n].reshape(found, n).copy()  # ``out`` is reused
                else:
                    yield np.array(out[: found * n], dtype=np.int64).reshape(found, n)
            if call.expired():
                call.stop_for_time()
                return


class SplitSize:
    """The number of subproblems of a streamed split, counted in a thread (``total``:
    ``None`` until known).

    Why a thread: listing the split takes from microseconds (n = 16, 92 subproblems) to
    minutes (n = 28, millions), and a count must not wait for it; the progress line
    shows its fraction and ETA from the moment the number is there. The thread holds
    no subproblem (a generator, counted through) and stops when the count does.
    """

    def __init__(self, problem: Problem, depth: int | None) -> None:
        import threading

        self.total: int | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._count, args=(problem, depth), name="cp-queens split size", daemon=True
        )

    def _count(self, problem: Problem, depth: int | None) -> None:
        items = split_module.iter_split(
            problem.n, depth=depth, fixed=problem.fixed, blocked=problem.blocked
        )
        size = 0
        for size, _ in enumerate(items, start=1):
            if size % 1024 == 0 and self._stop.is_set():
                return
        self.total = size

    def __enter__(self) -> SplitSize:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()


# -- what other modules may use of this engine (its inner modules are its own) ------


def compiled() -> bool:
    """Whether the compiled kernels are at hand (the C extension built at install).
    Without them this engine runs its kernels interpreted; a caller with a plain-Python
    way of its own (the course's reference solutions) is then as quick."""
    from cp_queens.engines.fast import loader

    return loader.COMPILED is not None


def row_parser() -> Callable[..., int] | None:
    """The compiled reader of placement lines, ``parse(data, jsonl, out, shape)``
    (see ``cp_queens.engines.fast.parse.parse_rows``: the rows read, or < 0 for a line
    not in the plain shape), or ``None`` without the compiled kernels.

    ``cp_queens.formats`` reads big placement files with it: the one door to this
    engine's kernels from outside the engine.
    """
    from cp_queens.engines.fast import loader

    if loader.COMPILED is None:
        return None
    parse: Callable[..., int] = loader.COMPILED.parse_rows
    return parse


def _trusted(cols: tuple[int, ...]) -> Placement:
    """A ``Placement`` without re-checking its columns: the kernel only emits
    solutions, and the check would cost more than the search itself."""
    placement = object.__new__(Placement)
    object.__setattr__(placement, "cols", cols)
    return placement


def count_chunk(
    subs: Sequence[Subproblem], force_python: bool = False
) -> list[tuple[str, PartialCount]]:
    """The task a worker runs: count a few subproblems (module-level, so it pickles)."""
    parts = split_module.count_many(subs, force_python=force_python)
    return [(sub.key, part) for sub, part in zip(subs, parts, strict=True)]


def _key(sub: Subproblem) -> str:
    return sub.key


def _job(problem: Problem, subs: Sequence[Subproblem]) -> dict[str, Any]:
    """What identifies a count in its checkpoint file: board, given queens, blocked squares,
    split."""
    return {
        "engine": "fast",
        "n": problem.n,
        "fixed": sorted([row, col] for row, col in problem.fixed.items()),
        "blocked": sorted([row, col] for row, col in problem.blocked),
        "depth": max((len(sub.prefix) for sub in subs), default=0),
        "subproblems": len(subs),
    }


def _recheck(
    subs: Sequence[Subproblem], done: dict[str, PartialCount], fraction: float, force_python: bool
) -> int:
    """Count a random share of the resumed records again; return how many were checked.

    Why: a record that passes every test of its form (checksum, residues, bounds) may
    still be wrong, if the machine that counted it was. Recounting a sample turns
    "probably right" into "checked" at the cost of that share of the work.

    Raises:
        RecheckError: a recounted subproblem differs from its record.
    """
    import random

    resumed = [sub for sub in subs if sub.key in done]
    if not resumed:
        return 0
    chosen = random.sample(resumed, max(1, math.ceil(fraction * len(resumed))))
    for sub, part in count_chunk(chosen, force_python=force_python):
        stored = done[sub]
        if (stored.total, stored.unique) != (part.total, part.unique):
            raise RecheckError(
                f"recheck failed: subproblem {sub} is recorded with {stored.total} "
                f"solutions but counts {part.total}; do not trust this checkpoint"
            )
    return len(chosen)


def _sane(subs: Sequence[Subproblem], symmetric: bool) -> Callable[[str, PartialCount], str | None]:
    """Why a subproblem's figures read back from a checkpoint cannot be true (or ``None``).

    * no negatives;
    * no more than its free rows can hold: with ``f`` rows left to fill, every
      solution of the subtree is a different way of giving those rows the ``f``
      columns still free, so there are at most ``f!`` of them (leaves), and each leaf
      weighs at most 8 (its orbit); the orbits found are at most the leaves;
    * on an empty board every orbit has 1 to 8 members: ``unique <= total <= 8 * unique``.
    """
    free = {
        sub.key: sub.n - len(sub.prefix) - sum(row >= len(sub.prefix) for row, _ in sub.fixed)
        for sub in subs
    }
    weights = {sub.key: 1 if sub.weight == 1 else 8 for sub in subs}

    def why(key: str, part: PartialCount) -> str | None:
        if min(part) < 0:
            return "negative"
        leaves = math.factorial(free.get(key, 0))
        if part.unique > leaves or part.total > weights.get(key, 8) * leaves:
            return f"more solutions than {free.get(key, 0)} free rows can hold"
        if symmetric and not part.unique <= part.total <= 8 * part.unique:
            return "total and unique disagree"
        return None

    return why
