"""``cp-queens solve N``: one solution, drawn as a board (or as JSON)."""

from __future__ import annotations

import argparse

from cp_queens import DEFAULT_MODEL_ENGINE, Problem
from cp_queens.cli._common import (
    add_engine_argument,
    board_size,
    make_engine,
    open_output,
    positive_seconds,
    report,
)
from cp_queens.formats import format_placement
from cp_queens.stats import TIME_LIMIT


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="find one solution",
        description="Find one placement of N non-attacking queens and print it on stdout. "
        "Statistics go to stderr, so stdout can be piped.",
    )
    parser.add_argument("n", type=board_size, metavar="N", help="board size (N x N, N queens)")
    add_engine_argument(parser, DEFAULT_MODEL_ENGINE, f"{DEFAULT_MODEL_ENGINE}, the CP-SAT model")
    parser.add_argument(
        "--time-limit", type=positive_seconds, metavar="S", help="give up after S seconds"
    )
    parser.add_argument(
        "--format",
        choices=["boards", "jsonl"],
        default="boards",
        help="boards: rows of '.' and 'Q' (default); jsonl: one JSON array of columns",
    )
    parser.add_argument("--output", "-o", metavar="F", help="write to file F instead of stdout")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    engine = make_engine(args.engine, time_limit=args.time_limit)
    placement = engine.first(Problem(args.n))
    report(engine.stats)
    if placement is None:
        if engine.stats.status == TIME_LIMIT:
            print(f"no solution found within the time limit of {args.time_limit:g} s")
        else:
            print(f"no solution exists for N={args.n}")
        return 1
    with open_output(args.output) as out:
        out.write(format_placement(placement, args.format))
    return 0
