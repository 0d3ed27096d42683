"""What a lesson needs beyond ``pip install .``, said in one line before it is missed.

The README installs the toolkit alone; a few lessons also draw with Matplotlib or run
other solvers. Without this a reader of lesson 10 meets a ``ModuleNotFoundError`` in a
traceback, which reads like a bug in the lesson. Instead a lesson states, at its top,
which extra of ``pyproject.toml`` it needs (``require``), or which optional part it
skips without one (``have``), and a reader sees one line naming what to install.

The extras (``pip install 'cp-queens[NAME]'``, or ``pip install '.[NAME]'`` in a clone):
``plot`` (Matplotlib), ``solvers`` (the other solvers of lesson 10) and ``course``
(every lesson). ``tests/test_lesson_installs.py`` checks that every extra named by a
lesson exists and provides the modules the lesson asks for.

Examples:
    >>> have("lesson 00", "plot", "json", doing="the plot")
    True
    >>> advice("lesson 10", "solvers", ["cpmpy", "pychoco"])
    "lesson 10 needs cpmpy, pychoco: pip install 'cp-queens[solvers]' ('.[solvers]' in a clone)"
"""

from __future__ import annotations

import importlib.util


def missing(*modules: str) -> list[str]:
    """The ``modules`` that cannot be imported (looked up, not imported: that is quick)."""
    absent = []
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a parent package missing, or broken
            found = False
        if not found:
            absent.append(module)
    return absent


def advice(lesson: str, extra: str, modules: list[str]) -> str:
    """The one line: what is missing and the install command that brings it."""
    return (
        f"{lesson} needs {', '.join(modules)}: "
        f"pip install 'cp-queens[{extra}]' ('.[{extra}]' in a clone)"
    )


def require(lesson: str, extra: str, *modules: str) -> None:
    """Stop the lesson at once, with one line and no traceback, when ``extra`` is missing.

    ``SystemExit`` with a message: a script prints it to stderr and exits 1; a notebook
    shows it under the cell. Either way nothing of the lesson ran half-way.
    """
    absent = missing(*modules)
    if absent:
        raise SystemExit(advice(lesson, extra, absent))


def have(lesson: str, extra: str, *modules: str, doing: str) -> bool:
    """True when ``modules`` are there; else print one line (what is skipped and what to
    install) and return False, so the lesson goes on without its optional part."""
    absent = missing(*modules)
    if absent:
        print(f"({doing} skipped) {advice(lesson, extra, absent)}")
    return not absent
