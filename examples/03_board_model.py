"""The 0/1 board model on CP-SAT: one Boolean per square instead of one integer per row.

    x[r][c] = 1  <=>  a queen on (r, c)
    exactly one per row, exactly one per column, at most one per diagonal

Run: python examples/03_board_model.py
"""

from cp_queens import Problem, engines
from cp_queens.course.display import show, wrapped
from cp_queens.engines.cpsat_board import build_model

# 1. The model itself: n*n Booleans and 2n + 2(2n-3) linear constraints.
model, x = build_model(Problem(8))
proto = model.proto
print(f"8 x 8 board model: {len(proto.variables)} Booleans, {len(proto.constraints)} constraints")

# 2. One solution, drawn.
engine = engines.get("cpsat-board")
placement = engine.first(Problem(8))
show(placement)  # a board: text in a terminal, a picture in Jupyter
print(wrapped(engine.stats.summary()))

# 3. Count every solution (the solver enumerates them through a callback).
print("solutions for n = 8:", engine.count(Problem(8)))
print(wrapped(engine.stats.summary()))

# 4. Complete a board with given queens: fix x[r][c] = 1 for each of them.
given = Problem(8, fixed={0: 2, 1: 4})
print("completions of queens at (0,2) and (1,4):")
for solution in engine.solutions(given):
    print("  ", list(solution))
