"""Reading streams of placements: ``boards``, ``jsonl`` and ``csv`` (written by the
formats of ``cp_queens.writers``; the writers here are its shortcuts).

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

import io
import itertools
import re
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from cp_queens.errors import ParseError
from cp_queens.problem import Placement
from cp_queens.writers import FORMATS, Sink, block_text

__all__ = [
    "WRITE_FORMATS",
    "block_text",
    "format_placement",
    "read_blocks",
    "read_placements",
    "write_blocks",
    "write_placements",
]

#: The formats that write many placements and are read back (``verify``, ``check``).
WRITE_FORMATS = tuple(name for name, fmt in FORMATS.items() if fmt.reads and fmt.draw)


def format_placement(placement: Placement, fmt: str) -> str:
    """One placement as text in ``fmt``, ending with a newline (csv: without header):
    the drawing of the format registered in ``cp_queens.writers``."""
    draw = FORMATS[fmt].draw if fmt in FORMATS else None
    if draw is None:
        raise ValueError(f"unknown format {fmt!r} (choose from {', '.join(WRITE_FORMATS)})")
    return draw(placement, None)


def write_placements(placements: Iterable[Placement], out: TextIO, fmt: str) -> int:
    """Write ``placements`` to ``out`` in ``fmt``; return how many were written.

    ``boards`` separates placements by a blank line; ``csv`` writes its header
    once the first placement tells the board size (``cp_queens.writers.Sink``).
    """
    sink = Sink(fmt, out)
    for placement in placements:
        sink.placement(placement)
    return sink.written


def write_blocks(blocks: Iterable[Any], out: TextIO, fmt: str) -> int:
    """Write blocks of placements (2-D integer arrays, one row of columns each); return
    how many placements were written: exactly the text of ``write_placements`` for the
    same rows, a whole block at a time (``cp_queens.writers.Sink.block``)."""
    sink = Sink(fmt, out)
    for block in blocks:
        sink.block(block)
    return sink.written


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


#: The longest line a reader takes (characters), 16 Mi. The largest placement this
#: project writes on its own, ``solve 1000000 -e construct --format jsonl``, is one line
#: of 7,888,891 characters (measured): the cap leaves it a margin of 2x. Without a bound
#: a source with no line end (``/dev/zero``) was read until the machine ran out, and at
#: the former 64 Mi one line of 50 MB took ``verify`` to a 3.5 GB peak (a parsed queen
#: costs some 70 bytes a character of its text); at the cap, about 1 GB.
MAX_LINE_CHARS = 1 << 24


def too_long(name: str, line: int | None = None) -> ParseError:
    """The error for a line longer than ``MAX_LINE_CHARS``, naming it when known."""
    which = "a line" if line is None else f"line {line}"
    return ParseError(
        f"{name}: {which} is longer than {MAX_LINE_CHARS:,} characters, the cap on one "
        "line (a placement of a million queens takes 7.9 million); this is not a file of "
        "placements or boards this tool reads"
    )


def bounded_lines(source: Iterable[str], name: str, first: int = 1) -> Iterator[str]:
    """The lines of ``source``, none longer than ``MAX_LINE_CHARS`` (else a
    ``ParseError``); a file is read at most that much past a line end."""
    readline = getattr(source, "readline", None)
    if readline is None:
        for number, line in enumerate(source, start=first):
            if len(line) > MAX_LINE_CHARS:
                raise too_long(name, number)
            yield line
        return
    number = first - 1
    while line := readline(MAX_LINE_CHARS + 1):
        number += 1
        if len(line) > MAX_LINE_CHARS:
            raise too_long(name, number)
        yield line


def read_rest(source: TextIO, name: str) -> str:
    """The rest of ``source`` as one text, if it is no longer than ``MAX_LINE_CHARS``."""
    rest = source.read(MAX_LINE_CHARS + 1)
    if len(rest) > MAX_LINE_CHARS:
        raise too_long(name)
    return rest


def read_placements(source: TextIO, name: str = "<stdin>") -> Iterator[list[int]]:
    """Yield the columns of each placement in ``source``, detecting the format.

    The first line that is neither blank nor a ``#`` comment decides: ``[``
    starts jsonl; a comma, or a ``q0`` header, means csv (no board has a comma);
    anything else is boards. Columns are returned as plain lists, unchecked:
    judging them is ``cp_queens.verify.verify``'s job, so a bad placement is
    reported as *invalid*, not as unreadable. A byte-order mark and ``\\r\\n``
    line ends are accepted.
    """
    lines = _numbered_lines(bounded_lines(source, name))
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
    import json  # here: every command imports this module, few read JSON

    from cp_queens.json_depth import whole_numbers

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
            value = json.loads(stripped, parse_int=whole_numbers(f"{name}:{number}"))
        except json.JSONDecodeError as error:
            raise ParseError(
                f"{name}:{number}:{error.colno}: not valid JSON ({error.msg})"
            ) from None
        # ``type(c) is int`` excludes bools; mapping ``type`` is 3x faster than an
        # isinstance loop, which matters for a line of a million columns.
        if not isinstance(value, list) or not set(map(type, value)) <= {int}:
            raise ParseError(f"{name}:{number}: expected a JSON array of column numbers")
        yield value


#: A csv field: ASCII digits (``int()`` alone also reads ``1_0`` and other scripts' digits,
#: which a file of placements has no business holding), spaces around them allowed.
_CSV_NUMBER = re.compile(r"[ \t]*[+-]?[0-9]+[ \t]*")


class CsvWidth:
    """The one row length of a csv file of placements: a csv table has one width, so a
    row of another is a broken line, not a placement of another board (a row cut short
    read as n = 2 went on to ``verify`` as a placement of its own)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.width: int | None = None
        self.first = 0

    def check(self, width: int, number: int) -> None:
        if self.width is None:
            self.width, self.first = width, number
        elif width != self.width:
            raise ParseError(
                f"{self.name}:{number}: {width} fields, but the rows of this csv file have "
                f"{self.width} (line {self.first}); a csv file holds placements of one size"
            )


def _read_csv(
    lines: Iterable[tuple[int, str]], name: str, width: CsvWidth | None = None
) -> Iterator[list[int]]:
    width = width or CsvWidth(name)
    for number, line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped[0] in "qQ":
            continue  # blank line, comment or a header
        width.check(stripped.count(",") + 1, number)
        columns = []
        for position, cell in enumerate(stripped.split(","), start=1):
            try:
                if _CSV_NUMBER.fullmatch(cell) is None:
                    raise ValueError(cell)
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


# -- reading large files in blocks ---------------------------------------------

#: Characters read per block by ``read_blocks`` (about 40,000 lines of n = 15).
BLOCK_CHARS = 1 << 21


def read_blocks(source: TextIO, name: str = "<stdin>") -> Iterator[Any]:
    """The placements of ``source`` as ``read_placements`` reads them, but in blocks.

    Yields 2-D NumPy arrays (one row of columns per placement) for runs of
    plain ``jsonl`` or ``csv`` lines, parsed a few megabytes at a time with
    NumPy, and single lists (from ``read_placements``' exact line-by-line
    parser) for anything else: a block with a line the fast parser is not sure
    about (blank lines, other spacing, signs, a bad line) is read again line
    by line, so the placements and the errors, naming the line, are the same.
    """
    head = source.read(BLOCK_CHARS)
    if head and not head.endswith("\n"):
        head += source.readline(MAX_LINE_CHARS + 1)  # whole lines only
        last_start = head.rfind("\n", 0, len(head) - 1) + 1
        if len(head) - last_start > MAX_LINE_CHARS:
            raise too_long(name, head.count("\n", 0, last_start) + 1)
    fmt = _detect(head)
    if fmt is None:  # boards, or no placement line in the first block: line by line
        rest = itertools.chain(io.StringIO(head), bounded_lines(source, name, head.count("\n") + 1))
        yield from read_placements(rest, name)  # type: ignore[arg-type]
        return
    lines_before = 0
    pending = head
    ended = False
    width = CsvWidth(name)
    while not ended:
        more = source.read(BLOCK_CHARS)
        ended = not more
        text = pending + more
        cut = len(text) if ended else text.rfind("\n") + 1
        if cut == 0:  # one line longer than a block: keep reading
            if len(text) > MAX_LINE_CHARS:
                raise too_long(name, lines_before + 1)
            pending = text
            continue
        body, pending = text[:cut], text[cut:]
        block = _parse_block(body, fmt)
        if block is None:
            numbered = enumerate(io.StringIO(body), start=lines_before + 1)
            lines = (
                (number, (line.removeprefix("\ufeff") if number == 1 else line).rstrip("\r\n"))
                for number, line in numbered
            )
            if fmt == "jsonl":
                yield from _read_jsonl(lines, name)
            else:
                yield from _read_csv(lines, name, width)
        elif len(block):
            if fmt == "csv":  # one width in a block: its first row stands for it
                first = lines_before + 1 + (body.startswith("q"))
                width.check(block.shape[1], first)
            yield block
        lines_before += body.count("\n")


def _detect(head: str) -> str | None:
    """``jsonl`` or ``csv`` as ``read_placements`` decides from the first line that is
    neither blank nor a comment; ``None`` for boards or when no such line is in ``head``."""
    for line in io.StringIO(head.removeprefix("\ufeff")):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("["):
            return "jsonl"
        if "," in stripped or _is_csv_header(stripped):
            return "csv"
        return None
    return None


def _parse_block(body: str, fmt: str) -> Any:
    """The placements of ``body`` (whole lines) as a 2-D array, or ``None`` if any line is
    not in the plain shape the compiled parser trusts (``[1, 3, 0, 2]`` or ``[1,3,0,2]``;
    ``1,3,0,2`` after an optional ``q0,...`` header): that body is read line by line."""
    import numpy as np

    from cp_queens.engines.fast import row_parser

    parse_rows = row_parser()
    if parse_rows is None:
        return None  # without the C kernels the exact reader is as quick as anything here
    if fmt == "csv" and body.startswith("q"):
        body = body[body.find("\n") + 1 :] if "\n" in body else ""
    if not body:
        return np.zeros((0, 0), dtype=np.int64)
    if not body.endswith("\n"):
        body += "\n"
    try:
        data = np.frombuffer(body.encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError:
        return None
    out = np.empty(data.size // 2 + 1, dtype=np.int64)
    shape = np.zeros(1, dtype=np.int64)
    rows = parse_rows(data, 1 if fmt == "jsonl" else 0, out, shape)
    if rows < 0:
        return None
    return out[: rows * int(shape[0])].reshape(rows, int(shape[0]))
