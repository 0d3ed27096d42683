"""What every kernel shares: board constants and bit helpers.

Plain functions over integers and sequences (see ``cp_queens.engines.fast.kernels``);
``_kernels_impl.h`` holds their C twins, ``popcount`` and ``lowest`` as single
instructions there.
"""

from __future__ import annotations

from typing import Any

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


def column_of(bit: int) -> int:
    """The column of the queen in a one-bit row mask."""
    return BIT_INDEX[bit % 67]


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


def popcount(x: int) -> int:
    """Bits set in ``x`` (``x >= 0``). Compiled: one ``popcnt`` instruction where the CPU has it."""
    return x.bit_count()


def lowest(x: int) -> int:
    """Index of the lowest set bit of ``x > 0``. Compiled, one ``tzcnt`` instruction."""
    return (x & -x).bit_length() - 1
