"""``cp-queens enumerate N``: stream every solution, at flat memory."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING

from cp_queens import DEFAULT_MODEL_ENGINE, Placement, Problem
from cp_queens.cli._common import (
    TimeCut,
    add_engine_argument,
    add_method_argument,
    add_strategy_arguments,
    board_size,
    make_engine,
    non_negative_int,
    open_output,
    positive_seconds,
    report,
    strategy_options,
)
from cp_queens.cli.exit_codes import ExitCode
from cp_queens.formats import WRITE_FORMATS
from cp_queens.stats import COMPLETE

if TYPE_CHECKING:
    from cp_queens.engines.base import Solutions


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "enumerate",
        description="Write every placement of N non-attacking queens, one after another, as "
        "the engine finds them (memory does not grow with the number of solutions). "
        "Ctrl-C stops cleanly: everything written so far stays intact.",
        epilog="examples:\n"
        "  cp-queens enumerate 8 --format jsonl | cp-queens verify\n"
        "  cp-queens enumerate 10 --unique --format boards     one per symmetry class\n"
        "  cp-queens enumerate 14 -e fast --format csv -o n14.csv",
    )
    parser.add_argument("n", type=board_size, metavar="N", help="board size (N x N, N queens)")
    add_engine_argument(parser, DEFAULT_MODEL_ENGINE, f"{DEFAULT_MODEL_ENGINE}, the CP-SAT model")
    parser.add_argument(
        "--limit", type=non_negative_int, metavar="K", help="stop after K solutions"
    )
    parser.add_argument(
        "--time-limit", type=positive_seconds, metavar="S", help="stop after S seconds"
    )
    parser.add_argument(
        "--format",
        choices=WRITE_FORMATS,
        default="boards",
        help="boards: rows of '.' and 'Q', blank line between (default); "
        "jsonl: one JSON array of columns per line; csv: header q0,q1,... then one row each",
    )
    parser.add_argument("--output", "-o", metavar="F", help="write to file F instead of stdout")
    parser.add_argument(
        "--unique",
        action="store_true",
        help="only one solution per symmetry class (the smallest of its 8 rotations and "
        "reflections); --limit then counts these",
    )
    add_method_argument(parser)
    add_strategy_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cp_queens.formats import write_blocks, write_placements
    from cp_queens.symmetry import unique_only

    engine, budget = make_engine(
        args.engine, time_limit=args.time_limit, method=args.method, **strategy_options(args)
    )
    stream: Solutions | Generator[Placement, None, None]
    solution_arrays: Callable[..., Solutions] | None = getattr(engine, "solution_arrays", None)
    blocks = not args.unique and args.format != "boards"
    cut = TimeCut()
    if solution_arrays is not None and blocks:
        # Whole blocks of solutions formatted with NumPy: millions of lines at disk speed.
        stream = solution_arrays(Problem(args.n), limit=args.limit, budget=budget)
    elif args.unique:
        stream = unique_only(cut(engine.solutions(Problem(args.n), budget=budget)), args.limit)
    else:
        stream = engine.solutions(Problem(args.n), limit=args.limit, budget=budget)
    where = f" in {args.output}" if args.output not in (None, "-") else ""
    try:
        with open_output(args.output, lines=args.format != "boards") as out:
            if solution_arrays is not None and blocks:
                written = write_blocks(cut(stream), out, args.format)
            elif args.unique:
                written = write_placements(stream, out, args.format)
            else:
                written = write_placements(cut(stream), out, args.format)
    except KeyboardInterrupt:
        stream.close()
        report(engine.stats)
        print(
            f"cp-queens: interrupted after {engine.stats.solutions} solutions; "
            f"those written{where} are complete",
            file=sys.stderr,
        )
        return ExitCode.INTERRUPTED
    finally:
        stream.close()  # every exit ends the solver, also a failed write
    report(engine.stats)
    if cut.stopped:
        print(
            f"cp-queens: stopped by the time limit of {args.time_limit:g} s after {written} "
            f"solutions; those written{where} are complete, the list is not",
            file=sys.stderr,
        )
        return ExitCode.TIME_LIMIT
    if written == 0 and engine.stats.status == COMPLETE:
        print(f"cp-queens: no solution exists for N={args.n}", file=sys.stderr)
        return ExitCode.NEGATIVE
    return ExitCode.OK
