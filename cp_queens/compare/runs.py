"""What one ``compare`` run is (``Run``), and a cell's repeats as one run (``median_run``).

Apart from ``cp_queens.compare`` (which parses requests and starts the runs), so that
the harness stays one screen per job; everything here is also importable from
``cp_queens.compare``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from cp_queens.stats import Stats

#: Run outcomes.
OK = "ok"
TIMEOUT = "timeout"
UNSUPPORTED = "unsupported"
SKIPPED = "skipped"
ERROR = "error"


@dataclass
class Run:
    """One engine on one board size: what happened and what it cost.

    What the engine itself reports (solutions, branches, conflicts, its other figures)
    is its ``Stats``, kept whole in ``stats`` and read through the
    properties below; the fields here are what only ``compare`` knows.

    Attributes:
        engine: registry name.
        n: board size.
        task: ``first``, ``count`` or ``enumerate``.
        status: ``ok``, ``timeout``, ``unsupported`` (the engine says it cannot
            do the task), ``skipped`` (timed out on a smaller n already) or
            ``error``.
        wall_time: seconds the task took once the engine was ready: building its
            model and searching (``model_time`` of it building), measured around the
            call; the time of the kill for a run that had to be killed; ``None`` if it
            never ran.
        startup_time: seconds from starting the run's process to the engine being
            ready: what any program pays once before its first call, apart from it.
        startup: ``startup_time`` in parts: ``python`` (the interpreter starts),
            ``cp_queens`` (the package loads) and ``engine`` (the engine is built and
            its solver's libraries load).
        peak_rss_mb: peak resident memory of the run's process, in MiB.
        baseline_rss_mb: resident memory of the run's process with ``cp_queens``
            loaded, before the engine.
        agrees: for runs that finished, whether ``solutions`` equals that of every
            other finished run at the same n (``None`` when there is nothing to
            compare with).
        family: what kind of solver answered (CP with propagation, lazy clause
            generation, SAT, pseudo-Boolean, MIP, backtracking, ...).
        message: why a run is not ``ok``.
        stats: the engine's statistics of the call, or ``None`` when it made none.
        method: how the engine went about the task, as it says (``extra["method"]``:
            ``cpsat`` counts with ``plain`` below n = 10 and ``fast`` from it, unless
            pinned with ``cpsat:method=plain``); ``""`` when it does not say.
        pool_start: seconds the task spent starting worker processes (a pool, the fork
            server it comes from) before any solving, apart from ``wall_time``; ``None``
            when it started none.
        wall_times: the solve time of each repeat of the cell (``compare(repeat=K)``);
            ``wall_time`` is their median, ``wall_time_min``/``wall_time_max`` the spread.
    """

    engine: str
    n: int
    task: str
    status: str
    #: The kind of solver (see ``FAMILIES``), so "same model, other solver" reads.
    family: str = ""
    wall_time: float | None = None
    startup_time: float | None = None
    startup: dict[str, float] = field(default_factory=dict)
    peak_rss_mb: float | None = None
    baseline_rss_mb: float | None = None
    agrees: bool | None = None
    message: str = ""
    stats: Stats | None = None
    method: str = ""
    pool_start: float | None = None
    wall_times: list[float] = field(default_factory=list)

    @property
    def label(self) -> str:
        """The engine as the table and the plot name it: with its method when it says one
        (``cpsat (fast)``), so that a switch of method is seen where it happens."""
        pinned = f"method={self.method}" in self.engine  # cpsat:method=plain says it already
        return f"{self.engine} ({self.method})" if self.method and not pinned else self.engine

    @property
    def repeats(self) -> int:
        """How many runs of this cell the figures are the median of."""
        return max(1, len(self.wall_times))

    @property
    def wall_time_min(self) -> float | None:
        """The fastest repeat's solve time (the spread's low end)."""
        return min(self.wall_times) if self.wall_times else self.wall_time

    @property
    def wall_time_max(self) -> float | None:
        """The slowest repeat's solve time (the spread's high end)."""
        return max(self.wall_times) if self.wall_times else self.wall_time

    @property
    def solutions(self) -> int | None:
        """Solutions found (counted, streamed, or 0/1 for ``first``) by a run that finished;
        ``None`` otherwise (a run cut short has a ``lower_bound`` instead)."""
        return None if self.stats is None or self.status != OK else self.stats.solutions

    @property
    def lower_bound(self) -> int | None:
        """For a run the time limit stopped: the solutions it had found, a lower bound
        (never in ``solutions``, which holds complete answers only)."""
        if self.status != TIMEOUT or self.stats is None:
            return None
        return self.stats.solutions

    @property
    def model_time(self) -> float | None:
        """Seconds of ``wall_time`` the engine spent building its model (``None``: the
        engine builds none, or does not time it apart)."""
        return None if self.stats is None else self.stats.model_time

    @property
    def branches(self) -> int | None:
        return None if self.stats is None else self.stats.branches

    @property
    def conflicts(self) -> int | None:
        return None if self.stats is None else self.stats.conflicts

    @property
    def extra(self) -> dict[str, Any]:
        """The engine's other figures (solver status, LP iterations, ...)."""
        return {} if self.stats is None else self.stats.extra

    def as_dict(self) -> dict[str, Any]:
        """One flat record: the run's fields and the engine's figures side by side."""
        record = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "stats"}
        figures = (
            "repeats",
            "wall_time_min",
            "wall_time_max",
            "model_time",
            "solutions",
            "lower_bound",
            "branches",
            "conflicts",
            "extra",
        )
        return {**record, **{name: getattr(self, name) for name in figures}}


#: Repeats of a cell by default: 3, for cells whose first run took under
#: ``REPEAT_UNDER`` seconds (start-up and solve); a longer cell runs once, for a
#: comparison of minutes would take three times as long for little: its noise is a
#: smaller share of it. ``repeat=K`` repeats every cell that finished K times.
REPEAT = 3
REPEAT_UNDER = 10.0


class CompareInterrupted(KeyboardInterrupt):
    """Ctrl-C during ``compare``: ``runs`` holds the cells that finished (agreement
    marked), ``planned`` how many cells were asked for."""

    def __init__(self, runs: list[Run], planned: int) -> None:
        super().__init__(f"interrupted after {len(runs)} of {planned} runs")
        self.runs = runs
        self.planned = planned


def median_run(runs: Sequence[Run]) -> Run:
    """The repeats of one cell as one run: the median one (the lower of the two middle
    ones for an even number), its solve time the median of all, ``wall_times`` all.

    A repeat that did not finish makes the cell that repeat (a time-out is a time-out,
    however the others went); repeats that found different numbers of solutions make
    it an error, for an exact count cannot change between runs.

    Examples:
        >>> a, b, c = (Run("x", 8, "count", OK, wall_time=t) for t in (0.3, 0.1, 0.2))
        >>> run = median_run([a, b, c])
        >>> run.wall_time, run.wall_times, run.wall_time_min, run.wall_time_max
        (0.2, [0.3, 0.1, 0.2], 0.1, 0.3)
    """
    from statistics import median

    if len(runs) == 1:
        return runs[0]
    for run in runs:
        if run.status != OK:
            return replace(run, message=f"{run.message} (in a repeat, after {len(runs) - 1} ok)")
    times = [run.wall_time or 0.0 for run in runs]
    middle = sorted(runs, key=lambda run: run.wall_time or 0.0)[(len(runs) - 1) // 2]
    if len({run.solutions for run in runs}) > 1:
        found = ", ".join(str(run.solutions) for run in runs)
        return replace(middle, status=ERROR, message=f"repeats found {found} solutions")
    return replace(middle, wall_time=round(median(times), 6), wall_times=times)
