"""``cp-queens dominate N``: the fewest queens that occupy or attack every square."""

from __future__ import annotations

import argparse

from cp_queens.cli._common import (
    add_format_argument,
    board_size,
    deliver,
    note,
    positive_seconds,
    workers_value,
)
from cp_queens.writers import choices

#: Kept here (not imported from cp_queens.dominate) so that --help loads no solver module;
#: the first picks one of the others (``cp_queens.dominate.models.default_model``).
MODELS = ("auto", "cp", "mip")
SYMMETRIES = ("none", "halves", "lex")
HELP_MODEL = (
    "auto (default): the model that proves the optimum fastest, mip for plain domination "
    "on boards up to N = 20, cp for --independent and larger boards (docs/domination.md); "
    "cp: CP-SAT; mip: the same rows as a set cover, solved by SCIP"
)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "dominate",
        description="Find the smallest set of queens that occupy or attack every square of "
        "the N x N board (queens domination, OEIS A075458), or with --independent of "
        "queens that do not attack each other (A075324). Prints the board and the size, "
        "and whether it is proven optimal or only the best found, with the proven lower "
        "bound and the gap. Every run starts from a dominating set constructed without a "
        "solver (greedy set cover), so a run stopped by --time-limit still prints a set. "
        "The largest N is set by memory: the model has about 3.3 N^3 terms, estimated at "
        "0.5 GB for N = 100 and 13 GB for N = 300, and a board that does not fit in the "
        "memory available is refused at once. Proving the optimum takes minutes from "
        "N = 9 or 10 on (see docs/domination.md). Statistics go to stderr.",
        epilog="examples:\n"
        "  cp-queens dominate 8                        5 queens, proven optimal (by SCIP)\n"
        "  cp-queens dominate 8 --independent          5 non-attacking queens\n"
        "  cp-queens dominate 100 --time-limit 5       best set, bound and gap (exit 4)",
    )
    parser.add_argument("n", type=board_size, metavar="N", help="board size (N x N)")
    parser.add_argument(
        "--independent", action="store_true", help="queens may not attack each other"
    )
    parser.add_argument(
        "--model",
        choices=MODELS,
        default="auto",
        help=HELP_MODEL,
    )
    parser.add_argument(
        "--symmetry",
        choices=SYMMETRIES,
        default="none",
        help="none (default); halves: no fewer queens in the top half than in the bottom, "
        "nor in the left than in the right; "
        "lex: the board no larger, as a 0/1 word, than its 7 images",
    )
    parser.add_argument(
        "--no-classic-bound",
        dest="classic_bound",
        action="store_false",
        help="do not tell the solver that at least ceil((N-1)/2) queens are needed",
    )
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        metavar="S",
        help="stop after S seconds with the best set and bound so far (exit 4)",
    )
    parser.add_argument(
        "--workers",
        type=workers_value,
        default=1,
        metavar="W",
        help="cores the solver may use, as W threads of this one process (CP-SAT's search "
        "workers, SCIP's threads); 0: every core; more than the cores is capped at them "
        "with one warning, as for count's --workers (default 1, so that runs repeat)",
    )
    add_format_argument(
        parser,
        choices("squares", "document"),
        "json: 'value' {size, queens} when proven optimal, else 'complete': false and "
        "'partial' {size, queens}, the best set found; 'bound' and 'gap' beside it",
        output=True,
    )
    parser.add_argument("--output", "-o", metavar="F", help="write to file F instead of stdout")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cp_queens.budget import Budget
    from cp_queens.dominate import Step, dominate

    def progress(step: Step) -> None:
        best = "-" if step.best is None else step.best
        gap = "" if step.gap is None else f", gap {step.gap:.0%}"
        note(f"{step.seconds:7.2f} s  best {best}, bound {step.bound}{gap}")

    result = dominate(
        args.n,
        independent=args.independent,
        model=args.model,
        symmetry=args.symmetry,
        budget=Budget.of(time_limit=args.time_limit, workers=args.workers),
        classic_bound=args.classic_bound,
        on_step=progress,
    )
    details = ", ".join(f"{key}={value}" for key, value in result.statistics.items())
    note(f"model={result.model} symmetry={result.symmetry} {details} wall={result.seconds:.2f}s")
    # Through the registry, as every command: the board and its line (a set cut short
    # too: it dominates, and its line says it is not proven the smallest), or the JSON.
    return deliver(result.answer(), args.format, output=args.output)
