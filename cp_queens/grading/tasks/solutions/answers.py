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

from cp_queens.grading.tasks.came_back import UnusableOutput, describe, is_int, short, shown


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
