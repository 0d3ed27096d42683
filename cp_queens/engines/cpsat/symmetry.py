"""Symmetry-breaking constraints for the CP-SAT model of ``cp_queens.engines.cpsat``.

Three levels a course can compare (``symmetry=`` on the ``cpsat`` engine):

* ``"none"``   - every solution;
* ``"mirror"`` - the queen of the first row stays in the left half
  (``2 * q[0] <= n - 1``). One line, and it keeps exactly one of each mirror
  pair whose first queen is off the middle column; for odd ``n`` the
  solutions starting in the middle column are kept with their mirror image;
* ``"full"``   - the lex-leader break: ``q`` must be lexicographically no
  larger than each of its 7 images, so exactly the canonical solution of
  every orbit (see ``cp_queens.symmetry``) survives.

The images are linear in ``q`` or in its inverse permutation ``inv``
(``inv[c]`` = row of the queen in column ``c``, tied to ``q`` by
``AddInverse``); the table is in ``cp_queens.symmetry``. CP-SAT has no
lexicographic constraint, so ``x <=lex y`` is spelled out with reified
Booleans: ``same[i]`` <=> "the first ``i`` entries are equal", and
``same[i]`` forces ``x[i] <= y[i]``. Every auxiliary variable is fixed by
``q``, which matters when enumerating: a free Boolean would make CP-SAT
report the same placement twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cp_queens.errors import CpQueensError

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    LinearExpr = cp_model.LinearExprT

#: The values of the ``symmetry`` option, weakest first.
LEVELS = ("none", "mirror", "full")


def check_level(level: str) -> str:
    """``level`` itself, or a clear error naming the allowed values."""
    if level not in LEVELS:
        raise CpQueensError(
            f"unknown symmetry breaking '{level}' (choose one of: {', '.join(LEVELS)})"
        )
    return level


def add_symmetry_breaking(
    model: cp_model.CpModel, q: Sequence[cp_model.IntVar], level: str
) -> None:
    """Add the constraints of ``level`` (one of ``LEVELS``) to a model over ``q``."""
    check_level(level)
    n = len(q)
    if level == "mirror":
        model.add(2 * q[0] <= n - 1)
    elif level == "full":
        for image in images_of(model, q):
            add_lex_less_or_equal(model, q, image)


def images_of(model: cp_model.CpModel, q: Sequence[cp_model.IntVar]) -> list[list[LinearExpr]]:
    """The 7 non-identity images of ``q`` as expressions (order as in cp_queens.symmetry)."""
    n = len(q)
    last = n - 1
    inv = [model.new_int_var(0, last, f"inv{c}") for c in range(n)]
    model.add_inverse(q, inv)
    return [
        [last - inv[r] for r in range(n)],  # rot90
        [last - q[last - r] for r in range(n)],  # rot180
        [inv[last - r] for r in range(n)],  # rot270
        [last - q[r] for r in range(n)],  # flip_lr
        [q[last - r] for r in range(n)],  # flip_ud
        list(inv),  # transpose
        [last - inv[last - r] for r in range(n)],  # anti_transpose
    ]


def add_lex_less_or_equal(
    model: cp_model.CpModel, x: Sequence[LinearExpr], y: Sequence[LinearExpr]
) -> None:
    """Constrain ``x <=lex y`` with one reified equality and one Boolean per position."""
    same = model.new_constant(1)  # the empty prefixes are equal
    for i, (xi, yi) in enumerate(zip(x, y, strict=True)):
        model.add(xi <= yi).only_enforce_if(same)
        if i == len(x) - 1:
            break
        equal_here = model.new_bool_var(f"eq{i}")
        model.add(xi == yi).only_enforce_if(equal_here)
        model.add(xi != yi).only_enforce_if(~equal_here)
        same_next = model.new_bool_var(f"same{i + 1}")
        model.add_bool_and([same, equal_here]).only_enforce_if(same_next)
        model.add_bool_or([~same, ~equal_here, same_next])
        same = same_next
