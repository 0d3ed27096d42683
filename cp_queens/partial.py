"""Reading and writing *partial* boards: the input of the completion problem.

A partial board is an ``n x n`` board with some queens already placed; the
task is to add the rest. Two ways to write one:

* a **board**, one line per row, for people::

      # the queen on a8 is given
      Q . . . . . . .
      . . . . . . . .
      ...

  Empty squares are ``.``, ``-``, ``_`` or ``0``; queens ``Q``, ``q`` or ``1``
  (so ``0``/``1`` matrices and ``-``/``Q`` diagrams work too). Spaces between
  squares are optional, lines starting with ``#`` are comments, and the board
  must be square (``n`` rows of ``n`` squares).
* a **JSON object** for programs, with rows and columns counted from 0::

      {"n": 8, "queens": [[0, 0], [3, 5]]}

Every error names the source and the line (and column, where one character
is at fault); given queens that attack each other are named both, by
:class:`~cp_queens.problem.Problem`. Full placements (every row filled) are
read and written by :mod:`cp_queens.formats`; this module reads boards where
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

import json
from collections.abc import Iterable
from typing import TextIO

from cp_queens.errors import CpQueensError, ParseError
from cp_queens.problem import Problem, describe_square

EMPTY = frozenset(".-_0")
QUEEN = frozenset("Qq1")


def read_partial(source: TextIO, name: str = "<stdin>") -> Problem:
    """Read a partial board (board text or JSON, detected) from an open file."""
    return parse_partial(source.read(), name)


def parse_partial(text: str, name: str = "<string>") -> Problem:
    """Parse a partial board; a JSON object if the first non-blank character is ``{``."""
    if text.lstrip().startswith("{"):
        return _parse_json(text, name)
    return _parse_board(text.splitlines(), name)


def format_partial(problem: Problem, fmt: str = "board") -> str:
    """Write ``problem`` as a ``board`` (``.`` and ``Q``) or as ``json``; read back unchanged."""
    if fmt == "json":
        return json.dumps({"n": problem.n, "queens": [[r, c] for r, c in problem.fixed.items()]})
    if fmt == "board":
        n = problem.n
        return "\n".join(
            " ".join("Q" if problem.fixed.get(row) == col else "." for col in range(n))
            for row in range(n)
        )
    raise ValueError(f"unknown partial board format {fmt!r} (choose from board, json)")


def _parse_board(lines: Iterable[str], name: str) -> Problem:
    rows: list[tuple[int, list[tuple[int, str]]]] = []  # (line number, [(column, char)])
    blank_after_rows: int | None = None
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("#"):
            continue
        if not stripped:
            if rows and blank_after_rows is None:
                blank_after_rows = number
            continue
        if blank_after_rows is not None:
            raise ParseError(
                f"{name}:{blank_after_rows}: blank line inside the board "
                "(a partial board file holds one board)"
            )
        squares = [(position, ch) for position, ch in enumerate(line, start=1) if not ch.isspace()]
        for position, ch in squares:
            if ch not in EMPTY and ch not in QUEEN:
                raise ParseError(
                    f"{name}:{number}:{position}: unexpected {ch!r} "
                    "(a square is '.', '-', '_' or '0' when empty, 'Q' or '1' for a queen)"
                )
        rows.append((number, squares))
    if not rows:
        raise ParseError(f"{name}: no board found (expected rows of '.' and 'Q', or JSON)")
    n = len(rows)
    queens = []
    for row, (number, squares) in enumerate(rows):
        if len(squares) != n:
            raise ParseError(
                f"{name}:{number}: row {row} has {len(squares)} squares, but the board has "
                f"{n} rows (a board is square)"
            )
        queens.extend((row, col) for col, (_, ch) in enumerate(squares) if ch in QUEEN)
    return _problem(n, queens, name)


def _parse_json(text: str, name: str) -> Problem:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(
            f"{name}:{error.lineno}:{error.colno}: not valid JSON ({error.msg})"
        ) from None
    if not isinstance(value, dict):
        raise ParseError(f'{name}: expected a JSON object like {{"n": 8, "queens": [[0, 0]]}}')
    unknown = sorted(set(value) - {"n", "queens"})
    if unknown:
        raise ParseError(f"{name}: unknown key {unknown[0]!r} (expected 'n' and 'queens')")
    n = value.get("n")
    if type(n) is not int:
        raise ParseError(f"{name}: 'n' must be a whole number (the board size), got {n!r}")
    queens = value.get("queens", [])
    if not isinstance(queens, list):
        raise ParseError(f"{name}: 'queens' must be a list of [row, col] pairs")
    pairs = []
    for index, pair in enumerate(queens):
        if not (isinstance(pair, list) and len(pair) == 2 and all(type(x) is int for x in pair)):
            raise ParseError(f"{name}: queens[{index}] is {json.dumps(pair)}, expected [row, col]")
        pairs.append((pair[0], pair[1]))
    return _problem(n, pairs, name)


def _problem(n: int, queens: list[tuple[int, int]], name: str) -> Problem:
    """Build the problem, prefixing its own clear errors (attacks, outside) with the source."""
    seen = set()
    for row, col in queens:
        if (row, col) in seen:
            where = describe_square(row, col, n)
            raise ParseError(f"{name}: the queen at {where} is given twice")
        seen.add((row, col))
    try:
        return Problem.from_queens(n, queens)
    except CpQueensError as error:
        raise type(error)(f"{name}: {error}") from None
