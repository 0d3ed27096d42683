"""One board of a traced search drawn as SVG, and the colours every trace picture shares.

The tree (``cp_queens.course.drawing.tree``), the animation
(``cp_queens.course.drawing.animation``) and the slides (``cp_queens.course.drawing.slides``)
draw the same boards in the same colours; they take both from here, so that a
node's colour means the same thing in every picture.
"""

from __future__ import annotations

from collections.abc import Iterable

from cp_queens.problem import square_name

#: What marks the rows that ended a branch.
EMPTIED = "#e00000"

#: Node outcome -> colour (and the legend's words). The Okabe-Ito palette, which readers
#: with the common colour-vision deficiencies tell apart (a plain red and green merge for
#: them): blue, bluish green, vermillion, orange. The words of the docs still hold.
COLOURS = {
    "inner": "#0072b2",
    "solution": "#009e73",
    "dead-end": "#d55e00",
    "pruned": "#e69f00",
}
LEGEND = {
    "inner": "search goes on below",
    "solution": "solution",
    "dead-end": "dead end (no square of the next row can be tried)",
    "pruned": "pruned by propagation (a row has no square left)",
}
#: The legend's words for slides: short enough for one line at 28 px.
SHORT_LEGEND = {
    "inner": "search goes on",
    "solution": "solution",
    "dead-end": "dead end",
    "pruned": "pruned by propagation",
}
LIGHT, DARK = "#f0d9b5", "#b58863"


def square(row: int, col: int, n: int) -> str:
    """The chess name of a square (``a8`` is row 0, column 0 on 8 x 8), as every page and
    message names squares (docs/index.md, "Squares have chess names")."""
    return square_name(row, col, n)


def ranks(rows: Iterable[int], n: int) -> str:
    """``"rank 3"`` or ``"ranks 4, 3"``: rows by their chess names (rank ``n - row``)."""
    named = [str(n - row) for row in rows]
    return f"rank{'s' if len(named) > 1 else ''} {', '.join(named)}"


def board_svg(
    n: int,
    x: float,
    y: float,
    cell: float,
    queens: tuple[tuple[int, int], ...],
    crossed: set[tuple[int, int]] | frozenset[tuple[int, int]],
    *,
    given: tuple[tuple[int, int], ...] = (),
    squares: bool = True,
    emptied: tuple[int, ...] = (),
) -> list[str]:
    """SVG elements of one board: squares, the ``emptied`` rows in red, crosses, queens."""
    parts = []
    if squares:  # a light board with the dark squares as one path: small files
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{n * cell:.1f}" height="{n * cell:.1f}" '
            f'fill="{LIGHT}"/>'
        )
        dark = "".join(
            f"M{x + c * cell:.1f},{y + r * cell:.1f}h{cell:.1f}v{cell:.1f}h{-cell:.1f}z"
            for r in range(n)
            for c in range(n)
            if (r + c) % 2
        )
        parts.append(f'<path d="{dark}" fill="{DARK}"/>')
    for row in emptied:
        parts.append(
            f'<rect class="emptied" x="{x:.1f}" y="{y + row * cell:.1f}" '
            f'width="{n * cell:.1f}" height="{cell:.1f}" fill="{EMPTIED}" opacity="0.7"/>'
        )
    arm = cell * 0.3
    crosses = []
    for r, c in sorted(crossed):
        left, top = x + (c + 0.5) * cell - arm, y + (r + 0.5) * cell - arm
        crosses.append(f"M{left:.1f},{top:.1f}l{2 * arm:.1f},{2 * arm:.1f}m0,{-2 * arm:.1f}")
        crosses.append(f"l{-2 * arm:.1f},{2 * arm:.1f}")
    if crosses:
        parts.append(
            f'<path class="crosses" d="{"".join(crosses)}" stroke="#444" '
            f'stroke-width="{max(cell / 9, 0.8):.1f}"/>'
        )
    for r, c in queens:
        colour = "#c62828" if (r, c) in given else "#111"
        parts.append(
            f'<circle cx="{x + (c + 0.5) * cell:.1f}" cy="{y + (r + 0.5) * cell:.1f}" '
            f'r="{cell * 0.36:.1f}" fill="{colour}"/>'
        )
    return parts


def escape(text: str) -> str:
    """``text`` safe inside SVG and HTML (``&``, ``<`` and ``>`` escaped)."""
    from xml.sax.saxutils import escape as xml_escape

    return xml_escape(text)
