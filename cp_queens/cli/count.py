"""``cp-queens count N``: how many solutions, without keeping them.

With the ``fast`` engine (the default) the count is split into subproblems
that run on every core, on a Dask cluster (``--scheduler``, ``--cluster``),
and can be saved as they finish (``--checkpoint``); see
:mod:`cp_queens.parallel`. Other engines count in one search.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from cp_queens import Problem, default_count_engine
from cp_queens.cli._common import (
    add_engine_argument,
    add_method_argument,
    add_strategy_arguments,
    board_size,
    live_console,
    make_engine,
    non_negative_int,
    note,
    positive_seconds,
    report,
    solution_progress,
    strategy_options,
)
from cp_queens.errors import CpQueensError
from cp_queens.stats import COMPLETE, TIME_LIMIT, Stats

if TYPE_CHECKING:
    from cp_queens import parallel

#: The options that only the split count of the ``fast`` engine understands.
PARALLEL_OPTIONS = ("workers", "scheduler", "cluster", "checkpoint")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "count",
        help="count all solutions",
        description="Count every placement of N non-attacking queens. On a terminal a live "
        "line shows the progress; the answer goes to stdout. With the fast engine (the "
        "default) the count uses every core, can run on a Dask cluster and can be resumed.",
        epilog="examples:\n"
        "  cp-queens count 17                                 all cores\n"
        "  cp-queens count 18 --checkpoint n18.jsonl          Ctrl-C, then the same to resume\n"
        "  cp-queens count 19 --scheduler tcp://HOST:8786     on a Dask cluster\n"
        "  cp-queens count 14 --cluster local:2               on a local Dask cluster",
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
    add_method_argument(parser)
    add_strategy_arguments(parser)
    where = parser.add_argument_group("where the fast engine counts")
    where.add_argument(
        "--workers",
        type=non_negative_int,
        metavar="W",
        help="local worker processes (default and 0: every core; 1: this process only)",
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
        help="start a local Dask cluster (of W worker processes) and count on it",
    )
    where.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="append every finished subproblem to FILE; the same command resumes from it",
    )
    parser.set_defaults(run=run)


#: Without --workers, counts from this n use every core. Below it one core wins:
#: benchmarks/count.py measured n = 15 at 0.33 s on one core, 0.37 s on two.
PARALLEL_FROM = 16


def run(args: argparse.Namespace) -> int:
    name = args.engine or default_count_engine()
    search = {k: v for k, v in strategy_options(args).items() if k != "workers"}
    if name == "fast":
        for option, value in search.items():
            if value is not None:
                flag = "--" + option.replace("_", "-")
                raise CpQueensError(f"{flag} needs the cpsat engine, not 'fast'")
        return _run_split(args)
    for option in PARALLEL_OPTIONS:
        if getattr(args, option) is not None:
            flag = "--" + option.replace("_", "-")
            raise CpQueensError(f"{flag} needs the fast engine, not '{name}'")
    engine = make_engine(name, time_limit=args.time_limit, method=args.method, **search)
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


def _run_split(args: argparse.Namespace) -> int:
    from cp_queens import parallel  # loads the compiled kernels: only when counting

    if args.method is not None:
        raise CpQueensError("--method belongs to the cpsat engine, not 'fast'")
    if args.scheduler is not None and args.cluster is not None:
        raise CpQueensError("give either --scheduler or --cluster, not both")
    if args.workers is not None and (args.scheduler or args.cluster):
        raise CpQueensError("--workers is for local processes; size a Dask cluster instead")
    started = time.perf_counter()
    deadline = None if args.time_limit is None else started + args.time_limit
    with contextlib.ExitStack() as stack:
        executor = None
        workers = args.workers
        if workers is None and args.checkpoint is None and args.n < PARALLEL_FROM:
            workers = 1  # a small count is over before a process pool has started
        where = _local_description(workers)
        if args.scheduler is not None or args.cluster is not None:
            from cp_queens.parallel.dask import dask_cluster

            cluster = stack.enter_context(
                dask_cluster(scheduler=args.scheduler, cluster=args.cluster)
            )
            executor, where = cluster.executor, cluster.description
        progress = stack.enter_context(subproblem_progress(f"counting N={args.n}"))
        try:
            result = parallel.count_board(
                args.n,
                executor=executor,
                workers=workers or None,
                checkpoint=args.checkpoint,
                progress=progress,
                deadline=deadline,
            )
        except parallel.Interrupted as stopped:
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
            return 130
    report(_stats(result))
    note(f"counted on {where}")
    answer = f"{result.total} solutions, {result.unique} unique"
    if not result.complete:
        print(f"n={args.n}: at least {answer} (stopped: {TIME_LIMIT})")
        return 1
    print(f"n={args.n}: {answer}")
    return 0


def _local_description(workers: int | None) -> str:
    if workers == 1:
        return "this process"
    import os

    return f"{workers or os.cpu_count() or 1} local processes"


def _stats(result: parallel.CountResult) -> Stats:
    stats = Stats(
        engine="fast",
        task="count",
        n=result.n,
        wall_time=result.wall_time,
        solutions=result.total,
        status=COMPLETE if result.complete else TIME_LIMIT,
        branches=result.nodes,
    )
    stats.extra.update(unique=result.unique, subproblems=result.subproblems)
    if result.resumed:
        stats.extra["resumed"] = result.resumed
    return stats


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    whole = round(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


@contextlib.contextmanager
def subproblem_progress(label: str) -> Iterator[parallel.ProgressCallback | None]:
    """A Rich progress bar (subproblems done, rate, ETA) on a terminal; ``None`` when piped."""
    console = live_console()
    if console is None:
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("subproblems, {task.fields[rate]}/s, {task.fields[solutions]:,} solutions"),
        TimeElapsedColumn(),
        TextColumn("ETA {task.fields[eta]}"),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None, rate="?", solutions=0, eta="?")

        def update(info: parallel.Progress) -> None:
            bar.update(
                task,
                total=info.subproblems,
                completed=info.done,
                rate=f"{info.rate:,.0f}",
                solutions=info.solutions,
                eta=_clock(info.eta),
            )

        yield update
