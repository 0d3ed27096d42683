"""The image of a set of queens that a model's symmetry breaking accepts.

A hint is only worth giving if the model can accept it: with ``--symmetry lex``
only the lexicographically smallest of a set's 8 images satisfies the rows, and
with ``halves`` only images with no fewer queens in the top and left halves.
Turning or mirroring a dominating set keeps it dominating (and independent), so
the constructed set is handed to the solver in the image its rows allow.

Examples:
    >>> canonical(4, ((0, 0), (2, 2)), "none")
    ((0, 0), (2, 2))
    >>> canonical(4, ((3, 3), (1, 1)), "halves")  # already as many queens top and left
    ((1, 1), (3, 3))
    >>> canonical(4, ((2, 2), (3, 3)), "halves")  # both in the bottom right: turned
    ((0, 0), (1, 1))
"""

from __future__ import annotations

from collections.abc import Iterable

from cp_queens.dominate.models import images

Square = tuple[int, int]


def orbit(n: int, queens: Iterable[Square]) -> list[tuple[Square, ...]]:
    """The set and its 7 images under the board's symmetries (maybe with repeats), sorted."""
    queens = tuple(queens)
    found = [tuple(sorted(queens))]
    found.extend(tuple(sorted(image(r, c) for r, c in queens)) for image in images(n))
    return found


def _word(n: int, queens: tuple[Square, ...]) -> list[int]:
    """The board read row by row as a 0/1 word, as the ``lex`` rows read it."""
    word = [0] * (n * n)
    for r, c in queens:
        word[r * n + c] = 1
    return word


def _halves_ok(n: int, queens: tuple[Square, ...]) -> bool:
    half = n // 2
    top = sum(r < half for r, _ in queens) >= sum(r >= n - half for r, _ in queens)
    left = sum(c < half for _, c in queens) >= sum(c >= n - half for _, c in queens)
    return top and left


def canonical(n: int, queens: Iterable[Square], symmetry: str) -> tuple[Square, ...]:
    """The image of ``queens`` that the rows of ``symmetry`` accept (sorted squares)."""
    candidates = orbit(n, queens)
    if symmetry == "lex":
        return min(candidates, key=lambda image: _word(n, image))
    if symmetry == "halves":
        return next(image for image in candidates if _halves_ok(n, image))
    return candidates[0]
