"""Bitmask search kernels: plain functions over integers and arrays, compiled by Numba.

Everything here is written so that the *same source* runs in two ways:

* compiled with Numba (``COMPILED`` holds the ``@njit(cache=True)`` versions),
  the fast path, over NumPy ``int64`` arrays;
* interpreted by CPython over plain lists, the fallback when Numba cannot be
  imported (exact, but some 50-100 times slower).

So the functions use only what both understand: integer arithmetic, indexing
and loops. Validation and the choice of arrays live in the Python wrappers
(:mod:`cp_queens.engines.fast`, :mod:`cp_queens.engines.fast.subproblems`).

How a board is held: bit ``c`` of a row mask is column ``c``. Three masks say
which squares of the next row are attacked: ``cols`` (a queen above in that
column), ``left`` and ``right`` (a queen above on a diagonal; they move one
column per row, hence the shifts). The free squares of a row are
``~(cols | left | right) & allow[row]``, and the lowest free one is
``free & -free``: trying columns from the lowest bit up gives lexicographic order.

The search uses an explicit stack (one slot per row: the squares still to try,
and the attack masks on entering the row) instead of recursion, which Numba
compiles into a tight loop several times faster than recursive calls.

Symmetry (see :mod:`cp_queens.engines.fast.subproblems` for why it is correct): a count
searches only canonical representatives, in two kinds of subtrees.

* *corner*: a queen in a corner; every such solution has 8 distinct images and
  exactly one of them is searched, so each leaf weighs 8;
* *edge*: no corner queen; the first-row queen is the edge queen nearest to a
  corner, which prunes (``allow`` masks and the ``side_row`` rule), and each leaf
  is checked against its images at the leaf (:func:`edge_orbit`), weighing
  8, 4 or 2 by its orbit size, or 0 when it is not the canonical member.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

try:
    import numba
    from numba.extending import register_jitable
except ImportError:  # pragma: no cover - exercised through force_python in the tests
    numba = None

    def register_jitable(function: Callable[..., Any]) -> Callable[..., Any]:
        return function


#: Boards up to this size fit the 64-bit masks (a shifted diagonal mask needs one spare bit).
MAX_N = 62

#: ``2**k % 67`` is different for every k < 64 (2 generates the integers mod 67),
#: so ``BIT_INDEX[bit % 67]`` is the column of a one-bit mask without a loop.
BIT_INDEX = tuple(
    next((k for k in range(64) if pow(2, k, 67) == residue), -1) for residue in range(67)
)

#: Leaf weight meaning "look at the leaf's symmetries" (edge subtrees).
BY_ORBIT = 0

#: Kinds of subtree (see :mod:`cp_queens.engines.fast.subproblems`), as the kernels number them.
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
    stack_free: Any,
    stack_cols: Any,
    stack_left: Any,
    stack_right: Any,
    queen_cols: Any,
    inverse: Any,
) -> None:
    """Count a batch of subtrees in one call, so that small ones cost no dispatch each.

    Subtree ``i`` has kind ``kinds[i]`` and its first ``depths[i]`` rows preset
    to the one-bit masks ``prefixes[i*n : i*n + depths[i]]``; its
    ``(weighted solutions, leaves, nodes)`` go to ``results[3*i : 3*i + 3]``.
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
        total, leaves, nodes = count_subtree(
            n,
            depth,
            bits,
            allow,
            side_row,
            weight,
            stack_free,
            stack_cols,
            stack_left,
            stack_right,
            queen_cols,
            inverse,
        )
        results[3 * i] = total
        results[3 * i + 1] = leaves
        results[3 * i + 2] = nodes


@register_jitable
def count_subtree(
    n: int,
    depth: int,
    bits: Any,
    allow: Any,
    side_row: int,
    weight: int,
    stack_free: Any,
    stack_cols: Any,
    stack_left: Any,
    stack_right: Any,
    queen_cols: Any,
    inverse: Any,
) -> tuple[int, int, int]:
    """Count the completions of the queens preset in ``bits[0:depth]``.

    Returns ``(weighted solutions, counted leaves, nodes)``: each leaf adds
    ``weight``, or its orbit size when ``weight`` is :data:`BY_ORBIT` (then
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
            free = stack_free[row]
            cols = stack_cols[row]
            left = stack_left[row]
            right = stack_right[row]
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
        stack_free[row] = free
        stack_cols[row] = cols
        stack_left[row] = left
        stack_right[row] = right
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


#: The kernels a wrapper calls, by name.
KERNELS = ("count_many", "enumerate_batch")

#: Interpreted versions (over lists): always available.
PYTHON = SimpleNamespace(count_many=count_many, enumerate_batch=enumerate_batch)

#: Compiled versions (over int64 arrays), or ``None`` without Numba.
COMPILED = (
    SimpleNamespace(
        **{name: numba.njit(cache=True, nogil=True)(globals()[name]) for name in KERNELS}
    )
    if numba is not None
    else None
)
