"""One way for a lesson to show something, in a terminal and in Jupyter alike.

The lessons in ``examples/`` are scripts and, generated from them, notebooks
(``examples/notebooks/``). ``show(x)`` draws ``x`` inline in a notebook (a
placement as an SVG board, a check report as a table, a Matplotlib figure as
a picture) and prints it as text in a terminal, so one lesson file serves both.
"""

from __future__ import annotations

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
    scripts do not pile up open figures.
    """
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
