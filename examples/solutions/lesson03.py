"""Teacher's key, lesson 03 (formulations): exercises 7-9 of EXERCISES.md."""

import constraint
from ortools.linear_solver import pywraplp

from cp_queens import Problem
from cp_queens.engines.mip import build_model


# Exercise 7: n^2 Booleans; n rows + n columns; diagonals with at least two squares:
# 2n - 3 in each direction (2n - 1 diagonals, minus the two corner squares).
def exercise_7(n: int = 8) -> tuple[int, int]:
    """(variables, constraints) of the 0/1 board model, counted by hand."""
    return n * n, n + n + 2 * (2 * n - 3)


# Exercise 8: diagonals as two AllDifferent on helper variables u[r] = q[r] + r and
# d[r] = q[r] - r, each tied to q[r] by a binary constraint. Still correct; not faster:
# the ties are 2n more Python function calls per check, and AllDifferent on the helpers
# prunes no more than the pairwise constraints did (compare prints the times).
def pyconstraint_with_alldifferent(n: int) -> list[dict]:
    csp = constraint.Problem(constraint.BacktrackingSolver())
    rows = list(range(n))
    csp.addVariables(rows, range(n))
    csp.addVariables([("u", r) for r in rows], range(2 * n - 1))
    csp.addVariables([("d", r) for r in rows], range(-(n - 1), n))
    csp.addConstraint(constraint.AllDifferentConstraint(), rows)
    csp.addConstraint(constraint.AllDifferentConstraint(), [("u", r) for r in rows])
    csp.addConstraint(constraint.AllDifferentConstraint(), [("d", r) for r in rows])
    for r in rows:
        csp.addConstraint(lambda q, u, r=r: u == q + r, (r, ("u", r)))
        csp.addConstraint(lambda q, d, r=r: d == q - r, (r, ("d", r)))
    # check_model reads {row: column} dicts; drop the helper variables
    return [{r: s[r] for r in rows} for s in csp.getSolutions()]


# Exercise 9: a MIP solver returns one point of the feasible set (an optimum) and keeps
# no record of the rest of its tree, so it has nothing to enumerate. A no-good cuts the
# point just found: sum of its n squares <= n - 1. Solve again until infeasible.
def mip_solutions(n: int) -> list[list[int]]:
    solver, x = build_model(Problem(n))
    found = []
    while solver.Solve() in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
        cols = [next(c for c in range(n) if x[r][c].solution_value() > 0.5) for r in range(n)]
        found.append(cols)
        solver.Add(sum(x[r][c] for r, c in enumerate(cols)) <= n - 1)
    return found


if __name__ == "__main__":
    print("7. board model for N=8 (variables, constraints):", exercise_7())
    print("8. helper-variable model, N=6:", len(pyconstraint_with_alldifferent(6)), "solutions")
    print("9. counted with a MIP:", {n: len(mip_solutions(n)) for n in (6, 7, 8)})
