"""``cp-queens count N``: how many solutions, without keeping them."""

from __future__ import annotations

import argparse

from cp_queens import Problem, default_count_engine
from cp_queens.cli._common import (
    add_engine_argument,
    board_size,
    make_engine,
    positive_seconds,
    report,
    solution_progress,
)
from cp_queens.stats import COMPLETE


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "count",
        help="count all solutions",
        description="Count every placement of N non-attacking queens. On a terminal a live "
        "line shows the solutions so far; the answer goes to stdout.",
    )
    parser.add_argument("n", type=board_size, metavar="N", help="board size (N x N, N queens)")
    add_engine_argument(
        parser, None, f"the fastest exact engine installed ({default_count_engine()})"
    )
    parser.add_argument(
        "--time-limit", type=positive_seconds, metavar="S", help="give up after S seconds"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    engine = make_engine(args.engine or default_count_engine(), time_limit=args.time_limit)
    with solution_progress(f"counting N={args.n} with {engine.name}") as progress:
        total = engine.count(Problem(args.n), progress=progress)
    report(engine.stats)
    if engine.stats.status != COMPLETE:
        print(f"n={args.n}: at least {total} solutions (stopped: {engine.stats.status})")
        return 1
    print(f"n={args.n}: {total} solutions")
    return 0
