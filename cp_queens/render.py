"""Drawing placements: plain text, a Unicode chess board, and SVG.

Three audiences, three drawings: ``text`` (``.`` and ``Q``) is what the
completion reader parses back, so a board can round-trip through a file;
``unicode`` looks like a chess diagram in a terminal; ``svg`` is for
notebooks, slides and the web (``Placement`` uses it
as ``_repr_svg_``, so Jupyter shows a board). Which drawing a command writes is the
registry of output formats' business (``cp_queens.writers.FORMATS``: ``boards``,
``unicode``, ``svg``), not this module's.

Squares are named as on a chess board (see ``cp_queens.problem``): files
``a``, ``b``, ... from left to right, ranks ``1``, ``2``, ... from the bottom
up, so row 0, drawn at the top, is rank ``n``. The Unicode and SVG boards
carry these coordinates (up to 26 files), and ``a1`` is a dark square.

Queens given in a completion problem can be passed as ``given`` and are drawn
differently (``♕`` instead of ``♛``, a red disc instead of a black one), so a
student sees which queens were asked for and which were found.

Large boards must not flood a screen or a notebook: the SVG stays the same
size whatever ``n``; above ``SVG_SQUARES_UP_TO`` it drops the checker
pattern and draws each queen as a dot, and above ``SVG_QUEENS_UP_TO`` it
draws an evenly spaced sample of rows and says so in a caption.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape as _html_escape
from typing import Literal

#: Largest board drawn square by square (with the checker pattern).
SVG_SQUARES_UP_TO = 64
#: Largest board whose every queen is drawn; above, a sample of rows is drawn.
SVG_QUEENS_UP_TO = 2_000

LIGHT, DARK = "#f0d9b5", "#b58863"
QUEEN, GIVEN = "#111111", "#c62828"

#: Largest board drawn as text or Unicode by the CLI: one line per row floods a screen.
TEXT_UP_TO = 1_000

#: Files are labelled a..z, so coordinates are shown up to n = 26: the boards whose
#: squares have names (``cp_queens.problem.NAMED_UP_TO``, which a test holds equal).
#: Not imported from there: ``Placement`` draws itself with this module, which must
#: not import it back.
LABELLED_UP_TO = 26


def escape(text: str) -> str:
    """XML text escaping (``&``, ``<``, ``>``). ``html.escape`` rather than
    ``xml.sax.saxutils``, whose import pulls in ``urllib`` and ``http``: a fifth
    of a second of every command's start-up."""
    return _html_escape(text, quote=False)


def text(
    placement: Sequence[int],
    *,
    given: Mapping[int, int] | None = None,
    empty: str = ".",
    queen: str = "Q",
) -> str:
    """Rows of ``.`` and ``Q`` separated by spaces; the format the completion reader reads.

    Given queens are drawn like the others, so the output is a valid board file.

    Examples:
        >>> print(text([1, 3, 0, 2]))
        . Q . .
        . . . Q
        Q . . .
        . . Q .
    """
    n = len(placement)
    return "\n".join(" ".join(queen if c == col else empty for c in range(n)) for col in placement)


def unicode(
    placement: Sequence[int],
    *,
    given: Mapping[int, int] | None = None,
    coordinates: bool = True,
) -> str:
    """A chess diagram: light ``□`` and dark ``■`` squares, queens ``♛`` (given ones ``♕``).

    Row 0 is drawn at the top, as rank ``n``; column 0 is file ``a``, so the
    bottom-left square is ``a1`` and, as on a chess board, it is dark.
    Coordinates are shown for boards up to 26 files.

    Examples:
        >>> print(unicode([1, 3, 0, 2], given={0: 1}))
        4 □ ♕ □ ■
        3 ■ □ ■ ♛
        2 ♛ ■ □ ■
        1 ■ □ ♛ □
          a b c d
    """
    n = len(placement)
    given = given or {}
    labelled = coordinates and n <= LABELLED_UP_TO
    width = len(str(n))
    lines = []
    for row, col in enumerate(placement):
        rank = n - row
        cells = []
        for c in range(n):
            if c == col:
                cells.append("♕" if given.get(row) == c else "♛")
            else:
                cells.append("■" if (c + rank) % 2 else "□")
        prefix = f"{rank:>{width}} " if labelled else ""
        lines.append(prefix + " ".join(cells))
    if labelled:
        lines.append(" " * (width + 1) + " ".join(chr(ord("a") + c) for c in range(n)))
    return "\n".join(lines)


def svg(
    placement: Sequence[int],
    *,
    given: Mapping[int, int] | None = None,
    size: int = 400,
    coordinates: bool = True,
) -> str:
    """A standalone SVG document of about ``size`` pixels, whatever the board size.

    Boards up to ``LABELLED_UP_TO`` files carry their coordinates inside the edge
    squares, as on a printed chess diagram: rank numbers down the ``a`` file, file
    letters along rank 1.

    Examples:
        >>> picture = svg([1, 3, 0, 2])
        >>> picture.startswith("<svg") and picture.count("♛") == 4
        True
    """
    n = len(placement)
    given = given or {}
    cell = size / n
    caption = details = ""
    parts = []
    if n <= SVG_SQUARES_UP_TO:
        for r in range(n):
            for c in range(n):
                parts.append(_rect(c * cell, r * cell, cell, cell, _square_colour(r, c, n)))
        for r, c in enumerate(placement):
            colour = GIVEN if given.get(r) == c else QUEEN
            parts.append(
                f'<text x="{(c + 0.5) * cell:.2f}" y="{(r + 0.5) * cell:.2f}" '
                f'font-size="{0.8 * cell:.2f}" fill="{colour}" text-anchor="middle" '
                f'dominant-baseline="central">♛</text>'
            )
        if coordinates and n <= LABELLED_UP_TO:
            parts.extend(_coordinates(n, cell))
    else:
        parts.append(_rect(0, 0, size, size, LIGHT))
        rows: Sequence[int] = range(n)
        if n > SVG_QUEENS_UP_TO:
            step = n / SVG_QUEENS_UP_TO
            rows = sorted({int(i * step) for i in range(SVG_QUEENS_UP_TO)})
            caption = f"n = {n:,}: every {step:.4g}th row shown"
            details = f"{caption} ({len(rows):,} of {n:,} queens)"
        dot = max(cell, 1.5)
        for r in rows:
            c = placement[r]
            colour = GIVEN if given.get(r) == c else QUEEN
            parts.append(_rect(c * cell, r * cell, dot, dot, colour))
    height = size + (24 if caption else 0)
    title = escape(details if caption else f"{n}-queens placement")
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
        f'viewBox="0 0 {size} {height}"><title>{title}</title>'
    )
    if caption:
        parts.append(
            f'<text x="{size / 2}" y="{size + 16}" font-size="12" text-anchor="middle" '
            f'font-family="sans-serif">{escape(caption)}</text>'
        )
    return head + "".join(parts) + "</svg>"


def _square_colour(row: int, col: int, n: int) -> str:
    """Dark where file + rank is odd, so ``a1`` is dark as on a chess board."""
    return DARK if (col + n - row) % 2 else LIGHT


def _coordinates(n: int, cell: float) -> list[str]:
    """Rank numbers in the top-left corner of the ``a`` file, file letters in the
    bottom-right corner of rank 1, each in the colour of the other kind of square."""
    font = max(0.22 * cell, 6)
    pad = 0.06 * cell
    labels = []
    for r in range(n):
        colour = LIGHT if _square_colour(r, 0, n) == DARK else DARK
        labels.append(
            f'<text class="rank" x="{pad:.2f}" y="{r * cell + pad:.2f}" font-size="{font:.2f}" '
            f'fill="{colour}" font-family="sans-serif" dominant-baseline="hanging">{n - r}</text>'
        )
    for c in range(n):
        colour = LIGHT if _square_colour(n - 1, c, n) == DARK else DARK
        labels.append(
            f'<text class="file" x="{(c + 1) * cell - pad:.2f}" y="{n * cell - pad:.2f}" '
            f'font-size="{font:.2f}" fill="{colour}" font-family="sans-serif" '
            f'text-anchor="end">{chr(ord("a") + c)}</text>'
        )
    return labels


def _rect(x: float, y: float, w: float, h: float, fill: str) -> str:
    return f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="{fill}"/>'


def squares(
    n: int, queens: Iterable[tuple[int, int]], *, style: Literal["text", "unicode"] = "text"
) -> str:
    """A board with queens on any squares (``(row, col)`` pairs), not one per row: the
    shape of a dominating set. ``text`` is ``.`` and ``Q`` as ``text`` draws them,
    ``unicode`` a chess diagram as ``unicode`` draws it (coordinates up to 26 files).

    Examples:
        >>> print(squares(3, [(1, 1)]))
        . . .
        . Q .
        . . .
        >>> print(squares(2, [(0, 0)], style="unicode"))
        2 ♛ ■
        1 ■ □
          a b
    """
    occupied = set(queens)
    if style == "text":
        return "\n".join(
            " ".join("Q" if (r, c) in occupied else "." for c in range(n)) for r in range(n)
        )
    labelled = n <= LABELLED_UP_TO
    width = len(str(n))
    lines = []
    for r in range(n):
        rank = n - r
        cells = ["♛" if (r, c) in occupied else ("■" if (c + rank) % 2 else "□") for c in range(n)]
        lines.append((f"{rank:>{width}} " if labelled else "") + " ".join(cells))
    if labelled:
        lines.append(" " * (width + 1) + " ".join(chr(ord("a") + c) for c in range(n)))
    return "\n".join(lines)
