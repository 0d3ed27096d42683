"""One way for a lesson to show something, in a terminal and in Jupyter alike.

The lessons in ``examples/`` are scripts and, generated from them, notebooks
(``examples/notebooks/``). ``show(x)`` draws ``x`` inline in a notebook (a
placement as an SVG board, a check report as a table, a Matplotlib figure as
a picture) and prints it as text in a terminal, so one lesson file serves both.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def in_notebook() -> bool:
    """True inside a Jupyter kernel (where rich displays draw), False in a plain terminal."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and hasattr(shell, "kernel")


def show(thing: Any) -> None:
    """Draw ``thing`` inline in Jupyter; print it as text anywhere else.

    A Matplotlib figure cannot be printed: a terminal gets one line naming it
    (the notebook version of the lesson draws it), and the figure is closed so
    scripts do not pile up open figures. A string is printed in Jupyter too: it is
    text already, and Jupyter would show its ``repr``, a board as one quoted line
    with ``\\n`` between the rows.
    """
    if isinstance(thing, str):
        print(thing)
        return
    if in_notebook():
        from IPython.display import display

        display(thing)
        if hasattr(thing, "savefig"):  # shown once: not again by the inline backend
            import matplotlib.pyplot as plt

            plt.close(thing)
        return
    if hasattr(thing, "savefig"):
        import matplotlib.pyplot as plt

        title = thing.axes[0].get_title() if thing.axes else ""
        print(f"[figure{': ' + title if title else ''} - drawn in the notebook version]")
        plt.close(thing)
    elif hasattr(thing, "to_text"):
        print(thing.to_text())
    else:
        print(thing)


class Squares:
    """Queens on any squares of an n x n board, not one per row (a dominating set):
    an SVG chess board in Jupyter, the Unicode diagram of ``render.squares`` as text.

    Why not the string itself: Jupyter shows a string as its ``repr``, one quoted line
    with ``\\n`` between the rows, and so does the site built from the notebooks.

    Examples:
        >>> board = Squares(3, [(0, 0), (2, 1)])
        >>> print(board.to_text())
        3 ♛ □ ■
        2 □ ■ □
        1 ■ ♛ ■
          a b c
        >>> board._repr_svg_().count("♛"), board._repr_svg_().startswith("<svg")
        (2, True)
    """

    def __init__(self, n: int, queens: Iterable[tuple[int, int]], *, size: int = 320) -> None:
        self.n = n
        self.queens = sorted(set(queens))
        self.size = size

    def to_text(self) -> str:
        from cp_queens.render import squares

        return squares(self.n, self.queens, style="unicode")

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Squares({self.n}, {self.queens})"

    def _repr_svg_(self) -> str:
        from cp_queens.render import DARK, LABELLED_UP_TO, LIGHT, QUEEN, escape

        n, cell = self.n, self.size / self.n
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.size}" '
            f'height="{self.size}" viewBox="0 0 {self.size} {self.size}">'
            f"<title>{escape(f'{len(self.queens)} queens on the {n} x {n} board')}</title>"
        ]
        for r in range(n):
            for c in range(n):
                colour = DARK if (c + n - r) % 2 else LIGHT  # a1 dark, as render draws it
                parts.append(
                    f'<rect x="{c * cell:.2f}" y="{r * cell:.2f}" width="{cell:.2f}" '
                    f'height="{cell:.2f}" fill="{colour}"/>'
                )
        if n <= LABELLED_UP_TO:  # as on a printed diagram: ranks down the a-file, files on rank 1
            font = max(0.22 * cell, 6)
            for r in range(n):
                colour = LIGHT if (n - r) % 2 else DARK  # the other colour of the a-file square
                parts.append(
                    f'<text x="{0.06 * cell:.2f}" y="{r * cell + 0.06 * cell:.2f}" '
                    f'font-size="{font:.2f}" fill="{colour}" font-family="sans-serif" '
                    f'dominant-baseline="hanging">{n - r}</text>'
                )
            for c in range(n):
                colour = LIGHT if (c + 1) % 2 else DARK  # the other colour of the rank-1 square
                parts.append(
                    f'<text x="{(c + 0.94) * cell:.2f}" y="{(n - 0.06) * cell:.2f}" '
                    f'font-size="{font:.2f}" fill="{colour}" font-family="sans-serif" '
                    f'text-anchor="end">{chr(ord("a") + c)}</text>'
                )
        for r, c in self.queens:
            parts.append(
                f'<text x="{(c + 0.5) * cell:.2f}" y="{(r + 0.5) * cell:.2f}" '
                f'font-size="{0.8 * cell:.2f}" fill="{QUEEN}" text-anchor="middle" '
                'dominant-baseline="central">♛</text>'
            )
        return "".join(parts) + "</svg>"


#: How wide a lesson prints: a terminal's default, and what a slide or a printed page holds.
WIDTH = 80


def wrapped(text: str, *, indent: str = "    ", width: int = WIDTH) -> str:
    """``text`` broken between words into lines of at most ``width`` characters.

    Why: a lesson prints a solver's one-line statistics, or an error message, that
    may run to 150 columns; a terminal, a notebook cell and a slide all cut or fold
    that badly. Lines after the first are indented, so the reader sees one item.
    A line of ``text`` that fits is left as it is (a drawn board stays a board).

    Examples:
        >>> print(wrapped("engine=mip n=8 solutions=1 branches=1 wall_time=0.013s", width=30))
        engine=mip n=8 solutions=1
            branches=1
            wall_time=0.013s
    """
    import textwrap

    lines = []
    for line in text.splitlines() or [""]:
        if len(line) <= width:
            lines.append(line)
            continue
        lines += textwrap.wrap(
            line,
            width,
            subsequent_indent=indent,
            break_long_words=False,
            break_on_hyphens=False,
        )
    return "\n".join(lines)
