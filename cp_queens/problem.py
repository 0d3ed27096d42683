"""The two values every engine speaks: a :class:`Problem` in, :class:`Placement` out.

A placement is stored the way the model states it: ``q[r]`` is the column of
the queen in row ``r``. One queen per row is therefore built into the shape,
and only columns and diagonals remain to be checked.

Squares have one naming convention everywhere (diagrams, messages, docs), the
chess one: files ``a``, ``b``, ... are the columns from left to right, ranks
``1``, ``2``, ... the rows from the bottom up. Row 0 is printed first, at the
top, so it is rank ``n``: on 8 queens ``(row 0, col 0)`` is ``a8`` and
``(row 7, col 0)`` is ``a1``. :func:`square_name` and :func:`parse_square`
convert; files go up to ``z``, so boards up to 26 have names.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import overload

from cp_queens.errors import (
    AttackingQueensError,
    InvalidPlacementError,
    InvalidProblemError,
)


@dataclass(frozen=True, slots=True)
class Placement(Sequence[int]):
    """One queen per row: ``placement[r]`` is the column of the queen in row ``r``.

    Immutable and hashable, so placements can be collected in sets and
    compared across engines. A placement is only *shaped* right on
    construction (columns inside the board); whether queens attack each other
    is the job of :func:`cp_queens.verify.verify`, which names the first
    attacking pair instead of failing anonymously.

    Examples:
        >>> p = Placement((1, 3, 0, 2))
        >>> p.n, p[0]
        (4, 1)
        >>> print(p.to_text())
        . Q . .
        . . . Q
        Q . . .
        . . Q .
    """

    cols: tuple[int, ...]

    def __post_init__(self) -> None:
        cols = self.cols
        if not isinstance(cols, tuple):
            cols = tuple(cols)
            object.__setattr__(self, "cols", cols)
        n = len(cols)
        # Fast path (3x at a million queens): plain ints only (``type`` excludes bools),
        # all inside the board. Anything else is walked to name the first bad row.
        if set(map(type, cols)) <= {int} and (n == 0 or (min(cols) >= 0 and max(cols) < n)):
            return
        for row, col in enumerate(cols):
            if not isinstance(col, int) or isinstance(col, bool):
                raise InvalidPlacementError(f"row {row}: column {col!r} is not an integer")
            if not 0 <= col < n:
                raise InvalidPlacementError(
                    f"row {row}: column {col} is outside the board 0..{n - 1}"
                )

    @property
    def n(self) -> int:
        """Board size (number of rows, columns and queens)."""
        return len(self.cols)

    def __len__(self) -> int:
        return len(self.cols)

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...
    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        return self.cols[index]

    def __iter__(self) -> Iterator[int]:
        return iter(self.cols)

    def __repr__(self) -> str:
        return f"Placement({list(self.cols)})"

    def to_text(self, *, empty: str = ".", queen: str = "Q") -> str:
        """Rows of ``.`` and ``Q`` separated by spaces, one line per row."""
        return "\n".join(
            " ".join(queen if c == col else empty for c in range(self.n)) for col in self.cols
        )

    def queens(self) -> list[tuple[int, int]]:
        """The queens as ``(row, col)`` pairs."""
        return list(enumerate(self.cols))

    def _repr_svg_(self) -> str:
        """Jupyter draws a placement as a board; big boards shrink (see :mod:`cp_queens.render`)."""
        from cp_queens.render import svg

        return svg(self.cols)


@dataclass(frozen=True, slots=True)
class Problem:
    """An ``n x n`` board, optionally with queens already placed (the completion problem).

    Validated on construction, so an engine never sees a broken problem: ``n``
    must be a positive integer, every given queen inside the board, at most one
    per row and column, and no two given queens may attack each other.

    Examples:
        >>> Problem(8).n
        8
        >>> Problem(8, fixed={0: 0}).fixed
        {0: 0}
        >>> try:
        ...     Problem(8, fixed={0: 0, 1: 1})
        ... except ValueError as error:
        ...     print(error)
        given queens at a8 (row 0, col 0) and b7 (row 1, col 1) share a diagonal
    """

    n: int
    fixed: Mapping[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = self.n
        if isinstance(n, bool) or not isinstance(n, int):
            raise InvalidProblemError(f"board size n must be an integer, got {n!r}")
        if n < 1:
            raise InvalidProblemError(f"board size n must be at least 1, got {n}")
        fixed = dict(self.fixed)
        for row, col in fixed.items():
            for what, value in (("row", row), ("column", col)):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise InvalidProblemError(f"given queen {what} {value!r} is not an integer")
                if not 0 <= value < n:
                    raise InvalidProblemError(
                        f"given queen at (row {row}, col {col}): {what} {value} "
                        f"is outside the board 0..{n - 1}"
                    )
        _check_no_attacks(sorted(fixed.items()), n)
        object.__setattr__(self, "fixed", dict(sorted(fixed.items())))

    def __hash__(self) -> int:
        return hash((self.n, tuple(self.fixed.items())))

    @classmethod
    def from_queens(cls, n: int, queens: Iterable[tuple[int, int]]) -> Problem:
        """Build a completion problem from ``(row, col)`` pairs; two in one row is an error."""
        fixed: dict[int, int] = {}
        for row, col in queens:
            if row in fixed:
                raise InvalidProblemError(
                    f"given queens at {describe_square(row, fixed[row], n)} and "
                    f"{describe_square(row, col, n)} share row {row}"
                )
            fixed[row] = col
        return cls(n, fixed)

    def admits(self, placement: Placement) -> bool:
        """True when ``placement`` has the right size and keeps every given queen."""
        return placement.n == self.n and all(placement[r] == c for r, c in self.fixed.items())


#: Files are the letters a..z, so squares have algebraic names on boards up to 26 x 26.
NAMED_UP_TO = 26


def square_name(row: int, col: int, n: int) -> str:
    """The algebraic name of a square: file letter (column), then rank (``n - row``).

    Examples:
        >>> square_name(0, 0, 8), square_name(7, 0, 8), square_name(7, 7, 8)
        ('a8', 'a1', 'h1')
        >>> [square_name(r, c, 4) for r, c in enumerate([1, 3, 0, 2])]
        ['b4', 'd3', 'a2', 'c1']
    """
    if not 1 <= n <= NAMED_UP_TO:
        raise ValueError(f"squares have names on boards of 1..{NAMED_UP_TO} files, not n={n}")
    if not (0 <= row < n and 0 <= col < n):
        raise ValueError(f"(row {row}, col {col}) is outside the board 0..{n - 1}")
    return f"{chr(ord('a') + col)}{n - row}"


def parse_square(name: str, n: int) -> tuple[int, int]:
    """``(row, col)`` of the square called ``name`` (like ``"a8"``) on an ``n x n`` board.

    Examples:
        >>> parse_square("a8", 8), parse_square("h1", 8)
        ((0, 0), (7, 7))
    """
    text = name.strip().lower()
    file, rank = text[:1], text[1:]
    if not (file.isalpha() and file.isascii() and rank.isdigit()):
        raise ValueError(f"{name!r} is not a square name like 'a8' (a file letter, then a rank)")
    col, row = ord(file) - ord("a"), n - int(rank)
    if not (0 <= col < n and 0 <= row < n):
        last = chr(ord("a") + min(n, NAMED_UP_TO) - 1)
        raise ValueError(f"square {name!r} is outside the board a1..{last}{n}")
    return row, col


def describe_square(row: int, col: int, n: int) -> str:
    """A square for messages: ``"a8 (row 0, col 0)"``, or only the indices on huge boards.

    Examples:
        >>> describe_square(0, 0, 8)
        'a8 (row 0, col 0)'
        >>> describe_square(0, 0, 100)
        '(row 0, col 0)'
    """
    where = f"(row {row}, col {col})"
    if n <= NAMED_UP_TO and 0 <= row < n and 0 <= col < n:
        return f"{square_name(row, col, n)} {where}"
    return where


def _check_no_attacks(queens: Sequence[tuple[int, int]], n: int) -> None:
    """Raise :class:`AttackingQueensError` naming the first attacking pair of given queens."""
    for i, (r1, c1) in enumerate(queens):
        for r2, c2 in queens[i + 1 :]:
            reason = attack_reason(r1, c1, r2, c2)
            if reason:
                raise AttackingQueensError(
                    f"given queens at {describe_square(r1, c1, n)} and "
                    f"{describe_square(r2, c2, n)} {reason}"
                )


def attack_reason(r1: int, c1: int, r2: int, c2: int) -> str | None:
    """Why two queens on distinct squares attack each other, or ``None`` if they do not."""
    if r1 == r2:
        return f"share row {r1}"
    if c1 == c2:
        return f"share column {c1}"
    if abs(r1 - r2) == abs(c1 - c2):
        return "share a diagonal"
    return None


def diagonals(n: int) -> Iterator[list[tuple[int, int]]]:
    """The squares of every diagonal with at least two squares, both directions.

    Examples:
        >>> sorted(map(sorted, diagonals(2)))
        [[(0, 0), (1, 1)], [(0, 1), (1, 0)]]
    """
    for total in range(1, 2 * n - 2):  # "/" diagonals: r + c == total
        yield [(r, total - r) for r in range(max(0, total - n + 1), min(n, total + 1))]
    for shift in range(-(n - 2), n - 1):  # "\\" diagonals: r - c == shift
        yield [(r, r - shift) for r in range(max(0, shift), min(n, n + shift))]
