"""The 0/1 board model as a mixed-integer program (OR-Tools pywraplp, SCIP from the wheel).

    x[r][c] in {0, 1};  row and column sums = 1;  diagonal sums <= 1;  no objective

A MIP solver answers "find one feasible point": it cannot enumerate or count.

Run: python examples/03_mip.py
"""

from cp_queens import Problem, engines
from cp_queens.course.display import wrapped
from cp_queens.engines.mip import build_model
from cp_queens.errors import UnsupportedTaskError

# 1. The program itself, built with pywraplp.
solver, x = build_model(Problem(8))
print(f"8 x 8 MIP: {solver.NumVariables()} binary variables, {solver.NumConstraints()} rows")
print("solver:", solver.SolverVersion())

# 2. One solution through the engine, with the solver's own figures.
engine = engines.get("mip")
for n in (8, 20, 40):
    placement = engine.first(Problem(n))
    print(f"n = {n:>2}: {list(placement)[:10]}{' ...' if n > 10 else ''}")
    print(wrapped("        " + engine.stats.summary(), indent="        "))

# 3. Infeasible is a proof here (branch and bound is complete), e.g. n = 3:
print("n = 3:", engine.first(Problem(3)))
print(wrapped(engine.stats.summary()))

# 4. ... but there is no way to list or count all solutions.
try:
    engine.count(Problem(8))
except UnsupportedTaskError as error:
    print(wrapped(f"count: {error}"))
