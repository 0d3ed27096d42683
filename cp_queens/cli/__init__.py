"""The ``cp-queens`` command: parse arguments, call the library, print.

Each subcommand lives in its own module with ``add_parser(subparsers)`` and
``run(args) -> exit code``; :data:`COMMANDS` lists them in ``--help`` order.
No solving happens here.

Exit codes: 0 success, 1 a negative answer (no solution, an invalid
placement), 2 bad input (one line on stderr, never a traceback), 130 Ctrl-C.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from cp_queens import __version__
from cp_queens.cli import (
    check,
    compare,
    complete,
    count,
    enumerate,
    shell_completion,
    solve,
    trace,
    verify,
)
from cp_queens.cli._common import OneLineErrorParser, fail, set_quiet
from cp_queens.errors import CpQueensError

COMMANDS = [
    solve,
    count,
    enumerate,
    verify,
    check,
    complete,
    compare,
    trace,
    shell_completion,
]

#: Commands that print no statistics, so ``--quiet`` would mean nothing to them.
NOTHING_TO_QUIET = ("completion",)

DESCRIPTION = """\
Solve, count and enumerate N-Queens placements: place N queens on an N x N
board so that no two attack each other (no shared row, column or diagonal).

A placement is written as the column of the queen in each row, e.g. [1, 3, 0, 2]
for N = 4. Engines: 'cpsat' (the constraint model on OR-Tools CP-SAT) and
'reference' (a readable backtracker) at least; see 'cp-queens solve --help'.
"""

EPILOG = """\
examples:
  cp-queens solve 8                          one solution, drawn as a board
  cp-queens count 12                         how many solutions for N = 12
  cp-queens enumerate 8 --format jsonl       every solution, one per line
  cp-queens enumerate 8 --format jsonl | cp-queens verify
"""


def build_parser() -> OneLineErrorParser:
    import argparse

    parser = OneLineErrorParser(
        prog="cp-queens",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for command in COMMANDS:
        command.add_parser(subparsers)
    for name, subparser in subparsers.choices.items():
        if name not in NOTHING_TO_QUIET:
            subparser.add_argument(
                "--quiet",
                "-q",
                action="store_true",
                help="no '#' statistics lines and no live progress on stderr (errors still show)",
            )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``cp-queens`` and ``python -m cp_queens``."""
    args = build_parser().parse_args(argv)
    set_quiet(getattr(args, "quiet", False))
    try:
        return args.run(args)
    except CpQueensError as error:
        return fail(str(error))
    except KeyboardInterrupt:
        print("cp-queens: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: not an error. Point stdout at
        # devnull so Python's final flush does not complain either.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
