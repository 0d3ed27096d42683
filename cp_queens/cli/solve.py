"""``cp-queens solve N``: one solution, drawn as a board (or as JSON, Unicode, SVG)."""

from __future__ import annotations

import argparse

from cp_queens import SOLVE_WITH_MODEL_UP_TO, Problem, default_solve_engine
from cp_queens.cli._common import (
    add_engine_argument,
    add_format_argument,
    add_strategy_arguments,
    board_size,
    deliver,
    make_engine,
    note,
    positive_seconds,
    report,
    seed_value,
    strategy_options,
)
from cp_queens.errors import CpQueensError
from cp_queens.writers import FORMATS, choices


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
    add_format_argument(parser, choices("draw", "document"), output=True)
    parser.add_argument("--output", "-o", metavar="F", help="write to file F instead of stdout")
    add_strategy_arguments(parser, solver_workers=True)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cp_queens.engines.ask import ask
    from cp_queens.verify import check_answer

    up_to = FORMATS[args.format].up_to
    if up_to is not None and args.n > up_to:
        # Checked before solving: a million-line board would flood the terminal.
        raise CpQueensError(
            f"N={args.n} is too large to draw as --format {args.format} (at most {up_to}); "
            "use --format jsonl or svg"
        )
    name = args.engine
    if name is None:
        name = default_solve_engine(args.n)
        note(f"engine: {name} (default for N={args.n})")
    engine, budget = make_engine(
        name, time_limit=args.time_limit, seed=args.seed, **strategy_options(args)
    )
    problem = Problem(args.n)
    result = ask("first", problem, engine, budget=budget)
    report(result.stats)
    check_answer(result.value, problem, engine.name)  # before anything is printed as an answer
    return deliver(result, args.format, output=args.output)
