"""What an engine reports about its last call, as plain data.

Field names follow OR-Tools' own response statistics (``branches``,
``conflicts``, ``wall_time``) so a student can match our numbers with the
solver's log. A figure an engine does not know stays ``None`` rather than a
misleading zero.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: ``status`` values: the search finished, hit its time limit, or was stopped
#: early on purpose (a solution limit, or the consumer closed the stream).
COMPLETE = "complete"
TIME_LIMIT = "time_limit"
STOPPED = "stopped"


@dataclass
class Stats:
    """Statistics of one engine call.

    Attributes:
        engine: registry name of the engine that answered.
        task: ``"first"``, ``"count"`` or ``"solutions"``.
        n: board size.
        wall_time: seconds from the start of the call to its end.
        solutions: solutions found (counted, emitted or 0/1 for ``first``).
        status: ``COMPLETE``, ``TIME_LIMIT`` or ``STOPPED``.
        branches: search nodes / branches (backtracker nodes, CP-SAT branches).
        conflicts: dead ends the search met (backtracker failures, CP-SAT conflicts).
        model_time: seconds of ``wall_time`` spent building the model, for engines
            that build one and time it apart (``None`` otherwise).
        pool_start: seconds of ``wall_time`` spent starting worker processes before they
            took any work (a pool, the fork server it forks from), ``None`` when the call
            started none: start-up, not search, which ``compare`` bills apart.
        extra: anything else the engine wants to report (solver parameters, ...).
        time_limit: the time limit the call ran under, in seconds (``None``: none), as
            its budget gave it: the answer's own record of the limit that cut it short,
            which the output side words (``cp_queens.wording.stopped_line``).
    """

    engine: str = ""
    task: str = ""
    n: int = 0
    wall_time: float = 0.0
    solutions: int = 0
    status: str = COMPLETE
    branches: int | None = None
    conflicts: int | None = None
    model_time: float | None = None
    pool_start: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    time_limit: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready copy."""
        return asdict(self)

    def summary(self) -> str:
        """One line for a terminal, e.g. ``engine=cpsat n=8 solutions=92 wall_time=0.031s``."""
        parts = [f"engine={self.engine}", f"n={self.n}", f"solutions={self.solutions}"]
        if self.branches is not None:
            parts.append(f"branches={self.branches}")
        if self.conflicts is not None:
            parts.append(f"conflicts={self.conflicts}")
        parts.append(f"wall_time={self.wall_time:.3f}s")
        if self.model_time is not None:
            parts.append(f"model_time={self.model_time:.3f}s")
        if self.pool_start is not None:
            parts.append(f"pool_start={self.pool_start:.3f}s")
        if self.status != COMPLETE:
            parts.append(f"status={self.status}")
        parts.extend(f"{key}={_shown(value)}" for key, value in self.extra.items())
        return " ".join(parts)


def _shown(value: Any) -> str:
    """A value for the one-line summary: quoted when it holds spaces, so fields stay apart."""
    text = str(value)
    return f'"{text}"' if " " in text else text


@dataclass(frozen=True)
class Progress:
    """How far a long call is: one record for every engine and every progress display.

    Engines that know how much work there is (a count split into subproblems)
    fill ``done`` and ``total``; a search that does not know its size reports
    only ``solutions`` so far.

    Examples:
        >>> p = Progress(solutions=92, elapsed=2.0, done=10, total=40)
        >>> p.rate, p.eta
        (5.0, 6.0)
        >>> Progress(solutions=5, elapsed=1.0).eta is None
        True
    """

    solutions: int
    elapsed: float
    #: Units of work finished (subproblems), or ``None`` when the engine cannot tell.
    done: int | None = None
    #: Units of work in all.
    total: int | None = None
    #: Units of ``done`` that were read from a checkpoint instead of searched in this run.
    resumed: int = 0
    #: Wall seconds the whole call is expected to take, estimated before any work (see
    #: ``cp_queens.limits``); sent once, in the first record of a count, when known.
    expected: float | None = None

    @property
    def rate(self) -> float:
        """Units of work per second in this run (solutions per second without units)."""
        if self.elapsed <= 0:
            return 0.0
        if self.done is None:
            return self.solutions / self.elapsed
        return (self.done - self.resumed) / self.elapsed

    @property
    def eta(self) -> float | None:
        """Seconds left at the current rate, or ``None`` when that cannot be known yet."""
        if self.done is None or self.total is None or self.done <= self.resumed:
            return None
        return (self.total - self.done) / self.rate
