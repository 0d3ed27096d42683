# %% [markdown]
# # The 0/1 board model as a mixed-integer program (OR-Tools pywraplp, SCIP from the wheel).
#
# x[r][c] in {0, 1};  row and column sums = 1;  diagonal sums <= 1;  no objective
#
# A MIP solver answers "find one feasible point": it cannot enumerate or count.
#
# Run it as a script, from the repository:
#
#     python examples/03_mip.py

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
from cp_queens import Problem, engines
from cp_queens.course.display import wrapped
from cp_queens.engines.mip import build_model
from cp_queens.errors import UnsupportedTaskError

# %% [markdown]
# 1. The program itself, built with pywraplp.

# %%
solver, x = build_model(Problem(8))
print(f"8 x 8 MIP: {solver.NumVariables()} binary variables, {solver.NumConstraints()} rows")
print("solver:", solver.SolverVersion())

# %% [markdown]
# 2. One solution through the engine, with the solver's own figures.

# %%
engine = engines.get("mip")
for n in (8, 20, 40):
    answer = engine.first(Problem(n))
    print(f"n = {n:>2}: {list(answer.value)[:10]}{' ...' if n > 10 else ''}")
    print(wrapped("        " + answer.stats.summary(), indent="        "))

# %% [markdown]
# 3. Infeasible is a proof here (branch and bound is complete), e.g. n = 3:

# %%
answer = engine.first(Problem(3))
print("n = 3:", answer.value)
print(wrapped(answer.stats.summary()))

# %% [markdown]
# 4. ... but there is no way to list or count all solutions.

# %%
try:
    engine.count(Problem(8))
except UnsupportedTaskError as error:
    print(wrapped(f"count: {error}"))
