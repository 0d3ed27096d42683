"""The 8 symmetries of the square acting on placements: images, orbits, canonical forms.

Turning or mirroring the board maps every solution to a solution, so the
solutions fall into *orbits* under the dihedral group D4 (4 rotations,
4 reflections). Counting "unique" solutions means counting orbits; we name
each orbit by its **canonical** member, the lexicographically smallest image.

With queens at ``(r, q[r])`` the eight images of ``q`` are (``inv`` is the
inverse permutation, ``inv[c]`` = row of the queen in column ``c``)::

    identity        q[r]                 flip_lr         n-1 - q[r]
    rot90           n-1 - inv[r]         flip_ud         q[n-1-r]
    rot180          n-1 - q[n-1-r]       transpose       inv[r]
    rot270          inv[n-1-r]           anti_transpose  n-1 - inv[n-1-r]

Which orbit sizes occur: the orbit has ``8 / |stabiliser|`` members, and for
``n > 1`` no reflection fixes a solution (``flip_lr`` would put every queen in
the middle column, ``flip_ud`` puts rows 0 and n-1 in one column, and a queen
pair mirrored in a diagonal shares the other diagonal). So the stabiliser is
made of rotations only, and an orbit has

* 8 members - no symmetry (almost all solutions);
* 4 members - the solution is invariant under ``rot180`` but not ``rot90``;
* 2 members - invariant under ``rot90`` (hence under every rotation);
* 1 member  - only the single queen of ``n = 1``.

The tests check this claim on every solution up to n = 10.

Examples:
    >>> from cp_queens.problem import Placement
    >>> p = Placement((1, 3, 0, 2))
    >>> rot90(p), flip_lr(p)
    (Placement([1, 3, 0, 2]), Placement([2, 0, 3, 1]))
    >>> canonical(p), orbit_size(p), is_canonical(p)
    (Placement([1, 3, 0, 2]), 2, True)
    >>> stabiliser(p)
    ['identity', 'rot90', 'rot180', 'rot270']
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from typing import NamedTuple

from cp_queens.errors import CpQueensError, InvalidPlacementError
from cp_queens.problem import Placement

#: A transformation of column tuples (all work is done on plain tuples, for speed).
Transform = Callable[[tuple[int, ...]], tuple[int, ...]]


def _inverse(q: tuple[int, ...]) -> list[int]:
    inv = [0] * len(q)
    for row, col in enumerate(q):
        inv[col] = row
    return inv


def _checked(placement: Placement) -> tuple[int, ...]:
    """The columns, once we know they form a permutation (the reflections in a
    diagonal swap rows and columns, so two queens in one column have no image)."""
    cols = placement.cols
    if len(set(cols)) != len(cols):
        seen: set[int] = set()
        for row, col in enumerate(cols):
            if col in seen:
                raise InvalidPlacementError(
                    f"row {row}: column {col} already holds a queen; symmetries need "
                    "one queen per column"
                )
            seen.add(col)
    return cols


def _images(q: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The 8 images of a column tuple, in the order of ``SYMMETRIES``: the one D4 table.

    Computed together because most share the inverse permutation (row of the
    queen in each column), which is the expensive part.
    """
    last = len(q) - 1
    inv = _inverse(q)
    return (
        q,  # identity
        tuple(last - row for row in inv),  # rot90: (r, c) -> (c, n-1-r)
        tuple(last - col for col in reversed(q)),  # rot180
        tuple(reversed(inv)),  # rot270: (r, c) -> (n-1-c, r)
        tuple(last - col for col in q),  # flip_lr: left <-> right
        tuple(reversed(q)),  # flip_ud: top <-> bottom
        tuple(inv),  # transpose: (r, c) -> (c, r)
        tuple(last - row for row in reversed(inv)),  # anti_transpose: (r, c) -> (n-1-c, n-1-r)
    )


class Symmetry(NamedTuple):
    """One element of D4: its name, its place in ``_images``, and what it does."""

    name: str
    position: int
    is_rotation: bool
    doc: str

    def apply(self, q: tuple[int, ...]) -> tuple[int, ...]:
        """The image of a column tuple under this symmetry."""
        return _images(q)[self.position]


#: The group, identity first; rotations, then reflections.
SYMMETRIES: tuple[Symmetry, ...] = (
    Symmetry("identity", 0, True, "The placement itself (the group's neutral element)."),
    Symmetry("rot90", 1, True, "Turn the board a quarter clockwise."),
    Symmetry("rot180", 2, True, "Turn the board half a turn."),
    Symmetry("rot270", 3, True, "Turn the board a quarter counter-clockwise."),
    Symmetry("flip_lr", 4, False, "Mirror left <-> right."),
    Symmetry("flip_ud", 5, False, "Mirror top <-> bottom."),
    Symmetry("transpose", 6, False, "Mirror in the main diagonal."),
    Symmetry("anti_transpose", 7, False, "Mirror in the anti-diagonal."),
)

_BY_NAME = {symmetry.name: symmetry for symmetry in SYMMETRIES}

#: Sizes an orbit of a solution can have (see the module docstring).
ORBIT_SIZES = (1, 2, 4, 8)


def symmetry(name: str) -> Symmetry:
    """The symmetry called ``name``; a clear error lists the known names."""
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(_BY_NAME)
        raise CpQueensError(f"unknown symmetry '{name}' (known: {known})") from None


def apply(name: str, placement: Placement) -> Placement:
    """The image of ``placement`` under the symmetry called ``name``."""
    return Placement(symmetry(name).apply(_checked(placement)))


def _on_placements(element: Symmetry) -> Callable[[Placement], Placement]:
    def image(placement: Placement) -> Placement:
        return Placement(element.apply(_checked(placement)))

    image.__name__ = image.__qualname__ = element.name
    image.__doc__ = element.doc
    return image


identity = _on_placements(_BY_NAME["identity"])
rot90 = _on_placements(_BY_NAME["rot90"])
rot180 = _on_placements(_BY_NAME["rot180"])
rot270 = _on_placements(_BY_NAME["rot270"])
flip_lr = _on_placements(_BY_NAME["flip_lr"])
flip_ud = _on_placements(_BY_NAME["flip_ud"])
transpose = _on_placements(_BY_NAME["transpose"])
anti_transpose = _on_placements(_BY_NAME["anti_transpose"])


def images(placement: Placement) -> dict[str, Placement]:
    """All 8 images by symmetry name (equal images appear under several names)."""
    all_images = _images(_checked(placement))
    return {s.name: Placement(all_images[s.position]) for s in SYMMETRIES}


def orbit_columns(cols: tuple[int, ...]) -> set[tuple[int, ...]]:
    """The distinct images of a column tuple (the fast path uses plain tuples)."""
    return set(_images(cols))


def orbit(placement: Placement) -> set[Placement]:
    """The distinct images of ``placement``: its equivalence class under D4."""
    return {Placement(cols) for cols in orbit_columns(_checked(placement))}


def orbit_size(placement: Placement) -> int:
    """How many distinct placements the symmetries make of this one: 1, 2, 4 or 8."""
    return len(orbit_columns(_checked(placement)))


def stabiliser(placement: Placement) -> list[str]:
    """Names of the symmetries that leave ``placement`` unchanged (always ``identity``)."""
    cols = _checked(placement)
    all_images = _images(cols)
    return [s.name for s in SYMMETRIES if all_images[s.position] == cols]


def canonical(placement: Placement) -> Placement:
    """The lexicographically smallest image: one name for the whole orbit."""
    return Placement(min(orbit_columns(_checked(placement))))


def is_canonical_columns(cols: tuple[int, ...]) -> bool:
    """``is_canonical`` on a plain column tuple."""
    n = len(cols)
    if n == 0:
        return True
    first = cols[0]
    last = n - 1
    # Cheap tests first: the first entry of every image is a border queen's
    # distance to a corner, so a canonical placement starts with the smallest.
    if first > last - first or first > cols[-1] or first > last - cols[-1]:
        return False
    inv = _inverse(cols)
    if first > inv[0] or first > last - inv[0] or first > inv[-1] or first > last - inv[-1]:
        return False
    return all(image >= cols for image in _images(cols)[1:])


def is_canonical(placement: Placement) -> bool:
    """True when ``placement`` is the smallest of its orbit (so each orbit counts once).

    Rejects most placements after comparing first entries only, before building
    any full image: that keeps counting unique solutions cheap.
    """
    return is_canonical_columns(_checked(placement))


def unique_only(
    placements: Iterable[Placement], limit: int | None = None
) -> Generator[Placement, None, None]:
    """The canonical placements of a stream (one per orbit), stopping after ``limit`` of them.

    Works on any engine's stream, and closes that stream when it stops early so
    the engine can end its search.
    """
    if limit == 0:
        return
    found = 0
    stream = iter(placements)
    try:
        for placement in stream:
            if is_canonical_columns(placement.cols):
                found += 1
                yield placement
                if limit is not None and found >= limit:
                    return
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()


def expand(representatives: Iterator[Placement]) -> Iterator[Placement]:
    """Every member of the orbit of each representative (one per orbit expected)."""
    for representative in representatives:
        for cols in sorted(orbit_columns(_checked(representative))):
            yield Placement(cols)
