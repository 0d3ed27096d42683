"""The live progress line of a long call, fitted to the terminal (Rich, loaded only for one)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from cp_queens.cli._output import live_console, note
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


def progress_details(
    info: ProgressRecord, since: float = 0.0, noun: str = "solutions", parts: str = "parts"
) -> list[str]:
    """What the live line can say about ``info``, from the fullest text to the shortest.

    ``since``: seconds since ``info`` was reported. The line is redrawn several times a
    second between reports (a subproblem may take minutes), so its clock keeps moving
    and its ETA counts down instead of freezing. The rate is always solutions per
    second, said so (``noun``: what is counted, ``placements`` for ``verify``); units of
    work (subproblems) are ``parts``, with their own count (``bytes`` of a file read;
    the noun itself when the work is counted in what is counted: a listing of known
    length). Without a known total of parts there is no fraction to show, nor an ETA.

    Examples:
        >>> record = ProgressRecord(12_873_980, 40.0, done=5_920, total=6_778)
        >>> for text in progress_details(record):
        ...     print(text)
        5,920/6,778 parts, 12,873,980 solutions, 321,850 solutions/s, 0:00:40, ETA 0:00:06
        5,920/6,778 parts, 12,873,980 solutions, 0:00:40, ETA 0:00:06
        5,920/6,778 parts, 12,873,980 solutions, ETA 0:00:06
        87%, 12,873,980 solutions, ETA 0:00:06
        87%, ETA 0:00:06
        87%
        >>> progress_details(ProgressRecord(920, 2.0, done=21), since=1.0)[0]
        '21 parts, 920 solutions, 460 solutions/s, 0:00:03'
        >>> progress_details(ProgressRecord(50, 1.0, done=50, total=92), parts="solutions")[0]
        '50/92 solutions, 50 solutions/s, 0:00:01, ETA 0:00:01'
    """
    elapsed = _clock(info.elapsed + since)
    solutions = f"{info.solutions:,} {noun}"
    rate = f"{info.solutions / info.elapsed:,.0f} {noun}/s" if info.elapsed > 0 else None
    if info.total is None or info.done is None:
        head = f"{info.done:,} parts, {solutions}" if info.done is not None else solutions
        fuller = [f"{head}, {rate}, {elapsed}"] if rate else []
        return [*fuller, f"{head}, {elapsed}", solutions]
    if parts == noun:  # the work is what is counted: say it once
        solutions = ""
    parts = f"{info.done:,}/{info.total:,} {parts}"
    left = info.eta
    eta = f"ETA {_clock(None if left is None else max(left - since, 0.0))}"
    percent = f"{100 * info.done // max(info.total, 1)}%"
    said = [parts, solutions] if solutions else [parts]
    fuller = [", ".join([*said, rate, elapsed, eta])] if rate else []
    return [
        *fuller,
        ", ".join([*said, elapsed, eta]),
        ", ".join([*said, eta]),
        ", ".join([percent, *said[1:], eta]),
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


def progress_line(console: Console, detail: Callable[[], str]) -> tuple[BarColumn, Progress]:
    """The live line's Rich columns: spinner, label, bar, and ``detail()`` rendered anew at
    every refresh (Rich redraws from its own thread; the kernels release the GIL)."""
    from rich.progress import BarColumn, Progress, ProgressColumn, SpinnerColumn, TextColumn
    from rich.text import Text

    class Detail(ProgressColumn):
        def render(self, task: Any) -> Text:
            return Text(detail())

    bar_column = BarColumn(bar_width=BAR_WIDTHS[0])
    live = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        bar_column,
        Detail(),
        console=console,
        transient=True,
        expand=False,
        refresh_per_second=4,
    )
    return bar_column, live


@contextlib.contextmanager
def progress_display(
    label: str, console: Console | None = None, noun: str = "solutions", parts: str = "parts"
) -> Iterator[ProgressCallback | None]:
    """One live Rich line for every engine's ``Progress``; ``None``
    when stderr is not a terminal (or with ``--quiet``).

    With a known amount of work (subproblems) it draws a bar with the parts done,
    the solutions, their rate and an ETA; otherwise a spinner with the solutions so
    far and their rate. The text is recomputed at every redraw from the last report
    and the time since (see ``progress_details``), and fitted to the terminal's width
    (see ``fit_progress``), so it stays whole at 80 columns, follows a resized window,
    and its clock never stands still. Cheap to call often.
    """
    console = console or live_console()
    if console is None:
        yield None
        return
    last: list[tuple[ProgressRecord, float]] = []

    def detail() -> str:
        if not last:
            return "starting"
        info, at = last[-1]
        text, bar_column.bar_width = fit_progress(
            label, progress_details(info, time.monotonic() - at, noun, parts), console.width
        )
        return text

    bar_column, live = progress_line(console, detail)
    with live as bar:
        task = bar.add_task(label, total=None)

        def update(info: ProgressRecord) -> None:
            last[:] = [(info, time.monotonic())]
            if info.total is not None:
                bar.update(task, total=info.total, completed=info.done)

        yield update


class Tally:
    """Counts what a command writes or reads as it goes and tells a progress display, at
    most every ``EVERY`` seconds (a call per placement stays a clock read and an add).

    Where the whole is known, the display gets a fraction and an ETA: ``total``, the
    count there will be (a listing of a board whose solutions are known), or ``where``,
    how far the work is and how much there is in all (the bytes of a file read)."""

    #: Seconds between two reports: the line is redrawn four times a second anyway.
    EVERY = 0.1

    def __init__(
        self,
        show: ProgressCallback,
        total: int | None = None,
        where: Callable[[], tuple[int, int]] | None = None,
    ) -> None:
        self.show = show
        self.total = total
        self.where = where
        self.count = 0
        self.started = time.monotonic()
        self._next = self.started

    def add(self, count: int) -> None:
        self.count += count
        now = time.monotonic()
        if now >= self._next:
            self._next = now + self.EVERY
            done, total = (self.count, self.total) if self.where is None else self.where()
            known = total is not None
            self.show(
                ProgressRecord(
                    self.count,
                    now - self.started,
                    done=done if known else None,
                    total=total if known else None,
                )
            )


def telling_how_long(
    progress: Callable[[ProgressRecord], None] | None, time_limit: float | None
) -> Callable[[ProgressRecord], None]:
    """The progress callback, which also says up front when a count will take more than
    a minute: the engine estimated it once, before any work (one beyond reach it refused).
    """

    def told(info: ProgressRecord) -> None:
        if info.expected is not None:
            if info.expected > 60 and time_limit is None:
                from cp_queens.limits import format_duration

                note(f"this count may take {format_duration(info.expected)} (Ctrl-C stops it)")
            return
        if progress is not None:
            progress(info)

    return told
