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
        status: :data:`COMPLETE`, :data:`TIME_LIMIT` or :data:`STOPPED`.
        branches: search nodes / branches (backtracker nodes, CP-SAT branches).
        conflicts: dead ends the search met (backtracker failures, CP-SAT conflicts).
        extra: anything else the engine wants to report (solver parameters, ...).
    """

    engine: str = ""
    task: str = ""
    n: int = 0
    wall_time: float = 0.0
    solutions: int = 0
    status: str = COMPLETE
    branches: int | None = None
    conflicts: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

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
        if self.status != COMPLETE:
            parts.append(f"status={self.status}")
        parts.extend(f"{key}={value}" for key, value in self.extra.items())
        return " ".join(parts)
