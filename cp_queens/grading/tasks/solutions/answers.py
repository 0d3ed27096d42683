"""What a student's model returned, read as placements: lists or tuples of columns,
NumPy vectors, python-constraint's ``{row: column}`` dicts or 0/1 boards.

``cp_queens.grading.tasks.solutions.judge`` compares the placements with the reference; reading them
is this module's one job, so that every shape a model may return is handled, and
refused with a line that says what was expected, in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np


def as_columns(item: Any, n: int) -> tuple[Any, str | None]:
    """``item`` as a tuple of columns, plus a reason when it cannot be read as a placement.

    Accepts a sequence of integer columns (NumPy integers too) or an ``n x n``
    0/1 board with exactly one 1 per row.
    """
    if isinstance(item, np.ndarray):
        item = item.tolist()
    elif isinstance(item, Mapping):  # python-constraint's {row: column}
        if set(item) != set(range(n)):
            return (item,), f"{short(item)}: expected the keys 0..{n - 1} (rows)"
        item = [item[row] for row in range(n)]
    elif isinstance(item, str | bytes) or not isinstance(item, Iterable):
        return (item,), f"{short(item)} is not a list of columns"
    try:
        values = list(item)
    except Exception as error:
        return (item,), f"{short(item)} cannot be read: {describe(error)}"
    if values and all(isinstance(v, str) for v in values):
        # ["..Q.", ...]: a board drawn as text is a format, not squares (n = 1's ["Q"] too)
        return tuple(values), f"{short(values)} is a board drawn as text, not a list of columns"
    if values and all(isinstance(v, Sequence | np.ndarray) for v in values):
        return _board_columns(values, n)
    cols = []
    for row, value in enumerate(values):
        if isinstance(value, np.integer):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            return tuple(values), f"row {row}: column {value!r} is not an integer"
        cols.append(value)
    return tuple(cols), None


def _board_columns(rows: list[Any], n: int) -> tuple[Any, str | None]:
    """A 0/1 board (the formulation with one Boolean per square) as columns."""
    cols = []
    for r, row in enumerate(rows):
        cells = list(row.tolist() if isinstance(row, np.ndarray) else row)
        if len(cells) != n or len(rows) != n:
            return (
                tuple(map(tuple, rows)),
                f"a 0/1 board must be {n} x {n}, got {len(rows)} rows, row {r} has {len(cells)}",
            )
        queens = [c for c, v in enumerate(cells) if v]
        if len(queens) != 1:
            return tuple(map(tuple, rows)), f"0/1 board row {r} has {len(queens)} queens, not 1"
        cols.append(queens[0])
    return tuple(cols), None


def solutions_in(produced: Any, n: int, label: str) -> Iterable[Any]:
    """What ``label(n)`` returned, as the collection of solutions it should be; a clear
    ``UnusableOutput`` for ``None``, a number, a dict or one lone placement."""
    if produced is None:
        raise UnusableOutput(
            f"{label}({n}) returned None: it must return (or yield) the solutions, "
            "e.g. a list of lists of columns"
        )
    if isinstance(produced, str | bytes | int | float) or not isinstance(produced, Iterable):
        raise UnusableOutput(
            f"{label}({n}) returned {shown(produced)}, not a collection of solutions"
        )
    if isinstance(produced, np.ndarray) and produced.ndim == 1 and produced.size:
        raise UnusableOutput(
            f"{label}({n}) returned one placement {shown(produced)}, not a collection of "
            "solutions (wrap it in a list)"
        )
    if isinstance(produced, Mapping):
        raise UnusableOutput(
            f"{label}({n}) returned {shown(produced)}, not a collection of solutions "
            "(return a list)"
        )
    items = produced
    if isinstance(items, Sequence) and items and all(is_int(v) for v in items):
        raise UnusableOutput(
            f"{label}({n}) returned one placement {shown(items)}, not a collection of "
            "solutions (wrap it in a list)"
        )
    return items


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
