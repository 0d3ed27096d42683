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
