"""The independent checker of queens domination, and the brute force that needs no solver.

A solver's answer to an optimisation question has two halves: *this set works*
and *no smaller set does*. This module checks the first half of any answer
with nothing but the rules of chess (no solver, and none of the line tables
the models are built from), and computes small optima by trying every set of
squares of size 1, 2, 3, ... until one dominates the board: slow, but too
simple to be wrong, so the tests hold the models to it for n <= 7.

A queen *dominates* a square when it stands on it or attacks it: same row,
same column or same diagonal, whatever stands between (the usual convention
of the domination problem: queens do not block each other).

Examples:
    >>> dominates(4, [(0, 0), (3, 3)]).ok
    False
    >>> dominates(4, [(0, 0), (2, 2)]).ok
    True
    >>> smallest_dominating_set(4)
    ((0, 0), (2, 2))
    >>> classic_lower_bound(8)
    4
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple

from cp_queens.errors import CpQueensError

Square = tuple[int, int]


def attacks(a: Square, b: Square) -> bool:
    """Whether a queen on ``a`` attacks (or stands on) ``b``: one row, column or diagonal."""
    (r1, c1), (r2, c2) = a, b
    return r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)


class Verdict(NamedTuple):
    """What ``dominates`` found: ``ok``, and the reason when it is not."""

    ok: bool
    reason: str = ""


def dominates(n: int, queens: Iterable[Sequence[int]], *, independent: bool = False) -> Verdict:
    """Whether the queens on ``queens`` (``(row, col)`` pairs) occupy or attack every
    square of the n x n board; with ``independent``, also that no two attack each other.

    The reason names the first square left uncovered (row by row) or the first attacking
    pair, so a wrong answer can be seen on the board.
    """
    placed: list[Square] = []
    for queen in queens:
        if len(queen) != 2:
            return Verdict(False, f"{tuple(queen)!r} is not a (row, column) pair")
        row, col = int(queen[0]), int(queen[1])
        if not (0 <= row < n and 0 <= col < n):
            return Verdict(False, f"queen ({row}, {col}) is off the {n} x {n} board")
        if (row, col) in placed:
            return Verdict(False, f"two queens on ({row}, {col})")
        placed.append((row, col))
    if independent:
        for a, b in combinations(placed, 2):
            if attacks(a, b):
                return Verdict(False, f"queens {a} and {b} attack each other")
    for row in range(n):
        for col in range(n):
            if not any(attacks(queen, (row, col)) for queen in placed):
                return Verdict(False, f"square ({row}, {col}) is neither occupied nor attacked")
    return Verdict(True)


def classic_lower_bound(n: int) -> int:
    """ceil((n - 1) / 2): no fewer queens can dominate the n x n board (Spencer's bound).

    Why it is worth knowing: a bound is half of every optimality proof, and this one
    costs nothing. It comes from counting the squares left over by the queens' rows
    and columns, which only the diagonals can reach (Spencer; see Cockayne's survey,
    Discrete Mathematics 86, 1990). The published optima sit at ceil(n / 2) or one above
    it for every board solved so far, so the bound is one or two short of the optimum
    and a solver that proves optimality has to close that last step by search.
    """
    if n < 1:
        raise CpQueensError(f"N must be at least 1, got {n}")
    return n // 2  # == ceil((n - 1) / 2) for every n >= 1


def _cover_masks(n: int) -> list[int]:
    """For each square (row-major), the bitmask of the squares a queen there dominates."""
    squares = [(r, c) for r in range(n) for c in range(n)]
    return [
        sum(1 << j for j, other in enumerate(squares) if attacks(square, other))
        for square in squares
    ]


def smallest_dominating_set(n: int, *, independent: bool = False) -> tuple[Square, ...]:
    """The first smallest dominating set in lexicographic order, found by trying every
    set of 1, 2, 3, ... squares (with ``independent``, non-attacking queens only).

    Exponential: C(n^2, k) sets of size k, about 0.3 million for n = 7. It exists to
    check the models, not to replace them.
    """
    if n < 1:
        raise CpQueensError(f"N must be at least 1, got {n}")
    masks = _cover_masks(n)
    full = (1 << (n * n)) - 1
    squares = range(n * n)
    for size in range(1, n * n + 1):
        for chosen in combinations(squares, size):
            covered = 0
            for square in chosen:
                covered |= masks[square]
            if covered != full:
                continue
            if independent and any(masks[a] >> b & 1 for a, b in combinations(chosen, 2)):
                continue
            return tuple(divmod(square, n) for square in chosen)
    raise AssertionError("the full board always dominates itself")  # pragma: no cover
