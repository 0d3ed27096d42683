"""Reading and writing streams of placements: ``boards``, ``jsonl`` and ``csv``.

* ``boards``: each placement as rows of ``.`` and ``Q`` (separated by spaces
  or not), placements separated by a blank line - for people.
* ``jsonl``: one JSON array of columns per line, ``[1, 3, 0, 2]`` - for pipes.
* ``csv``: a header ``q0,q1,...`` then one row of columns per placement - for
  spreadsheets and pandas.

Writers emit each placement with a single ``write`` call, so an interrupted
stream (Ctrl-C) never leaves half a line behind. Readers are generators: a
file of millions of placements is checked at flat memory. Every parse error
names the source, the line and (where it helps) the column.
"""

from __future__ import annotations

import csv
import functools
import io
import json
from collections.abc import Iterable, Iterator
from typing import TextIO

from cp_queens.errors import ParseError
from cp_queens.problem import Placement

WRITE_FORMATS = ("boards", "jsonl", "csv")


@functools.cache
def _jsonl_template(n: int) -> str:
    """``[%d, %d, ...]\\n``: the text ``json.dumps`` gives a list of ints, at a third of the
    cost, which matters when streaming hundreds of thousands of placements."""
    return "[" + ", ".join(["%d"] * n) + "]\n"


def format_placement(placement: Placement, fmt: str) -> str:
    """One placement as text in ``fmt``, ending with a newline (csv: without header)."""
    if fmt == "jsonl":
        return _jsonl_template(len(placement.cols)) % placement.cols
    if fmt == "boards":
        return placement.to_text() + "\n"
    if fmt == "csv":
        return ",".join(map(str, placement.cols)) + "\n"
    raise ValueError(f"unknown format {fmt!r} (choose from {', '.join(WRITE_FORMATS)})")


def write_placements(placements: Iterable[Placement], out: TextIO, fmt: str) -> int:
    """Write ``placements`` to ``out`` in ``fmt``; return how many were written.

    ``boards`` separates placements by a blank line; ``csv`` writes its header
    once the first placement tells the board size.
    """
    written = 0
    for placement in placements:
        text = format_placement(placement, fmt)
        if fmt == "boards" and written:
            text = "\n" + text
        elif fmt == "csv" and not written:
            text = ",".join(f"q{r}" for r in range(placement.n)) + "\n" + text
        out.write(text)
        written += 1
    return written


# -- reading -----------------------------------------------------------------


def read_placements(source: TextIO, name: str = "<stdin>") -> Iterator[list[int]]:
    """Yield the columns of each placement in ``source``, guessing the format.

    The first non-blank character decides: ``[`` means jsonl, ``q`` (a
    ``q0,q1,...`` header) or a digit means csv, anything else boards. Columns
    are returned as plain lists, unchecked: judging them is
    :func:`cp_queens.verify.verify`'s job, so a bad placement is reported as
    *invalid*, not as unreadable.
    """
    lines = _numbered_lines(source)
    for number, line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        first = stripped[0]
        rest = _chain([(number, line)], lines)
        if first == "[":
            yield from _read_jsonl(rest, name)
        elif first == "q" or first.isdigit():
            yield from _read_csv(rest, name)
        else:
            yield from _read_boards(rest, name)
        return


def _numbered_lines(source: TextIO) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(source, start=1):
        yield number, line.rstrip("\r\n")


def _chain(head: list[tuple[int, str]], tail: Iterator[tuple[int, str]]):
    yield from head
    yield from tail


def _read_jsonl(lines: Iterable[tuple[int, str]], name: str) -> Iterator[list[int]]:
    for number, line in lines:
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise ParseError(
                f"{name}:{number}:{error.colno}: not valid JSON ({error.msg})"
            ) from None
        # ``type(c) is int`` excludes bools; mapping ``type`` is 3x faster than an
        # isinstance loop, which matters for a line of a million columns.
        if not isinstance(value, list) or not set(map(type, value)) <= {int}:
            raise ParseError(f"{name}:{number}: expected a JSON array of column numbers")
        yield value


def _read_csv(lines: Iterable[tuple[int, str]], name: str) -> Iterator[list[int]]:
    for number, line in lines:
        if not line.strip() or line.lstrip().startswith("q"):
            continue  # blank line or a header
        row = next(csv.reader(io.StringIO(line)))
        columns = []
        for position, cell in enumerate(row, start=1):
            try:
                columns.append(int(cell))
            except ValueError:
                raise ParseError(
                    f"{name}:{number}: field {position} is {cell!r}, not a column number"
                ) from None
        yield columns


def _read_boards(lines: Iterable[tuple[int, str]], name: str) -> Iterator[list[int]]:
    block: list[tuple[int, str]] = []
    for number, line in lines:
        if line.strip():
            block.append((number, line))
        elif block:
            yield _parse_board(block, name)
            block = []
    if block:
        yield _parse_board(block, name)


def _parse_board(block: list[tuple[int, str]], name: str) -> list[int]:
    """Columns of a board given as rows of ``.`` and ``Q``; exactly one queen per row."""
    n = len(block)
    columns = []
    for row, (number, line) in enumerate(block):
        squares = [(position, ch) for position, ch in enumerate(line, start=1) if ch != " "]
        for position, ch in squares:
            if ch not in ".Q":
                raise ParseError(
                    f"{name}:{number}:{position}: unexpected {ch!r} (a board row holds '.' and 'Q')"
                )
        if len(squares) != n:
            raise ParseError(
                f"{name}:{number}: row {row} has {len(squares)} squares, "
                f"the board has {n} rows (boards are square)"
            )
        queens = [c for c, (_, ch) in enumerate(squares) if ch == "Q"]
        if len(queens) != 1:
            raise ParseError(
                f"{name}:{number}: row {row} has {len(queens)} queens, a placement has exactly one"
            )
        columns.append(queens[0])
    return columns
