"""The one interface every solver implements, and how to add one.

An engine answers three questions about a ``Problem``:

* ``solutions(problem, limit=None)`` - a stream of placements, so a caller can
  read millions of them at flat memory and stop whenever it likes;
* ``count(problem)`` (and ``count_unique``) - how many solutions, without keeping them;
* ``first(problem)`` - one solution, or ``None`` when it is proven that none exists.

Every public method also takes ``budget=`` (a ``Budget``: time
limit, workers, where, checkpoint), the run settings of that call: the library and
the CLI pass one with every call. Without one, the call runs with none (no time
limit, the engine's own default workers, here).

Every call returns its result whole, as one value: ``count``, ``count_unique`` and
``first`` an ``Answer`` (``cp_queens.answer``: the value, whether it is complete, what
was found when it is not, why it stopped, and the call's ``Stats``), ``solutions`` a
``Solutions`` stream that carries its own statistics (``stream.stats``). An answer the
time limit cut short is marked, never passed off as whole: ``complete`` is false, the
figure found so far is in ``partial`` (never ``value``) and ``result()`` raises the
``TimeLimitError`` that says so. A stream first yields what it found, then raises
``TimeLimitError`` from ``next()``. A solution ``limit`` reached, or the caller
closing a stream, is not an error.

    >>> answer = TemplateEngine().count(Problem(6))
    >>> answer.value, answer.complete, answer.stats.solutions
    (4, True, 4)

Every call gets its own ``Call``: the problem, the budget and its one
``Clock`` (``call.clock``: the only way an engine reads the time; hand it to helpers
that poll), the solution limit, the progress callback and the ``Stats`` it fills.
Nothing about a call lives on the engine object, so one engine can serve several
calls at once (threads, or two open streams).

An engine that cannot do a task (a formula cannot enumerate) raises
``UnsupportedTaskError`` instead of pretending; the
``can_*`` flags say so up front, so tests and the CLI can ask before calling.

How to add an engine: copy ``TemplateEngine`` (below) into one new file,
``cp_queens/engines/my_engine.py`` for engine ``my-engine``, and register it; its
options, their choices and what it costs are attributes of its class. Step by step in
``docs/adding-an-engine.md``; test it with ``pytest --engine my-engine``.

``TemplateEngine`` below is the smallest complete engine; the tests run it
through the same contract as the real ones.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import cp_queens.limits as limits
from cp_queens.answer import ANSWER, NEGATIVE, Answer, cut_short
from cp_queens.budget import Budget, check_budget, check_time_limit
from cp_queens.engines.call import (
    SEED_RANGE,
    Call,
    ProgressCallback,
    Solutions,
    UniqueCount,
    check_limit,
    check_seed,
)
from cp_queens.errors import (
    EngineOptionError,
    TimeLimitError,
    UnsupportedTaskError,
)
from cp_queens.problem import Placement, Problem
from cp_queens.stats import COMPLETE, STOPPED, TIME_LIMIT, Stats

#: Every finished call logs its statistics line here at level INFO (as the CLI prints it).
LOGGER = "cp_queens"


__all__ = [
    "NO_BUDGET",
    "SEED_RANGE",
    "Answer",
    "Budget",
    "Call",
    "Engine",
    "ProgressCallback",
    "Solutions",
    "UniqueCount",
    "call_budget",
    "check_limit",
    "check_seed",
    "check_time_limit",
]


#: Told of every step of a search, as ``tracer(kind, row, col)``, by engines that take a
#: ``tracer=`` option (``reference``, ``propagate``). Kinds: ``"place"`` (a queen on
#: ``(row, col)``: a new node), ``"reject"`` (the square was tested and is attacked),
#: ``"remove"`` (propagation crossed ``(row, col)`` out), ``"fail"`` (propagation after
#: the last ``place`` left some row empty), ``"dead-end"`` (no square of ``row`` could
#: be tried, ``col`` is -1), ``"solution"`` (every row has its queen; -1, -1) and
#: ``"undo"`` (the queen on ``(row, col)`` is taken back, with whatever was crossed out
#: since it was placed). Engines check for ``None`` once per step, so an engine without
#: a tracer pays next to nothing. ``cp_queens.course.drawing.trace`` draws these events.
Tracer = Callable[[str, int, int], None]


#: The run settings of a call that brings none: no time limit, the engine's defaults.
NO_BUDGET = Budget()

#: Model setups estimated shorter than this (seconds) are not checked against the limit.
SETUP_CHECKED_FROM = 1.0


class Engine:
    """Base class of all engines: subclasses override what they can do.

    Subclasses set ``name`` and ``description``, the ``can_*`` flags, and
    override ``_solutions`` (and, where they have a faster way,
    ``_count``, ``_count_unique`` and ``_first``). The public
    methods add the bookkeeping every engine shares: support checks, the
    solution limit, the deadline, timing and statistics.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    can_enumerate: ClassVar[bool] = True
    can_count: ClassVar[bool] = True
    #: Takes pre-placed queens and blocked squares (the completion problem).
    supports_fixed: ClassVar[bool] = True
    #: Largest board the engine accepts, or ``None`` for no limit.
    max_n: ClassVar[int | None] = None
    #: The fields of a ``Budget`` this engine honours; the
    #: keywords of ``engines.get`` beyond the constructor's (``where`` is spelt
    #: ``scheduler``, ``cluster`` or ``executor`` there).
    budget_keys: ClassVar[tuple[str, ...]] = ("time_limit",)
    #: The values each option of the method takes, for ``check_options`` and the
    #: command line's choices (an option missing here takes any value its type allows).
    option_choices: ClassVar[dict[str, tuple[str, ...]]] = {}

    #: A count also gives the count up to symmetry at no extra cost, so callers may
    #: always ask ``count_unique``.
    unique_for_free: ClassVar[bool] = False
    #: What kind of solver answers (``"backtracking"``, ``"lazy clause generation"``,
    #: ``"MIP"``, ...), for reports such as ``compare``'s family column. An engine that
    #: runs other solvers (``cpmpy``, ``minizinc``) sets it per instance from the
    #: solver chosen; ``""`` means ``cp_queens.compare.FAMILIES`` names it by engine.
    family: str = ""

    #: Optional, looked up with ``getattr`` by writers of big files (``cp-queens
    #: enumerate``, the course's reference solutions): an engine that can stream its
    #: solutions as blocks defines ``solution_arrays(problem, *, limit=None,
    #: budget=None) -> Solutions``, each item a NumPy array of shape ``(k, n)`` (one
    #: row of columns a solution) in the order of ``solutions``, with the same limit,
    #: budget and statistics. ``fast`` does; an engine without it is streamed one
    #: ``Placement`` at a time.

    @classmethod
    def check_options(cls, **chosen: object) -> None:
        """The one check of option values against ``option_choices``, for every
        engine's constructor and the command line alike.

        Raises:
            EngineOptionError: a value not among the choices, naming them.
        """
        for option, value in chosen.items():
            choices = cls.option_choices.get(option)
            if choices is not None and value not in choices:
                raise EngineOptionError(
                    f"{cls.name}: unknown {option} '{value}' (choose from {', '.join(choices)})"
                )

    # What a call costs, checked before any work (``cp_queens.limits`` does the
    # arithmetic). Rough figures measured on the development machine (2 cores); they
    # only have to be right within a factor of a few, because they guard against
    # requests off by factors of millions. An instance may refine them by its options.
    #: Peak bytes per square of the residue for a model, or ``None``: no n x n model.
    bytes_per_square: ClassVar[float | None] = None
    #: CPU seconds per solution when counting on one core, or ``None``: unknown.
    seconds_per_solution: ClassVar[float | None] = None
    #: CPU seconds per node of the plain search tree (rows in order, every open column
    #: tried: what ``cp_queens.estimate`` sizes) when counting on one core, or ``None``:
    #: unknown. Prices a count of a given board, which has no table of totals; an engine
    #: that propagates visits fewer nodes and pays more for each, and this figure is
    #: its time over the plain tree's nodes.
    seconds_per_node: ClassVar[float | None] = None
    #: A count runs on every core (``seconds_per_solution`` is divided by them).
    counts_on_every_core: ClassVar[bool] = False
    #: Largest empty board on which a first solution is expected within minutes, or
    #: ``None``: no limit. Beyond it, a call without a time limit is refused.
    first_reach: ClassVar[int | None] = None
    #: Seconds per square to build and load a model, in steps that cannot look at the
    #: clock (a solver's own parsing and loading), or ``None``: the engine checks the
    #: clock as it builds. A time limit shorter than this setup ends the call at once.
    setup_seconds_per_square: ClassVar[float | None] = None

    def __init__(self) -> None:
        """An engine holds its method's options only: nothing of any call."""

    def able_to(self, task: str) -> bool:
        """Whether this engine, with the options it was built with, can ``task``
        (``"enumerate"`` or ``"count"``; any engine can look for a first solution).

        The ``can_*`` flags say what the engine's class can do with *some* options; an
        engine whose options take a task away (a local-search solver) overrides this.
        """
        return {"enumerate": self.can_enumerate, "count": self.can_count}.get(task, True)

    def prepare(self) -> None:
        """Load what the engine's calls need (a solver's library), once, so that the
        first call is not billed for it: ``compare`` times this as start-up, apart from
        the search. Calls prepare on their own; an engine whose module imports its
        solver has nothing left to do here."""

    # -- public interface -------------------------------------------------

    def solutions(
        self, problem: Problem, *, limit: int | None = None, budget: Budget | None = None
    ) -> Solutions:
        """Stream solutions one at a time; stop after ``limit`` of them if given.

        Args:
            problem: the board and any pre-placed queens.
            limit: at most this many solutions (a whole number >= 0), or ``None`` for all.
            budget: how the call may run (default: no limit, the engine's defaults).

        Returns:
            A ``Solutions`` stream; its ``stats`` describe the call so far. When the
            time limit cuts the stream short, ``next()`` raises
            ``TimeLimitError`` after the last solution found
            (``partial``: how many were yielded).

        Raises:
            UnsupportedTaskError: the engine cannot enumerate this problem.
        """
        budget = call_budget(budget)
        self._check(problem, "enumerate", self.able_to("enumerate"), budget)
        overrun = self._setup_overrun(problem, "solutions", budget, 0)
        if overrun is not None:
            # A stream cut short raises from ``next()``, after what it yielded: here none.
            return Solutions(_raise(overrun), overrun.stats)  # type: ignore[arg-type]
        call = self._call("solutions", problem, limit=check_limit(limit), budget=budget)
        return Solutions(self._stream(problem, call), call.stats)

    def count(
        self,
        problem: Problem,
        *,
        progress: ProgressCallback | None = None,
        budget: Budget | None = None,
    ) -> Answer:
        """Count all solutions without storing them.

        Args:
            problem: the board and any pre-placed queens.
            progress: called now and then with a ``Progress``.
            budget: how the call may run (default: no limit, the engine's defaults).

        Returns:
            The ``Answer``: ``value`` the number of solutions, ``stats`` the call's
            statistics. Cut short by the time limit, it is incomplete: ``partial`` the
            count so far (a lower bound), and ``result()`` raises ``TimeLimitError``.
        """
        budget = call_budget(budget)
        expected = self._check(problem, "count", self.able_to("count"), budget)
        overrun = self._setup_overrun(problem, "count", budget, 0)
        if overrun is not None:
            return cut_short("count", problem, overrun)
        call = self._call("count", problem, progress=progress, budget=budget)
        call.expect(expected)
        total = self._count(problem, call)
        self._finish(call, total)
        return self._answer("count", call, total, f"at least {total:,} solutions (a lower bound)")

    def count_unique(
        self,
        problem: Problem,
        *,
        progress: ProgressCallback | None = None,
        budget: Budget | None = None,
    ) -> Answer:
        """Count all solutions and those distinct up to the 8 symmetries of the square.

        Only defined without pre-placed queens (they break the symmetry). The
        ``Answer``'s value is a ``UniqueCount``; cut short, it is incomplete like
        ``count``'s, its ``partial`` a ``UniqueCount`` of lower bounds.
        """
        budget = call_budget(budget)
        expected = self._check(problem, "count", self.able_to("count"), budget)
        if not problem.is_empty_board:
            raise UnsupportedTaskError(
                "unique counts (up to symmetry) are only defined without pre-placed queens "
                "or blocked squares"
            )
        overrun = self._setup_overrun(problem, "count", budget, UniqueCount(0, 0))
        if overrun is not None:
            return cut_short("count_unique", problem, overrun)
        call = self._call("count", problem, progress=progress, budget=budget)
        call.expect(expected)
        result = self._count_unique(problem, call)
        call.stats.extra["unique"] = result.unique
        self._finish(call, result.total)
        return self._answer(
            "count_unique",
            call,
            result,
            f"at least {result.total:,} solutions, {result.unique:,} unique (lower bounds)",
        )

    def first(self, problem: Problem, *, budget: Budget | None = None) -> Answer:
        """One solution, or a proof that none exists.

        Returns:
            The ``Answer``: ``value`` a ``Placement``, or ``None`` with the outcome
            ``negative`` when it is proven that none exists. When the time limit ran
            out first, it is incomplete (``partial`` is ``None``: none is not proven).
        """
        budget = call_budget(budget)
        self._check(problem, "find a solution", True, budget)
        overrun = self._setup_overrun(problem, "first", budget, None)
        if overrun is not None:
            return cut_short("first", problem, overrun)
        call = self._call("first", problem, budget=budget)
        found = self._first(problem, call)
        self._finish(call, 0 if found is None else 1)
        if found is not None:  # a placement is an answer, however the search ended
            return Answer("first", problem, found, stats=call.stats)
        return self._answer("first", call, None, "no solution found (none is not proven)")

    # -- to override --------------------------------------------------------

    def _solutions(self, problem: Problem, call: Call) -> Iterator[Placement]:
        raise UnsupportedTaskError(f"engine '{self.name}' cannot enumerate solutions")

    def _count(self, problem: Problem, call: Call) -> int:
        total = 0
        for total, _ in enumerate(self._solutions(problem, call), start=1):
            if total % 4096 == 0:
                call.report(total)
        return total

    def _count_unique(self, problem: Problem, call: Call) -> UniqueCount:
        """Default: enumerate everything and keep a tally of canonical representatives."""
        from cp_queens.symmetry import is_canonical

        total = unique = 0
        for total, placement in enumerate(self._solutions(problem, call), start=1):
            unique += is_canonical(placement)
            if total % 4096 == 0:
                call.report(total)
        return UniqueCount(total, unique)

    def _first(self, problem: Problem, call: Call) -> Placement | None:
        generator = self._solutions(problem, call)
        try:
            return next(generator, None)
        finally:
            close = getattr(generator, "close", None)
            if close is not None:
                close()

    # -- shared bookkeeping -----------------------------------------------

    def _check(
        self, problem: Problem, task: str, supported: bool, budget: Budget = NO_BUDGET
    ) -> float | None:
        """Refuse what this engine cannot do, before any work.

        Returns:
            For a count of a whole board, the wall seconds it is expected to take
            (``None``: unknown or under a time limit), estimated here once.
        """
        if not supported:
            raise UnsupportedTaskError(f"engine '{self.name}' cannot {task}: {self.description}")
        if not problem.is_empty_board and not self.supports_fixed:
            raise UnsupportedTaskError(
                f"engine '{self.name}' does not support pre-placed queens or blocked squares "
                "(completion)"
            )
        if self.max_n is not None and problem.n > self.max_n:
            # A completion of a big board is often a small search (see Problem.residue),
            # but this engine works on the whole board: name the ones that take the residue.
            instead = (
                ""
                if problem.is_empty_board
                else "; for a completion of a larger board use 'reference', 'pyconstraint' or "
                "'cpsat', which search only the squares left open"
            )
            raise UnsupportedTaskError(
                f"engine '{self.name}' handles n <= {self.max_n}, got n={problem.n}{instead}"
            )
        # What the call will cost, before any work: a request off by factors of a million
        # is refused in a second, naming what can do it, not after minutes and a MemoryError.
        limits.check_memory(
            self,
            problem.n,
            problem.n - len(problem.fixed),
            completion=not problem.is_empty_board,
        )
        self._check_budget(budget)
        if task == "count" and problem.is_empty_board:  # blocked squares change the total
            return limits.check_count_reach(
                self, problem.n, self.count_cores(budget), budget.time_limit
            )
        if task == "count" and budget.time_limit is None:
            # A given board has no table of totals: its search tree is sized by probes.
            import cp_queens.estimate as estimate

            return estimate.check_tree_reach(
                self, problem, estimate.search_tree(problem), self.count_cores(budget)
            )
        if task != "count":
            limits.check_setup_reach(
                self, problem.n, problem.n - len(problem.fixed), budget.time_limit
            )
        if task != "count" and problem.is_empty_board:
            limits.check_first_reach(self, problem.n, budget.time_limit)
        return None

    def _setup_overrun(
        self, problem: Problem, task: str, budget: Budget, partial: object
    ) -> TimeLimitError | None:
        """The end of a call whose model setup alone would outlast its time limit, or
        ``None`` when the call may go ahead.

        Better now than after the limit: the solver does not look at the clock until
        its model is loaded, and the call would overrun by the whole setup. Setups
        under ``SETUP_CHECKED_FROM`` seconds are left to the limit itself.
        """
        limit = budget.time_limit
        setup = limits.setup_seconds(self, problem.n, problem.n - len(problem.fixed))
        if limit is None or setup is None or setup < SETUP_CHECKED_FROM or setup <= limit:
            return None
        stats = Stats(engine=self.name, task=task, n=problem.n, status=TIME_LIMIT)
        stats.time_limit = limit
        stats.extra["setup_seconds"] = round(setup, 1)
        return TimeLimitError(
            f"engine '{self.name}' needs {limits.format_duration(setup)} to build "
            f"and load its model of n={problem.n}, more than the time limit of "
            f"{limit:g} s; nothing was searched",
            partial=partial,
            stats=stats,
        )

    def _check_budget(self, budget: Budget) -> None:
        """A run setting this engine would ignore is refused, as ``engines.get`` does."""
        for key in ("time_limit", "workers", "where", "checkpoint"):
            if getattr(budget, key) is not None and key not in self.budget_keys:
                raise EngineOptionError(
                    f"engine '{self.name}' does not take {key} (its run settings: "
                    f"{', '.join(self.budget_keys)})"
                )

    def count_cores(self, budget: Budget = NO_BUDGET) -> int:
        """Cores a count of this engine may use under ``budget`` (a cluster: as many as it
        takes)."""
        return budget.cores()

    def _call(
        self,
        task: str,
        problem: Problem,
        *,
        limit: int | None = None,
        progress: ProgressCallback | None = None,
        budget: Budget = NO_BUDGET,
    ) -> Call:
        stats = Stats(engine=self.name, task=task, n=problem.n, time_limit=budget.time_limit)
        return Call(task, problem, stats, budget, limit=limit, progress=progress)

    def _answer(self, task: str, call: Call, found: Any, words: str) -> Answer:
        """The call's ``Answer``: whole, or, when the time limit cut the search short,
        marked incomplete with what was ``found`` as its partial figure (``words`` say
        what that is, in the ``TimeLimitError`` that ``result()`` raises)."""
        if call.stats.status != TIME_LIMIT:
            outcome = NEGATIVE if task == "first" and found is None else ANSWER
            return Answer(task, call.problem, found, outcome=outcome, stats=call.stats)
        return cut_short(task, call.problem, self._cut(call, found, words))

    def _cut(self, call: Call, partial: object, words: str) -> TimeLimitError:
        """What a call the time limit cut short raises when its answer is asked for."""
        limit = call.budget.time_limit
        # Without a time limit, only a search that gives up (local search after its
        # steps) ends so: no less incomplete, and the same exit code for the CLI.
        why = "gave up" if limit is None else f"stopped by the time limit of {limit:g} s"
        return TimeLimitError(
            f"engine '{self.name}' {why} at n={call.problem.n}: {words}; the answer is incomplete",
            partial=partial,
            stats=call.stats,
        )

    def _finish(self, call: Call, solutions: int, status: str | None = None) -> None:
        call.stats.wall_time = call.clock.elapsed()
        call.stats.solutions = solutions
        if status is not None and call.stats.status == COMPLETE:
            call.stats.status = status
        # Whoever wants these lines configured ``logging``, which imports it; when nobody
        # did, an INFO record goes nowhere, and importing ``logging`` to drop it would cost
        # a small command more than its search.
        logging = sys.modules.get("logging")
        if logging is not None:
            logging.getLogger(LOGGER).info("%s", call.stats.summary())

    def _stream(
        self, problem: Problem, call: Call, blocks: Iterator[Any] | None = None
    ) -> Iterator[Any]:
        """The stream behind ``solutions``: the limit, the status and the statistics.

        ``blocks``: solutions in blocks (anything with ``len()`` and slicing, such as the
        rows of an array) to stream as they come, the last one cut to the limit; by
        default the engine's ``_solutions``, one placement at a time.
        """
        one_by_one = blocks is None
        if call.limit == 0:  # nothing wanted: not even a model built
            if blocks is not None:
                blocks.close()  # type: ignore[attr-defined]
            self._finish(call, 0, STOPPED)
            return
        source = self._solutions(problem, call) if blocks is None else blocks
        emitted = 0
        status = COMPLETE
        try:
            for item in source:
                size = 1 if one_by_one else len(item)
                if call.limit is not None and emitted + size >= call.limit:
                    if not one_by_one:
                        item = item[: call.limit - emitted]
                    size = call.limit - emitted
                    status = STOPPED
                emitted += size
                call.stats.solutions = emitted
                yield item
                if status == STOPPED:
                    break
        except BaseException:  # closed early, Ctrl-C, or an error: not complete
            status = STOPPED
            raise
        finally:
            close = getattr(source, "close", None)
            if close is not None:
                close()
            self._finish(call, emitted, status)
        # The time limit cut the stream short: ``next()`` raises after the last solution.
        if call.stats.status == TIME_LIMIT:
            raise self._cut(call, emitted, f"{emitted:,} solutions streamed (there may be more)")


def _raise(error: BaseException) -> Iterator[Placement]:
    """A stream that raises ``error`` at its first ``next()``."""
    raise error
    yield  # a generator, so that nothing is raised before the first next()


class TemplateEngine(Engine):
    """The smallest complete engine: copy it to start a new one.

    Chronological backtracking, row by row: try every column in the next row and
    keep it if no queen above attacks it. Not registered (it is here to be read and
    copied); the contract tests run it like every registered engine.

    Examples:
        >>> TemplateEngine().count(Problem(6)).value
        4
    """

    name = "template"
    description = "the smallest complete engine, for newcomers to copy"
    max_n = 12  # plain backtracking in Python gets slow beyond this

    def _solutions(self, problem: Problem, call: Call) -> Iterator[Placement]:
        n, fixed, blocked = problem.n, problem.fixed, problem.blocked
        cols: list[int] = []
        next_col = [0]  # next_col[r]: the next column to try in row r
        while next_col:
            row = len(cols)
            if row == n:
                yield Placement(tuple(cols))
                next_col.pop()
                cols.pop()
                continue
            if call.expired():
                call.stop_for_time()
                return
            col = next_col[row]
            if col == n:  # every column tried: back to the row above
                next_col.pop()
                if cols:
                    cols.pop()
                continue
            next_col[row] = col + 1
            allowed = fixed.get(row, col) == col and (row, col) not in blocked
            if allowed and all(c != col and abs(c - col) != row - r for r, c in enumerate(cols)):
                call.stats.branches = (call.stats.branches or 0) + 1
                cols.append(col)
                next_col.append(0)


def call_budget(budget: object) -> Budget:
    """The budget a call was given (checked to be one), or ``NO_BUDGET``."""
    return check_budget(budget) or NO_BUDGET
