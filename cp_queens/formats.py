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

import functools
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
#
# One board grammar for every reader (``verify`` here, ``complete`` in
# cp_queens.partial): a board is a block of non-blank lines, one per row; a
# square is a mark from EMPTY, QUEEN or BLOCKED; spaces and tabs between squares
# are optional; a line starting with ``#`` is a comment; the board is square.
# Rows are read one line at a time with string methods and only the queens'
# columns are kept, so memory follows the board's rows, not its characters,
# and nothing recurses however hostile the input.

#: Marks of an empty square, a queen, and a blocked square (no queen may stand there).
EMPTY = frozenset(".-_0")
QUEEN = frozenset("Qq1")
BLOCKED = frozenset("xX")
SQUARES = EMPTY | QUEEN | BLOCKED
SQUARES_HELP = (
    "a square is '.', '-', '_' or '0' when empty, 'Q' or '1' for a queen, "
    "'x' where no queen may stand"
)
_SPACES = " \t\r\n\f\v"
_NO_SPACES = str.maketrans("", "", _SPACES)
_SPACES_AND_SQUARES = SQUARES | frozenset(_SPACES)


def board_row(line: str, number: int, name: str) -> str | None:
    """The squares of one board line without spaces; ``""`` for a blank line, ``None``
    for a comment. A character that is no square is an error naming its column."""
    squares = line.translate(_NO_SPACES)
    if squares.startswith("#"):
        return None
    if not SQUARES.issuperset(squares):
        position, ch = next((p, c) for p, c in enumerate(line, 1) if c not in _SPACES_AND_SQUARES)
        raise ParseError(f"{name}:{number}:{position}: unexpected {ch!r} ({SQUARES_HELP})")
    return squares


def marks_in(squares: str, marks: frozenset[str]) -> list[int]:
    """Columns where any of ``marks`` stands, found by ``str.find`` (C speed, no list
    per square)."""
    found = []
    for mark in marks:
        col = squares.find(mark)
        while col >= 0:
            found.append(col)
            col = squares.find(mark, col + 1)
    return sorted(found)


class BoardShape:
    """Checks, row by row, that the rows read so far can make a square board."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.width: int | None = None
        self.rows = 0

    def add(self, squares: str, number: int) -> int:
        """Account for one row; return its index."""
        if self.width is None:
            self.width = len(squares)
        elif len(squares) != self.width:
            raise ParseError(
                f"{self.name}:{number}: row {self.rows} has {len(squares)} squares, "
                f"but row 0 has {self.width} (a board is square)"
            )
        self.rows += 1
        return self.rows - 1

    def finish(self, number: int | None = None) -> int:
        """The board size, once every row is read."""
        if self.rows != self.width:
            where = f"{self.name}:{number}" if number is not None else self.name
            raise ParseError(
                f"{where}: the board has {self.rows} rows of {self.width} squares "
                "(a board is square)"
            )
        return self.rows


def read_placements(source: TextIO, name: str = "<stdin>") -> Iterator[list[int]]:
    """Yield the columns of each placement in ``source``, detecting the format.

    The first line that is neither blank nor a ``#`` comment decides: ``[``
    starts jsonl; a comma, or a ``q0`` header, means csv (no board has a comma);
    anything else is boards. Columns are returned as plain lists, unchecked:
    judging them is :func:`cp_queens.verify.verify`'s job, so a bad placement is
    reported as *invalid*, not as unreadable. A byte-order mark and ``\\r\\n``
    line ends are accepted.
    """
    lines = _numbered_lines(source)
    for number, line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        rest = _chain((number, line), lines)
        if stripped.startswith("["):
            yield from _read_jsonl(rest, name)
        elif "," in stripped or _is_csv_header(stripped):
            yield from _read_csv(rest, name)
        else:
            yield from _read_boards(rest, name)
        return


def _is_csv_header(stripped: str) -> bool:
    """``q0`` alone (the header of a 1 x 1 csv): ``q0,q1,...`` already has a comma."""
    return stripped.lower() == "q0"


def _numbered_lines(source: Iterable[str]) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(source, start=1):
        if number == 1:
            line = line.removeprefix("\ufeff")  # a BOM, when the caller opened without utf-8-sig
        yield number, line.rstrip("\r\n")


def _chain(head: tuple[int, str], tail: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    yield head
    yield from tail


def _read_jsonl(lines: Iterable[tuple[int, str]], name: str) -> Iterator[list[int]]:
    for number, line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        # A placement is a flat array: refuse nesting before the JSON decoder, whose
        # recursion a line of '[[[[...' would exhaust.
        if stripped.count("[") > 1 or "{" in stripped:
            raise ParseError(
                f"{name}:{number}: expected a JSON array of column numbers, not nested"
            )
        try:
            value = json.loads(stripped)
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
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped[0] in "qQ":
            continue  # blank line, comment or a header
        columns = []
        for position, cell in enumerate(stripped.split(","), start=1):
            try:
                columns.append(int(cell))
            except ValueError:
                raise ParseError(
                    f"{name}:{number}: field {position} is {cell.strip()[:40]!r}, "
                    "not a column number"
                ) from None
        yield columns


def _read_boards(lines: Iterable[tuple[int, str]], name: str) -> Iterator[list[int]]:
    """Boards separated by blank lines; each row must hold exactly one queen."""
    shape: BoardShape | None = None
    columns: list[int] = []
    last = 0
    for number, line in lines:
        squares = board_row(line, number, name)
        if squares is None:
            continue
        if not squares:
            if shape is not None:
                shape.finish(last)
                yield columns
                shape, columns = None, []
            continue
        if shape is None:
            shape = BoardShape(name)
        row = shape.add(squares, number)
        queens = marks_in(squares, QUEEN)
        if len(queens) != 1:
            raise ParseError(
                f"{name}:{number}: row {row} has {len(queens)} queens, a placement has exactly one"
            )
        columns.append(queens[0])
        last = number
    if shape is not None:
        shape.finish(last)
        yield columns
