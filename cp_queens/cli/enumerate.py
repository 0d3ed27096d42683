"""``cp-queens enumerate N``: stream every solution, at flat memory."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any

from cp_queens import (
    DEFAULT_MODEL_ENGINE,
    Placement,
    Problem,
    default_count_engine,
    default_enumerate_engine,
)
from cp_queens.cli._common import (
    Tally,
    add_engine_argument,
    add_format_argument,
    add_method_argument,
    add_strategy_arguments,
    board_size,
    conclude,
    make_engine,
    non_negative_int,
    open_sink,
    positive_seconds,
    progress_display,
    report,
    strategy_options,
)
from cp_queens.cli.exit_codes import ExitCode
from cp_queens.writers import FORMATS, choices

if TYPE_CHECKING:
    from cp_queens.answer import Answer
    from cp_queens.engines.base import Solutions
    from cp_queens.stats import Stats
    from cp_queens.writers import Sink


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
    add_engine_argument(
        parser,
        None,
        f"the fastest exact engine installed ({default_count_engine()}) on the boards it "
        f"handles; else {DEFAULT_MODEL_ENGINE}, the CP-SAT model, as when --method or a search "
        "option is given",
    )
    parser.add_argument(
        "--limit", type=non_negative_int, metavar="K", help="stop after K solutions"
    )
    parser.add_argument(
        "--time-limit", type=positive_seconds, metavar="S", help="stop after S seconds"
    )
    add_format_argument(parser, choices("stream"), output=True)
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
    from cp_queens.answer import streamed
    from cp_queens.symmetry import unique_only
    from cp_queens.verify import checked

    options = strategy_options(args)
    spec = args.engine or default_enumerate_engine(
        args.n, args.method is not None or any(value is not None for value in options.values())
    )
    engine, budget = make_engine(spec, time_limit=args.time_limit, method=args.method, **options)
    problem = Problem(args.n)
    stream: Solutions | Generator[Placement, None, None]
    solution_arrays: Callable[..., Solutions] | None = getattr(engine, "solution_arrays", None)
    blocks = solution_arrays is not None and not args.unique and FORMATS[args.format].block
    if blocks:
        # Whole blocks of solutions formatted with NumPy: millions of lines at disk speed.
        stream = solution_arrays(problem, limit=args.limit, budget=budget)  # type: ignore[misc]
        stats = stream.stats  # the call's own, filled as the stream runs
    elif args.unique:
        every = engine.solutions(problem, budget=budget)
        stream, stats = unique_only(every, args.limit), every.stats
    else:
        stream = engine.solutions(problem, limit=args.limit, budget=budget)
        stats = stream.stats
    where = f" in {args.output}" if args.output not in (None, "-") else ""
    sink: Sink | None = None
    try:
        with (
            open_sink(args.format, args.output, problem) as sink,
            _progress(args, engine.name) as tally,
        ):
            write: Callable[[Any], int] = sink.block if blocks else sink.placement
            if tally is not None:
                write = _told(write, tally)
            try:
                verified = checked(stream, problem, engine.name)  # nothing unchecked is written
                result = streamed(problem, verified, write, stats=stats, limit=args.limit)
            except KeyboardInterrupt:
                stream.close()
                # A document closes whole, saying it was stopped; a listing ends as it is.
                sink.finish(stopped(problem, sink.kept, stats))
                raise
            sink.finish(result)
    except KeyboardInterrupt:
        stream.close()
        report(stats)
        # What was written, not what the engine found: a block found as Ctrl-C came may
        # never have reached the output.
        written = 0 if sink is None else sink.kept
        found = f" (the engine had found {stats.solutions:,})" if stats.solutions > written else ""
        print(
            f"cp-queens: interrupted: {written:,} solution{'s' * (written != 1)} written{where}, "
            f"each whole{found}",
            file=sys.stderr,
        )
        return ExitCode.INTERRUPTED
    finally:
        stream.close()  # every exit ends the solver, also a failed write
    report(stats)
    return conclude(result, where)


@contextlib.contextmanager
def _progress(args: argparse.Namespace, engine: str) -> Iterator[Tally | None]:
    """A live line of the solutions written, on a terminal, when the solutions themselves
    do not go to it (``-o FILE``, or stdout piped): they would run through the line."""
    to_terminal = args.output in (None, "-") and sys.stdout.isatty()
    if to_terminal:
        yield None
        return
    total = _known_total(args)
    with progress_display(f"enumerating N={args.n} with {engine}", parts="solutions") as show:
        yield None if show is None else Tally(show, total=total)


def _known_total(args: argparse.Namespace) -> int | None:
    """How many solutions the listing will write, when that is known (OEIS, n <= 27;
    what ``--limit`` leaves): the progress line then shows a fraction and an ETA."""
    from cp_queens.limits import KNOWN_TOTALS, KNOWN_UNIQUE

    known = KNOWN_UNIQUE if args.unique else KNOWN_TOTALS
    total = known[args.n - 1] if args.n <= len(known) else None
    if args.limit is not None:
        total = args.limit if total is None else min(total, args.limit)
    return total


def _told(write: Callable[[Any], int], tally: Tally) -> Callable[[Any], int]:
    """``write``, telling ``tally`` how many solutions each call wrote."""

    def told(item: Any) -> int:
        written = write(item)
        tally.add(written)
        return written

    return told


def stopped(problem: Problem, written: int, stats: Stats) -> Answer:
    """The answer of a listing Ctrl-C stopped: what was written, incomplete."""
    from cp_queens.answer import Answer
    from cp_queens.stats import STOPPED

    return Answer(
        "solutions", problem, complete=False, partial=written, reason=STOPPED, stats=stats
    )
