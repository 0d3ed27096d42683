"""Bitmask search kernels: plain functions over integers and arrays, with C twins.

Each function here exists twice:

* in C (``_kernels_impl.h``, ``_kernels.c``): the extension module ``_kernels``,
  built when the package is installed, the fast path, over buffers of 64-bit
  integers, the GIL released while it searches;
* here, interpreted by CPython over plain lists: the readable statement of the
  search, and the fallback where the install found no C compiler (exact, but some
  50-100 times slower). ``tests/test_fast_kernels.py`` checks that both give the same
  figures, subtree by subtree.

So the functions use only what C says as plainly: integer arithmetic, indexing and
loops. Validation and the choice of arrays live in the Python wrappers
(``cp_queens.engines.fast``, ``cp_queens.engines.fast.subproblems``).

How a board is held: bit ``c`` of a row mask is column ``c``. Three masks say
which squares of the next row are attacked: ``cols`` (a queen above in that
column), ``left`` and ``right`` (a queen above on a diagonal; they move one
column per row, hence the shifts). The free squares of a row are
``~(cols | left | right) & allow[row]``, and the lowest free one is
``free & -free``: trying columns from the lowest bit up gives lexicographic order.

The search uses an explicit stack (four slots a row: the squares still to try,
and the attack masks on entering the row) instead of recursion, which compiles
into a tight loop. The hot loops of a count are specialised per kind
of subtree (``count_corner``, ``count_edge``): their rules are scalar
tests, and the two deepest rows are settled without descending (``last_two``).

Symmetry (see ``cp_queens.engines.fast.subproblems`` for why it is correct): a count
searches only canonical representatives, in two kinds of subtrees.

* *corner*: a queen in a corner; every such solution has 8 distinct images and
  exactly one of them is searched, so each leaf weighs 8;
* *edge*: no corner queen; the first-row queen is the edge queen nearest to a
  corner, which prunes (``allow`` masks and the ``side_row`` rule), and each leaf
  is checked against its images at the leaf (``edge_orbit``), weighing
  8, 4 or 2 by its orbit size, or 0 when it is not the canonical member.
"""

from __future__ import annotations

from typing import Any

from cp_queens.engines.fast.bits import (
    BIT_INDEX,
    BY_ORBIT,
    CORNER,
    EDGE,
    MAX_N,
    PLAIN,
    column_of,
    edge_orbit,
    kind_rules,
    row_options,
)
from cp_queens.engines.fast.dynamic import DYNAMIC_UP_TO, count_dynamic, count_subtree

__all__ = [
    "BIT_INDEX",
    "BY_ORBIT",
    "CORNER",
    "DYNAMIC_UP_TO",
    "EDGE",
    "MAX_N",
    "PLAIN",
    "count_many",
    "enumerate_batch",
    "kind_rules",
    "row_options",
]


def count_many(
    n: int,
    kinds: Any,
    depths: Any,
    prefixes: Any,
    base: Any,
    results: Any,
    allow: Any,
    bits: Any,
    stack: Any,
    queen_cols: Any,
    inverse: Any,
) -> int:
    """Count a batch of subtrees in one call, so that small ones cost no dispatch each.

    Subtree ``i`` has kind ``kinds[i]`` and its first ``depths[i]`` rows preset
    to the one-bit masks ``prefixes[i*n : i*n + depths[i]]``; its
    ``(weighted solutions, leaves, nodes)`` go to ``results[3*i : 3*i + 3]``.
    Corner and edge subtrees with at least three rows to fill run their own
    loop (``count_corner``, ``count_edge``); the rest (pre-placed
    queens, nearly complete prefixes) the general ``count_subtree``. Returns how many
    subtrees it counted: all of them here (the C twin stops early when asked to, see
    ``stopping.py``).
    """
    for i in range(len(kinds)):
        kind = kinds[i]
        depth = depths[i]
        for r in range(depth):
            bits[r] = prefixes[i * n + r]
        side_row = kind_rules(n, kind, bits, base, allow)
        weight = 1
        if kind == CORNER and n > 1:
            weight = 8
        elif kind == EDGE:
            weight = BY_ORBIT
        if kind == PLAIN or depth > n - 3 or (kind == CORNER and depth < 2):
            total, leaves, nodes = count_subtree(
                n, depth, bits, allow, side_row, weight, stack, queen_cols, inverse
            )
        elif not prefix_fits(n, depth, bits, allow, side_row):
            total = leaves = nodes = 0
        elif n <= DYNAMIC_UP_TO:
            if kind == EDGE:
                # The side columns' queens stand in rows b .. n-1-b: close them below too.
                b = column_of(bits[0])
                for r in range(n - b, n):
                    allow[r] &= ~(1 | (1 << (n - 1)))
            total, leaves, nodes = count_dynamic(
                n, depth, bits, allow, kind == EDGE, stack, queen_cols, inverse
            )
            if kind == CORNER:
                total = 8 * leaves
        elif kind == CORNER:
            leaves, nodes = count_corner(n, depth, bits, column_of(bits[1]), stack)
            total = 8 * leaves
        else:
            total, leaves, nodes = count_edge(n, depth, bits, stack, queen_cols, inverse)
        results[3 * i] = total
        results[3 * i + 1] = leaves
        results[3 * i + 2] = nodes
    return len(kinds)


def prefix_fits(n: int, depth: int, bits: Any, allow: Any, side_row: int) -> bool:
    """Whether the preset rows ``bits[0:depth]`` keep the kind's rules and attack nothing."""
    mask = (1 << n) - 1
    side = 1 | (1 << (n - 1))
    cols = left = right = 0
    for r in range(depth):
        bit = bits[r]
        if bit & row_options(r, cols, left, right, allow, side_row, side) == 0:
            return False
        cols |= bit
        left = ((left | bit) << 1) & mask
        right = (right | bit) >> 1
    return True


def count_corner(n: int, depth: int, bits: Any, bound1: int, stack: Any) -> tuple[int, int]:
    """Leaves and nodes below a legal corner prefix ``bits[0:depth]`` (``2 <= depth <= n-3``).

    The hot loop of a count, kept to what the corner kind needs: the one rule
    (column 1 closed in rows ``2 .. bound1-1``, ``bound1 = q[1]``) is a scalar
    test, every leaf weighs 8 so no board is kept, and the last two rows are
    settled without descending (``last_two``). The rows above the current
    one live in ``stack`` (four slots a row); ``row & 63`` tells the compiler an
    index is never negative, which spares the wrap-around code on every access.
    """
    mask = (1 << n) - 1
    pen = n - 2
    cols = left = right = 0
    for r in range(depth):
        bit = bits[r]
        cols |= bit
        left = (left | bit) << 1
        right = (right | bit) >> 1
    row = depth
    free = mask & ~(cols | left | right)
    if row < bound1:
        free &= ~2
    leaves = 0
    nodes = 0
    while True:
        if free == 0:
            if row == depth:
                break
            row -= 1
            k = (row & 63) << 2
            free = stack[k]
            cols = stack[k + 1]
            left = stack[k + 2]
            right = stack[k + 3]
            continue
        bit = free & -free
        free ^= bit
        nodes += 1
        below_cols = cols | bit
        below_left = (left | bit) << 1
        below_right = (right | bit) >> 1
        below = row + 1
        below_free = mask & ~(below_cols | below_left | below_right)
        if below < bound1:
            below_free &= ~2
        if below_free == 0:
            continue
        if below == pen:
            ways = last_two(mask, below_cols, below_left, below_right, below_free, 0)
            leaves += (ways & 1) + (ways >> 1)
            nodes += popcount2(below_free) + (ways & 1) + (ways >> 1)
            continue
        k = (row & 63) << 2
        stack[k] = free
        stack[k + 1] = cols
        stack[k + 2] = left
        stack[k + 3] = right
        row = below
        free = below_free
        cols = below_cols
        left = below_left
        right = below_right
    return leaves, nodes


def popcount2(free: int) -> int:
    """Bits set in a mask known to hold at most two."""
    if free == 0:
        return 0
    return 1 if free & (free - 1) == 0 else 2


def last_two(mask: int, cols: int, left: int, right: int, free: int, closed: int) -> int:
    """Which of the (at most two) squares ``free`` of row ``n-2`` complete a board.

    With ``n-2`` queens placed, two columns remain and ``free`` (row ``n-2``'s
    open squares) is a subset of them; a square there leaves the other column
    for the last row, which must not be on a diagonal of any queen above nor
    in ``closed``. Bit 0 of the answer: the lowest square of ``free`` works;
    bit 1: the other one does. No loop and no descent: this settles the two
    deepest rows of the tree, the most numerous, in a few operations.
    """
    rest = mask & ~cols
    low = free & -free
    high = free ^ low
    ways = 0
    other = rest ^ low
    if other & ~(((left | low) << 1) | ((right | low) >> 1)) & ~closed:
        ways = 1
    if high:
        other = rest ^ high
        if other & ~(((left | high) << 1) | ((right | high) >> 1)) & ~closed:
            ways |= 2
    return ways


def count_edge(
    n: int, depth: int, bits: Any, stack: Any, queen_cols: Any, inverse: Any
) -> tuple[int, int, int]:
    """Orbit-weighted solutions, orbits and nodes below a legal edge prefix (``1 <= depth <= n-3``).

    ``count_corner`` with the edge rules as scalars (``b = q[0]``): side
    columns closed in rows ``1 .. b-1``; by row ``n-1-b`` both taken; the last
    queen at least ``b`` from the corners. The board is kept in ``bits`` for
    the leaf check (``edge_orbit``), the only place where leaves differ.
    """
    mask = (1 << n) - 1
    last = n - 1
    pen = n - 2
    side = 1 | (1 << last)
    b = column_of(bits[0])
    bound2 = last - b
    near = ((1 << b) - 1) | (((1 << b) - 1) << (n - b))
    cols = left = right = 0
    for r in range(depth):
        bit = bits[r]
        cols |= bit
        left = (left | bit) << 1
        right = (right | bit) >> 1
    row = depth
    free = mask & ~(cols | left | right)
    if row < b:
        free &= ~side
    elif row == bound2:
        taken = cols & side
        if taken == 0:
            free = 0
        elif taken != side:
            free &= side
    total = 0
    leaves = 0
    nodes = 0
    while True:
        if free == 0:
            if row == depth:
                break
            row -= 1
            k = (row & 63) << 2
            free = stack[k]
            cols = stack[k + 1]
            left = stack[k + 2]
            right = stack[k + 3]
            continue
        bit = free & -free
        free ^= bit
        bits[row & 63] = bit
        nodes += 1
        below_cols = cols | bit
        below_left = (left | bit) << 1
        below_right = (right | bit) >> 1
        below = row + 1
        below_free = mask & ~(below_cols | below_left | below_right)
        if below < b:
            below_free &= ~side
        elif below == bound2:
            taken = below_cols & side
            if taken == 0:
                continue
            if taken != side:
                below_free &= side
        if below_free == 0:
            continue
        if below == pen:
            ways = last_two(mask, below_cols, below_left, below_right, below_free, near)
            nodes += popcount2(below_free) + (ways & 1) + (ways >> 1)
            if ways:
                rest = mask & ~below_cols
                low = below_free & -below_free
                for choice in range(2):
                    if ways >> choice & 1:
                        square = low if choice == 0 else below_free ^ low
                        bits[pen] = square
                        bits[last] = rest ^ square
                        orbit = edge_orbit(n, bits, queen_cols, inverse)
                        if orbit:
                            total += orbit
                            leaves += 1
            continue
        k = (row & 63) << 2
        stack[k] = free
        stack[k + 1] = cols
        stack[k + 2] = left
        stack[k + 3] = right
        row = below
        free = below_free
        cols = below_cols
        left = below_left
        right = below_right
    return total, leaves, nodes


def enumerate_batch(
    n: int,
    allow: Any,
    state: Any,
    stack_free: Any,
    stack_cols: Any,
    stack_left: Any,
    stack_right: Any,
    bits: Any,
    out: Any,
    capacity: int,
    max_nodes: int,
) -> tuple[int, int]:
    """Resume a lexicographic search and write up to ``capacity`` solutions to ``out``.

    ``out`` is flat: solution ``k`` occupies ``out[k*n : (k+1)*n]`` (columns).
    The search state lives in the arrays and in ``state[0]`` (the current row;
    -1 when the search is over), so each call continues where the last one
    stopped. A call also returns after about ``max_nodes`` nodes even with
    ``out`` not full, so the caller regains control (time limits, Ctrl-C)
    however sparse the solutions are. Before the first call set ``state[0] = 0``
    and ``stack_free[0] = allow[0]``, the other stack slots of row 0 to 0.

    Returns ``(solutions written, nodes visited)``.
    """
    mask = (1 << n) - 1
    last = n - 1
    row = state[0]
    found = 0
    nodes = 0
    while row >= 0:
        free = stack_free[row]
        if free == 0:
            row -= 1
            continue
        bit = free & -free
        stack_free[row] = free ^ bit
        bits[row] = bit
        nodes += 1
        if row == last:
            base = found * n
            for r in range(n):
                out[base + r] = column_of(bits[r])
            found += 1
            if found == capacity:
                break
            continue
        cols = stack_cols[row] | bit
        left = ((stack_left[row] | bit) << 1) & mask
        right = (stack_right[row] | bit) >> 1
        row += 1
        stack_cols[row] = cols
        stack_left[row] = left
        stack_right[row] = right
        stack_free[row] = ~(cols | left | right) & allow[row]
        if nodes >= max_nodes:
            break
    state[0] = row
    return found, nodes
