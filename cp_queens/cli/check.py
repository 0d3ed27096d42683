"""``cp-queens check``: are these ALL the solutions of one board, each exactly once?

``verify`` judges placements one by one; ``check`` compares the whole file
with every solution of the board (see
``cp_queens.grading.tasks.solutions.judge_file.compare_file``).
"""

from __future__ import annotations

import argparse
import itertools
from typing import TYPE_CHECKING

from cp_queens.cli._common import add_format_argument, board_size, deliver, open_input
from cp_queens.errors import CpQueensError
from cp_queens.writers import choices

if TYPE_CHECKING:
    from cp_queens.grading.tasks.solutions.judge import CheckRow, Finding

#: Largest board checked (n = 15: 2.3 million solutions, about 260 MB); the same as
#: ``cp_queens.grading.tasks.solutions.judge_file.FILE_UP_TO``, here so that parsing imports
#: no NumPy.
CHECK_UP_TO = 15


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check",
        description="Read placements (jsonl: one JSON array of columns per line; csv and "
        "boards are detected too) and compare them with every solution of the N x N board: "
        "missing solutions, invalid placements (with the attacking pair) and duplicates. "
        "Exit code 0 when the file is complete and exact, 1 otherwise (the first difference "
        "of each kind is shown), 2 when the input cannot be read.",
        epilog="examples:\n"
        "  python my_model.py | cp-queens check --n 8 -    your model's solutions of N=8\n"
        "  cp-queens check six.jsonl --n 6                  a file of solutions of N=6",
    )
    parser.add_argument("file", metavar="FILE", help="file to read, '-' for stdin")
    parser.add_argument(
        "--n",
        type=board_size,
        metavar="N",
        help=f"board size (default: the length of the first placement; at most {CHECK_UP_TO})",
    )
    add_format_argument(parser, choices("summary", "document"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.n is not None:
        _check_size(args.n)  # before reading a line
    from cp_queens.formats import read_blocks
    from cp_queens.grading.tasks.solutions.judge_file import (
        compare_file,  # NumPy: only when checking
    )

    name = "<stdin>" if args.file == "-" else args.file
    with open_input(args.file) as source:
        items = read_blocks(source, name)
        first = next(items, None)
        n = args.n
        if n is None:
            if first is None:
                raise CpQueensError(f"{name}: no placements to check; give the board size with --n")
            n = len(first[0]) if getattr(first, "ndim", 1) == 2 else len(first)
            if n < 1:
                raise CpQueensError(f"{name}:1: an empty placement; give the board size with --n")
            _check_size(n)
        row = compare_file(n, itertools.chain([] if first is None else [first], items))
    from cp_queens.answer import ANSWER, NEGATIVE, Answer
    from cp_queens.problem import Problem

    if row.ok:
        summary = f"OK: {name} holds all {row.expected} solutions of n={n}, each exactly once"
    else:
        lines = [
            f"WRONG: {name} (n={n}): {row.returned} placements, {row.correct} of "
            f"{row.expected} solutions found; {row.verdict()}"
        ]
        # placements count from 1, as lines do in a jsonl file
        lines.extend(f"{label}: {finding.describe()}" for label, finding in _findings(row))
        summary = "\n".join(lines)
    figures = ("expected", "returned", "correct", "invalid", "duplicates", "missing")
    details = {
        "source": name,
        **{figure: getattr(row, figure) for figure in figures},
        **{
            label.replace(" ", "_"): {
                "placement": finding.index,
                "cols": finding.cols,
                "reason": finding.reason,
            }
            for label, finding in _findings(row)
        },
        "summary": summary,
    }
    outcome = ANSWER if row.ok else NEGATIVE
    return deliver(
        Answer("check", Problem(n), row.ok, outcome=outcome, details=details), args.format
    )


def _findings(row: CheckRow) -> list[tuple[str, Finding]]:
    """The first difference of each kind, named."""
    named = (
        ("first missing solution", row.first_missing),
        ("first invalid placement", row.first_invalid),
        ("first duplicate", row.first_duplicate),
    )
    return [(label, finding) for label, finding in named if finding is not None]


def _check_size(n: int) -> None:
    if n > CHECK_UP_TO:
        raise CpQueensError(
            f"check compares with every solution: N = {n} is too large (at most {CHECK_UP_TO})"
        )
