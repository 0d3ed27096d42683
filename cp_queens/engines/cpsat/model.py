"""The design card's model, as a student would write it on a board.

    q[r] in 0..n-1            the column of the queen in row r (one queen per row)
    AllDifferent(q[r])        no two queens in one column
    AllDifferent(q[r] + r)    no two on one "/" diagonal
    AllDifferent(q[r] - r)    no two on one "\\" diagonal

Pre-placed queens (the completion problem) are just fixed domains. Everything
else in this package is about *running* the model (enumeration parameters,
callbacks, search strategies, symmetry breaking, processes); the model itself
is this one screen.

Examples:
    >>> from cp_queens import Problem
    >>> model, q = build_model(Problem(4))
    >>> len(q), len(model.proto.constraints)
    (4, 3)
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from cp_queens.problem import Problem


def build_model(problem: Problem) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The card's model for ``problem``: the variables ``q`` and three ``AllDifferent``."""
    n = problem.n
    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    model.add_all_different(q)
    model.add_all_different(q[r] + r for r in range(n))
    model.add_all_different(q[r] - r for r in range(n))
    for row, col in problem.fixed.items():
        model.add(q[row] == col)
    return model, q
