"""``cp-queens trace``: draw the search tree, or animate the board step by step."""

from __future__ import annotations

import argparse

from cp_queens import engines
from cp_queens.cli._common import EngineChoices, board_size, note, positive_seconds, report
from cp_queens.errors import CpQueensError

EXAMPLES = """\
examples:
  cp-queens trace 6 --output tree.svg             the backtracker's whole tree
  cp-queens trace 6 --engine propagate --consistency forward --output tree.svg
  cp-queens trace 6 --first --animate --output search.html   step by step
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
        "out by propagation, backtrack). The file's extension chooses SVG or an HTML page. "
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
    parser.add_argument("--first", action="store_true", help="stop at the first solution")
    parser.add_argument(
        "--animate",
        action="store_true",
        help="animate the board step by step instead of drawing the tree",
    )
    parser.add_argument(
        "--seconds",
        type=positive_seconds,
        default=0.6,
        metavar="S",
        help="seconds per step of the animation (default 0.6)",
    )
    parser.add_argument(
        "--output", "-o", required=True, metavar="FILE", help="FILE.svg or FILE.html"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from cp_queens.course.trace import record, tree_html

    output = Path(args.output)
    kind = output.suffix.lower()
    if kind not in (".svg", ".html", ".htm"):
        raise CpQueensError(f"--output: {output} must end in .svg or .html")
    options = {
        key: value
        for key, value in (
            ("consistency", args.consistency),
            ("variable_order", args.variable_order),
            ("value_order", args.value_order),
        )
        if value is not None
    }
    try:
        engine, given = engines.parse_spec(args.engine)
    except CpQueensError as error:
        raise CpQueensError(f"--engine: {error}") from None
    if engine not in ("reference", "propagate"):
        raise CpQueensError(f"--engine: trace draws reference or propagate, not '{engine}'")
    for key in given.keys() & options.keys():
        flag = "--" + key.replace("_", "-")
        raise CpQueensError(f"{key} is set twice: in --engine {args.engine} and by {flag}")
    if options and engine != "propagate":
        flags = ", ".join("--" + key.replace("_", "-") for key in options)
        raise CpQueensError(f"{flags}: only for --engine propagate")
    try:
        trace = record(args.n, engine=engine, first=args.first, **given, **options)
    except CpQueensError as error:
        if given:
            raise CpQueensError(f"--engine {args.engine}: {error}") from None
        raise
    if args.animate:
        if kind == ".svg":
            document = trace.animation_svg(seconds_per_step=args.seconds)
        else:
            document = trace.animation_html(seconds_per_step=args.seconds)
        what = f"{len(trace.steps)} steps"
    else:
        document = trace.tree_svg() if kind == ".svg" else tree_html(trace)
        what = f"{len(trace.nodes)} nodes"
    try:
        output.write_text(document, encoding="utf-8")
    except OSError as error:
        raise CpQueensError(f"--output: cannot write {output}: {error.strerror}") from None
    report(trace.stats)
    note(f"wrote {output} ({what})")
    return 0
