"""``cp-queens compare``: engines side by side over a range of n (table, CSV, JSON, plot)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from cp_queens.answer import DISAGREE
from cp_queens.cli._common import add_format_argument, deliver, fail, positive_seconds
from cp_queens.cli.exit_codes import ExitCode
from cp_queens.cli.exit_codes import of as exit_code
from cp_queens.engines import TASKS
from cp_queens.errors import CpQueensError
from cp_queens.writers import FORMATS, choices

if TYPE_CHECKING:
    from cp_queens.compare import Run

T = TypeVar("T")

EXAMPLE = (
    "examples:\n"
    "  cp-queens compare --n 4..12 --task count --engines reference,cpsat --out out/\n"
    "  cp-queens compare --n 8,16,32 --task first --engines cpsat,cpsat-board,mip\n"
    "  cp-queens compare --n 8..10 --engines cpsat:method=plain,cpsat:method=fast"
)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "compare",
        description="Run each engine on each N for one task, every run in its own process with "
        "a time limit; record wall time, peak memory and the engine's own search figures. "
        "Prints a table and, with --out, writes results.csv, results.json and results.png.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--n", required=True, metavar="RANGE", help="board sizes: 4..12, 8 or 4,6,8"
    )
    parser.add_argument(
        "--engines",
        default="reference,cpsat",
        metavar="E1,E2",
        help="comma-separated engines, each NAME or NAME:OPTION=VALUE[:...], "
        "e.g. cpsat:method=plain (default: reference,cpsat)",
    )
    parser.add_argument(
        "--task", default="count", metavar="TASK", help=f"one of {', '.join(TASKS)} (count)"
    )
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=10.0,
        metavar="S",
        help="seconds per run (default 10); later sizes of an engine that timed out are skipped",
    )
    parser.add_argument(
        "--no-skip",
        action="store_true",
        help="run larger sizes even after an engine timed out",
    )
    parser.add_argument(
        "--repeat",
        type=_repeats,
        metavar="K",
        help="runs of each cell, each in a fresh process: the median is shown, the fastest "
        "and slowest as its spread (default: 3 for cells under 10 s, 1 for longer ones)",
    )
    parser.add_argument("--out", metavar="DIR", help="directory for results.csv/.json/.png")
    add_format_argument(parser, choices("summary", "document"), "text draws the table (stdout)")
    parser.set_defaults(run=run)


#: What ``--out DIR`` receives.
RESULT_FILES = ("results.csv", "results.json", "results.png")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rich.console import Console
    from rich.measure import Measurement

    import cp_queens.compare.report as compare_report
    from cp_queens.budget import Budget
    from cp_queens.compare import (
        CompareInterrupted,
        as_answer,
        check_task,
        compare,
        machine,
        parse_engines,
        parse_range,
    )

    sizes = _flagged("--n", parse_range, args.n)
    specs = _flagged("--engines", parse_engines, args.engines)
    task = _flagged("--task", check_task, args.task)
    out = Path(args.out) if args.out else None
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CpQueensError(f"--out: cannot create {out}: {error.strerror}") from None
        from cp_queens.output import OutputError, check_writable

        for name in RESULT_FILES:  # before the runs, which a late failure would waste
            try:
                check_writable(out / name)
            except OutputError as error:  # a bad --out, said before any run: exit 2
                raise CpQueensError(f"--out: {error.strerror}") from None

    progress = Console(stderr=True)

    def show(done: Run) -> None:
        if progress.is_terminal:
            progress.print(f"[dim]{done.engine} n={done.n}: {done.status}[/dim]", highlight=False)

    interrupted: CompareInterrupted | None = None
    try:
        runs = compare(
            specs,
            sizes,
            task,
            budget=Budget.of(time_limit=args.time_limit),
            skip_after_timeout=not args.no_skip,
            on_run=show,
            repeat=args.repeat,
        )
    except CompareInterrupted as stopped:  # keep what finished: the table and the files
        interrupted, runs = stopped, stopped.runs
    title = f"task={task}, time limit {args.time_limit:g}s per run"
    if interrupted is not None:
        title += f" (interrupted: {len(runs)} of {interrupted.planned} cells)"
    document = FORMATS[args.format].document
    if not document:
        grid = compare_report.table(runs, title=title)
        screen = Console()
        if not screen.is_terminal:  # piped or captured: the whole table, neither squeezed
            # to 80 columns nor cut at some width (a report's last column read "ye")
            wide = Console(width=100_000)
            screen = Console(width=max(80, Measurement.get(wide, wide.options, grid).maximum))
        screen.print(grid)
        legend = compare_report.family_legend(runs)
        if legend:
            screen.print(f"family: {legend}", highlight=False)
    settings = {
        "task": task,
        "sizes": sizes,
        "engines": [spec.label for spec in specs],
        "time_limit": args.time_limit,
        "repeat": args.repeat,
        "machine": machine(),
    }
    complete = interrupted is None
    if out is not None:
        csv_name, json_name, png_name = RESULT_FILES
        compare_report.write_csv(runs, out / csv_name)
        compare_report.write_json(runs, out / json_name, settings, complete=complete)
        written = [csv_name, json_name]
        try:
            compare_report.plot(runs, out / png_name, time_limit=args.time_limit, title=title)
            written.append(png_name)
        except compare_report.PlotUnavailableError as error:
            print(f"cp-queens: warning: {error}", file=sys.stderr)
        print(f"wrote {', '.join(str(out / name) for name in written)}", file=sys.stderr)
    result = as_answer(runs, settings, complete=complete)
    if interrupted is not None:
        if document:
            deliver(result, args.format)
        print(
            f"cp-queens: interrupted after {len(runs)} of {interrupted.planned} cells; "
            "the finished ones are kept",
            file=sys.stderr,
        )
        return ExitCode.INTERRUPTED
    if result.outcome == DISAGREE:
        fail("engines disagree on the number of solutions (see the 'agrees' column)")
    if not document:
        return exit_code(result)  # the table is written
    return deliver(result, args.format)


def _repeats(text: str) -> int:
    """``--repeat``: a whole number from 1 to 100."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 100:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to 100, got {text!r}")
    return value


def _flagged(flag: str, parse: Callable[[str], T], text: str) -> T:
    """``parse(text)``, its error message led by the flag the text came from."""
    from cp_queens.compare import CompareError

    try:
        return parse(text)
    except CompareError as error:
        raise CompareError(f"{flag}: {error}") from None
