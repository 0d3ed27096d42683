"""cp_queens: solve, count and enumerate N-Queens placements with a constraint model
and a hand-written backtracker, side by side.

Examples:
    >>> import cp_queens
    >>> cp_queens.count(8)
    92
    >>> cp_queens.first(6, engine="reference")
    Placement([1, 3, 5, 0, 2, 4])
    >>> cp_queens.verify([1, 3, 0, 2]).ok
    True

Each function gives the value of what ``cp_queens.ask()`` found
(``Answer.result()``): every answer is complete or the call raises. A count, first
solution or stream that a time limit cut short raises ``TimeLimitError``, which carries
what was found (``partial``) and the statistics (``stats``):

    >>> try:
    ...     cp_queens.count(14, engine="reference", time_limit=0.01)
    ... except cp_queens.TimeLimitError as cut:
    ...     print("at least", cut.partial < 365596, cut.stats.status)
    at least True time_limit

The run settings (time limit, workers, where, checkpoint) go with each call, either as
keywords or as one ``Budget``:

    >>> cp_queens.count(8, budget=cp_queens.Budget.of(time_limit=30))
    92
"""

from __future__ import annotations

import cp_queens.startup  # noqa: F401  (first: the command's signals from its first moment)

# isort: split
import operator
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from cp_queens import engines
from cp_queens.answer import Answer
from cp_queens.budget import KEYWORDS, Budget, check_budget
from cp_queens.engines.ask import ask
from cp_queens.engines.base import Engine, Solutions, UniqueCount
from cp_queens.errors import (
    CpQueensError,
    EngineOptionError,
    IncompleteError,
    InvalidProblemError,
    TimeLimitError,
    UnknownEngineError,
)
from cp_queens.problem import Placement, Problem, squares
from cp_queens.stats import Stats
from cp_queens.verify import Verdict, verify

#: The package version; ``pyproject.toml`` reads it from here (one source).
__version__ = "0.1.0"

__all__ = [
    "Answer",
    "Budget",
    "CpQueensError",
    "IncompleteError",
    "Placement",
    "Problem",
    "Stats",
    "TimeLimitError",
    "Verdict",
    "__version__",
    "ask",
    "count",
    "count_unique",
    "default_complete_engine",
    "default_solve_engine",
    "engines",
    "first",
    "solutions",
    "verify",
]

#: Engine used by ``first`` and ``solutions``: this is a modelling toolkit.
DEFAULT_MODEL_ENGINE = "cpsat"


def default_count_engine() -> str:
    """The fastest exact counting engine that is installed."""
    available = engines.names()
    for name in ("fast", "reference"):
        if name in available:
            return name
    return "reference"


def default_enumerate_engine(n: int, model_options: bool = False) -> str:
    """The engine ``cp-queens enumerate N`` uses when none is named: the fastest exact
    one installed (the compiled ``fast``: n = 15 in about 3 CPU-s where the CP-SAT model
    took over 110) on the boards it handles; the CP-SAT model above them, or when options
    of a model were given (``model_options``: ``--method``, ``--strategy`` and the like
    are its options).

    Examples:
        >>> default_enumerate_engine(8, model_options=True) == DEFAULT_MODEL_ENGINE
        True
        >>> default_enumerate_engine(10_000) == DEFAULT_MODEL_ENGINE
        True
    """
    name = default_count_engine()
    largest = engines.engine_class(name).max_n
    if model_options or (largest is not None and n > largest):
        return DEFAULT_MODEL_ENGINE
    return name


#: Largest board for which ``default_solve_engine`` picks the CP-SAT model. Its
#: greedy search finds n = 500 in about a second, but the 0/1 view has n^2 literals
#: (n = 2000: some 20 s and gigabytes); the formula is instant at any n.
SOLVE_WITH_MODEL_UP_TO = 500


def default_solve_engine(n: int, *, fixed: bool = False) -> str:
    """The engine ``cp-queens solve`` uses when none is named.

    The CP-SAT model for boards up to ``SOLVE_WITH_MODEL_UP_TO`` and for any
    completion problem (only a complete search can prove that none exists); the
    ``construct`` formula, O(n), for larger empty boards.

    Examples:
        >>> default_solve_engine(8), default_solve_engine(1_000_000)
        ('cpsat', 'construct')
    """
    if fixed or n <= SOLVE_WITH_MODEL_UP_TO:
        return DEFAULT_MODEL_ENGINE
    return "construct"


#: Largest residue (open squares, see ``Problem.residue``) that
#: ``default_complete_engine`` gives to python-constraint. Such a search is
#: over in milliseconds in any engine, so what counts is start-up: OR-Tools takes
#: about 0.8 s of CPU to import, python-constraint 0.1 s. Larger residues go to
#: CP-SAT, whose propagation and clause learning win once there is real search
#: (``benchmarks/completion.py``: counting 5932 completions on 169 open squares
#: took CP-SAT 1.4 s and python-constraint more than 30 s).
SMALL_RESIDUE = 64


def default_complete_engine(
    problem: Problem, task: str = "first", options: Collection[str] = ()
) -> str:
    """The engine ``cp-queens complete`` uses when none is named: by the size of the
    residue, or, when ``options`` are chosen, the first engine that takes them all.

    A board with nothing given or blocked is a plain solve: one completion comes from
    the ``construct`` formula (a billion-square board is then refused for its memory
    in a second, or solved in O(n), never modelled). A residue of at most
    ``SMALL_RESIDUE`` open squares goes to python-constraint whatever the task: any
    engine searches it in milliseconds, and it starts fastest. Every other count goes
    to the counting engine (``fast``) on the boards its masks hold (n <= 62): measured
    fastest on every kind of board (``benchmarks/completion_engines.py``: CSPLib
    prob079's gen-20-4-1..3 in 1-3 s, where CP-SAT ran 120-900 s; a proof of "none" on
    a blocked board 5 times faster). One completion goes there
    only when its whole search is priced at seconds (``FIRST_BY_COUNTER``, by random
    probes of the tree): its lexicographic search is lost on a large board with few
    queens given (n = 40 with two: over 60 s, python-constraint 0.8 s). Otherwise by
    the size of the residue.

    Examples:
        >>> default_complete_engine(Problem(8, {0: 0, 1: 2, 2: 4, 3: 6}))
        'pyconstraint'
        >>> default_complete_engine(Problem(12, blocked=[(0, 0)]))  # searched through at once
        'fast'
        >>> default_complete_engine(Problem(40, {8: 36, 4: 16}))  # the counter would be lost
        'cpsat'
        >>> default_complete_engine(Problem(10**9)), default_complete_engine(Problem(12), "count")
        ('construct', 'fast')
        >>> default_complete_engine(Problem(20, {0: 0}), "count")
        'fast'
        >>> default_complete_engine(Problem(8, {0: 0}), "count")  # 29 open squares
        'pyconstraint'
        >>> default_complete_engine(Problem(100, {0: 0}), "count")
        'cpsat'
        >>> default_complete_engine(Problem(12, blocked=[(0, 0)]), options=["consistency"])
        'propagate'
    """
    by_size = _default_complete_engine(problem, task)
    if not options:
        return by_size
    candidates = dict.fromkeys((by_size, DEFAULT_MODEL_ENGINE, "pyconstraint", "propagate"))
    for name in candidates:
        try:
            if set(options) <= set(engines.options(name)):
                return name
        except UnknownEngineError:  # its optional package is not installed
            continue
    return by_size  # no engine takes them all: building it names the option it lacks


def _default_complete_engine(problem: Problem, task: str) -> str:
    if problem.is_empty_board and task == "first":
        return "construct"
    counter = default_count_engine()
    if task == "count" and problem.is_empty_board:
        return counter
    if problem.residue().open_squares() <= SMALL_RESIDUE:
        return "pyconstraint"  # start-up is all here: chosen before the counter is loaded
    if not _holds(counter, problem):
        return DEFAULT_MODEL_ENGINE
    if task == "count" or _whole_search_within(problem, counter, FIRST_BY_COUNTER):
        return counter
    return DEFAULT_MODEL_ENGINE


def _holds(name: str, problem: Problem) -> bool:
    """Whether engine ``name`` takes a board of ``problem``'s size (its ``max_n``)."""
    limit = engines.engine_class(name).max_n
    return limit is None or problem.n <= limit


#: One completion goes to the counting engine when its whole search tree (the proof
#: that there is none, at worst) is priced under this many seconds: on CSPLib prob079's
#: ``blocked-20-no-completion`` it proves "none" in 0.24 s of CPU, CP-SAT in 1.8 s.
FIRST_BY_COUNTER = 5.0


def _whole_search_within(problem: Problem, name: str, seconds: float) -> bool:
    """Whether engine ``name`` searches the whole tree of ``problem`` within ``seconds``,
    as priced by random probes (``cp_queens.estimate``, some 0.1 s)."""
    from cp_queens.estimate import search_tree, tree_seconds

    priced = tree_seconds(engines.engine_class(name), search_tree(problem))
    return priced is not None and priced <= seconds


#: The keywords the library's functions take themselves (beyond an engine's options).
_OWN = ("fixed", "blocked", "engine", "budget")

#: Squares where no queen may stand, as ``(row, column)`` pairs.
Squares = Iterable[tuple[int, int]]


def _problem(
    n: int | Problem, fixed: Mapping[int, int] | None, blocked: Squares | None = None
) -> Problem:
    """The problem asked for, with NumPy integers (``np.int64(8)``) taken as Python ints."""
    if isinstance(n, Problem):
        if fixed is not None or blocked is not None:
            raise InvalidProblemError(
                "fixed and blocked go with a board size; "
                "a Problem holds its own queens and blocked squares"
            )
        return n
    queens = squares({} if fixed is None else fixed, "fixed", mapping=True)
    return Problem.from_queens(
        _as_int(n),
        [(_as_int(r), _as_int(c)) for r, c in queens],
        [
            (_as_int(r), _as_int(c))
            for r, c in squares(() if blocked is None else blocked, "blocked")
        ],
    )


def _as_int(value: Any) -> Any:
    """A Python int for any integer type (``__index__``); anything else unchanged, so that
    ``Problem`` names it in its error."""
    if isinstance(value, int) or not hasattr(value, "__index__"):  # bool is an int too
        return value
    return operator.index(value)


def _engine(
    function: str, own: tuple[str, ...], name: str, budget: object, options: dict[str, Any]
) -> tuple[Engine, Budget | None]:
    """Engine ``name`` built with ``options``, and the budget of this call.

    The run settings come either as ``budget=`` or as keywords (``time_limit=5``),
    not both. A keyword that is neither one of ``function``'s own (``own``) nor an
    option of the engine is named as a keyword of ``function``, with the nearest of
    its own: ``solutions(8, enigne=...)`` is a typo of ``engine``, not an option that
    engine ``cpsat`` lacks.
    """
    budget = check_budget(budget)
    known = engines.options(name)
    for key in options:
        if key not in known and key not in KEYWORDS:
            import difflib

            near = difflib.get_close_matches(key, own, n=1, cutoff=0.7)
            hint = f" (did you mean {near[0]}=?)" if near else ""
            raise EngineOptionError(
                f"{function}() got an unknown keyword '{key}'{hint}: not one of its own "
                f"({', '.join(own)}) nor an option of engine '{name}' "
                f"({', '.join(known) or 'none'})"
            )
    given = sorted(options.keys() & set(KEYWORDS))
    if budget is not None and given:
        raise EngineOptionError(
            f"{function}(): give the run settings in budget= or as keywords "
            f"({', '.join(given)}), not both"
        )
    engine, made = engines.build(name, **options)
    return engine, budget or made


def first(
    n: int | Problem,
    *,
    fixed: Mapping[int, int] | None = None,
    blocked: Squares | None = None,
    engine: str = DEFAULT_MODEL_ENGINE,
    budget: Budget | None = None,
    **options: Any,
) -> Placement | None:
    """One solution of the n-queens problem (or its completion), or ``None``.

    Args:
        n: the board size, or a whole ``Problem``.
        fixed: pre-placed queens, ``{row: column}`` (the completion problem).
        blocked: squares where no queen may stand, ``[(row, column), ...]``.
        engine: which engine searches (see ``cp_queens.engines.names()``).
        budget: the run settings of the call (``Budget.of(time_limit=5)``), or give
            them as keywords; not both.
        **options: engine options, e.g. ``time_limit=5`` (see ``engines.options(name)``).

    Returns:
        A ``Placement``, or ``None`` when it is proven that there is none.

    Raises:
        CpQueensError: a bad board, an unknown engine or option, or a task the
            engine cannot do.
        TimeLimitError: the time limit ran out before a solution or a proof that
            none exists.

    Examples:
        >>> first(4, engine="reference")
        Placement([1, 3, 0, 2])
        >>> first(3, engine="reference") is None
        True
    """
    problem = _problem(n, fixed, blocked)
    solver, budget = _engine("first", _OWN, engine, budget, options)
    return ask("first", problem, solver, budget=budget).result()


def count(
    n: int | Problem,
    *,
    fixed: Mapping[int, int] | None = None,
    blocked: Squares | None = None,
    engine: str | None = None,
    budget: Budget | None = None,
    **options: Any,
) -> int:
    """The number of solutions; by default with the fastest exact engine installed.

    ``cp-queens count`` takes this same door: ``count(17)`` uses every core,
    ``workers=1`` one process, ``checkpoint="f.jsonl"`` makes it resumable and
    ``cluster="local:2"`` / ``scheduler="tcp://..."`` runs it on Dask (the run
    settings of a ``Budget``, which the ``fast`` engine honours in full). With
    ``logging`` at level INFO the statistics line of every call is logged to the
    ``cp_queens`` logger, as the CLI prints it.

    Args:
        n: the board size, or a whole ``Problem``.
        fixed: pre-placed queens, ``{row: column}``.
        blocked: squares where no queen may stand, ``[(row, column), ...]``.
        engine: which engine counts; default ``fast`` (a given board beyond its 62
            rows: the engine ``cp-queens complete --count`` picks, see
            ``default_complete_engine``).
        budget: the run settings of the call (``Budget.of(time_limit=5, workers=1)``),
            or give them as keywords; not both.
        **options: engine options (``time_limit``, ``workers``, ``checkpoint``, ...).

    Returns:
        The number of solutions, complete.

    Raises:
        CpQueensError: a bad board, an unknown engine or option.
        TimeLimitError: the time limit cut the count short; its ``partial`` is the
            count so far, a lower bound.

    Examples:
        >>> count(8)
        92
        >>> count(6, fixed={0: 1}, engine="reference")
        1
        >>> count(6, blocked=[(0, 1)], engine="reference")
        3
    """
    problem = _problem(n, fixed, blocked)
    name = engine or default_complete_engine(problem, "count")
    solver, budget = _engine("count", _OWN, name, budget, options)
    return ask("count", problem, solver, budget=budget).result()


def count_unique(
    n: int | Problem,
    *,
    fixed: Mapping[int, int] | None = None,
    blocked: Squares | None = None,
    engine: str | None = None,
    budget: Budget | None = None,
    **options: Any,
) -> UniqueCount:
    """All solutions and those distinct up to rotation and reflection, in one call.

    Args:
        n: the board size, or a whole ``Problem``.
        fixed, blocked: accepted like ``count``'s, but given queens and blocked
            squares break the symmetry: the engine refuses them in one clear error.
        engine: which engine counts; default ``fast`` (both numbers in one pass).
        budget: the run settings of the call, as for ``count``.
        **options: engine options, as for ``count``.

    Returns:
        ``UniqueCount(total, unique)``; like ``count`` it raises
        ``TimeLimitError`` (``partial``: a ``UniqueCount`` of lower bounds)
        when the time limit cuts it short.

    Examples:
        >>> count_unique(8)
        UniqueCount(total=92, unique=12)
    """
    problem = _problem(n, fixed, blocked)
    name = engine or default_count_engine()
    solver, budget = _engine("count_unique", _OWN, name, budget, options)
    return ask("count_unique", problem, solver, budget=budget).result()


def solutions(
    n: int | Problem,
    *,
    fixed: Mapping[int, int] | None = None,
    blocked: Squares | None = None,
    engine: str = DEFAULT_MODEL_ENGINE,
    limit: int | None = None,
    budget: Budget | None = None,
    **options: Any,
) -> Solutions:
    """Stream solutions one at a time at flat memory; stop after ``limit`` if given.

    Args:
        n: the board size, or a whole ``Problem``.
        fixed: pre-placed queens, ``{row: column}``.
        blocked: squares where no queen may stand, ``[(row, column), ...]``.
        engine: which engine enumerates (default ``cpsat``, the model).
        limit: at most this many solutions (a whole number), or ``None`` for all.
        budget: the run settings of the call, as for ``first``.
        **options: engine options.

    Returns:
        A stream of ``Placement`` (close it, or use it in ``with``, to stop
        the search early); its ``stats`` describe the call so far. If the time
        limit cuts it short, it yields what it found and then raises
        ``TimeLimitError`` (``partial``: how many it yielded); reaching
        ``limit`` or closing it is not an error.

    Examples:
        >>> with solutions(6, engine="reference", limit=2) as stream:
        ...     [p.cols for p in stream]
        [(1, 3, 5, 0, 2, 4), (2, 5, 1, 4, 0, 3)]
    """
    problem = _problem(n, fixed, blocked)
    solver, budget = _engine("solutions", (*_OWN, "limit"), engine, budget, options)
    return solver.solutions(problem, limit=limit, budget=budget)
