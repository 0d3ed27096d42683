"""One call of an engine: what it was asked (``Call``), the stream it returns
(``Solutions``), and the checks of its per-call arguments.

Here, apart from ``cp_queens.engines.base``, so that the engine's interface reads
on its own; every engine imports these names from ``base`` as before.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from cp_queens.budget import Budget, Clock
from cp_queens.errors import CpQueensError
from cp_queens.problem import Placement, Problem
from cp_queens.stats import TIME_LIMIT, Progress, Stats


class UniqueCount(NamedTuple):
    """All solutions, and those distinct up to rotation and reflection."""

    total: int
    unique: int


#: Called now and then during a long call with a ``Progress`` record.
ProgressCallback = Callable[[Progress], None]


def check_limit(limit: object) -> int | None:
    """``limit`` as a whole number >= 0 (or ``None``); anything else is a clear error.

    Examples:
        >>> check_limit(3), check_limit(None)
        (3, None)
        >>> check_limit(2.5)
        Traceback (most recent call last):
        ...
        cp_queens.errors.CpQueensError: limit must be a whole number >= 0, got 2.5
    """
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise CpQueensError(f"limit must be a whole number >= 0, got {limit!r}")
    return int(limit)


#: Random seeds every engine accepts (CP-SAT's ``random_seed`` is a 32-bit integer).
SEED_RANGE = range(0, 2**31)


def check_seed(seed: object) -> int | None:
    """A random seed: a whole number in ``0 .. 2**31 - 1`` (or ``None``: draw one)."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or int(seed) not in SEED_RANGE:
        raise CpQueensError(f"seed must be a whole number from 0 to {SEED_RANGE[-1]}, got {seed!r}")
    return int(seed)


@dataclass
class Call:
    """One call of an engine: what it was asked, and what it reports.

    Created by the public methods of ``Engine`` and handed to the ``_``
    methods a subclass overrides; never shared between calls.
    """

    task: str
    problem: Problem
    stats: Stats
    #: How the call may run: time limit, workers, where, checkpoint.
    budget: Budget = field(default_factory=Budget)
    #: At most this many solutions (streams only).
    limit: int | None = None
    progress: ProgressCallback | None = field(default=None, repr=False)
    #: The call's one clock, started as the call is made, from ``budget.time_limit``:
    #: hand it (not a deadline of your own) to whatever polls the time.
    clock: Clock = field(init=False)

    def __post_init__(self) -> None:
        self.clock = self.budget.clock()

    @property
    def started(self) -> float:
        """``time.monotonic()`` when the call started."""
        return self.clock.started

    def expired(self) -> bool:
        """True once the time limit has passed (cheap: call it every few thousand nodes)."""
        return self.clock.expired()

    def remaining(self) -> float | None:
        """Seconds left before the time limit (at least 0), or ``None`` without one."""
        return self.clock.remaining()

    def report(
        self, solutions: int, *, done: int | None = None, total: int | None = None, resumed: int = 0
    ) -> None:
        """Tell the progress callback, if any, how far the call is."""
        if self.progress is not None:
            self.progress(Progress(solutions, self.clock.elapsed(), done, total, resumed))

    def expect(self, seconds: float | None) -> None:
        """Tell the progress callback, before any work, how long the call should take."""
        if self.progress is not None and seconds is not None:
            self.progress(Progress(0, 0.0, expected=seconds))

    @contextlib.contextmanager
    def building(self) -> Iterator[None]:
        """Time the model's construction apart: ``with call.building(): model = ...``
        adds its seconds to ``stats.model_time`` (``compare`` shows them)."""
        begun = time.perf_counter()
        try:
            yield
        finally:
            spent = time.perf_counter() - begun
            self.stats.model_time = (self.stats.model_time or 0.0) + spent

    def stop_for_time(self) -> None:
        """Mark the call as cut short by its time limit: its answer is incomplete."""
        self.stats.status = TIME_LIMIT


class Solutions(Iterator[Placement]):
    """A stream of placements with its own statistics (``stats``), filled as it runs.

    Closing it (``close()``, leaving a ``with`` block, or dropping it) stops the
    search and frees what the engine holds (threads, processes).
    """

    def __init__(self, generator: Iterator[Placement], stats: Stats) -> None:
        self._generator = generator
        self.stats = stats

    def __iter__(self) -> Solutions:
        return self

    def __next__(self) -> Placement:
        return next(self._generator)

    def close(self) -> None:
        close = getattr(self._generator, "close", None)
        if close is not None:
            close()

    def __enter__(self) -> Solutions:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
