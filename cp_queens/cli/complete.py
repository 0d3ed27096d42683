"""``cp-queens complete FILE``: add queens to a partial board, or prove it cannot be done."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from cp_queens import (
    DEFAULT_MODEL_ENGINE,
    SMALL_RESIDUE,
    default_complete_engine,
    default_count_engine,
)
from cp_queens.cli._common import (
    add_engine_argument,
    add_format_argument,
    add_strategy_arguments,
    conclude,
    deliver,
    engine_name,
    make_engine,
    non_negative_int,
    note,
    open_input,
    open_sink,
    positive_seconds,
    progress_display,
    report,
    seed_value,
    strategy_options,
    telling_how_long,
)
from cp_queens.cli.exit_codes import command_codes
from cp_queens.errors import CpQueensError
from cp_queens.writers import FORMATS, choices

if TYPE_CHECKING:
    from cp_queens.answer import Answer
    from cp_queens.budget import Budget
    from cp_queens.engines import Engine
    from cp_queens.problem import Placement, Problem

EPILOG = """\
input (detected):
  a board, one line per row: '.', '-', '_' or '0' empty, 'Q' or '1' a queen,
  'x' a blocked square (no queen may stand there), spaces optional, '#' starts
  a comment line; or JSON: {"n": 8, "queens": [[0, 0]], "blocked": [[7, 7]]}
  with rows and columns counted from 0 ("blocked" is optional).

Only the residue is solved: the given queens' rows, columns and diagonals are
taken out before any model is built, so a nearly full board is a small search.

default engine (measured: benchmarks/completion_engines.py): a residue of at
most 64 open squares goes to pyconstraint (any engine searches it in
milliseconds; it starts fastest). Above, --count uses the counting engine (fast)
on every board up to n=62, the fastest on each kind measured (CSPLib prob079's
gen-20-4-1..3 in seconds, where cpsat took 120-900 s). One completion goes to
fast when its whole search (the proof that there is none, at worst) is priced
under 5 s by random probes of its tree; to cpsat otherwise: with at most 64 rows
left to fill its complete search, above them its greedy search, where solutions
abound and a proof is out of reach anyway (docs/completion.md). A board with
nothing given or blocked is a plain solve (the construct formula for one
completion, fast for a count).

A count is priced before it starts from random probes of its search tree: one
beyond a year is refused (give --time-limit to count that long anyway), one
over a minute is announced; on a terminal a live line shows its progress.

{codes}

examples:
  cp-queens complete board.txt                     one completion, as a board
  cp-queens complete board.txt --count -x reference   count; a 2nd engine checks
  echo '{"n": 8, "queens": [[0, 0]]}' | cp-queens complete - --all   every one
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "complete",
        description="Read a board with some queens already placed and add the missing ones, "
        "or prove that no completion exists. Every completion is checked by the independent "
        "verifier; --cross-check asks a second engine the same question.",
        epilog=EPILOG.replace("{codes}", _codes_paragraph()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="partial board to read ('-' for stdin)")
    add_engine_argument(
        parser,
        None,
        f"pyconstraint up to {SMALL_RESIDUE} open squares (starts fastest); above, "
        f"{default_count_engine()} for --count (up to n=62) and when its whole search is "
        f"priced under 5 s, else {DEFAULT_MODEL_ENGINE} (the CP-SAT model)",
    )
    task = parser.add_mutually_exclusive_group()
    task.add_argument("--count", action="store_true", help="count every completion")
    task.add_argument("--all", action="store_true", help="list every completion")
    parser.add_argument(
        "--limit", type=non_negative_int, metavar="K", help="with --all: stop after K completions"
    )
    parser.add_argument(
        "--cross-check",
        "-x",
        type=engine_name,
        metavar="E2",
        help="ask engine E2 the same question and fail (exit 3) if it disagrees",
    )
    parser.add_argument(
        "--time-limit", type=positive_seconds, metavar="S", help="give up after S seconds"
    )
    add_format_argument(
        parser,
        choices("draw", "document"),
        "with --count the drawing formats print the count as a line",
        output=True,
    )
    parser.add_argument(
        "--seed", type=seed_value, metavar="K", help="random seed (cpsat) for repeatable runs"
    )
    parser.add_argument("--output", "-o", metavar="F", help="write to file F instead of stdout")
    add_strategy_arguments(parser, solver_workers=True)
    parser.set_defaults(run=run)


def _codes_paragraph() -> str:
    """The exit codes of ``complete``, from the one table (``exit_codes.BY_COMMAND``)."""
    import textwrap

    codes = f"exit codes: {command_codes('complete')} (see 'cp-queens --help' for all codes)."
    return "\n".join(textwrap.wrap(codes, 78, break_on_hyphens=False))


def run(args: argparse.Namespace) -> int:
    if not FORMATS[args.format].can("stream") and (args.all or args.count):
        raise CpQueensError(
            f"--format {args.format} draws one completion; use it without --all/--count"
        )
    if args.limit is not None and not args.all:
        raise CpQueensError("--limit only applies to --all")
    from cp_queens.partial import read_partial

    name = "<stdin>" if args.file == "-" else args.file
    with open_input(args.file) as source:
        problem = read_partial(source, name)
    up_to = FORMATS[args.format].up_to
    if up_to is not None and problem.n > up_to and not args.count:
        # Checked before the work, as solve does: a board of 10 million rows drawn as text
        # would be 2 * 10**14 characters, asked for after the whole search.
        raise CpQueensError(
            f"{name}: n={problem.n} is too large to draw as --format {args.format} (at most "
            f"{up_to}); use --format jsonl or svg"
        )
    options = {"seed": args.seed, **strategy_options(args)}
    spec, said = args.engine, []
    if spec is None:
        task = "count" if args.count else "all" if args.all else "first"
        chosen = [key for key, value in options.items() if value is not None]
        spec = default_complete_engine(problem, task, chosen)
        if problem.is_empty_board:
            said.append(f"engine: {spec} (default for a board with nothing given)")
        elif task == "count" and spec == default_count_engine():
            said.append(f"engine: {spec} (default for a count, the fastest measured)")
        elif spec == default_count_engine():
            said.append(f"engine: {spec} (default: its whole search is priced at seconds)")
        else:
            squares = problem.residue().open_squares()
            plural = "" if squares == 1 else "s"
            said.append(f"engine: {spec} (default for a residue of {squares} open square{plural})")
    engine, budget = make_engine(spec, time_limit=args.time_limit, **options)
    given, blocked = len(problem.fixed), len(problem.blocked)
    squares_text = f", {blocked} blocked square{'s' * (blocked != 1)}" if blocked else ""
    said.append(f"{name}: n={problem.n}, {given} given queen{'s' * (given != 1)}{squares_text}")
    task = "count" if args.count else "solutions" if args.all else "first"
    if task != "solutions":
        result = _complete(args, problem, engine, budget, task)
        _report(said, engine, result)
        return deliver(result, args.format, output=args.output)
    with open_sink(args.format, args.output, problem) as sink:
        result = _complete(args, problem, engine, budget, task, sink.placement)
        sink.finish(result)
    _report(said, engine, result)
    if result.task == "solutions" and result.complete:
        note(f"{result.value} completion{'s' * (result.value != 1)}")
    return conclude(result)


def _complete(
    args: argparse.Namespace,
    problem: Problem,
    engine: Engine,
    budget: Budget,
    task: str,
    each: Callable[[Placement], object] | None = None,
) -> Answer:
    from cp_queens.completion import complete

    label = f"counting completions of N={problem.n} with {engine.name}"
    with progress_display(label) if task == "count" else contextlib.nullcontext() as progress:
        return complete(
            problem,
            engine,
            task,
            limit=args.limit,
            each=each,
            check_with=args.cross_check,
            time_limit=args.time_limit,
            budget=budget,
            progress=telling_how_long(progress, args.time_limit) if task == "count" else None,
        )


def _report(said: list[str], engine: Engine, result: Answer) -> None:
    # Said with the statistics, after the call: a request refused before any work is
    # one line, the refusal.
    for line in said:
        note(line)
    report(result.stats)
    verdict = result.details.get("cross_check")
    if verdict is None:
        return
    if verdict["agrees"]:
        note(f"cross-check: {verdict['engine']} agrees")
    else:
        print(
            f"cp-queens: cross-check FAILED against {engine.name}: {verdict['difference']}",
            file=sys.stderr,
        )
