"""How one call may run: its time, its processes, where it runs, where it saves.

A ``Budget`` is the one value that carries these run settings from the
command line or a library keyword to the engine, passed with each call
(``engine.count(problem, budget=...)``, ``cp_queens.count(8, budget=...)``). Every
field is checked however the budget is made (``Budget(time_limit=-3)`` is refused
like ``Budget.of(time_limit=-3)``), so a bad value gets the same one-line error
whichever door it came through; ``Budget.of`` is the friendly door that also takes
the older spellings of ``where`` and resolves ``workers`` (capped at the cores,
warned once) before any engine sees it.

A call turns ``time_limit`` into one ``Clock`` (``Budget.clock()``), made once per
call by the engine's ``Call`` and handed to whatever polls the time: no code
compares raw deadline floats of its own.

Examples:
    >>> Budget.of(time_limit=5, workers=1)
    Budget(time_limit=5.0, workers=1, where=None, checkpoint=None, recheck=None)
    >>> Budget.of(cluster="local:2").where
    'local:2'
    >>> Budget.of(time_limit=0)
    Traceback (most recent call last):
    ...
    cp_queens.errors.RunSettingError: time_limit must be a finite number of seconds > 0, got 0
    >>> Budget(workers=-1)
    Traceback (most recent call last):
    ...
    cp_queens.errors.CpQueensError: workers must be a whole number >= 0, got -1
"""

from __future__ import annotations

import os
import time
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cp_queens.errors import CpQueensError, CpQueensWarning, EngineOptionError, RunSettingError

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

    The one check of a time limit, made where a ``Budget`` is made (its
    ``__post_init__``): every door (the library's keywords, ``Budget.of``, the command
    line's ``--time-limit``, which makes a ``Budget`` to check its value) goes through it
    once. Raises ``RunSettingError``, whose ``rule`` the command line words for its flag.
    """
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise RunSettingError("time_limit", "a number of seconds", _short(seconds))
    if not seconds > 0:  # NaN fails this too
        raise RunSettingError("time_limit", "a finite number of seconds > 0", _short(seconds))
    if seconds > MAX_SECONDS:  # infinity too; a huge int compares exactly
        raise RunSettingError(
            "time_limit", f"at most {MAX_SECONDS:g} seconds (a year)", _short(seconds)
        )
    return float(seconds)


def _short(value: object) -> str:
    """A value for an error message, at most a line: ``10**400`` is not printed whole
    (nor formatted as a float, which overflows)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}...({len(text)} characters)"


def check_workers(workers: object) -> int | None:
    """``workers`` as a number of local processes, or ``None`` (the engine's default).

    ``0`` means every core. More than the cores this process may use is capped at them
    with one ``CpQueensWarning``: the work is pure CPU, and
    processes beyond the cores only share them (each costs start-up and ~100 MB).
    """
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise CpQueensError(f"workers must be a whole number >= 0, got {_short(workers)}")
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


def resolve_workers(workers: int | None) -> int:
    """``workers`` as a number of processes: ``None`` or 0 mean every available core.

    The check and the cap are ``check_workers``'s, which a ``Budget`` has already
    applied: a budget's workers pass through unchanged (and unwarned).

    Examples:
        >>> resolve_workers(1)
        1
        >>> resolve_workers(None) == available_cores()
        True
    """
    return check_workers(workers) or available_cores()


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
        from cp_queens.places import parse_address, parse_cluster  # only for a place given

        local = where == "local" or where.startswith("local:")
        if given_as == "cluster" or (given_as == "where" and local):
            parse_cluster(where)  # checks the spelling now, not after the split
        else:
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
        raise CpQueensError(f"recheck must be a fraction from 0 to 1, got {_short(fraction)}")
    if not 0 <= fraction <= 1:
        raise CpQueensError(f"recheck must be a fraction from 0 to 1, got {_short(fraction)}")
    return float(fraction)


def _check_checkpoint(checkpoint: object) -> str | os.PathLike[str] | None:
    if checkpoint is None or isinstance(checkpoint, str | os.PathLike):
        if checkpoint == "":
            raise CpQueensError("checkpoint must name a file, got ''")
        return checkpoint
    raise CpQueensError(f"checkpoint must be a file name, got {checkpoint!r}")


@dataclass(frozen=True)
class Budget:
    """The run settings of a call, passed with it (``budget=``).

    Every field is checked as the budget is made, whichever way: ``Budget(...)``
    refuses a bad value with the same one-line ``CpQueensError`` as ``Budget.of``,
    which also takes the older spellings of ``where`` and warns when ``workers`` is
    capped at the cores.

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

    def __post_init__(self) -> None:
        """Check every field, so that no door lets a bad budget through."""
        fix = object.__setattr__  # frozen: each field is set once, to its checked value
        fix(self, "time_limit", check_time_limit(self.time_limit))
        fix(self, "workers", check_workers(self.workers))
        fix(
            self,
            "where",
            _check_where(self.where, "executor" if _is_executor(self.where) else "where"),
        )
        fix(self, "checkpoint", _check_checkpoint(self.checkpoint))
        fix(self, "recheck", check_recheck(self.recheck))
        if self.recheck is not None and self.checkpoint is None:
            raise EngineOptionError(
                "recheck needs a checkpoint: it recounts records resumed from one"
            )
        if self.where is not None and self.workers is not None:
            raise EngineOptionError("workers is for local processes; size the where instead")

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
        """The friendly door: every field checked (as ``Budget(...)`` checks it), the
        older spellings of ``where`` taken, ``workers`` resolved and warned about once.

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
        if place is not None and workers is not None:
            raise EngineOptionError(f"workers is for local processes; size the {places[0]} instead")
        return cls(
            time_limit,  # type: ignore[arg-type]  # checked once, by __post_init__
            check_workers(workers),  # capped (and warned) here, at the caller's level
            _check_where(place, places[0] if places else "where"),
            checkpoint,  # type: ignore[arg-type]
            recheck,  # type: ignore[arg-type]
        )

    def clock(self) -> Clock:
        """A clock started now that runs out after ``time_limit`` (never, without one)."""
        return Clock.start(self.time_limit)

    @property
    def elsewhere(self) -> bool:
        """True when the work goes to a cluster or an executor, not local processes."""
        return self.where is not None

    def cores(self) -> int:
        """Cores a count may use: a cluster as many as it takes, else the local ones."""
        if isinstance(self.where, str):
            return 1 << 20
        return min(self.workers or available_cores(), available_cores())


def _is_executor(where: object) -> bool:
    return not isinstance(where, str) and callable(getattr(where, "submit", None))


def check_budget(budget: object) -> Budget | None:
    """``budget`` as given to a call: a ``Budget`` or ``None`` (the default), else one
    clear error (not an ``AttributeError`` deep in the engine)."""
    if budget is None or isinstance(budget, Budget):
        return budget
    raise CpQueensError(
        f"budget must be a cp_queens.Budget (e.g. Budget.of(time_limit=5)), got {_short(budget)}"
    )


@dataclass(frozen=True)
class Clock:
    """The time of one call: when it started, and when (if ever) it must stop.

    Made once per call (``Budget.clock()``, by the engine's ``Call``) and handed to
    every piece of code that polls the time, so that how a limit is read is decided
    here once: on ``time.monotonic()``, which every process of this machine shares, so
    a local worker process may be handed the same clock. ``expired()`` is cheap: call
    it every few thousand nodes.

    Examples:
        >>> Clock.start(None).expired(), Clock.start(None).remaining()
        (False, None)
        >>> Clock.start(60).remaining() > 59
        True
        >>> Clock.start(60).within(1).remaining() <= 1
        True
    """

    started: float = field(default_factory=time.monotonic)
    #: ``time.monotonic()`` instant at which the call must stop, or ``None``: no limit.
    #: Read it through the methods; it is a field so that the clock pickles.
    _ends: float | None = None

    @classmethod
    def start(cls, seconds: float | None) -> Clock:
        """A clock started now that runs out after ``seconds`` (``None``: never)."""
        now = time.monotonic()
        return cls(now, None if seconds is None else now + seconds)

    @property
    def limited(self) -> bool:
        """True when the clock can run out."""
        return self._ends is not None

    def expired(self) -> bool:
        """True once the time is up."""
        return self._ends is not None and time.monotonic() > self._ends

    def remaining(self) -> float | None:
        """Seconds left (at least 0), or ``None`` without a limit."""
        if self._ends is None:
            return None
        return max(0.0, self._ends - time.monotonic())

    def elapsed(self) -> float:
        """Seconds since the clock started."""
        return time.monotonic() - self.started

    def within(self, seconds: float) -> Clock:
        """This clock, cut to run out at most ``seconds`` from now (for one wait in the
        call: a connection, a child's answer)."""
        ends = time.monotonic() + seconds
        return Clock(self.started, ends if self._ends is None else min(ends, self._ends))

    def shifted(self, seconds: float) -> Clock:
        """This clock with its start and its end ``seconds`` later: time spent on what the
        limit does not cover (loading a solver's library, as ``Engine.prepare`` does
        before a call's clock starts) is taken out of both.

        Examples:
            >>> clock = Clock.start(1.0).shifted(5.0)
            >>> 5.9 < clock.remaining() <= 6.0, clock.elapsed() < -4.9
            (True, True)
        """
        ends = None if self._ends is None else self._ends + seconds
        return Clock(self.started + seconds, ends)

    def extended(self, seconds: float) -> Clock:
        """This clock with ``seconds`` of grace after its end (a limit's enforcer, which
        kills what overran it, waits a little longer than the limit itself)."""
        return Clock(self.started, None if self._ends is None else self._ends + seconds)
