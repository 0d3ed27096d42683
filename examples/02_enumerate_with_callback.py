# %% [markdown]
# # Lesson 2: every solution, one at a time - through a callback, then as a stream.
#
# CP-SAT does not return a list of solutions: it *calls you back* once per
# solution while it searches. Whatever you want to know about the solutions
# (how many, which have some property, the first one that ...) you compute in
# that callback, so nothing needs to be stored. And once you know enough, the
# callback can stop the search early with StopSearch().
#
# Run it as a script, from the repository:
#
#     python examples/02_enumerate_with_callback.py

# %% [markdown]
# This notebook needs `cp-queens` in its kernel. The next cell installs it when it is
# missing: from a clone of the repository it installs the clone (editable, with the
# `notebook` extra). In a hosted notebook (Colab, Binder) without a clone, first run
# `%pip install "cp-queens[notebook] @ git+<repository URL>"`.

# %%
# Install cp-queens into this kernel when it is missing (a no-op in a set-up
# environment, and when the lesson runs as a script).
import importlib.util

if importlib.util.find_spec("cp_queens") is None:
    import subprocess
    import sys
    from pathlib import Path

    here = Path.cwd().resolve()
    clone = next((d for d in [here, *here.parents] if (d / "cp_queens").is_dir()), None)
    if clone is None:
        raise SystemExit("cp-queens is missing: install it from its repository (see above)")
    pip = [sys.executable, "-m", "pip", "install", "-q", "-e", f"{clone}[notebook]"]
    subprocess.check_call(pip)
    sys.path.insert(0, str(clone))  # a running kernel does not see the new install path

# %%
from collections import Counter

from ortools.sat.python import cp_model

import cp_queens

N = 8

model = cp_model.CpModel()
q = [model.new_int_var(0, N - 1, f"q{r}") for r in range(N)]
model.add_all_different(q)
model.add_all_different(q[r] + r for r in range(N))
model.add_all_different(q[r] - r for r in range(N))


class FirstRowTally(cp_model.CpSolverSolutionCallback):
    """Counts, for each column, the solutions whose row-0 queen stands there."""

    def __init__(self) -> None:
        super().__init__()
        self.tally = Counter()

    def on_solution_callback(self) -> None:
        self.tally[self.value(q[0])] += 1  # read a value; nothing else is kept


class StopAtSymmetric(cp_model.CpSolverSolutionCallback):
    """Stops the search at the first solution that looks the same after a half turn."""

    def __init__(self) -> None:
        super().__init__()
        self.found = None

    def on_solution_callback(self) -> None:
        cols = [self.value(v) for v in q]
        if all(cols[N - 1 - r] == N - 1 - cols[r] for r in range(N)):
            self.found = cols
            self.stop_search()  # no need to look any further


def solver_for_all_solutions() -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1  # exact enumeration needs a single worker
    return solver


counter = FirstRowTally()
solver_for_all_solutions().solve(model, counter)
tally = counter.tally
print(f"{sum(tally.values())} solutions; by column of the queen in row 0:")
for col in range(N):
    print(f"  column {col}: {'#' * tally[col]} {tally[col]}")
print("mirror symmetry: column c and column N-1-c always tie:",
      all(tally[c] == tally[N - 1 - c] for c in range(N)))  # fmt: skip

stopper = StopAtSymmetric()
solver = solver_for_all_solutions()
solver.solve(model, stopper)
print(f"\nfirst solution with half-turn symmetry: {stopper.found}")
print(f"found after {solver.num_branches} branches, then StopSearch()")

# %% [markdown]
# The toolkit wraps exactly this callback in a Python generator: the solver runs
# on a thread and hands each solution over, so a plain for-loop (or islice, or
# break) can consume them, and memory stays flat however many solutions exist.

# %%
corner = sum(1 for p in cp_queens.solutions(N) if p[0] in (0, N - 1))
print(f"\nwith the generator: {corner} solutions have a queen in a top corner")
for p in cp_queens.solutions(10, limit=3):
    print("n=10, one of the first three:", list(p))
