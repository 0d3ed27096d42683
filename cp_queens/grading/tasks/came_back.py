"""What a model returned, shown in a feedback line, and an error described: the words
every task's judge uses for an answer it cannot use (``1 (an int)``, ``a list of 3``).
"""

from __future__ import annotations

from typing import Any

import numpy as np


class UnusableOutput(Exception):
    """fn(n) returned something that is not a collection of solutions."""


def is_int(value: Any) -> bool:
    """A Python or NumPy integer, not a bool."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def short(value: Any, width: int = 60) -> str:
    """``repr(value)``, cut to ``width`` characters for a feedback line, control characters
    masked; a ``repr`` that raises (a student's class) is named by its type instead."""
    try:
        text = repr(value)
    except BaseException:  # the student's __repr__: any failure is theirs, not the grader's
        text = f"<{_type_name(value)} object>"
    text = "".join(ch if ch.isprintable() else "\ufffd" for ch in text[: width + 1])
    return text if len(text) <= width else text[: width - 3] + "..."


def kind(value: Any) -> str:
    """What ``value`` is, in the words a student knows: ``an int``, ``a list of 3``,
    ``a 4 x 4 NumPy array``, ``None``."""
    if value is None:
        return "None"
    if isinstance(value, np.ndarray):
        return f"a {' x '.join(map(str, value.shape)) or 'scalar'} NumPy array"
    if isinstance(value, np.generic):
        return f"a NumPy {type(value).__name__}"
    name = _type_name(value)
    if isinstance(value, list | tuple | set | frozenset | dict | str | bytes):
        try:
            count = len(value)
        except Exception:  # a subclass's __len__
            count = None
        if count is not None and not isinstance(value, str | bytes):
            return f"{_article(name)} {name} of {count}"
    return f"{_article(name)} {name}"


def shown(value: Any, width: int = 60) -> str:
    """``value`` as a feedback line shows what came back: ``1 (an int)``."""
    return f"{short(value, width)} ({kind(value)})"


def _type_name(value: Any) -> str:
    name = getattr(type(value), "__name__", "object")
    # The grader's own stand-ins (an object the sandbox could only describe) are "an object".
    ok = isinstance(name, str) and name.isidentifier() and not name.startswith("_")
    return name if ok else "object"


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def describe(error: BaseException) -> str:
    """An exception as ``Type: message``, the way feedback names what a model raised."""
    message = str(error)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__
