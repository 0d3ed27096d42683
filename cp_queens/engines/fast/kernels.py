"""Bitmask search kernels: plain functions over integers and arrays, compiled by Numba.

Everything here is written so that the *same source* runs in two ways:

* compiled with Numba (``COMPILED`` builds the ``njit(cache=True)``
  versions on first use, so importing this module costs nothing), the fast
  path, over NumPy ``int64`` arrays;
* interpreted by CPython over plain lists: the fallback when Numba cannot be
  imported (exact, but some 50-100 times slower), and the quicker choice for
  small boards, where loading the compiled code would take longer than the count.

So the functions use only what both understand: integer arithmetic, indexing
and loops. Validation and the choice of arrays live in the Python wrappers
(``cp_queens.engines.fast``, ``cp_queens.engines.fast.subproblems``).

How a board is held: bit ``c`` of a row mask is column ``c``. Three masks say
which squares of the next row are attacked: ``cols`` (a queen above in that
column), ``left`` and ``right`` (a queen above on a diagonal; they move one
column per row, hence the shifts). The free squares of a row are
``~(cols | left | right) & allow[row]``, and the lowest free one is
``free & -free``: trying columns from the lowest bit up gives lexicographic order.

The search uses an explicit stack (four slots a row: the squares still to try,
and the attack masks on entering the row) instead of recursion, which Numba
compiles into a tight loop. The hot loops of a count are specialised per kind
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

import importlib.util
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any


def register_jitable(function: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a helper the kernels call; ``_compile`` hands the marked ones to Numba.

    Nothing is imported here: a count of a small board runs the interpreted
    kernels and never pays for loading Numba (about half a second).
    """
    HELPERS.append(function)
    return function


HELPERS: list[Callable[..., Any]] = []

#: Boards up to this size fit the 64-bit masks (a shifted diagonal mask needs one spare bit).
MAX_N = 62

#: ``2**k % 67`` is different for every k < 64 (2 generates the integers mod 67),
#: so ``BIT_INDEX[bit % 67]`` is the column of a one-bit mask without a loop.
BIT_INDEX = tuple(
    next((k for k in range(64) if pow(2, k, 67) == residue), -1) for residue in range(67)
)

#: Leaf weight meaning "look at the leaf's symmetries" (edge subtrees).
BY_ORBIT = 0

#: Kinds of subtree (see ``cp_queens.engines.fast.subproblems``), as the kernels number them.
PLAIN = 0
CORNER = 1
EDGE = 2


@register_jitable
def column_of(bit: int) -> int:
    """The column of the queen in a one-bit row mask."""
    return BIT_INDEX[bit % 67]


@register_jitable
def row_options(
    row: int, cols: int, left: int, right: int, allow: Any, side_row: int, side: int
) -> int:
    """The squares of ``row`` where a queen may go.

    ``side_row`` (edge subtrees only, else -1): the last row where a side-column
    queen may stand. On reaching it, both side columns must be taken by the end
    of this row: if neither is taken yet the subtree is empty, if one is, this
    row's queen must take the other.
    """
    free = ~(cols | left | right) & allow[row]
    if row == side_row:
        taken = cols & side
        if taken == 0:
            return 0
        if taken != side:
            free &= side
    return free


@register_jitable
def edge_orbit(n: int, bits: Any, queen_cols: Any, inverse: Any) -> int:
    """Orbit size of the complete board ``bits`` if it is canonical, else 0.

    Canonical means lexicographically smallest of its 8 images. The edge rules
    already make ``q[0]`` the smallest first entry any image can have, so only
    the images whose first entry ties with ``q[0]`` need comparing; the first
    entries come from the corner-facing queens (last row, and the rows of the
    queens in columns 0 and n-1) without building the images. An image equal to
    the board is a symmetry of it; the orbit has 8 / (number of those) members.
    """
    last = n - 1
    top = 1 << last
    first = column_of(bits[0])
    bottom = column_of(bits[last])
    row_left = row_right = 0
    for r in range(n):
        if bits[r] == 1:
            row_left = r
        elif bits[r] == top:
            row_right = r
    # First entries of the images, numbered as in the loop below:
    # 1 flip_ud, 2 rot180, 3 transpose, 4 anti_transpose, 5 rot90, 6 rot270.
    # (flip_lr starts with n-1-q[0] > q[0] and never ties.)
    starts = (bottom, last - bottom, row_left, last - row_right, last - row_left, row_right)
    built = False
    stabiliser = 1
    for image in range(1, 7):
        if starts[image - 1] != first:
            continue
        if not built:
            for r in range(n):
                c = column_of(bits[r])
                queen_cols[r] = c
                inverse[c] = r
            built = True
        order = 0
        for i in range(n):
            if image == 1:
                v = queen_cols[last - i]
            elif image == 2:
                v = last - queen_cols[last - i]
            elif image == 3:
                v = inverse[i]
            elif image == 4:
                v = last - inverse[last - i]
            elif image == 5:
                v = last - inverse[i]
            else:
                v = inverse[last - i]
            if v != queen_cols[i]:
                order = -1 if v < queen_cols[i] else 1
                break
        if order < 0:
            return 0
        if order == 0:
            stabiliser += 1
    return 8 // stabiliser


@register_jitable
def kind_rules(n: int, kind: int, bits: Any, base: Any, allow: Any) -> int:
    """Fill ``allow`` (columns open per row) for a subtree of ``kind``; return its ``side_row``.

    ``base`` holds the rows' masks before the kind's rules (all columns, or the
    squares left open by pre-placed queens); ``bits[0]`` (edge) or ``bits[1]``
    (corner) is the preset queen the rules depend on.

    * corner: column 1 closed in rows ``2 .. q[1]-1``;
    * edge with ``q[0] = b``: side columns closed in rows ``1 .. b-1``, both used
      by row ``n-1-b`` (the ``side_row``), last row at distance ``>= b`` from the corners.
    """
    for r in range(n):
        allow[r] = base[r]
    side_row = -1
    if kind == CORNER:
        allow[0] &= 1
        if n > 1:
            below = column_of(bits[1])
            for r in range(2, below):
                allow[r] &= ~2
    elif kind == EDGE:
        b = column_of(bits[0])
        side = 1 | (1 << (n - 1))
        allow[0] &= 1 << b
        for r in range(1, b):
            allow[r] &= ~side
        near_corners = ((1 << b) - 1) | (((1 << b) - 1) << (n - b))
        allow[n - 1] &= ~near_corners
        side_row = n - 1 - b
    return side_row


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
) -> None:
    """Count a batch of subtrees in one call, so that small ones cost no dispatch each.

    Subtree ``i`` has kind ``kinds[i]`` and its first ``depths[i]`` rows preset
    to the one-bit masks ``prefixes[i*n : i*n + depths[i]]``; its
    ``(weighted solutions, leaves, nodes)`` go to ``results[3*i : 3*i + 3]``.
    Corner and edge subtrees with at least three rows to fill run their own
    loop (``count_corner``, ``count_edge``); the rest (pre-placed
    queens, nearly complete prefixes) the general ``count_subtree``.
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


@register_jitable
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


@register_jitable
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


@register_jitable
def popcount2(free: int) -> int:
    """Bits set in a mask known to hold at most two."""
    if free == 0:
        return 0
    return 1 if free & (free - 1) == 0 else 2


@register_jitable
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


@register_jitable
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


def popcount(x: int) -> int:
    """Bits set in ``x`` (``x >= 0``). Compiled: one ``popcnt`` (``numba_extensions``)."""
    return x.bit_count()


def lowest(x: int) -> int:
    """Index of the lowest set bit of ``x > 0``. Compiled, one ``tzcnt`` instruction."""
    return (x & -x).bit_length() - 1


#: Boards up to this size run ``count_dynamic``: its diagonal masks are indexed by
#: ``row + column``, which needs ``2n - 1`` bits.
DYNAMIC_UP_TO = 32


@register_jitable
def count_dynamic(
    n: int,
    depth: int,
    bits: Any,
    allow: Any,
    by_orbit: bool,
    stack: Any,
    queen_cols: Any,
    inverse: Any,
) -> tuple[int, int, int]:
    """Leaves (orbit-weighted or not) and nodes below a legal prefix, the most constrained
    row first (``2 <= n <= DYNAMIC_UP_TO``, ``depth <= n - 2``).

    The row-by-row search (``count_corner``) fills rows top-down; this one
    fills next the open row with the fewest free squares: a row with none ends the
    branch at once (where top-down would discover it rows later), a row with one is
    filled without a choice. At n = 16 that visits 80 million nodes instead of 246
    million; each costs more (a look at every open row), the whole about 10-30 %
    less time than the top-down search and the C counter.

    Any row can come next, so the diagonals are kept by index, not shifted row by
    row: ``d1`` holds ``row + col`` of every queen, ``d2`` holds ``col + n-1-row``;
    the squares of row ``r`` they attack are ``d1 >> r`` and ``d2 >> (n-1-r)``.
    ``allow`` carries the kind's rules per row (``kind_rules``, with the side
    columns closed below row ``n-1-b`` too). Leaves weigh 1, or their orbit size
    (0 when not canonical) with ``by_orbit``: the board is kept in ``bits`` then.
    """
    last = n - 1
    mask = (1 << n) - 1
    rows = mask ^ ((1 << depth) - 1)
    cols = d1 = d2 = 0
    for r in range(depth):
        bit = bits[r]
        cols |= bit
        d1 |= bit << r
        d2 |= bit << (last - r)
    total = 0
    leaves = 0
    nodes = 0
    # The row to fill first, and its free squares (see the loop below).
    key = 1 << 62
    reach = 0
    scan = rows
    while scan:
        r = lowest(scan)
        scan &= scan - 1
        f = allow[r & 63] & ~(cols | (d1 >> r) | (d2 >> (last - r)))
        reach |= f
        k = (popcount(f) << 8) | r
        key = k if k < key else key
        if k < 256:
            return 0, 0, 0
    if mask & ~cols & ~reach:
        return 0, 0, 0
    best = key & 255
    free = allow[best & 63] & ~(cols | (d1 >> best) | (d2 >> (last - best)))
    row = best
    level = 0
    while True:
        if free == 0:
            if level == 0:
                break
            level -= 1
            k = (level & 63) * 6
            free = stack[k]
            row = stack[k + 1]
            cols = stack[k + 2]
            d1 = stack[k + 3]
            d2 = stack[k + 4]
            rows = stack[k + 5]
            continue
        bit = free & -free
        free ^= bit
        nodes += 1
        if by_orbit:
            bits[row & 63] = bit
        below_rows = rows ^ (1 << row)
        below_cols = cols | bit
        below_d1 = d1 | (bit << row)
        below_d2 = d2 | (bit << (last - row))
        # The open row with the fewest free squares, as the smallest key
        # 256 * squares + row. Taken with a conditional move, not a branch: which row
        # wins is unpredictable, and a mispredicted branch per row cost more than the
        # whole look. The scan stops early only at a row with no square left (key
        # below 256), which ends this branch. The union of the free squares seen
        # (``reach``) must cover every open column too, or some column can no longer
        # take its queen: that ends the branch as well (17 % fewer nodes at n = 16).
        # (Written out here rather than as a helper: a helper taking the ``allow``
        # array costs two reference-count calls.)
        key = 1 << 62
        reach = 0
        scan = below_rows
        while scan:
            r = lowest(scan)
            scan &= scan - 1
            f = allow[r & 63] & ~(below_cols | (below_d1 >> r) | (below_d2 >> (last - r)))
            reach |= f
            k = (popcount(f) << 8) | r
            key = k if k < key else key
            if k < 256:
                break
        if key < 256:
            continue
        if mask & ~below_cols & ~reach:
            continue  # an open column has no free square in any open row
        best = key & 255
        below_free = allow[best & 63] & ~(
            below_cols | (below_d1 >> best) | (below_d2 >> (last - best))
        )
        if below_rows & (below_rows - 1) == 0:
            # One row left, one column left: a complete board.
            nodes += 1
            if by_orbit:
                bits[best & 63] = below_free
                orbit = edge_orbit(n, bits, queen_cols, inverse)
                if orbit:
                    total += orbit
                    leaves += 1
            else:
                leaves += 1
            continue
        k = (level & 63) * 6
        stack[k] = free
        stack[k + 1] = row
        stack[k + 2] = cols
        stack[k + 3] = d1
        stack[k + 4] = d2
        stack[k + 5] = rows
        level += 1
        row = best
        free = below_free
        cols = below_cols
        d1 = below_d1
        d2 = below_d2
        rows = below_rows
    return total, leaves, nodes


@register_jitable
def count_subtree(
    n: int,
    depth: int,
    bits: Any,
    allow: Any,
    side_row: int,
    weight: int,
    stack: Any,
    queen_cols: Any,
    inverse: Any,
) -> tuple[int, int, int]:
    """Count the completions of the queens preset in ``bits[0:depth]``.

    Returns ``(weighted solutions, counted leaves, nodes)``: each leaf adds
    ``weight``, or its orbit size when ``weight`` is ``BY_ORBIT`` (then
    non-canonical leaves add nothing), and counts once when it added anything.
    A preset row that breaks a rule gives ``(0, 0, 0)``.
    """
    mask = (1 << n) - 1
    side = 1 | (1 << (n - 1))
    last = n - 1
    cols = left = right = 0
    for r in range(depth):
        bit = bits[r]
        if bit & row_options(r, cols, left, right, allow, side_row, side) == 0:
            return 0, 0, 0
        cols |= bit
        left = ((left | bit) << 1) & mask
        right = (right | bit) >> 1
    if depth == n:
        if weight != BY_ORBIT:
            return weight, 1, 0
        orbit = edge_orbit(n, bits, queen_cols, inverse)
        return orbit, 1 if orbit else 0, 0
    total = 0
    leaves = 0
    nodes = 0
    # The current row's state stays in local variables; the stack keeps the
    # rows above, saved on the way down and restored on the way back up.
    row = depth
    free = row_options(row, cols, left, right, allow, side_row, side)
    if row == last:
        if free == 0:
            return 0, 0, 0
        bits[last] = free
        if weight != BY_ORBIT:
            return weight, 1, 1
        orbit = edge_orbit(n, bits, queen_cols, inverse)
        return orbit, 1 if orbit else 0, 1
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
        bits[row] = bit
        nodes += 1
        below_cols = cols | bit
        below_left = (left | bit) << 1
        below_right = (right | bit) >> 1
        below = row + 1
        below_free = row_options(below, below_cols, below_left, below_right, allow, side_row, side)
        if below_free == 0:
            continue
        if below == last:
            # The last row has at most one free square: a solution, no push needed.
            nodes += 1
            bits[last] = below_free
            if weight != BY_ORBIT:
                total += weight
                leaves += 1
            else:
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


def parse_rows(data: Any, brackets: int, out: Any, shape: Any) -> int:
    """Read whole lines of placements from the bytes ``data`` into ``out``, row after row.

    ``brackets`` 1: jsonl lines, ``[1, 3, 0, 2]`` or ``[1,3,0,2]``; 0: csv lines,
    ``1,3,0,2``. Every line must end with a newline and hold the same number of
    columns. Returns the number of lines read and sets ``shape[0]`` to the
    columns per line; returns -1 at the first line that is not in this plain
    shape (blank, other spacing, a sign, a leading zero in JSON, a number of
    nine digits or more, a different length): the caller then reads those
    lines with the exact line-by-line parser, which names what is wrong.
    """
    size = len(data)
    i = 0
    rows = 0
    width = -1
    k = 0
    while i < size:
        if brackets:
            if data[i] != 91:  # "["
                return -1
            i += 1
        count = 0
        while True:
            if i >= size or data[i] < 48 or data[i] > 57:
                return -1  # a number must come here
            if brackets and data[i] == 48 and i + 1 < size and 48 <= data[i + 1] <= 57:
                return -1  # JSON has no leading zeros
            value = 0
            digits = 0
            while i < size and 48 <= data[i] <= 57:
                value = value * 10 + (data[i] - 48)
                digits += 1
                i += 1
            if digits >= 9:
                return -1
            out[k] = value
            k += 1
            count += 1
            if i < size and data[i] == 44:  # ","
                i += 1
                if brackets and i < size and data[i] == 32:  # one space after a comma
                    i += 1
                continue
            break
        if brackets:
            if i >= size or data[i] != 93:  # "]"
                return -1
            i += 1
        if i >= size or data[i] != 10:  # "\n"
            return -1
        i += 1
        if width < 0:
            width = count
        elif count != width:
            return -1
        rows += 1
    shape[0] = width
    return rows


#: The kernels a wrapper calls, by name.
KERNELS = ("count_many", "enumerate_batch", "parse_rows")

#: Interpreted versions (over lists): always available.
PYTHON = SimpleNamespace(
    count_many=count_many, enumerate_batch=enumerate_batch, parse_rows=parse_rows
)


class _Compiled:
    """The compiled kernels, loaded on first use, not on import.

    Preferably the ahead-of-time build (``cp_queens.engines.fast.build``),
    which imports in milliseconds; the first use after an install builds it
    (15-30 s). Where that cannot be done, Numba's JIT with ``cache=True``: the
    first run compiles (some 10 s), later ones load the cache (about 0.9 s of
    CPU, mostly importing Numba and LLVM).
    """

    def __init__(self) -> None:
        self._kernels: Any = None
        self._native: Any = None

    def native_built(self) -> bool:
        """Whether the native counting library is there to load (never builds it)."""
        if self._native is None:
            from cp_queens.engines.fast import build

            found = build.load_native()
            if found is None:
                return False
            self._native = found
        return bool(self._native)

    def native_count(self) -> Any:
        """``count_many`` as a C function over ``ctypes`` buffers, or ``None`` (use
        ``count_many`` over NumPy arrays). The native library comes with the
        ahead-of-time build and spares a count the import of NumPy."""
        if self._native is None:
            from cp_queens.engines.fast import build

            found = build.load_native()
            if found is None and self._kernels is None:
                self.__getattr__("count_many")  # builds both on first use, if it can
                found = build.load_native()
            self._native = found if found is not None else False
        return self._native or None

    def __getattr__(self, name: str) -> Any:
        if name not in KERNELS:
            raise AttributeError(name)
        if self._kernels is None:
            from cp_queens.engines.fast import build

            # Built ahead of time (on first use, or by python -m cp_queens.engines.fast.build):
            # no Numba to load in later processes.
            self._kernels = build.load_or_build() or _compile()
        return getattr(self._kernels, name)

    @property
    def ahead_of_time(self) -> bool:
        """Whether the kernels in use were compiled ahead of time (after the first call)."""
        if self._native:
            return True
        return self._kernels is not None and not isinstance(self._kernels, SimpleNamespace)


def numba_extensions() -> None:
    """Teach Numba the helpers: the marked functions as they are, ``popcount`` as the
    ``ctpop`` instruction (``int.bit_count`` is not compiled). Run before compiling,
    by the JIT path and by the ahead-of-time build alike; once is enough."""
    global _extended
    if _extended:
        return
    from numba.core import types
    from numba.extending import intrinsic, overload
    from numba.extending import register_jitable as numba_jitable

    for helper in HELPERS:
        numba_jitable(helper)

    @intrinsic
    def ctpop(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return types.int64(types.int64), codegen

    @intrinsic
    def cttz(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], context.get_constant(types.boolean, True))

        return types.int64(types.int64), codegen

    @overload(lowest)
    def lowest_compiled(x: Any) -> Any:
        def implementation(x: Any) -> Any:
            return cttz(x)  # type: ignore[call-arg]  # typed by Numba, not Python

        return implementation

    @overload(popcount)
    def popcount_compiled(x: Any) -> Any:
        def implementation(x: Any) -> Any:  # the same argument as the typing above
            return ctpop(x)  # type: ignore[call-arg]  # typed by Numba, not Python

        return implementation

    _extended = True


_extended = False


def _compile() -> SimpleNamespace:
    import numba

    numba_extensions()
    jit = numba.njit(cache=True, nogil=True, boundscheck=False)
    return SimpleNamespace(**{name: jit(globals()[name]) for name in KERNELS})


#: Compiled versions (over int64 arrays), or ``None`` without Numba.
COMPILED: _Compiled | None = _Compiled() if importlib.util.find_spec("numba") is not None else None
