"""``construct``: one solution for any board size, by formula, in O(n) - no search at all.

Search engines slow down sharply with ``n``; a formula does not. The
construction used here is the classical explicit solution published by

* E. J. Hoffman, J. C. Loessi and R. C. Moore, "Constructions for the Solution
  of the m Queens Problem", *Mathematics Magazine* 42(2), 66-72, 1969;
* restated compactly by B. Bernhardsson, "Explicit solutions to the N-queens
  problem for all N", *ACM SIGART Bulletin* 2(2), 7, 1991.

In 1-based ``(row, column)`` coordinates, with ``m = n // 2``:

* **n even, n mod 6 != 2**: for ``i = 1..m`` a queen at ``(i, 2i)`` and one at
  ``(m + i, 2i - 1)``; the top half takes the even columns, the bottom half the
  odd ones, each half a "knight's move" staircase.
* **n even, n mod 6 != 0** (so it covers n mod 6 == 2): with
  ``k(i) = (2(i - 1) + m - 1) mod n``, a queen at ``(i, 1 + k(i))`` and one at
  ``(n + 1 - i, n - k(i))``.
* **n odd**: solve ``n - 1`` by the rule that fits it, then add a queen at the
  corner ``(n, n)``. Both even rules leave the main diagonal empty, so the
  corner queen attacks nobody.

No solution exists for ``n = 2`` and ``n = 3`` (``first`` answers ``None``);
``n = 1`` is a single queen. The construction gives *one* placement, so this
engine cannot enumerate or count, and it does not take pre-placed queens.
The formula is evaluated with NumPy, so a million queens take milliseconds.

Examples:
    >>> from cp_queens import Problem, engines
    >>> engines.get("construct").first(Problem(8)).value
    Placement([3, 5, 7, 1, 6, 0, 2, 4])
    >>> engines.get("construct").first(Problem(3)).outcome  # proven: none exists
    'negative'
"""

from __future__ import annotations

import numpy as np

from cp_queens.engines import register
from cp_queens.engines.base import Call, Engine
from cp_queens.problem import Placement, Problem


def construct_columns(n: int) -> np.ndarray | None:
    """0-based columns ``q[r]`` of the explicit solution, or ``None`` for n = 2, 3."""
    if n == 1:
        return np.zeros(1, dtype=np.int64)
    if n in (2, 3):
        return None
    if n % 2 == 1:
        cols = np.empty(n, dtype=np.int64)
        cols[: n - 1] = _even_columns(n - 1)
        cols[n - 1] = n - 1
        return cols
    return _even_columns(n)


def _even_columns(n: int) -> np.ndarray:
    """The rule for even ``n`` (1-based in the docstring, 0-based here)."""
    m = n // 2
    i = np.arange(1, m + 1, dtype=np.int64)
    cols = np.empty(n, dtype=np.int64)
    if n % 6 != 2:
        cols[:m] = 2 * i - 1  # rows i       -> column 2i     (1-based)
        cols[m:] = 2 * i - 2  # rows m + i   -> column 2i - 1
    else:
        k = (2 * (i - 1) + m - 1) % n
        cols[i - 1] = k  # row i         -> column 1 + k(i)
        cols[n - i] = n - 1 - k  # row n + 1 - i -> column n - k(i)
    return cols


@register
class ConstructEngine(Engine):
    """Evaluates the Hoffman-Loessi-Moore formula: one placement for every n >= 4."""

    name = "construct"
    description = (
        "explicit formula (Hoffman, Loessi & Moore 1969): one solution for any n in O(n); "
        "it cannot enumerate, count or take pre-placed queens"
    )
    can_enumerate = False
    can_count = False
    supports_fixed = False

    def _first(self, problem: Problem, call: Call) -> Placement | None:
        cols = construct_columns(problem.n)
        return None if cols is None else Placement(tuple(cols.tolist()))
