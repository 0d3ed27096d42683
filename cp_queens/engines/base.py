"""The one interface every solver implements.

An engine answers three questions about a :class:`~cp_queens.problem.Problem`:

* ``solutions(problem, limit=None)`` - a *generator* of placements, so a
  caller can stream millions of them at flat memory and stop whenever it likes;
* ``count(problem)`` - how many solutions, without keeping them;
* ``first(problem)`` - one solution, or ``None`` when none exists (or the time
  limit ran out: ``stats.status`` says which).

After each call ``engine.stats`` describes that call. An engine that cannot
do a task (a formula cannot enumerate) raises
:class:`~cp_queens.errors.UnsupportedTaskError` instead of pretending; the
``can_*`` flags say so up front, so tests and the CLI can ask before calling.

A new engine is a small subclass in its own module under ``cp_queens/engines/``
decorated with :func:`cp_queens.engines.register`; the tests, the CLI and
``compare`` pick it up from the registry.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import ClassVar, NamedTuple

from cp_queens.errors import UnsupportedTaskError
from cp_queens.problem import Placement, Problem
from cp_queens.stats import COMPLETE, STOPPED, TIME_LIMIT, Stats


class UniqueCount(NamedTuple):
    """All solutions, and those distinct up to rotation and reflection."""

    total: int
    unique: int


#: Called now and then during a long search with the number of solutions so far.
ProgressCallback = Callable[[int], None]

#: Told of every step of a search, as ``tracer(kind, row, col)``, by engines that take a
#: ``tracer=`` option (``reference``, ``propagate``). Kinds: ``"place"`` (a queen on
#: ``(row, col)``: a new node), ``"reject"`` (the square was tested and is attacked),
#: ``"remove"`` (propagation crossed ``(row, col)`` out), ``"fail"`` (propagation after
#: the last ``place`` left some row empty), ``"dead-end"`` (no square of ``row`` could
#: be tried, ``col`` is -1), ``"solution"`` (every row has its queen; -1, -1) and
#: ``"undo"`` (the queen on ``(row, col)`` is taken back, with whatever was crossed out
#: since it was placed). Engines check for ``None`` once per step, so an engine without
#: a tracer pays next to nothing. :mod:`cp_queens.course.trace` draws these events.
Tracer = Callable[[str, int, int], None]


class Engine:
    """Base class of all engines: subclasses override what they can do.

    Subclasses set ``name`` and ``description``, the ``can_*`` flags, and
    override :meth:`_solutions` (and, where they have a faster way,
    :meth:`_count` and :meth:`_first`). The public methods add the
    bookkeeping every engine shares: support checks, the solution limit, timing
    and ``stats``.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    can_enumerate: ClassVar[bool] = True
    can_count: ClassVar[bool] = True
    supports_fixed: ClassVar[bool] = True
    #: Largest board the engine accepts, or ``None`` for no limit.
    max_n: ClassVar[int | None] = None

    def __init__(self, *, time_limit: float | None = None) -> None:
        self.time_limit = time_limit
        self.stats = Stats(engine=self.name)

    # -- public interface -------------------------------------------------

    def solutions(self, problem: Problem, *, limit: int | None = None) -> Iterator[Placement]:
        """Yield solutions one at a time; stop after ``limit`` of them if given."""
        self._check(problem, "enumerate", self.can_enumerate)
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0, got {limit}")
        return self._stream(problem, limit)

    def count(self, problem: Problem, *, progress: ProgressCallback | None = None) -> int:
        """Count all solutions without storing them."""
        self._check(problem, "count", self.can_count)
        self._start("count", problem)
        total = self._count(problem, progress)
        self._finish(total)
        return total

    def count_unique(
        self, problem: Problem, *, progress: ProgressCallback | None = None
    ) -> UniqueCount:
        """Count all solutions and those distinct up to the 8 symmetries of the square.

        Only defined without pre-placed queens (they break the symmetry).
        """
        self._check(problem, "count", self.can_count)
        if problem.fixed:
            raise UnsupportedTaskError(
                "unique counts (up to symmetry) are only defined without pre-placed queens"
            )
        self._start("count", problem)
        result = self._count_unique(problem, progress)
        self._finish(result.total)
        self.stats.extra["unique"] = result.unique
        return result

    def first(self, problem: Problem) -> Placement | None:
        """One solution, or ``None`` (no solution exists, or the time limit ran out)."""
        self._check(problem, "find a solution", True)
        self._start("first", problem)
        found = self._first(problem)
        self._finish(0 if found is None else 1)
        return found

    # -- to override --------------------------------------------------------

    def _solutions(self, problem: Problem) -> Iterator[Placement]:
        raise UnsupportedTaskError(f"engine '{self.name}' cannot enumerate solutions")

    def _count(self, problem: Problem, progress: ProgressCallback | None) -> int:
        total = 0
        for total, _ in enumerate(self._solutions(problem), start=1):
            if progress is not None and total % 4096 == 0:
                progress(total)
        return total

    def _count_unique(self, problem: Problem, progress: ProgressCallback | None) -> UniqueCount:
        """Default: enumerate everything and keep a tally of canonical representatives."""
        from cp_queens.symmetry import is_canonical

        total = unique = 0
        for total, placement in enumerate(self._solutions(problem), start=1):
            unique += is_canonical(placement)
            if progress is not None and total % 4096 == 0:
                progress(total)
        return UniqueCount(total, unique)

    def _first(self, problem: Problem) -> Placement | None:
        generator = self._solutions(problem)
        try:
            return next(generator, None)
        finally:
            generator.close()

    # -- shared bookkeeping -----------------------------------------------

    def _check(self, problem: Problem, task: str, supported: bool) -> None:
        if not supported:
            raise UnsupportedTaskError(f"engine '{self.name}' cannot {task}: {self.description}")
        if problem.fixed and not self.supports_fixed:
            raise UnsupportedTaskError(
                f"engine '{self.name}' does not support pre-placed queens (completion)"
            )
        if self.max_n is not None and problem.n > self.max_n:
            raise UnsupportedTaskError(
                f"engine '{self.name}' handles n <= {self.max_n}, got n={problem.n}"
            )

    def _start(self, task: str, problem: Problem) -> None:
        self.stats = Stats(engine=self.name, task=task, n=problem.n)
        self._started = time.perf_counter()

    def _finish(self, solutions: int, status: str | None = None) -> None:
        self.stats.wall_time = time.perf_counter() - self._started
        self.stats.solutions = solutions
        if status is not None:
            self.stats.status = status

    def _deadline(self) -> float | None:
        """Absolute ``perf_counter`` time at which the search must stop, if any."""
        return None if self.time_limit is None else self._started + self.time_limit

    def _stream(self, problem: Problem, limit: int | None) -> Iterator[Placement]:
        self._start("solutions", problem)
        emitted = 0
        status = COMPLETE
        if limit == 0:
            self._finish(0, STOPPED)
            return
        generator = self._solutions(problem)
        try:
            for placement in generator:
                emitted += 1
                yield placement
                if limit is not None and emitted >= limit:
                    status = STOPPED
                    break
        except BaseException:  # closed early, Ctrl-C, or an error: not complete
            status = STOPPED
            raise
        finally:
            generator.close()
            if self.stats.status == TIME_LIMIT:
                status = TIME_LIMIT
            self._finish(emitted, status)
