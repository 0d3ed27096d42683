"""``fast``: a compiled bitmask backtracker with full symmetry reduction.

The search itself lives in :mod:`cp_queens.engines.fast.kernels` (plain functions that
Numba compiles); the symmetry classes and the split into subproblems in
:mod:`cp_queens.engines.fast.subproblems`; running them on several cores or a cluster in
:mod:`cp_queens.parallel`. This module only wires them to the engine interface.

* ``count`` / ``count_unique``: one pass over the canonical representatives
  gives both the total (each weighted by its orbit size) and the number of
  orbits. With pre-placed queens there is no symmetry left to use, so every
  completion is counted once.
* ``solutions``: the plain lexicographic search, emitting solutions in batches
  of arrays, so the order and the set are the reference's and memory stays flat.
* ``workers``: 1 (the default) counts in this process; ``0`` uses every core,
  ``k > 1`` that many processes (see :mod:`cp_queens.parallel`).

Boards up to n = 62 fit the 64-bit masks (far beyond anything countable).
Without Numba the same kernels run interpreted, with a warning.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from cp_queens.engines import register
from cp_queens.engines.base import Engine, ProgressCallback, UniqueCount
from cp_queens.engines.fast import kernels
from cp_queens.engines.fast import subproblems as split_module
from cp_queens.problem import Placement, Problem
from cp_queens.stats import TIME_LIMIT

if TYPE_CHECKING:
    from cp_queens import parallel as parallel_progress

#: Solutions per kernel call when streaming; the first calls are small so that
#: ``first()`` and small limits do not pay for a full batch.
BATCH_SIZES = (1, 64, 4096)
#: Subproblems counted per kernel call: few enough to see progress and time limits often.
SUBPROBLEMS_PER_CALL = 32
#: Search nodes per kernel call at most, so time limits and Ctrl-C are seen promptly.
NODES_PER_CALL = 1 << 22


@register
class FastEngine(Engine):
    """Numba bitmask kernel: symmetry-reduced counts, lexicographic batched enumeration."""

    name = "fast"
    description = (
        "compiled bitmask backtracker (Numba), full symmetry reduction, all cores or a Dask cluster"
    )
    max_n = kernels.MAX_N

    def __init__(
        self,
        *,
        time_limit: float | None = None,
        workers: int = 1,
        depth: int | None = None,
        force_python: bool = False,
    ) -> None:
        """``workers``: processes for a count (0 = all cores); ``depth``: rows preset per
        subproblem (default grows with n); ``force_python``: run the interpreted kernels."""
        super().__init__(time_limit=time_limit)
        if workers < 0:
            raise ValueError(f"workers must be >= 0, got {workers}")
        self.workers = workers
        self.depth = depth
        self.force_python = force_python

    # -- counting ---------------------------------------------------------

    def _count(self, problem: Problem, progress: ProgressCallback | None) -> int:
        return self._run_count(problem, progress).total

    def _count_unique(self, problem: Problem, progress: ProgressCallback | None) -> UniqueCount:
        return self._run_count(problem, progress)

    def _run_count(self, problem: Problem, progress: ProgressCallback | None) -> UniqueCount:
        subs = split_module.split(problem.n, depth=self.depth, fixed=problem.fixed)
        self.stats.extra["subproblems"] = len(subs)
        if self.workers != 1:
            from cp_queens import parallel

            result = parallel.count(
                subs,
                workers=self.workers or None,
                progress=None if progress is None else _solutions_only(progress),
                deadline=self._deadline(),
                force_python=self.force_python,
            )
            self.stats.branches = result.nodes
            if not result.complete:
                self.stats.status = TIME_LIMIT
            return UniqueCount(result.total, result.unique)
        deadline = self._deadline()
        total = unique = nodes = 0
        for start in range(0, len(subs), SUBPROBLEMS_PER_CALL):
            if deadline is not None and time.perf_counter() > deadline:
                self.stats.status = TIME_LIMIT
                break
            batch = subs[start : start + SUBPROBLEMS_PER_CALL]
            for part in split_module.count_many(batch, force_python=self.force_python):
                total += part.total
                unique += part.unique
                nodes += part.nodes
            if progress is not None:
                progress(total)
        self.stats.branches = nodes
        return UniqueCount(total, unique)

    # -- enumeration ------------------------------------------------------

    def _solutions(self, problem: Problem) -> Iterator[Placement]:
        code, compiled = split_module.backend(self.force_python)
        n = problem.n
        allow_list, _ = split_module.allow_masks(
            split_module.Subproblem(n, split_module.PLAIN, (), tuple(problem.fixed.items()))
        )
        new = split_module.new_array
        allow = new(n, compiled)
        for row, mask in enumerate(allow_list):
            allow[row] = mask
        stack = [new(n + 1, compiled) for _ in range(4)]
        bits = new(n, compiled)
        state = new(1, compiled)
        stack[0][0] = allow[0]
        out = new(max(BATCH_SIZES) * n, compiled)
        deadline = self._deadline()
        self.stats.branches = 0
        calls = 0
        while state[0] >= 0:
            capacity = BATCH_SIZES[min(calls, len(BATCH_SIZES) - 1)]
            calls += 1
            found, nodes = code.enumerate_batch(
                n, allow, state, *stack, bits, out, capacity, NODES_PER_CALL
            )
            self.stats.branches += int(nodes)
            if found:
                if compiled:
                    rows = out[: found * n].reshape(found, n).tolist()
                else:
                    rows = [out[k * n : (k + 1) * n] for k in range(found)]
                for cols in rows:
                    yield _trusted(tuple(cols))
            if deadline is not None and time.perf_counter() > deadline:
                self.stats.status = TIME_LIMIT
                return


def _trusted(cols: tuple[int, ...]) -> Placement:
    """A :class:`Placement` without re-checking its columns: the kernel only emits
    solutions, and the check would cost more than the search itself."""
    placement = object.__new__(Placement)
    object.__setattr__(placement, "cols", cols)
    return placement


def _solutions_only(progress: ProgressCallback) -> parallel_progress.ProgressCallback:
    """Adapt the engine's progress callback (solutions so far) to the parallel one."""

    def report(info: parallel_progress.Progress) -> None:
        progress(info.solutions)

    return report
