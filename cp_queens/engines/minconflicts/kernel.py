"""The kernels of the ``minconflicts`` engine: plain functions over integer sequences.

The board state is four arrays, updated in O(1) per queen moved:

* ``q[r]``            - column of the queen in row ``r``;
* ``col[c]``          - queens in column ``c``;
* ``up[r + c]``       - queens on the "/" diagonal through ``(r, c)``;
* ``down[r - c + n - 1]`` - queens on the "\\" diagonal.

A queen at ``(r, c)`` is attacked by ``col[c] + up[r + c] + down[r - c + n - 1] - 3``
other queens.

These functions are the readable statement of the search and the fallback where the
package was installed without a C compiler; the C extension ``_kernel`` (``_kernel.c``,
built at install) is a line-for-line port of them. Both draw their random numbers
from the same generator (splitmix64 over one 64-bit state that the caller holds in
``rng[0]``), so a seed gives the same board either way (``tests/test_minconflicts.py``).
"""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1


def next_random(rng: Any) -> int:
    """The next 64-bit number of splitmix64; the state ``rng[0]`` moves on (kept unsigned
    here, the C reads the same 64 bits)."""
    state = (int(rng[0]) + 0x9E3779B97F4A7C15) & _MASK
    rng[0] = state
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def randint(rng: Any, lo: int, hi: int) -> int:
    """An integer in ``lo .. hi-1`` (``hi > lo``)."""
    return lo + next_random(rng) % (hi - lo)


def greedy_start(n: int, tries: int, q: Any, col: Any, up: Any, down: Any, rng: Any) -> None:
    """A random permutation, improved row by row by swapping in a diagonal-free column.

    Starting from a permutation means no two queens share a column. Row ``i``
    then looks (at most ``tries`` random draws) among the columns not yet used
    by rows ``0..i-1`` for one on free diagonals, and swaps it in. Early rows
    almost always succeed, so only a handful of conflicts are left for the
    repair phase - this is what makes large n fast.
    """
    for i in range(n):
        q[i] = i
    for i in range(n - 1, 0, -1):
        j = randint(rng, 0, i + 1)
        q[i], q[j] = q[j], q[i]
    for c in range(n):
        col[c] = 0
    for d in range(2 * n - 1):
        up[d] = 0
        down[d] = 0
    for i in range(n):
        for _ in range(tries):
            j = randint(rng, i, n)
            c = q[j]
            if up[i + c] == 0 and down[i - c + n - 1] == 0:
                q[i], q[j] = q[j], q[i]
                break
        c = q[i]
        col[c] += 1
        up[i + c] += 1
        down[i - c + n - 1] += 1


def conflicted_rows(n: int, q: Any, col: Any, up: Any, down: Any, out: Any) -> int:
    """Write the rows whose queen is attacked into ``out``; return how many there are."""
    k = 0
    for r in range(n):
        c = q[r]
        if col[c] + up[r + c] + down[r - c + n - 1] > 3:
            out[k] = r
            k += 1
    return k


def repair(
    n: int, max_moves: int, q: Any, col: Any, up: Any, down: Any, rows: Any, rng: Any
) -> int:
    """Min-conflicts repair: move attacked queens to their least attacked column.

    Takes the attacked rows in random order; each queen still attacked is moved
    to a column of its row with the fewest attackers (ties broken at random, so
    the search drifts across plateaus instead of cycling). Returns the number of
    moves made, negated when the board is solved (``-moves - 1``), so the
    caller can continue with a fresh budget or restart.
    """
    moves = 0
    while moves < max_moves:
        k = conflicted_rows(n, q, col, up, down, rows)
        if k == 0:
            return -moves - 1
        for i in range(k - 1, 0, -1):
            j = randint(rng, 0, i + 1)
            rows[i], rows[j] = rows[j], rows[i]
        for t in range(k):
            r = rows[t]
            c = q[r]
            if col[c] + up[r + c] + down[r - c + n - 1] <= 3:
                continue  # an earlier move already freed this queen
            col[c] -= 1
            up[r + c] -= 1
            down[r - c + n - 1] -= 1
            best = n * 3 + 1
            ties = 0
            choice = c
            for x in range(n):
                attackers = col[x] + up[r + x] + down[r - x + n - 1]
                if attackers < best:
                    best = attackers
                    ties = 1
                    choice = x
                elif attackers == best:
                    ties += 1
                    if randint(rng, 0, ties) == 0:
                        choice = x
            q[r] = choice
            col[choice] += 1
            up[r + choice] += 1
            down[r - choice + n - 1] += 1
            moves += 1
            if moves >= max_moves:
                break
    if conflicted_rows(n, q, col, up, down, rows) == 0:
        return -moves - 1
    return moves
