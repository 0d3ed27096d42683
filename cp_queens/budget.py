"""How one call may run: its time, its processes, where it runs, where it saves.

A ``Budget`` is the one value that carries these run settings from the
command line or a library keyword to the engine. It is built and checked in one
place, ``Budget.of``, so a bad value gets the same one-line error whichever
door it came through, and ``workers`` is resolved (capped at the cores, warned
once) before any engine sees it. The engine's ``Call``
holds the budget and turns ``time_limit`` into one deadline on one clock.

Examples:
    >>> Budget.of(time_limit=5, workers=1)
    Budget(time_limit=5.0, workers=1, where=None, checkpoint=None, recheck=None)
    >>> Budget.of(cluster="local:2").where
    'local:2'
    >>> Budget.of(time_limit=0)
    Traceback (most recent call last):
    ...
    cp_queens.errors.CpQueensError: time_limit must be a finite number of seconds > 0, got 0
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cp_queens.errors import CpQueensError, CpQueensWarning, EngineOptionError

if TYPE_CHECKING:
    from concurrent.futures import Executor

#: The keywords ``Budget.of`` takes: the library and ``engines.get`` split these off
#: an engine's own options. ``scheduler``, ``cluster`` and ``executor`` are spellings of
#: ``where``.
KEYWORDS = (
    "time_limit",
    "workers",
    "where",
    "checkpoint",
    "recheck",
    "scheduler",
    "cluster",
    "executor",
)


#: The longest time limit: a year, beyond which the clocks and timers that enforce it
#: (``threading`` waits, CP-SAT's ``max_time_in_seconds``) overflow or mean nothing.
MAX_SECONDS = 365 * 86400.0


def check_time_limit(seconds: object) -> float | None:
    """A time limit in seconds: a finite number > 0 and at most a year, or ``None``.

    The one check of a time limit: the command line's ``--time-limit`` type calls it too.
    """
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise CpQueensError(f"time_limit must be a number of seconds, got {seconds!r}")
    if not 0 < seconds < float("inf"):
        raise CpQueensError(f"time_limit must be a finite number of seconds > 0, got {seconds}")
    if seconds > MAX_SECONDS:
        raise CpQueensError(
            f"time_limit must be at most {MAX_SECONDS:g} seconds (a year), got {seconds:g}"
        )
    return float(seconds)


def check_workers(workers: object) -> int | None:
    """``workers`` as a number of local processes, or ``None`` (the engine's default).

    ``0`` means every core. More than the cores this process may use is capped at them
    with one ``CpQueensWarning``: the work is pure CPU, and
    processes beyond the cores only share them (each costs start-up and ~100 MB).
    """
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise CpQueensError(f"workers must be a whole number >= 0, got {workers!r}")
    cores = available_cores()
    if workers == 0:
        return cores
    if workers > cores:
        warnings.warn(
            f"workers capped at {cores}, the cores this process may use; more processes "
            "would only share them",
            CpQueensWarning,
            stacklevel=3,
        )
        return cores
    return int(workers)


def available_cores() -> int:
    """The cores this process may run on: the one default for "all cores" everywhere."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _check_where(where: Any, given_as: str = "where") -> Any:
    """``where`` checked; ``given_as`` is the keyword it came by, which fixes its kind."""
    if where is None:
        return None
    if given_as == "executor" and not isinstance(where, str):
        return where
    if isinstance(where, str) and given_as != "executor":
        local = where == "local" or where.startswith("local:")
        if given_as == "cluster" or (given_as == "where" and local):
            from cp_queens.parallel.dask import parse_cluster

            parse_cluster(where)  # checks the spelling now, not after the split
        else:
            from cp_queens.parallel.dask import parse_address

            parse_address(where)
        return where
    if callable(getattr(where, "submit", None)):  # any concurrent.futures.Executor
        return where
    raise EngineOptionError(
        "where must be a Dask address (tcp://HOST:PORT), 'local' or 'local:W', or an "
        f"Executor, got {where!r}"
    )


def check_recheck(fraction: object) -> float | None:
    """A share of resumed records to count again: a number from 0 to 1, or ``None``.

    The one check of the value: the command line's ``--recheck`` type calls it too.
    """
    if fraction is None:
        return None
    if isinstance(fraction, bool) or not isinstance(fraction, int | float):
        raise CpQueensError(f"recheck must be a fraction from 0 to 1, got {fraction!r}")
    if not 0 <= fraction <= 1:
        raise CpQueensError(f"recheck must be a fraction from 0 to 1, got {fraction}")
    return float(fraction)


def _check_checkpoint(checkpoint: object) -> str | os.PathLike[str] | None:
    if checkpoint is None or isinstance(checkpoint, str | os.PathLike):
        if checkpoint == "":
            raise CpQueensError("checkpoint must name a file, got ''")
        return checkpoint
    raise CpQueensError(f"checkpoint must be a file name, got {checkpoint!r}")


@dataclass(frozen=True)
class Budget:
    """The run settings of a call. Build it with ``Budget.of``, which checks them.

    Attributes:
        time_limit: seconds the call may take (model building included), or ``None``.
        workers: local processes (already capped at the cores), or ``None`` for the
            engine's own default.
        where: ``None`` (this process or a local pool), a Dask address ``tcp://...``,
            ``local`` / ``local:W`` (a local Dask cluster for the call) or an Executor.
        checkpoint: a file recording finished work, so the same call resumes, or ``None``.
        recheck: the share (0 to 1) of the records resumed from the checkpoint to count
            again and compare; a mismatch fails the call. ``None``: none.
    """

    time_limit: float | None = None
    workers: int | None = None
    where: Any = None
    checkpoint: str | os.PathLike[str] | None = None
    recheck: float | None = None

    @classmethod
    def of(
        cls,
        *,
        time_limit: object = None,
        workers: object = None,
        where: Any = None,
        checkpoint: object = None,
        recheck: object = None,
        scheduler: str | None = None,
        cluster: str | None = None,
        executor: Executor | None = None,
    ) -> Budget:
        """The one checker: every field checked once, ``workers`` resolved once.

        ``scheduler`` (a Dask address), ``cluster`` (``local[:W]``) and ``executor``
        are the command line's and the older keywords' names for ``where``; give one.

        Raises:
            CpQueensError: a value out of range, or two places to run at once.
        """
        places = [
            name
            for name, value in (
                ("where", where),
                ("scheduler", scheduler),
                ("cluster", cluster),
                ("executor", executor),
            )
            if value is not None
        ]
        if len(places) > 1:
            raise EngineOptionError(f"give one of {' and '.join(places)}, not both")
        place = next((v for v in (where, scheduler, cluster, executor) if v is not None), None)
        if recheck is not None and checkpoint is None:
            raise EngineOptionError(
                "recheck needs a checkpoint: it recounts records resumed from one"
            )
        if place is not None and workers is not None:
            raise EngineOptionError(f"workers is for local processes; size the {places[0]} instead")
        return cls(
            check_time_limit(time_limit),
            check_workers(workers),
            _check_where(place, places[0] if places else "where"),
            _check_checkpoint(checkpoint),
            check_recheck(recheck),
        )

    @property
    def elsewhere(self) -> bool:
        """True when the work goes to a cluster or an executor, not local processes."""
        return self.where is not None

    def cores(self) -> int:
        """Cores a count may use: a cluster as many as it takes, else the local ones."""
        if isinstance(self.where, str):
            return 1 << 20
        return min(self.workers or available_cores(), available_cores())
