"""Counting by meeting in the middle: the readable statement of the ``_mitm`` C counter.

A depth-first counter visits every node of the search tree, and every node costs about
the same (a few nanoseconds, mostly a mispredicted branch); counters differ only in how
many nodes they visit. This method counts without visiting the solutions at all.

**The cut.** Cut the board between its upper and lower halves: ``k = n // 2`` rows on
each side (for odd ``n`` the middle row ``k`` holds the *middle queen*, in column
``middle``, and each half keeps clear of its squares). A solution is exactly one pair
(top half, bottom half) where

* the top half uses a set ``C`` of ``k`` columns (its *class*) and the bottom half every
  other column (``D``, the complement; for odd n without the middle queen's column), and
* no diagonal holds a queen of each half.

Only the diagonals that cross the cut matter: the ``2k - 1`` "/" sums ``r + c`` and as
many "\\\\" differences ``c - r + n - 1`` that both halves can reach (``n - k`` to
``n + k - 2``). So each half reduces to a *key* of ``2(2k - 1)`` bits, and::

    solutions = sum over classes C of #{(t, b): t a top on C, b a bottom on D,
                                              key(t) & key(b) == 0}

**Bottoms are tops upside down.** Turning the board upside down (row ``r`` to
``n - 1 - r``) maps a bottom half to a top half on the same columns, and swaps its sums
and differences. So only tops are generated (``halves``), and a bottom's key is a top's
key with its two halves swapped.

**Symmetry.** Two of the square's symmetries keep the cut: the left-right mirror (a
class to its mirror image) and the top-bottom flip (the pair ``(C, D)`` to ``(D, C)``).
Classes related by them have the same number of pairs, so each orbit is joined once
and counted times its size (``orbit_weight``: 2 or 4). For odd ``n`` the mirror also
moves the middle queen to column ``n - 1 - middle``: only ``middle <= (n - 1) / 2`` is
counted, the others by the mirror.

**The join** counts the pairs with no common bit (``join``). The C counter (``_mitm.c``)
compresses the keys to the bits both sides use, first splits large joins on the bit
most often shared (pairs having it on both sides never count), then *bit-slices* the
smaller side: for each bit, the set of members having it, as one long bitset; a key of
the other side ORs the sets of its bits, and the members outside the union are its
partners. Eight bits at a time come from a table of the 256 unions, so one vector
instruction tests hundreds of pairs. This module states the same with Python integers
as bitsets, one bit per member, without the tables.

**Unique solutions** (up to the 8 symmetries of the square) follow from Burnside's
lemma: the number of orbits is the average number of solutions each symmetry fixes.
No reflection fixes a solution of ``n > 1`` (a mirror-symmetric board would put two
queens in one column, row or diagonal), so
``unique = (solutions + half_turn + 2 * quarter_turn) / 8``, where ``half_turn`` and
``quarter_turn`` count the solutions a rotation by 180 or by 90 degrees maps to
themselves, found by a small search that places a queen with all its images
(``symmetric``).

Examples:
    >>> count_range(8, -1, 0, classes(8)).solutions
    92
    >>> count(10), unique(10)
    (724, 92)
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import NamedTuple

#: The smallest board the method handles (``k >= 2`` rows a half).
MIN_N = 4
#: The largest: a key of ``2 (2k - 1)`` bits must fit 64, and the C counter's stacks 32 rows.
MAX_N = 32


class RangeCount(NamedTuple):
    """What ``count_range`` found: solutions (weighted), orbits joined, half-search nodes."""

    solutions: int
    representatives: int
    nodes: int


def classes(n: int) -> int:
    """How many ranks ``count_range`` takes per middle column: the classes ``C`` below
    their complement (the others are the flips of these)."""
    places = n - 1 if n % 2 else n
    return math.comb(places - 1, n // 2)


def middles(n: int) -> list[int]:
    """The middle columns counted (``-1``: an even board has no middle queen)."""
    return list(range((n - 1) // 2 + 1)) if n % 2 else [-1]


def board_columns(n: int, middle: int) -> int:
    """The columns the two halves share out: every column but the middle queen's."""
    full = (1 << n) - 1
    return full & ~(1 << middle) if middle >= 0 else full


def allowed(n: int, middle: int) -> list[int]:
    """Per top row, the columns open to a half: not the middle queen's squares."""
    k = n // 2
    rows = []
    for r in range(k):
        allow = board_columns(n, middle)
        if middle >= 0:
            gap = k - r
            for c in (middle - gap, middle + gap):
                if 0 <= c < n:
                    allow &= ~(1 << c)
        rows.append(allow)
    return rows


def key_tables(n: int) -> list[list[int]]:
    """``table[r][c]``: the key bits of a top queen on ``(r, c)``: its "/" sum at bit
    ``sum - lo`` and its "\\\\" difference at bit ``width + difference - lo``, when they
    fall in the window ``lo .. lo + width - 1`` that the other half can reach."""
    k = n // 2
    lo, width = n - k, 2 * k - 1
    table = []
    for r in range(k):
        row = []
        for c in range(n):
            key = 0
            s, d = r + c, c - r + n - 1
            if lo <= s < lo + width:
                key |= 1 << (s - lo)
            if lo <= d < lo + width:
                key |= 1 << (width + d - lo)
            row.append(key)
        table.append(row)
    return table


def swap_halves(key: int, width: int) -> int:
    """A top's key as the key of the same half turned upside down (a bottom)."""
    return (key >> width) | ((key & ((1 << width) - 1)) << width)


def halves(n: int, middle: int, cls: int, as_bottom: bool = False) -> list[int]:
    """The keys of every top half on exactly the columns ``cls`` (as bottoms: swapped)."""
    k = n // 2
    width = 2 * k - 1
    table = key_tables(n)
    allow = allowed(n, middle)
    found: list[int] = []

    def place(row: int, cols: int, left: int, right: int, key: int) -> None:
        if row == k:
            found.append(swap_halves(key, width) if as_bottom else key)
            return
        free = cls & allow[row] & ~(cols | left | right)
        while free:
            bit = free & -free
            free ^= bit
            col = bit.bit_length() - 1
            place(row + 1, cols | bit, (left | bit) << 1, (right | bit) >> 1, key | table[row][col])

    place(0, 0, 0, 0, 0)
    return found


def join(tops: list[int], bottoms: list[int]) -> int:
    """Pairs (t, b) with ``t & b == 0``, bit-sliced: for each bit, the members of
    ``bottoms`` having it; a top's partners are the members outside the union of its bits'
    sets."""
    having: dict[int, int] = {}
    for index, key in enumerate(bottoms):
        while key:
            low = key & -key
            key ^= low
            having[low] = having.get(low, 0) | (1 << index)
    pairs = 0
    for key in tops:
        union = 0
        while key:
            low = key & -key
            key ^= low
            union |= having.get(low, 0)
        pairs += len(bottoms) - union.bit_count()
    return pairs


#: A split must spare at least 1 / SPLIT_SHARE of the join's pairs (``SPLIT_SHARE`` in C).
SPLIT_SHARE = 12


def split_join(tops: list[int], bottoms: list[int], split_from: int) -> int:
    """``join``, first split as the C counter splits: a join of at least ``split_from``
    pairs takes the bit most often in both sides' keys; pairs having it on both sides
    never count, so the tops with it meet only the bottoms without it, and the tops
    without it meet every bottom. (The C counter tallies a sample of each side to choose
    the bit; here every key is counted. Either choice gives the same count.)"""
    if len(tops) * len(bottoms) < split_from or not tops or not bottoms:
        return join(tops, bottoms)
    both = {
        bit: sum(key >> bit & 1 for key in tops) * sum(key >> bit & 1 for key in bottoms)
        for bit in range(64)
    }
    bit = max(both, key=lambda b: (both[b], -b))
    if both[bit] * SPLIT_SHARE < len(tops) * len(bottoms):
        return join(tops, bottoms)
    with_bit = [key for key in tops if key >> bit & 1]
    without = [key for key in tops if not key >> bit & 1]
    free_bottoms = [key for key in bottoms if not key >> bit & 1]
    return split_join(with_bit, free_bottoms, split_from) + split_join(without, bottoms, split_from)


def mirror(n: int, cols: int) -> int:
    """The columns seen in a mirror (column ``c`` to ``n - 1 - c``)."""
    return sum(1 << (n - 1 - c) for c in range(n) if cols >> c & 1)


def orbit_weight(n: int, middle: int, top: int) -> int:
    """How many ordered classes the orbit of ``(top, bottom)`` holds if ``top`` is its
    representative (the smallest top of the orbit), else 0.

    The orbit under the flip and the mirror: ``(C, D)``, ``(D, C)``, ``(m(C), m(D))``,
    ``(m(D), m(C))``. ``C`` and ``D`` differ always; the mirror images are the same pair
    when ``m(C)`` is ``C`` or ``D``. With the middle queen off the centre column the
    mirror moves it to a column not counted here: it doubles the flip's pair.
    """
    bottom = board_columns(n, middle) ^ top
    if top > bottom:
        return 0
    if middle >= 0 and 2 * middle + 1 < n:
        return 4
    mt, mb = mirror(n, top), mirror(n, bottom)
    if mt < top or mb < top:
        return 0
    return 2 if mt in (top, bottom) else 4


def unrank(rank: int, places: int, k: int) -> int:
    """The ``k``-subset of ``0 .. places-1`` with colex rank ``rank``: subsets in the
    numeric order of their bitmasks, ``rank = sum of comb(member i, i + 1)``."""
    subset = 0
    top = places - 1
    for i in range(k, 0, -1):
        while top >= 0 and math.comb(top, i) > rank:
            top -= 1
        subset |= 1 << top
        rank -= math.comb(top, i)
        top -= 1
    return subset


def expand(subset: int, middle: int) -> int:
    """The columns of a subset of the shared places: the middle queen's column skipped."""
    if middle < 0:
        return subset
    below = (1 << middle) - 1
    return (subset & below) | ((subset & ~below) << 1)


def tops_in(n: int, middle: int, lo: int, hi: int) -> Iterator[int]:
    """The top classes of ranks ``lo .. hi - 1``."""
    places = n - 1 if n % 2 else n
    for rank in range(lo, hi):
        yield expand(unrank(rank, places, n // 2), middle)


def count_class(n: int, middle: int, top: int) -> int:
    """The solutions whose top half uses the columns ``top`` (middle queen in ``middle``)."""
    bottom = board_columns(n, middle) ^ top
    return join(halves(n, middle, top), halves(n, middle, bottom, as_bottom=True))


def count_range(n: int, middle: int, lo: int, hi: int) -> RangeCount:
    """Join every orbit whose representative has a rank in ``lo .. hi - 1`` (see
    ``classes``), each times its size."""
    solutions = representatives = nodes = 0
    for top in tops_in(n, middle, lo, hi):
        weight = orbit_weight(n, middle, top)
        if weight == 0:
            continue
        representatives += 1
        tops = halves(n, middle, top)
        bottoms = halves(n, middle, board_columns(n, middle) ^ top, as_bottom=True)
        nodes += len(tops) + len(bottoms)
        solutions += weight * join(tops, bottoms)
    return RangeCount(solutions, representatives, nodes)


def symmetric(n: int, quarter: bool) -> int:
    """The solutions that a half turn (``quarter``: a quarter turn) maps to themselves.

    Placing the queen of the lowest empty row places its images too, so only such
    boards are built; each is found once (its queens' columns decide every choice).
    """
    last = n - 1

    def images(r: int, c: int) -> list[tuple[int, int]]:
        turns = [(r, c), (c, last - r), (last - r, last - c), (last - c, r)]
        return list(dict.fromkeys(turns if quarter else turns[::2]))

    def search(rows: int, cols: int, sums: int, diffs: int) -> int:
        if rows == (1 << n) - 1:
            return 1
        r = (~rows & (rows + 1)).bit_length() - 1
        found = 0
        for c in range(n):
            state = [rows, cols, sums, diffs]
            ok = True
            for rr, cc in images(r, c):
                bits = (1 << rr, 1 << cc, 1 << (rr + cc), 1 << (cc - rr + last))
                if any(have & bit for have, bit in zip(state, bits, strict=True)):
                    ok = False
                    break
                state = [have | bit for have, bit in zip(state, bits, strict=True)]
            if ok:
                found += search(*state)
        return found

    return search(0, 0, 0, 0)


def count(n: int) -> int:
    """Every solution of the empty ``n x n`` board, by this method (``n >= MIN_N``)."""
    return sum(count_range(n, middle, 0, classes(n)).solutions for middle in middles(n))


def unique_from(n: int, solutions: int, half_turn: int, quarter_turn: int) -> int:
    """The solutions distinct up to the square's symmetries (Burnside's lemma).

    Raises:
        ValueError: the figures cannot belong together (not a whole number of orbits).
    """
    orbits, rest = divmod(solutions + half_turn + 2 * quarter_turn, 8)
    if rest or n < 2:
        raise ValueError(
            f"n={n}: {solutions} solutions with {half_turn} and {quarter_turn} "
            "symmetric ones is not a whole number of orbits"
        )
    return orbits


def unique(n: int) -> int:
    """The unique solutions of the empty ``n x n`` board, by this method."""
    return unique_from(n, count(n), symmetric(n, False), symmetric(n, True))
