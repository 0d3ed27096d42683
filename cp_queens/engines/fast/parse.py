"""The row parser of the fast readers: whole lines of CSV or JSON placements into an array.

Written like the kernels (``cp_queens.engines.fast.kernels``): this source runs
interpreted over ``bytes``, its C twin (``parse_rows`` in ``_kernels.c``) over any
buffer of bytes, so that ``cp_queens.formats.read_blocks`` reads a big file at
compiled speed.
"""

from __future__ import annotations

from typing import Any


def parse_rows(data: Any, brackets: int, out: Any, shape: Any) -> int:
    """Read whole lines of placements from the bytes ``data`` into ``out``, row after row.

    ``brackets`` 1: jsonl lines, ``[1, 3, 0, 2]`` or ``[1,3,0,2]``; 0: csv lines,
    ``1,3,0,2``. Every line must end with a newline and hold the same number of
    columns. Returns the number of lines read and sets ``shape[0]`` to the
    columns per line; returns -1 at the first line that is not in this plain
    shape (blank, other spacing, a sign, a leading zero in JSON, a number of
    nine digits or more, a different length): the caller then reads those
    lines with the exact line-by-line parser, which names what is wrong.
    """
    size = len(data)
    i = 0
    rows = 0
    width = -1
    k = 0
    while i < size:
        if brackets:
            if data[i] != 91:  # "["
                return -1
            i += 1
        count = 0
        while True:
            if i >= size or data[i] < 48 or data[i] > 57:
                return -1  # a number must come here
            if brackets and data[i] == 48 and i + 1 < size and 48 <= data[i + 1] <= 57:
                return -1  # JSON has no leading zeros
            value = 0
            digits = 0
            while i < size and 48 <= data[i] <= 57:
                value = value * 10 + (data[i] - 48)
                digits += 1
                i += 1
            if digits >= 9:
                return -1
            out[k] = value
            k += 1
            count += 1
            if i < size and data[i] == 44:  # ","
                i += 1
                if brackets and i < size and data[i] == 32:  # one space after a comma
                    i += 1
                continue
            break
        if brackets:
            if i >= size or data[i] != 93:  # "]"
                return -1
            i += 1
        if i >= size or data[i] != 10:  # "\n"
            return -1
        i += 1
        if width < 0:
            width = count
        elif count != width:
            return -1
        rows += 1
    shape[0] = width
    return rows
