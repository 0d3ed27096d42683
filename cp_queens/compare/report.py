"""What ``compare`` found, as a Rich table, CSV, JSON and a Matplotlib plot.

The plot shows wall time against n on a log scale, one line per engine.
A run that timed out is drawn at the time limit with an ``x`` and never
dropped, so a line that stops early is visibly an engine that ran out of time,
not one that was not asked. Matplotlib is optional (the ``plot`` extra:
``pip install '.[plot]'`` in a clone); without it ``plot`` raises
``PlotUnavailableError`` and the tables are still written.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from rich.table import Table

from cp_queens.compare import OK, TIMEOUT, Run, as_answer
from cp_queens.compare.style import Style, style
from cp_queens.errors import CpQueensError
from cp_queens.output import whole_file, write_text_whole

CSV_FIELDS = [
    "engine",
    "family",
    "n",
    "task",
    "status",
    "method",
    "wall_time",
    "wall_time_min",
    "wall_time_max",
    "repeats",
    "model_time",
    "pool_start",
    "startup_time",
    "peak_rss_mb",
    "baseline_rss_mb",
    "solutions",
    "lower_bound",
    "branches",
    "conflicts",
    "agrees",
    "message",
    "startup",
    "extra",
]


#: Short names of the solver families for the table (the CSV, JSON and plot spell them out).
SHORT_FAMILIES = {
    "CP with propagation": "CP",
    "lazy clause generation": "LCG",
    "SAT": "SAT",
    "pseudo-Boolean": "PB",
    "MIP": "MIP",
    "backtracking": "BT",
    "backtracking (bitmask)": "BT",
    "local search": "LS",
    "formula": "formula",
}


def family_legend(runs: Sequence[Run]) -> str:
    """One line spelling out the short families the table shows, e.g. ``CP = CP with ...``."""
    seen = dict.fromkeys(run.family for run in runs if run.family)
    return "; ".join(f"{SHORT_FAMILIES.get(f, f)} = {f}" for f in seen)


class PlotUnavailableError(CpQueensError):
    """Matplotlib is not installed."""


def table(
    runs: Sequence[Run],
    *,
    title: str | None = None,
    columns: Sequence[str] | None = None,
) -> Table:
    """One row per run, in the order they ran.

    ``engine`` names the method when the engine says one (``cpsat (fast)``).
    ``solve s`` is the task once the engine was ready (``model s`` of it building the
    model), the median of the cell's repeats, and ``spread s`` their fastest and slowest
    (when a cell ran more than once); ``start-up s`` what the run's process took to get
    there (Python, ``cp_queens``, the engine's libraries), apart, and ``pool s`` what the
    task spent starting worker processes (when one did), apart from the solve too.
    ``branches`` are the search nodes (queens placed by the backtrackers and by
    ``propagate``, CP-SAT's branches), ``conflicts`` the dead ends; a ``pruned``
    column (values crossed out by propagation, the engine's ``propagations``) appears
    when an engine reports it. ``columns`` keeps only the headings named (in the
    table's order), so that a lesson's table fits 80 columns.
    """
    propagations = any("propagations" in run.extra for run in runs)
    notes = any(run.message for run in runs)
    repeated = any(run.repeats > 1 for run in runs)
    pools = any(run.pool_start is not None for run in runs)
    cells: dict[str, list[str]] = {
        "engine": [run.label for run in runs],
        "family": [SHORT_FAMILIES.get(run.family, run.family) for run in runs],
        "n": [str(run.n) for run in runs],
        "status": [
            run.status if run.status == OK else f"[yellow]{run.status}[/yellow]" for run in runs
        ],
        "solve s": [_number(run.wall_time, "{:.3f}") for run in runs],
        "spread s": [_spread(run) for run in runs],
        "model s": [_number(run.model_time, "{:.3f}") for run in runs],
        "start-up s": [_number(run.startup_time, "{:.2f}") for run in runs],
        "pool s": [_number(run.pool_start, "{:.2f}") for run in runs],
        "peak MiB": [_number(run.peak_rss_mb, "{:.0f}") for run in runs],
        # a run cut short shows what it found as a bound, never as the answer
        "solutions": [
            _number(run.solutions, "{:,}")
            if run.lower_bound is None
            else _number(run.lower_bound, "≥ {:,}")
            for run in runs
        ],
        "branches": [_number(run.branches, "{:,}") for run in runs],
        "conflicts": [_number(run.conflicts, "{:,}") for run in runs],
    }
    # Engines that propagate (``propagate``) also say how many values they crossed out.
    if propagations:
        cells["pruned"] = [_number(run.extra.get("propagations"), "{:,}") for run in runs]
    if not repeated:
        del cells["spread s"]
    if not pools:
        del cells["pool s"]
    cells["agrees"] = [{True: "yes", False: "[red]NO[/red]", None: ""}[run.agrees] for run in runs]
    if notes:
        cells["note"] = [run.message for run in runs]
    if columns is not None:
        optional = ("pruned", "spread s", "pool s")
        unknown = [
            heading for heading in columns if heading not in cells and heading not in optional
        ]
        if unknown:
            raise ValueError(f"table: no column {', '.join(map(repr, unknown))}")
        cells = {heading: column for heading, column in cells.items() if heading in columns}
    grid = Table(title=title)
    # The engine's label is what a reader looks for: it keeps its width, and the family
    # and the note wrap onto more lines when the terminal is narrow.
    widest = max((len(run.label) for run in runs), default=6)
    wraps = ("note",)
    for heading in cells:
        grid.add_column(
            heading,
            justify="left"
            if heading in ("engine", "family", "status", "agrees", "note")
            else "right",
            no_wrap=heading not in wraps,
            overflow="fold" if heading in wraps else "ellipsis",
            min_width={"n": 2, "engine": min(widest, 40), "note": 12}.get(heading, len(heading)),
        )
    for row in zip(*cells.values(), strict=True):
        grid.add_row(*row)
    return grid


def _number(value: float | int | None, form: str) -> str:
    return "" if value is None else form.format(value)


def _spread(run: Run) -> str:
    """The fastest and the slowest repeat of a cell run more than once."""
    if run.repeats < 2 or run.wall_time_min is None or run.wall_time_max is None:
        return ""
    return f"{_seconds(run.wall_time_min)}-{_seconds(run.wall_time_max)}"


def _seconds(value: float) -> str:
    """Milliseconds shown below 10 s, tenths above (a spread stays one short cell)."""
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def _evenly_spread(sizes: Sequence[int]) -> bool:
    """Whether every size can be a tick label without labels running into each other."""
    span = sizes[-1] - sizes[0]
    return all(b - a >= span / 25 for a, b in pairwise(sizes))


def write_csv(runs: Sequence[Run], path: Path) -> None:
    """One row per run; ``extra`` (the engine's other figures) as a JSON object.

    ``solutions`` holds complete answers only: a run the time limit stopped leaves it
    empty and puts what it had found in ``lower_bound``.
    """
    with whole_file(path, keep_partial=False) as out:  # whole or not at all
        writer = csv.DictWriter(out, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for run in runs:
            row = run.as_dict()
            for nested in ("extra", "startup"):
                row[nested] = json.dumps(row[nested], sort_keys=True, default=str)
            writer.writerow({key: "" if row[key] is None else row[key] for key in CSV_FIELDS})


def write_json(
    runs: Sequence[Run], path: Path, settings: dict[str, Any], *, complete: bool = True
) -> None:
    """The runs plus how and where they were measured: the ``compare`` answer's JSON
    document (``cp_queens/answer.schema.json``), what ``compare --format json`` prints
    (``complete``: false when Ctrl-C stopped the comparison)."""
    document = as_answer(runs, settings, complete=complete).to_json()
    write_text_whole(path, json.dumps(document, indent=2, default=str) + "\n")


#: What ``plot`` can draw against n, and the axis label for it.
PLOT_METRICS = {
    "wall_time": "solve time (s, log scale)",
    "branches": "search nodes (branches, log scale)",
    "conflicts": "dead ends (conflicts, log scale)",
}

#: The parts of a run's start-up (``Run.startup``), as the plot names them, bottom first.
STARTUP_PARTS = {
    "python": "Python starts",
    "cp_queens": "cp_queens loads",
    "engine": "the engine and its solver load (its colour)",
    "pool": "its worker processes start, in the task (hatched)",
}


def plot(
    runs: Sequence[Run],
    path: Path,
    *,
    time_limit: float,
    title: str = "",
    metric: str = "wall_time",
) -> None:
    """Log-scale solve time (or ``metric``) against n, one line per engine; for the
    time, a second panel beside it: each engine's start-up, in its parts.

    The solve is what the task took once the engine was ready (model and search); the
    start-up (Python, ``cp_queens``, the engine's libraries) is paid once per process,
    whatever the task, so it is drawn apart, as stacked bars (the median of the
    engine's runs), on a linear scale of its own.

    Timeouts are marked with an ``x``: for the time at the limit, for search figures
    at what the engine had counted when it stopped (a lower bound).
    """
    if metric not in PLOT_METRICS:
        raise CpQueensError(
            f"plot: unknown metric '{metric}' (choose from {', '.join(PLOT_METRICS)})"
        )
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailableError(
            "cannot draw the plot: matplotlib is not installed "
            "(the plot extra: pip install '.[plot]' in a clone); the CSV and JSON were written"
        ) from None

    engine_names = list(dict.fromkeys(run.engine for run in runs))
    startups = _startups(runs, engine_names) if metric == "wall_time" else {}
    if startups:
        # Taller with more engines: a bar each, a long label on two lines.
        height = max(4.4, 1.6 + 0.6 * len(startups))
        figure, (axes, side) = plt.subplots(
            1, 2, figsize=(10, height), dpi=100, gridspec_kw={"width_ratios": [1.9, 1]}
        )
    else:
        figure, axes = plt.subplots(figsize=(9, 4.2), dpi=100)
    colours = _lines(axes, runs, engine_names, time_limit, metric)
    axes.set_yscale("log")
    axes.set_xlabel("n (board size)")
    axes.set_ylabel(PLOT_METRICS[metric])
    sizes = sorted({run.n for run in runs})
    if sizes and len(sizes) <= 20 and _evenly_spread(sizes):
        axes.set_xticks(sizes)
    axes.set_title(title or f"time limit {time_limit:g}s per run", fontsize="medium")
    axes.grid(True, which="major", alpha=0.3)
    if startups:  # below the axes: the start-up panel stands beside them
        wide = max((len(name) for name in engine_names), default=0) > 24
        axes.legend(
            fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=1 if wide else 2
        )
        _startup_bars(side, startups, colours)
    else:  # beside the axes, never over the curves (lesson 08 draws eight lines)
        axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    figure.tight_layout()
    figure.savefig(path, bbox_inches="tight")
    plt.close(figure)


def _lines(
    axes: Any, runs: Sequence[Run], names: Sequence[str], time_limit: float, metric: str
) -> dict[str, str]:
    """One line per engine and method on ``axes`` (each engine in its own colour and
    marker, ``style``; a second method of one engine dashed), with error bars from the
    fastest to the slowest repeat of a cell; returns each engine's colour."""
    colours: dict[str, str] = {}
    marked_timeout = False
    for name in names:
        mine = [run for run in runs if run.engine == name]
        look = style(name)
        methods = list(dict.fromkeys(run.method for run in mine if run.status in (OK, TIMEOUT)))
        for index, method in enumerate(methods or [""]):
            drawn = _line(axes, [run for run in mine if run.method == method], look, metric, index)
            marked_timeout |= _timeouts(axes, mine, method, look, time_limit, metric)
            if drawn:
                colours[name] = look.colour
        if any(run.status == TIMEOUT for run in mine):
            colours[name] = look.colour
    if metric == "wall_time":
        axes.axhline(time_limit, color="grey", linestyle=":", linewidth=1)
    if marked_timeout:  # one legend entry for all timeouts, in neutral black
        where = "at the limit" if metric == "wall_time" else "so far"
        axes.plot([], [], "kx", markersize=9, markeredgewidth=2, label=f"timed out ({where})")
    return colours


def _line(axes: Any, mine: Sequence[Run], look: Style, metric: str, index: int) -> bool:
    """The finished runs of one engine and method; whether there were any."""
    done = [run for run in mine if run.status == OK and getattr(run, metric) is not None]
    if not done:
        return False
    floor = 1e-5 if metric == "wall_time" else 0.5  # log scale: keep zeros visible
    values = [max(getattr(run, metric) or 0.0, floor) for run in done]
    first = done[0]
    method = first.method if first.label != first.engine else ""  # not when pinned
    said = "; ".join(part for part in (method, first.family) if part)
    label = f"{first.engine} ({said})" if said else first.engine
    errors = None
    if metric == "wall_time" and any(run.repeats > 1 for run in done):
        low = [
            max(value - max(run.wall_time_min or 0.0, floor), 0.0)
            for run, value in zip(done, values, strict=True)
        ]
        high = [
            max(max(run.wall_time_max or 0.0, floor) - value, 0.0)
            for run, value in zip(done, values, strict=True)
        ]
        errors = [low, high]
    axes.errorbar(
        [run.n for run in done],
        values,
        yerr=errors,
        marker=look.marker,
        markersize=5,
        color=look.colour,
        linestyle="-" if index == 0 else "--",
        capsize=3 if errors is not None else 0,
        label=label,
    )
    return True


def _timeouts(
    axes: Any, mine: Sequence[Run], method: str, look: Style, time_limit: float, metric: str
) -> bool:
    """An ``x`` at the limit (or at what was found) for each run of ``method`` that timed
    out; whether there was one."""
    late = [run for run in mine if run.status == TIMEOUT and run.method == method]
    if metric != "wall_time":
        late = [run for run in late if getattr(run, metric)]
    if not late:
        return False
    axes.plot(
        [run.n for run in late],
        [time_limit if metric == "wall_time" else getattr(run, metric) for run in late],
        linestyle="none",
        marker="x",
        markersize=9,
        markeredgewidth=2,
        color=look.colour,
    )
    return True


def _startups(runs: Sequence[Run], names: Sequence[str]) -> dict[str, dict[str, float]]:
    """Each engine's start-up in parts: the median of its runs, part by part."""
    from statistics import median

    found: dict[str, dict[str, float]] = {}
    for name in names:
        mine = [run for run in runs if run.engine == name and run.startup]
        if mine:
            found[name] = {
                key: median(run.startup.get(key, 0.0) for run in mine) for key in STARTUP_PARTS
            }
            # a pool's start: the median of the runs that started one (cpsat from n = 10)
            pools = [run.pool_start for run in mine if run.pool_start is not None]
            found[name]["pool"] = median(pools) if pools else 0.0
    return found


def _startup_bars(
    axes: Any, startups: dict[str, dict[str, float]], colours: dict[str, str]
) -> None:
    """Horizontal stacked bars, one per engine (top to bottom as in the legend)."""
    names = list(startups)[::-1]
    # A long label (``propagate:consistency=alldiff``) on two lines, so the bars keep room.
    labels = [name.replace(":", ":\n", 1) if len(name) > 16 else name for name in names]
    # the engine's own parts in its line's colour, the pool's hatched
    shades = ("#c8c8c8", "#8c8c8c", None, None)
    hatches = (None, None, None, "//")
    left = [0.0] * len(names)
    pools = any(startups[name]["pool"] > 0 for name in names)
    for (key, label), shade, hatch in zip(STARTUP_PARTS.items(), shades, hatches, strict=True):
        if key == "pool" and not pools:
            continue
        widths = [startups[name][key] for name in names]
        colour = [shade or colours.get(name, style(name).colour) for name in names]
        axes.barh(
            labels, widths, left=left, color=colour, edgecolor="white", hatch=hatch, label=label
        )
        left = [a + b for a, b in zip(left, widths, strict=True)]
    for row, total in enumerate(left):
        axes.text(total, row, f" {total:.2f}", va="center", fontsize="small")
    axes.set_xlim(0, max(left) * 1.25 if max(left) > 0 else 1)
    axes.set_xlabel("start-up (s, median of the runs)")
    axes.set_title("start-up, paid once per process", fontsize="medium")
    handles, labels = axes.get_legend_handles_labels()
    # the engine part has one colour per engine: its legend entry in neutral grey
    handles[2] = _patch("#555555")
    if pools:
        handles[3] = _patch("#555555", hatch="//")
    # below the bars, never over them (the figure is saved to fit it)
    axes.legend(handles, labels, fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.2))
    axes.grid(True, axis="x", alpha=0.3)


def _patch(colour: str, hatch: str | None = None) -> Any:
    from matplotlib.patches import Patch

    return Patch(facecolor=colour, edgecolor="white", hatch=hatch)
