"""The live progress line of a long call, fitted to the terminal (Rich, loaded only for one)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from cp_queens.cli._output import live_console
from cp_queens.engines import ProgressCallback
from cp_queens.stats import Progress as ProgressRecord

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import BarColumn, Progress


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    whole = round(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


#: Widths the progress bar may take, widest first; the text beside it matters more.
BAR_WIDTHS = (20, 12, 6)


def progress_details(info: ProgressRecord) -> list[str]:
    """What the live line can say about ``info``, from the fullest text to the shortest.

    Examples:
        >>> record = ProgressRecord(12_873_980, 40.0, done=5_920, total=6_778)
        >>> for text in progress_details(record):
        ...     print(text)
        5,920/6,778 parts, 12,873,980 solutions, 0:00:40, ETA 0:00:06
        5,920/6,778 parts, 12,873,980 solutions, ETA 0:00:06
        87%, 12,873,980 solutions, ETA 0:00:06
        87%, ETA 0:00:06
        87%
    """
    elapsed = _clock(info.elapsed)
    if info.total is None or info.done is None:
        solutions = f"{info.solutions:,} solutions"
        rate = f"{info.rate:,.0f}/s"
        return [f"{solutions}, {rate}, {elapsed}", f"{solutions}, {rate}", solutions]
    parts = f"{info.done:,}/{info.total:,} parts"
    solutions = f"{info.solutions:,} solutions"
    eta = f"ETA {_clock(info.eta)}"
    percent = f"{100 * info.done // max(info.total, 1)}%"
    return [
        f"{parts}, {solutions}, {elapsed}, {eta}",
        f"{parts}, {solutions}, {eta}",
        f"{percent}, {solutions}, {eta}",
        f"{percent}, {eta}",
        percent,
    ]


def fit_progress(label: str, details: list[str], width: int) -> tuple[str, int]:
    """The fullest detail text, and the widest bar, that fit one line of ``width`` columns.

    A line that wraps or ends in "..." on a narrow terminal (80 columns) hides what
    matters; so text is dropped, shortest last, and the bar narrows before it does.

    Examples:
        >>> fit_progress("counting N=16 with fast", ["a long text " * 5, "short"], 80)
        ('short', 20)
    """
    fixed = 2 + len(label) + 1 + 1 + 1  # spinner and space, label, spaces, one spare column
    for text in details:
        for bar in BAR_WIDTHS:
            if fixed + bar + len(text) <= width:
                return text, bar
    room = max(width - fixed - BAR_WIDTHS[-1], 0)
    return details[-1][:room], BAR_WIDTHS[-1]


def progress_line(console: Console) -> tuple[BarColumn, Progress]:
    """The live line's Rich columns: spinner, label, bar, detail (fitted per update)."""
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn

    bar_column = BarColumn(bar_width=BAR_WIDTHS[0])
    live = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        bar_column,
        TextColumn("{task.fields[detail]}"),
        console=console,
        transient=True,
        expand=False,
    )
    return bar_column, live


@contextlib.contextmanager
def progress_display(
    label: str, console: Console | None = None
) -> Iterator[ProgressCallback | None]:
    """One live Rich line for every engine's ``Progress``; ``None``
    when stderr is not a terminal (or with ``--quiet``).

    With a known amount of work (subproblems) it draws a bar with the rate and an
    ETA; otherwise a spinner with the solutions so far. The line is fitted to the
    terminal's width at every update (see ``fit_progress``), so it stays whole
    at 80 columns and follows a resized window. Cheap to call often.
    """
    console = console or live_console()
    if console is None:
        yield None
        return
    bar_column, live = progress_line(console)
    with live as bar:
        task = bar.add_task(label, total=None, detail="starting")

        def update(info: ProgressRecord) -> None:
            detail, bar_column.bar_width = fit_progress(
                label, progress_details(info), console.width
            )
            if info.total is None:
                bar.update(task, detail=detail)
            else:
                bar.update(task, total=info.total, completed=info.done, detail=detail)

        yield update
