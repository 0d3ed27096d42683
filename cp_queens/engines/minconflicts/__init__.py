"""``minconflicts``: local search that finds one solution of a huge board in seconds.

Complete search explores a tree that grows exponentially with ``n``; local
search instead starts from a full but flawed board and repairs it. This is the
*min-conflicts* heuristic of Minton, Johnston, Philips and Laird ("Minimizing
conflicts: a heuristic repair method for constraint satisfaction and scheduling
problems", *Artificial Intelligence* 58, 1992), started from a greedy random
permutation in the spirit of Sosic and Gu ("Fast search algorithms for the
N-queens problem", *IEEE Trans. SMC* 21(6), 1991):

1. **start**: a random permutation (no two queens share a column), improved
   row by row so that most queens sit on free diagonals;
2. **repair**: while some queen is attacked, move one attacked queen (picked at
   random) to the column of its row where it is attacked least, ties at random;
3. **restart** from a fresh random start if the repair stalls.

What it cannot do, by nature: enumerate, count, or prove that no solution
exists. It is only asked for one solution when one is known to exist
(``n = 1`` and every ``n >= 4``); for ``n = 2, 3``, where no solution exists,
it answers ``None`` straight away instead of searching forever. Pre-placed
queens are not supported. ``seed`` makes a run reproducible; without one a
random seed is drawn and reported in ``stats.extra["seed"]``.

Examples:
    >>> from cp_queens import Problem, engines, verify
    >>> engine = engines.get("minconflicts", seed=1)
    >>> verify(engine.first(Problem(50)).value).ok
    True
"""

from __future__ import annotations

import array
import random
import warnings
from typing import Any

from cp_queens.engines import register
from cp_queens.engines.base import Call, Engine, check_seed
from cp_queens.errors import CpQueensWarning, EngineOptionError
from cp_queens.problem import Placement, Problem

#: Random draws per row when building the greedy start.
START_TRIES = 32
#: Element visits per kernel call (a move scans one row): about 10-50 ms of work
#: between two looks at the clock.
WORK_PER_CALL = 20_000_000


@register
class MinConflictsEngine(Engine):
    """Min-conflicts repair from a greedy random start, with restarts (C kernels)."""

    name = "minconflicts"
    description = (
        "local search (min-conflicts) from a random start: one solution of a large board fast; "
        "it cannot enumerate, count, prove that none exists, or take pre-placed queens"
    )
    can_enumerate = False
    can_count = False
    supports_fixed = False

    def __init__(
        self,
        *,
        seed: int | None = None,
        restart_after: int | None = None,
    ) -> None:
        """``restart_after``: moves without success before a fresh random start
        (default ``n + 100``: a large board needs few moves, a small one restarts often)."""
        super().__init__()
        if restart_after is not None and (
            isinstance(restart_after, bool)
            or not isinstance(restart_after, int)
            or restart_after < 1
        ):
            # A user's value (``-e minconflicts:restart_after=0``): our one-line error.
            raise EngineOptionError(
                f"minconflicts: restart_after must be a whole number >= 1, got {restart_after!r}"
            )
        self.seed = check_seed(seed)
        self.restart_after = restart_after

    def _first(self, problem: Problem, call: Call) -> Placement | None:
        n = problem.n
        if n == 1:
            return Placement((0,))
        if n in (2, 3):  # no solution exists; local search could not find out
            return None
        code, compiled = kernels()
        seed = self.seed if self.seed is not None else random.randrange(2**31)
        rng = array.array("Q", [seed])  # the generator's state, shared with the kernels
        q: Any
        col: Any
        rows: Any
        up: Any
        down: Any
        if compiled:
            import numpy as np

            q, col, rows = (np.zeros(n, dtype=np.int64) for _ in range(3))
            up, down = (np.zeros(2 * n - 1, dtype=np.int64) for _ in range(2))
        else:
            q, col, rows = ([0] * n for _ in range(3))
            up, down = ([0] * (2 * n - 1) for _ in range(2))
        restart_after = self.restart_after or n + 100
        per_call = max(1, WORK_PER_CALL // n)
        moves = restarts = 0
        stats = call.stats
        stats.extra.update(seed=seed)
        try:
            while True:
                code.greedy_start(n, START_TRIES, q, col, up, down, rng)
                stats.extra.setdefault(
                    "start_conflicts", code.conflicted_rows(n, q, col, up, down, rows)
                )
                moves_this_start = 0
                while moves_this_start < restart_after:
                    budget = min(per_call, restart_after - moves_this_start)
                    done = code.repair(n, budget, q, col, up, down, rows, rng)
                    if done < 0:
                        moves += -done - 1
                        return Placement(tuple(int(c) for c in q))
                    moves += done
                    moves_this_start += done
                    if call.expired():
                        call.stop_for_time()
                        return None
                restarts += 1
        finally:
            stats.extra.update(moves=moves, restarts=restarts)


_warned = False


def kernels() -> tuple[Any, bool]:
    """The compiled kernels (the ``_kernel`` extension built at install) and ``True``, or
    the interpreted ones of ``kernel.py`` and ``False``, after one warning line that says
    why and how to get the compiled ones. The same seed gives the same board either way."""
    global _warned
    try:
        from cp_queens.engines.minconflicts import _kernel  # type: ignore[attr-defined]

        return _kernel, True
    except ImportError:
        from cp_queens.engines.minconflicts import kernel

        if not _warned:
            _warned = True
            warnings.warn(
                "engine 'minconflicts' runs its pure-Python kernels (the same boards, about "
                "50 times slower): cp-queens was installed without its C extension; install a "
                "C compiler and reinstall cp-queens for the compiled ones",
                CpQueensWarning,
                stacklevel=3,
            )
        return kernel, False
