# %% [markdown]
# # The same integer model in python-constraint2, and why the solver choice matters.
#
# Columns are one AllDifferent; diagonals must be pairwise constraints, because
# python-constraint's constraints take variables, not expressions like q[r] + r.
#
# Run it as a script, from the repository:
#
#     python examples/03_python_constraint.py

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
import constraint

from cp_queens import Budget, Problem, engines
from cp_queens.course.display import wrapped
from cp_queens.errors import UnsupportedTaskError

# %% [markdown]
# 1. The model written directly against the library (n = 6).

# %%
n = 6
csp = constraint.Problem(constraint.BacktrackingSolver())
csp.addVariables(range(n), range(n))  # variable = row, value = column
csp.addConstraint(constraint.AllDifferentConstraint())  # one queen per column
for i in range(n):
    for j in range(i + 1, n):  # no two on a diagonal: |q[i] - q[j]| != j - i
        csp.addConstraint(lambda a, b, d=j - i: abs(a - b) != d, (i, j))
print("n = 6 solutions:")
for solution in sorted(tuple(s[r] for r in range(n)) for s in csp.getSolutions()):
    print("  ", solution)

# %% [markdown]
# 2. The engine wraps the same model; solutions stream from getSolutionIter().

# %%
engine = engines.get("pyconstraint")
answer = engine.count(Problem(10))
print("n = 10 count:", answer.value)
print(wrapped(answer.stats.summary()))

# %% [markdown]
# 3. Why the solver matters for a first solution at n = 40:
#    'backtracking' re-picks the row with the fewest free columns at every node;
#    'optimized' (python-constraint2's default) fixes the row order once.

# %%
second = Budget.of(time_limit=1.0)  # the run settings go with each call
for solver in ("backtracking", "optimized", "min-conflicts"):
    engine = engines.get("pyconstraint", solver=solver, seed=1)
    answer = engine.first(Problem(40), budget=second)
    # Incomplete: out of time (or min-conflicts gave up), which is not a proof of "none".
    found = "found" if answer.value else "none" if answer.complete else "nothing"
    print(f"{solver:>13}: {found}")
    print(wrapped("      " + answer.stats.summary(), indent="      "))

# %% [markdown]
# 4. Min-conflicts is local search: one solution at most, never a count.

# %%
try:
    engines.get("pyconstraint", solver="min-conflicts").count(Problem(8))
except UnsupportedTaskError as error:
    print(wrapped(f"count with min-conflicts: {error}"))
