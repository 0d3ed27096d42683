"""Reading and writing *partial* boards: the input of the completion problem.

A partial board is an ``n x n`` board with some queens already placed; the
task is to add the rest. Two ways to write one:

* a **board**, one line per row, for people::

      # the queen on a8 is given
      Q . . . . . . .
      . . . . . . . .
      ...

  Empty squares are ``.``, ``-``, ``_`` or ``0``; queens ``Q``, ``q`` or ``1``
  (so ``0``/``1`` matrices and ``-``/``Q`` diagrams work too); ``x`` or ``X``
  marks a *blocked* square, where no queen may stand. Spaces between
  squares are optional, lines starting with ``#`` are comments, and the board
  must be square (``n`` rows of ``n`` squares).
* a **JSON object** for programs, with rows and columns counted from 0::

      {"n": 8, "queens": [[0, 0], [3, 5]], "blocked": [[7, 7]]}

  (``blocked`` is optional.)

Every error names the source and the line (and column, where one character
is at fault); given queens that attack each other are named both, by
``Problem``. Full placements (every row filled) are
read and written by ``cp_queens.formats``; this module reads boards where
rows may be empty.

Examples:
    >>> problem = parse_partial("Q...\\n....\\n....\\n....\\n")
    >>> problem.n, problem.fixed
    (4, {0: 0})
    >>> print(format_partial(Problem(4, {1: 3})))
    . . . .
    . . . Q
    . . . .
    . . . .
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator
from typing import TextIO

from cp_queens.errors import CpQueensError, ParseError
from cp_queens.formats import (
    BLOCKED,
    EMPTY,
    MAX_LINE_CHARS,
    QUEEN,
    BoardShape,
    board_row,
    bounded_lines,
    marks_in,
    read_rest,
    too_long,
)
from cp_queens.json_depth import check_json_depth, whole_numbers
from cp_queens.problem import Problem, describe_square

__all__ = ["BLOCKED", "EMPTY", "QUEEN", "format_partial", "parse_partial", "read_partial"]


def read_partial(source: TextIO, name: str = "<stdin>") -> Problem:
    """Read a partial board (board text or JSON, detected) from an open file.

    A board is read line by line and never held whole: a 5521 x 5521 board is 61 MB
    of text, of which only the queens and blocked squares are kept.
    """
    blank = 0  # blank lines before the first mark, counted (not kept) for line numbers
    # /dev/zero has no line end: no line is endless; and the file is read under a cap
    lines = _capped(bounded_lines(source, name), name)
    for line in lines:
        if not line.strip():
            blank += 1
            continue
        if line.lstrip().startswith("{"):
            if blank > MAX_LINE_CHARS:
                raise too_long(name)
            return _parse_json("\n" * blank + line + read_rest(source, name), name)
        return _parse_board(itertools.chain(itertools.repeat("\n", blank), [line], lines), name)
    return _parse_board(itertools.repeat("\n", blank), name)


#: The most characters a partial board file may hold: a board of 10,000 rows written
#: with spaces takes 200 million. Without a cap a file of a gigabyte of blank lines
#: took ``complete`` to 2.4 GB (each line was kept for its number).
MAX_PARTIAL_CHARS = 1 << 28
#: The most blocked squares a board may list: each costs some 150 bytes once read (a
#: pair in a set), so four million take about 600 MB.
MAX_BLOCKED = 1 << 22


def _capped(lines: Iterable[str], name: str) -> Iterator[str]:
    """``lines``, until more than ``MAX_PARTIAL_CHARS`` characters were read: then one
    ``ParseError`` that names the cap."""
    total = 0
    for line in lines:
        total += len(line)
        if total > MAX_PARTIAL_CHARS:
            raise ParseError(
                f"{name}: more than {MAX_PARTIAL_CHARS:,} characters, the cap on a partial "
                "board (a board of 10,000 rows with spaces takes 200 million); this is not "
                "a board this tool reads"
            )
        yield line


def parse_partial(text: str, name: str = "<string>") -> Problem:
    """Parse a partial board; a JSON object if the first non-blank character is ``{``."""
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith("{"):
        return _parse_json(text, name)
    return _parse_board(text.splitlines(), name)


def format_partial(problem: Problem, fmt: str = "board") -> str:
    """Write ``problem`` as a ``board`` (``.`` and ``Q``) or as ``json``; read back unchanged."""
    if fmt == "json":
        value: dict[str, object] = {
            "n": problem.n,
            "queens": [[r, c] for r, c in problem.fixed.items()],
        }
        if problem.blocked:
            value["blocked"] = [[r, c] for r, c in sorted(problem.blocked)]
        return json.dumps(value)
    if fmt == "board":
        n = problem.n
        rows = [["."] * n for _ in range(n)]
        for row, col in problem.fixed.items():
            rows[row][col] = "Q"
        for row, col in problem.blocked:
            rows[row][col] = "x"
        return "\n".join(" ".join(row) for row in rows)
    raise ValueError(f"unknown partial board format {fmt!r} (choose from board, json)")


def _parse_board(lines: Iterable[str], name: str) -> Problem:
    """Read the board one line at a time, keeping only its queens and blocked squares.

    The grammar is the one of every board reader (``cp_queens.formats.board_row``);
    here a row may hold any number of queens, and the file holds one board.
    """
    shape = BoardShape(name)
    queens: list[tuple[int, int]] = []
    blocked: list[tuple[int, int]] = []
    blank_after_rows: int | None = None
    for number, line in enumerate(lines, start=1):
        if number == 1:
            line = line.removeprefix("\ufeff")
        squares = board_row(line, number, name)
        if squares is None:
            continue
        if not squares:
            if shape.rows and blank_after_rows is None:
                blank_after_rows = number
            continue
        if blank_after_rows is not None:
            raise ParseError(
                f"{name}:{blank_after_rows}: blank line inside the board "
                "(a partial board file holds one board)"
            )
        row = shape.add(squares, number)
        queens.extend((row, col) for col in marks_in(squares, QUEEN))
        blocked.extend((row, col) for col in marks_in(squares, BLOCKED))
        if len(blocked) > MAX_BLOCKED:
            raise ParseError(
                f"{name}:{number}: more than {MAX_BLOCKED:,} blocked squares, the cap on "
                "a partial board (each costs memory once read)"
            )
    if shape.width is None:
        raise ParseError(f"{name}: no board found (expected rows of '.' and 'Q', or JSON)")
    return _problem(shape.finish(), queens, name, blocked)


def _parse_json(text: str, name: str) -> Problem:
    check_json_depth(text, 3, name)  # {"queens": [[r, c]]} is three deep
    try:
        value = json.loads(text, parse_int=whole_numbers(name))
    except json.JSONDecodeError as error:
        raise ParseError(
            f"{name}:{error.lineno}:{error.colno}: not valid JSON ({error.msg})"
        ) from None
    if not isinstance(value, dict):
        raise ParseError(f'{name}: expected a JSON object like {{"n": 8, "queens": [[0, 0]]}}')
    unknown = sorted(set(value) - {"n", "queens", "blocked"})
    if unknown:
        raise ParseError(
            f"{name}: unknown key {unknown[0]!r} (expected 'n', 'queens' and 'blocked')"
        )
    n = value.get("n")
    if type(n) is not int:
        raise ParseError(f"{name}: 'n' must be a whole number (the board size), got {n!r}")
    return _problem(n, _pairs(value, "queens", name), name, _pairs(value, "blocked", name))


def _pairs(value: dict, key: str, name: str) -> list[tuple[int, int]]:
    """The ``[row, col]`` pairs listed under ``key`` (none if the key is absent)."""
    listed = value.get(key, [])
    if not isinstance(listed, list):
        raise ParseError(f"{name}: '{key}' must be a list of [row, col] pairs")
    pairs = []
    for index, pair in enumerate(listed):
        if not (isinstance(pair, list) and len(pair) == 2 and all(type(x) is int for x in pair)):
            raise ParseError(f"{name}: {key}[{index}] is {json.dumps(pair)}, expected [row, col]")
        pairs.append((pair[0], pair[1]))
    return pairs


def _problem(
    n: int,
    queens: list[tuple[int, int]],
    name: str,
    blocked: list[tuple[int, int]] = (),  # type: ignore[assignment]
) -> Problem:
    """Build the problem, prefixing its own clear errors (attacks, outside) with the source."""
    seen = set()
    for row, col in queens:
        if (row, col) in seen:
            where = describe_square(row, col, n)
            raise ParseError(f"{name}: the queen at {where} is given twice")
        seen.add((row, col))
    try:
        return Problem.from_queens(n, queens, blocked)
    except CpQueensError as error:
        raise type(error)(f"{name}: {error}") from None
