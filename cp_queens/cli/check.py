"""``cp-queens check``: are these ALL the solutions of one board, each exactly once?

``verify`` judges placements one by one; ``check`` compares the whole file
with the reference engine's solutions (see :mod:`cp_queens.course.check`).
"""

from __future__ import annotations

import argparse

from cp_queens.cli._common import board_size, open_input
from cp_queens.errors import CpQueensError
from cp_queens.formats import read_placements

#: The reference engine enumerates in Python; beyond this a check takes minutes.
CHECK_UP_TO = 14


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check",
        help="check that a file holds every solution of N exactly once",
        description="Read placements (jsonl: one JSON array of columns per line; csv and "
        "boards are detected too) and compare them with the reference engine's solutions of "
        "the N x N board: missing solutions, invalid placements (with the attacking pair) and "
        "duplicates. Exit code 0 when the file is complete and exact, 1 otherwise (the first "
        "difference of each kind is shown), 2 when the input cannot be read.",
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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    name = "<stdin>" if args.file == "-" else args.file
    with open_input(args.file) as source:
        placements = list(read_placements(source, name))
    n = args.n
    if n is None:
        if not placements:
            raise CpQueensError(f"{name}: no placements to check; give the board size with --n")
        n = len(placements[0])
        if n < 1:
            raise CpQueensError(f"{name}:1: an empty placement; give the board size with --n")
    if n > CHECK_UP_TO:
        raise CpQueensError(
            f"check compares with every solution, enumerated in Python: N = {n} is too large "
            f"(at most {CHECK_UP_TO})"
        )
    from cp_queens.course.check import compare_solutions  # NumPy: only when checking

    row = compare_solutions(n, placements)
    if row.ok:
        print(f"OK: {name} holds all {row.expected} solutions of n={n}, each exactly once")
        return 0
    print(
        f"WRONG: {name} (n={n}): {row.returned} placements, {row.correct} of {row.expected} "
        f"solutions found; {row.verdict()}"
    )
    for label, finding in (
        ("first missing solution", row.first_missing),
        ("first invalid placement", row.first_invalid),
        ("first duplicate", row.first_duplicate),
    ):
        if finding is not None:
            # placements count from 1, as lines do in a jsonl file
            print(f"{label}: {finding.describe()}")
    return 1
