"""``cp-queens trace``: draw the search tree, or animate the board step by step."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cp_queens.engines as engines
from cp_queens.cli._common import EngineChoices, board_size, note, positive_seconds, report
from cp_queens.errors import CpQueensError

if TYPE_CHECKING:
    from cp_queens.course.drawing.trace import Trace

EXAMPLES = """\
examples:
  cp-queens trace 6 --engine propagate --consistency forward --output tree.svg
  cp-queens trace 6 --compare none,forward,arc,alldiff -o slide.png  (one slide)
  cp-queens trace 6 --animate --output search.html    to the first solution
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    # The propagate engine's own choices, read only when needed: parsing stays light.
    consistencies = EngineChoices("consistency", "propagate")
    variable_orders = EngineChoices("variable_order", "propagate")
    value_orders = EngineChoices("value_order", "propagate")

    parser = subparsers.add_parser(
        "trace",
        description="Run a backtracking search on an N x N board and draw it: the search tree "
        "(one partial board per node; colours for solution, dead end and pruned by "
        "propagation), or with --animate the board step by step (queen placed, squares crossed "
        "out by propagation, backtrack), or with --compare several levels of propagation side by "
        "side on one 16:9 slide. The file's extension chooses SVG, an HTML page or PNG (drawn "
        "by headless Chromium). "
        "Small boards only: a search that cannot be drawn legibly is refused (exit 2).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("n", type=board_size, metavar="N", help="board size (small: up to 10)")
    parser.add_argument(
        "--engine",
        "-e",
        default="reference",
        metavar="E",
        help="reference (the plain backtracker, default) or propagate (our constraint solver "
        "with propagation), optionally with options as in compare, e.g. "
        "propagate:consistency=alldiff",
    )
    parser.add_argument(
        "--consistency",
        choices=consistencies,
        metavar="LEVEL",
        help="propagate only: how much to propagate after each queen, one of %(choices)s "
        "(default arc)",
    )
    parser.add_argument(
        "--variable-order",
        choices=variable_orders,
        metavar="ORDER",
        help="propagate only: which row next, one of %(choices)s",
    )
    parser.add_argument(
        "--value-order",
        choices=value_orders,
        metavar="ORDER",
        help="propagate only: which column first, one of %(choices)s",
    )
    parser.add_argument(
        "--compare",
        metavar="LEVELS",
        help="draw several searches side by side on one 16:9 slide: a comma-separated list "
        "of propagate's consistency levels (none, forward, arc, alldiff) or reference",
    )
    parser.add_argument(
        "--first",
        action="store_true",
        help="stop at the first solution (the default of --animate)",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="search for all solutions (the default of a tree; --animate stops at the first "
        "solution unless --all is given)",
    )
    parser.add_argument(
        "--animate",
        action="store_true",
        help="animate the board step by step instead of drawing the tree",
    )
    parser.add_argument(
        "--seconds",
        type=positive_seconds,
        default=None,
        metavar="S",
        help="seconds per step of the animation (default: the whole search in about "
        "25 s, between 0.15 and 0.6 s a step)",
    )
    parser.add_argument(
        "--output",
        "-o",
        required=True,
        metavar="FILE",
        help="FILE.svg, FILE.html or FILE.png",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cp_queens.course.drawing.trace import record

    output = Path(args.output)
    kind = output.suffix.lower()
    if kind not in (".svg", ".html", ".htm", ".png"):
        raise CpQueensError(f"--output: {output} must end in .svg, .html or .png")
    if args.first and args.all:
        raise CpQueensError("--first and --all: choose one")
    if args.animate and kind == ".png":
        raise CpQueensError(f"--output: {output}: an animation is written as .svg or .html")
    if args.compare is not None and args.animate:
        raise CpQueensError("--compare draws trees side by side; animate one level at a time")
    first = args.first or (args.animate and not args.all)
    options = {
        key: value
        for key, value in (
            ("consistency", args.consistency),
            ("variable_order", args.variable_order),
            ("value_order", args.value_order),
        )
        if value is not None
    }
    if args.compare is not None:
        document, traces = _compare(args, first, options)
        what = f"{len(traces)} trees: " + ", ".join(str(len(t.nodes)) for t in traces) + " nodes"
    else:
        engine, given = _engine(args, options)
        try:
            trace = record(args.n, engine=engine, first=first, **given, **options)
        except CpQueensError as error:
            if given:
                raise CpQueensError(f"--engine {args.engine}: {error}") from None
            raise
        document, what = _draw(args, trace, kind)
        traces = [trace]
    _write(output, kind, document)
    for trace in traces:
        report(trace.stats)
    note(f"wrote {output} ({what})")
    return 0


def _engine(args: argparse.Namespace, options: dict[str, Any]) -> tuple[str, dict]:
    """The engine and its options from --engine, checked against the other flags."""
    try:
        engine, given = engines.parse_spec(args.engine)
    except CpQueensError as error:
        raise CpQueensError(f"--engine: {error}") from None
    # What an engine can do is read off its class, never its name: an engine traces
    # when it takes a ``tracer`` (see ``cp_queens.engines.base.Tracer``).
    takes = engines.options(engine)
    if "tracer" not in takes:
        tracing = [name for name in engines.names() if _traces(name)]
        raise CpQueensError(
            f"--engine: trace draws {' or '.join(tracing)}, not '{engine}' "
            "(it does not report its search steps)"
        )
    for key in given.keys() & options.keys():
        flag = "--" + key.replace("_", "-")
        raise CpQueensError(f"{key} is set twice: in --engine {args.engine} and by {flag}")
    if not options.keys() <= set(takes):
        flags = ", ".join("--" + key.replace("_", "-") for key in options)
        users = [name for name in engines.names() if _traces(name, options)]
        raise CpQueensError(f"{flags}: only for --engine {' or '.join(users) or 'none'}")
    return engine, given


def _traces(name: str, options: Any = ()) -> bool:
    """Whether engine ``name`` takes a tracer (and every one of ``options``)."""
    try:
        takes = engines.options(name)
    except CpQueensError:  # its optional package is missing
        return False
    return "tracer" in takes and set(options) <= set(takes)


def _compare(
    args: argparse.Namespace, first: bool, options: dict[str, Any]
) -> tuple[str, list[Trace]]:
    """Record one search per level of --compare and draw them on one slide."""
    from cp_queens.course.drawing.slides import compare_svg
    from cp_queens.course.drawing.trace import record

    levels = [word.strip() for word in args.compare.split(",")]
    known = ("reference", *EngineChoices("consistency", "propagate"))
    for level in levels:
        if level not in known:
            raise CpQueensError(
                f"--compare: '{level}' is not a level (choose from {', '.join(known)})"
            )
    if len(set(levels)) != len(levels):
        raise CpQueensError(f"--compare: {args.compare} names a level twice")
    if len(levels) > 6:
        raise CpQueensError("--compare: at most 6 levels fit on one slide")
    if args.engine != "reference" or "consistency" in options:
        raise CpQueensError("--compare chooses the levels itself: drop --engine/--consistency")
    traces = []
    for level in levels:
        try:
            if level == "reference":
                if options:
                    flags = ", ".join("--" + key.replace("_", "-") for key in options)
                    raise CpQueensError(f"{flags}: only for propagate's levels")
                traces.append(record(args.n, first=first))
            else:
                traces.append(
                    record(args.n, engine="propagate", first=first, consistency=level, **options)
                )
        except CpQueensError as error:
            raise CpQueensError(f"--compare {level}: {error}") from None
    return compare_svg(traces, levels), traces


def _draw(args: argparse.Namespace, trace: Trace, kind: str) -> tuple[str, str]:
    from cp_queens.course.drawing.trace import tree_html

    if args.animate:
        if kind == ".svg":
            document = trace.animation_svg(seconds_per_step=args.seconds)
        else:
            document = trace.animation_html(seconds_per_step=args.seconds)
        seconds = trace.seconds_per_step(args.seconds)
        length = seconds * len(trace.steps)
        return document, f"{len(trace.steps)} steps x {seconds:g} s = {length:.0f} s"
    document = tree_html(trace) if kind in (".html", ".htm") else trace.tree_svg()
    return document, f"{len(trace.nodes)} nodes"


def _write(output: Path, kind: str, document: str) -> None:
    from cp_queens.course.snapshot import svg_to_png

    if kind == ".png":
        svg_to_png(document, output)
        return
    from cp_queens.cli._common import StreamError
    from cp_queens.output import OutputError, write_text_whole

    try:
        write_text_whole(output, document)  # the old picture or the new one, never half
    except OutputError as error:
        raise StreamError(f"--output: {error.strerror}") from None
