"""``cp-queens complete FILE``: add queens to a partial board, or prove it cannot be done."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from cp_queens import DEFAULT_MODEL_ENGINE, SMALL_RESIDUE, default_complete_engine
from cp_queens.cli._common import (
    TimeCut,
    add_engine_argument,
    add_strategy_arguments,
    engine_name,
    make_engine,
    non_negative_int,
    note,
    open_input,
    open_output,
    positive_seconds,
    print_json,
    report,
    seed_value,
    strategy_options,
)
from cp_queens.cli.exit_codes import ExitCode
from cp_queens.errors import CpQueensError, TimeLimitError
from cp_queens.stats import COMPLETE

if TYPE_CHECKING:
    from cp_queens.budget import Budget
    from cp_queens.engines import Engine
    from cp_queens.problem import Placement, Problem

FORMATS = ("boards", "jsonl", "unicode", "svg", "json")
#: Exit code when the second engine disagrees: a bug in an engine, not an answer.
DISAGREEMENT = ExitCode.DISAGREE

EPILOG = """\
input (detected):
  a board, one line per row: '.', '-', '_' or '0' empty, 'Q' or '1' a queen,
  'x' a blocked square (no queen may stand there), spaces optional, '#' starts
  a comment line; or JSON: {"n": 8, "queens": [[0, 0]], "blocked": [[7, 7]]}
  with rows and columns counted from 0 ("blocked" is optional).

Only the residue is solved: the given queens' rows, columns and diagonals are
taken out before any model is built, so a nearly full board is a small search.

default engine: a board with nothing given or blocked is a plain solve (the
construct formula for one completion, the counting engine for --count).
Otherwise pyconstraint for a residue of at most 64 open squares, cpsat above.
To find one completion cpsat uses, with at most 64 rows left to fill, the
same complete search as --count (so "no completion exists" is proven as fast
as the count proves it), and its greedy search on larger residues, where
solutions abound and a proof is out of reach anyway (docs/completion.md).

exit codes: 0 completed, 1 no completion exists, 2 unreadable input or queens
that attack each other, 3 the engines named by --engine and --cross-check
disagree, 4 stopped by --time-limit (see 'cp-queens --help' for all codes).

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
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="partial board to read ('-' for stdin)")
    add_engine_argument(
        parser,
        None,
        f"by the size of the residue: pyconstraint up to {SMALL_RESIDUE} open squares "
        f"(starts fastest), {DEFAULT_MODEL_ENGINE} (the CP-SAT model) above",
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
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="boards",
        help="boards: rows of '.' and 'Q' (default); jsonl: JSON arrays of columns; "
        "unicode: a chess diagram, given queens as ♕; svg: a picture (one completion only); "
        "json (with --count): one JSON object with the answer, whether it is complete, and "
        "the statistics",
    )
    parser.add_argument(
        "--seed", type=seed_value, metavar="K", help="random seed (cpsat) for repeatable runs"
    )
    parser.add_argument("--output", "-o", metavar="F", help="write to file F instead of stdout")
    add_strategy_arguments(parser, solver_workers=True)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.format == "svg" and (args.all or args.count):
        raise CpQueensError("--format svg draws one completion; use it without --all/--count")
    if args.format == "json" and not args.count:
        raise CpQueensError(
            "--format json gives a count as data; use it with --count (jsonl lists completions)"
        )
    if args.limit is not None and not args.all:
        raise CpQueensError("--limit only applies to --all")
    from cp_queens.partial import read_partial

    name = "<stdin>" if args.file == "-" else args.file
    with open_input(args.file) as source:
        problem = read_partial(source, name)
    options = {"seed": args.seed, **strategy_options(args)}
    spec, said = args.engine, []
    if spec is None:
        task = "count" if args.count else "all" if args.all else "first"
        chosen = [key for key, value in options.items() if value is not None]
        spec = default_complete_engine(problem, task, chosen)
        if problem.is_empty_board:
            said.append(f"engine: {spec} (default for a board with nothing given)")
        else:
            squares = problem.residue().open_squares()
            plural = "" if squares == 1 else "s"
            said.append(f"engine: {spec} (default for a residue of {squares} open square{plural})")
    engine, budget = make_engine(spec, time_limit=args.time_limit, **options)
    given, blocked = len(problem.fixed), len(problem.blocked)
    squares_text = f", {blocked} blocked square{'s' * (blocked != 1)}" if blocked else ""
    said.append(f"{name}: n={problem.n}, {given} given queen{'s' * (given != 1)}{squares_text}")
    if args.count:
        return _count(args, said, problem, engine, budget)
    if args.all:
        return _all(args, said, problem, engine, budget)
    return _first(args, said, problem, engine, budget)


def _first(
    args: argparse.Namespace, said: list[str], problem: Problem, engine: Engine, budget: Budget
) -> int:
    from cp_queens.completion import first_completion

    try:
        placement = first_completion(problem, engine, budget=budget)
    except TimeLimitError:
        _report(said, engine)
        return _stopped(args, "no completion found")
    _report(said, engine)
    if args.cross_check and _disagrees(args, problem, engine, exists=placement is not None):
        return DISAGREEMENT
    if placement is None:
        print("no completion exists")
        return ExitCode.NEGATIVE
    with open_output(args.output) as out:
        out.write(_draw(placement, problem, args.format))
    return ExitCode.OK


def _count(
    args: argparse.Namespace, said: list[str], problem: Problem, engine: Engine, budget: Budget
) -> int:
    complete = True
    try:
        total = engine.count(problem, budget=budget)
    except TimeLimitError as cut:
        complete, total = False, cut.partial  # type: ignore[assignment]
    _report(said, engine)
    agrees = None
    if complete and args.cross_check:
        agrees = not _disagrees(args, problem, engine, count=total)
    if args.format == "json":
        document: dict[str, object] = {"n": problem.n, "answer": total, "complete": complete}
        if agrees is not None:
            document["cross_check"] = {"engine": args.cross_check, "agrees": agrees}
        print_json({**document, "stats": engine.stats.as_dict()})
    if not complete:
        return _stopped(args, f"at least {total} completions, the count is incomplete")
    if agrees is False:
        return DISAGREEMENT
    if args.format == "json":
        return ExitCode.OK if total else ExitCode.NEGATIVE
    if total == 0:
        print("no completion exists")
        return ExitCode.NEGATIVE
    print(f"{total} completion{'s' * (total != 1)}")
    return ExitCode.OK


def _all(
    args: argparse.Namespace, said: list[str], problem: Problem, engine: Engine, budget: Budget
) -> int:
    from cp_queens.completion import completions

    found: set[Placement] = set()
    written = 0
    cut = TimeCut()
    with open_output(args.output, lines=args.format == "jsonl") as out:
        for placement in cut(completions(problem, engine, limit=args.limit, budget=budget)):
            text = _draw(placement, problem, args.format)
            out.write(text if written == 0 or args.format == "jsonl" else "\n" + text)
            written += 1
            if args.cross_check:
                found.add(placement)
    _report(said, engine)
    complete = engine.stats.status == COMPLETE
    plural = "s" * (written != 1)
    note(f"{written} completion{plural}{'' if complete else ' (stopped early)'}")
    if args.cross_check and complete and _disagrees(args, problem, engine, found=found):
        return DISAGREEMENT
    if cut.stopped:
        return _stopped(args, f"{written} completions written, the list is incomplete")
    if written == 0:
        print("no completion exists", file=sys.stderr)
        return ExitCode.NEGATIVE
    return ExitCode.OK


def _stopped(args: argparse.Namespace, what: str) -> int:
    limit = f" of {args.time_limit:g} s" if args.time_limit is not None else ""
    print(f"cp-queens: stopped by the time limit{limit}: {what}", file=sys.stderr)
    return ExitCode.TIME_LIMIT


def _report(said: list[str], engine: Engine) -> None:
    # Said with the statistics, after the call: a request refused before any work is
    # one line, the refusal.
    for line in said:
        note(line)
    report(engine.stats)


def _disagrees(
    args: argparse.Namespace, problem: Problem, engine: Engine, **answer: object
) -> bool:
    from cp_queens.completion import cross_check

    difference = cross_check(
        problem,
        args.cross_check,
        time_limit=args.time_limit,
        **answer,  # type: ignore[arg-type]
    )
    if difference is None:
        note(f"cross-check: {args.cross_check} agrees")
        return False
    print(f"cp-queens: cross-check FAILED against {engine.name}: {difference}", file=sys.stderr)
    return True


def _draw(placement: Placement, problem: Problem, fmt: str) -> str:
    from cp_queens.formats import format_placement
    from cp_queens.render import svg, unicode

    if fmt == "unicode":
        return unicode(placement, given=problem.fixed) + "\n"
    if fmt == "svg":
        return svg(placement, given=problem.fixed) + "\n"
    return format_placement(placement, fmt)
