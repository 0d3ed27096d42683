"""``cp-queens count N``: how many solutions, without keeping them.

With the ``fast`` engine (the default) the count is split into subproblems
that run on every core, on a Dask cluster (``--scheduler``, ``--cluster``),
and can be saved as they finish (``--checkpoint``); see
``cp_queens.parallel``. Other engines count in one search.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from cp_queens import Problem, default_count_engine
from cp_queens.cli._common import (
    add_engine_argument,
    add_format_argument,
    add_method_argument,
    add_strategy_arguments,
    board_size,
    deliver,
    fraction,
    make_engine,
    positive_seconds,
    progress_display,
    report,
    strategy_options,
    telling_how_long,
    workers_value,
)
from cp_queens.cli.exit_codes import ExitCode
from cp_queens.writers import choices

if TYPE_CHECKING:
    from cp_queens.answer import Answer
    from cp_queens.parallel import Interrupted


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "count",
        description="Count every placement of N non-attacking queens. On a terminal a live "
        "line shows the progress; the answer goes to stdout. With the fast engine (the "
        "default) the count uses every core, can run on a Dask cluster and can be resumed.",
        epilog="examples:\n"
        "  cp-queens count 17                              on every core\n"
        "  cp-queens count 18 --checkpoint n18.jsonl       Ctrl-C; the same resumes\n"
        "  cp-queens count 19 --scheduler tcp://HOST:8786  on a Dask cluster",
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
        help="also count the solutions distinct up to rotation and reflection "
        "(the fast engine always does: it costs nothing there)",
    )
    add_format_argument(parser, choices("summary", "document"))
    add_method_argument(parser)
    add_strategy_arguments(parser)
    where = parser.add_argument_group("where the fast engine counts")
    where.add_argument(
        "--workers",
        type=workers_value,
        metavar="W",
        help="local worker processes (0: every core; 1: this process only; default: every "
        "core from N=16 on, this process below)",
    )
    where.add_argument(
        "--scheduler",
        metavar="ADDR",
        help="count on an existing Dask cluster, e.g. tcp://HOST:8786 "
        "(needs cp-queens[distributed]; every worker needs cp_queens installed)",
    )
    where.add_argument(
        "--cluster",
        metavar="local[:W]",
        help="start a local Dask cluster of W workers (threads of this process: the kernel "
        "releases the GIL) and count on it",
    )
    where.add_argument(
        "--lost-workers-timeout",
        type=positive_seconds,
        metavar="S",
        help="with --scheduler: stop (exit 74, the checkpoint kept) when the cluster has "
        "had no worker for S seconds (default 30)",
    )
    where.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="append every finished subproblem to FILE; the same command resumes from it",
    )
    where.add_argument(
        "--recheck",
        type=fraction,
        metavar="FRACTION",
        help="count this share (0 to 1) of the subproblems resumed from --checkpoint again "
        "and fail on any mismatch; the statistics say how many were checked",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import cp_queens.parallel as parallel
    from cp_queens.engines.ask import ask

    engine, budget = make_engine(
        args.engine or default_count_engine(),
        time_limit=args.time_limit,
        method=args.method,
        workers=args.workers,
        scheduler=args.scheduler,
        cluster=args.cluster,
        checkpoint=args.checkpoint,
        recheck=args.recheck,
        lost_workers_timeout=args.lost_workers_timeout,
        **strategy_options(args),
    )
    problem = Problem(args.n)
    # An engine that finds the unique count in the same pass: always show it there.
    task = "count_unique" if args.unique or engine.unique_for_free else "count"
    try:
        with progress_display(f"counting N={args.n} with {engine.name}") as progress:
            told = telling_how_long(progress, args.time_limit)
            result = ask(task, problem, engine, progress=told, budget=budget)
    except parallel.Interrupted as stopped:
        _say_interrupted(stopped)
        return ExitCode.INTERRUPTED
    report(result.stats)
    result = one_shape(result)
    # A count cut short is no answer: its partial figure goes to stderr (or, in a JSON
    # document, under "partial"), with its own exit code.
    return deliver(result, args.format)


def one_shape(result: Answer) -> Answer:
    """The count's answer in one shape whatever the engine: ``value`` (or ``partial``)
    the number of solutions, ``unique`` beside it, ``null`` where the engine did not
    count it. (An engine that counts the unique solutions in the same pass answers
    ``count_unique``, a pair: ``jq .value`` would be an object with one engine and a
    number with another.)"""
    if result.task != "count_unique":
        return result.replace(details={**result.details, "unique": None})
    both = result.found
    total, unique = (None, None) if both is None else (both.total, both.unique)
    if result.complete:
        return result.replace(task="count", value=total, details={"unique": unique})
    return result.replace(task="count", partial=total, details={"unique": unique})


def _say_interrupted(stopped: Interrupted) -> None:
    print(f"cp-queens: {stopped}", file=sys.stderr)
    if stopped.checkpoint is not None:
        print(
            f"cp-queens: finished subproblems are saved in {stopped.checkpoint}; "
            "run the same command again to resume",
            file=sys.stderr,
        )
    else:
        print(
            "cp-queens: nothing was saved; add --checkpoint FILE to make a count resumable",
            file=sys.stderr,
        )
