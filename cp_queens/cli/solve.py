"""``cp-queens solve N``: one solution, drawn as a board (or as JSON, Unicode, SVG)."""

from __future__ import annotations

import argparse
import sys

from cp_queens import SOLVE_WITH_MODEL_UP_TO, Problem, default_solve_engine
from cp_queens.cli._common import (
    add_engine_argument,
    add_strategy_arguments,
    board_size,
    make_engine,
    note,
    open_output,
    positive_seconds,
    report,
    seed_value,
    strategy_options,
)
from cp_queens.cli.exit_codes import ExitCode
from cp_queens.errors import CpQueensError, TimeLimitError

FORMATS = ("boards", "jsonl", "unicode", "svg")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve",
        description="Find one placement of N non-attacking queens and print it on stdout. "
        "Statistics go to stderr, so stdout can be piped.",
        epilog="examples:\n"
        "  cp-queens solve 8 --format unicode            a chess diagram (a8 top left)\n"
        "  cp-queens solve 1000000 --format jsonl | cp-queens verify\n"
        "  cp-queens solve 8 --format svg -o board.svg   a picture",
    )
    parser.add_argument("n", type=board_size, metavar="N", help="board size (N x N, N queens)")
    add_engine_argument(
        parser,
        None,
        f"the CP-SAT model 'cpsat' up to N={SOLVE_WITH_MODEL_UP_TO}, "
        "the O(N) formula 'construct' above",
    )
    parser.add_argument(
        "--time-limit", type=positive_seconds, metavar="S", help="give up after S seconds"
    )
    parser.add_argument(
        "--seed",
        type=seed_value,
        metavar="K",
        help="random seed (cpsat, minconflicts) for repeatable runs",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="boards",
        help="boards: rows of '.' and 'Q' (default); jsonl: one JSON array of columns; "
        "unicode: a chess diagram; svg: a picture (large boards are shrunk)",
    )
    parser.add_argument("--output", "-o", metavar="F", help="write to file F instead of stdout")
    add_strategy_arguments(parser, solver_workers=True)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cp_queens.formats import format_placement
    from cp_queens.render import TEXT_UP_TO, svg, unicode

    if args.format in ("boards", "unicode") and args.n > TEXT_UP_TO:
        # Checked before solving: a million-line board would flood the terminal.
        raise CpQueensError(
            f"N={args.n} is too large to draw as --format {args.format} (at most {TEXT_UP_TO}); "
            "use --format jsonl or svg"
        )
    name = args.engine
    if name is None:
        name = default_solve_engine(args.n)
        note(f"engine: {name} (default for N={args.n})")
    engine, budget = make_engine(
        name, time_limit=args.time_limit, seed=args.seed, **strategy_options(args)
    )
    try:
        placement = engine.first(Problem(args.n), budget=budget)
    except TimeLimitError:
        report(engine.stats)
        print(
            f"cp-queens: no solution found within the time limit of {args.time_limit:g} s "
            "(none is not proven)",
            file=sys.stderr,
        )
        return ExitCode.TIME_LIMIT
    report(engine.stats)
    if placement is None:
        print(f"no solution exists for N={args.n}")
        return ExitCode.NEGATIVE
    with open_output(args.output, lines=args.format in ("jsonl", "csv")) as out:
        if args.format == "unicode":
            out.write(unicode(placement) + "\n")
        elif args.format == "svg":
            out.write(svg(placement) + "\n")
        else:
            out.write(format_placement(placement, args.format))
    return ExitCode.OK
