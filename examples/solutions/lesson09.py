"""Teacher's key, lesson 09 (CP versus MIP): exercises 30-31 of EXERCISES.md."""

from ortools.linear_solver import pywraplp
from ortools.sat.python import cp_model

from cp_queens import Problem
from cp_queens.course.display import wrapped
from cp_queens.engines.mip import build_model


# Exercise 30: the bound stays n. The point x = 1/n on every square satisfies every row,
# column AND diagonal (no diagonal has more than n squares), so the diagonal rows cut
# nothing off at that point: the LP cannot see diagonals at all. Branching has to.
def lp_bound(n: int, *, diagonals: bool = True) -> float:
    solver, x = build_model(Problem(n))
    for row in solver.constraints():
        if row.name().startswith(("row", "col")):
            row.SetLb(0)
        elif not diagonals:
            row.SetBounds(-solver.infinity(), solver.infinity())  # drop the diagonal row
    objective = solver.Objective()
    for var in (var for line in x for var in line):
        objective.SetCoefficient(var, 1)
        var.SetInteger(False)
    objective.SetMaximization()
    solver.Solve()
    return objective.Value()


# Exercise 31: optimisation is what a MIP solver is built for. Maximise sum_r r * q[r]
# (queens low on the board go far right). As a MIP the objective is linear in x; in
# CP-SAT it is linear in q. Both must reach the best value over all solutions.
def best_weighted_mip(n: int) -> tuple[list[int], float]:
    solver, x = build_model(Problem(n))
    objective = solver.Objective()
    for r in range(n):
        for c in range(n):
            objective.SetCoefficient(x[r][c], r * c)
    objective.SetMaximization()
    assert solver.Solve() == pywraplp.Solver.OPTIMAL
    cols = [next(c for c in range(n) if x[r][c].solution_value() > 0.5) for r in range(n)]
    return cols, objective.Value()


def best_weighted_cp(n: int) -> tuple[list[int], int]:
    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    model.add_all_different(q)
    model.add_all_different(q[r] + r for r in range(n))
    model.add_all_different(q[r] - r for r in range(n))
    model.maximize(sum(r * q[r] for r in range(n)))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(model) == cp_model.OPTIMAL
    return [solver.value(v) for v in q], int(solver.objective_value)


def say(*parts: object) -> None:
    """``print``, within 80 columns (long answers wrap between words)."""
    print(wrapped(" ".join(map(str, parts))))


if __name__ == "__main__":
    say("30. LP bound, n=8, with / without diagonals:", lp_bound(8), lp_bound(8, diagonals=False))
    say("31. MIP:", best_weighted_mip(8), " CP-SAT:", best_weighted_cp(8))
