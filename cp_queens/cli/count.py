"""``cp-queens count N``: how many solutions, without keeping them."""

from __future__ import annotations

import argparse

from cp_queens import Problem, default_count_engine
from cp_queens.cli._common import (
    add_engine_argument,
    add_method_argument,
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
    parser.add_argument(
        "--unique",
        action="store_true",
        help="also count the solutions distinct up to rotation and reflection",
    )
    add_method_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    engine = make_engine(
        args.engine or default_count_engine(), time_limit=args.time_limit, method=args.method
    )
    problem = Problem(args.n)
    with solution_progress(f"counting N={args.n} with {engine.name}") as progress:
        if args.unique:
            total, unique = engine.count_unique(problem, progress=progress)
        else:
            total = engine.count(problem, progress=progress)
    report(engine.stats)
    answer = f"{total} solutions, {unique} unique" if args.unique else f"{total} solutions"
    if engine.stats.status != COMPLETE:
        print(f"n={args.n}: at least {answer} (stopped: {engine.stats.status})")
        return 1
    print(f"n={args.n}: {answer}")
    return 0
