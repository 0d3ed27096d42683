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
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Mapping
from typing import Any

from cp_queens import engines
from cp_queens.errors import CpQueensError
from cp_queens.problem import Placement, Problem
from cp_queens.stats import Stats
from cp_queens.verify import Verdict, verify

#: The package version; ``pyproject.toml`` reads it from here (one source).
__version__ = "0.1.0"

__all__ = [
    "CpQueensError",
    "Placement",
    "Problem",
    "Stats",
    "Verdict",
    "__version__",
    "count",
    "default_complete_engine",
    "default_solve_engine",
    "engines",
    "first",
    "solutions",
    "verify",
]

#: Engine used by :func:`first` and :func:`solutions`: this is a modelling toolkit.
DEFAULT_MODEL_ENGINE = "cpsat"


def default_count_engine() -> str:
    """The fastest exact counting engine that is installed."""
    available = engines.names()
    for name in ("fast", "reference"):
        if name in available:
            return name
    return "reference"


#: Largest board for which :func:`default_solve_engine` picks the CP-SAT model. Its
#: greedy search finds n = 500 in about a second, but the 0/1 view has n^2 literals
#: (n = 2000: some 20 s and gigabytes); the formula is instant at any n.
SOLVE_WITH_MODEL_UP_TO = 500


def default_solve_engine(n: int, *, fixed: bool = False) -> str:
    """The engine ``cp-queens solve`` uses when none is named.

    The CP-SAT model for boards up to :data:`SOLVE_WITH_MODEL_UP_TO` and for any
    completion problem (only a complete search can prove that none exists); the
    ``construct`` formula, O(n), for larger empty boards.

    Examples:
        >>> default_solve_engine(8), default_solve_engine(1_000_000)
        ('cpsat', 'construct')
    """
    if fixed or n <= SOLVE_WITH_MODEL_UP_TO:
        return DEFAULT_MODEL_ENGINE
    return "construct"


#: Largest residue (open squares, see :meth:`Problem.residue`) that
#: :func:`default_complete_engine` gives to python-constraint. Such a search is
#: over in milliseconds in any engine, so what counts is start-up: OR-Tools takes
#: about 0.8 s of CPU to import, python-constraint 0.1 s. Larger residues go to
#: CP-SAT, whose propagation and clause learning win once there is real search
#: (``benchmarks/completion.py``: counting 5932 completions on 169 open squares
#: took CP-SAT 1.4 s and python-constraint more than 30 s).
SMALL_RESIDUE = 64


def default_complete_engine(problem: Problem) -> str:
    """The engine ``cp-queens complete`` uses when none is named, by the size of the residue.

    Examples:
        >>> default_complete_engine(Problem(8, {0: 0, 1: 2, 2: 4, 3: 6}))
        'pyconstraint'
        >>> default_complete_engine(Problem(12))
        'cpsat'
    """
    if problem.residue().open_squares() <= SMALL_RESIDUE:
        return "pyconstraint"
    return DEFAULT_MODEL_ENGINE


def _problem(n: int | Problem, fixed: Mapping[int, int] | None) -> Problem:
    """The problem asked for, with NumPy integers (``np.int64(8)``) taken as Python ints."""
    if isinstance(n, Problem):
        return n
    return Problem(_as_int(n), {_as_int(r): _as_int(c) for r, c in (fixed or {}).items()})


def _as_int(value: Any) -> Any:
    """A Python int for any integer type (``__index__``); anything else unchanged, so that
    :class:`Problem` names it in its error."""
    if isinstance(value, int) or not hasattr(value, "__index__"):  # bool is an int too
        return value
    return operator.index(value)


def first(
    n: int | Problem,
    *,
    fixed: Mapping[int, int] | None = None,
    engine: str = DEFAULT_MODEL_ENGINE,
    **options: Any,
) -> Placement | None:
    """One solution of the n-queens problem (or its completion), or ``None``."""
    return engines.get(engine, **options).first(_problem(n, fixed))


def count(
    n: int | Problem,
    *,
    fixed: Mapping[int, int] | None = None,
    engine: str | None = None,
    **options: Any,
) -> int:
    """The number of solutions; by default with the fastest exact engine installed."""
    return engines.get(engine or default_count_engine(), **options).count(_problem(n, fixed))


def solutions(
    n: int | Problem,
    *,
    fixed: Mapping[int, int] | None = None,
    engine: str = DEFAULT_MODEL_ENGINE,
    limit: int | None = None,
    **options: Any,
) -> Iterator[Placement]:
    """Stream solutions one at a time (flat memory); stop after ``limit`` if given."""
    return engines.get(engine, **options).solutions(_problem(n, fixed), limit=limit)
