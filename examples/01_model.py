# %% [markdown]
# # Lesson 1: the N-Queens constraint model, nothing else.
#
# Place 8 queens on a chess board so that no two attack each other.
# One integer variable per row, q[r] = the column of the queen in row r, so
# "one queen per row" holds by construction. Three AllDifferent constraints do
# the rest:
#
#     AllDifferent(q[r])        no two queens share a column
#     AllDifferent(q[r] + r)    no two share a "/" diagonal (r + c is constant on it)
#     AllDifferent(q[r] - r)    no two share a "\" diagonal (r - c is constant on it)
#
# Only OR-Tools is imported: this is the model as you would write it in a course.
#
# Run it as a script, from the repository:
#
#     python examples/01_model.py
#
# Edit the model below and run the script again: the script is the model, so every
# edit shows at once (nothing to install). The same model is the `cpsat` engine of the
# toolkit, in `cp_queens/engines/cpsat/model.py`, which `cp-queens solve 8` runs
# (`model=integer` in its statistics line). To see edits *there* run by `cp-queens`,
# install your clone editable, `pip install -e .`: a plain `pip install .` copies the
# package, and the copy does not change when you edit the clone.

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
from ortools.sat.python import cp_model

N = 8

model = cp_model.CpModel()
q = [model.new_int_var(0, N - 1, f"q{r}") for r in range(N)]
model.add_all_different(q)
model.add_all_different(q[r] + r for r in range(N))
model.add_all_different(q[r] - r for r in range(N))


class PrintSolutions(cp_model.CpSolverSolutionCallback):
    """CP-SAT calls on_solution_callback once for every solution it finds."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def on_solution_callback(self) -> None:
        self.count += 1
        print(f"{self.count:3}: {[self.value(v) for v in q]}")


solver = cp_model.CpSolver()
# Ask for every solution, not just one. Enumeration is exact with one worker only.
solver.parameters.enumerate_all_solutions = True
solver.parameters.num_workers = 1
printer = PrintSolutions()
status = solver.solve(model, printer)

print(f"\n{printer.count} solutions, search {solver.status_name(status)}")
print(f"branches={solver.num_branches} conflicts={solver.num_conflicts}")
print(f"wall time={solver.wall_time:.3f}s")
