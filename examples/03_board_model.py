# %% [markdown]
# # The 0/1 board model on CP-SAT: one Boolean per square instead of one integer per row.
#
# x[r][c] = 1  <=>  a queen on (r, c)
#     exactly one per row, exactly one per column, at most one per diagonal
#
# Run it as a script, from the repository:
#
#     python examples/03_board_model.py

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
from cp_queens.course.display import show, wrapped
from cp_queens.engines.cpsat_board import build_model

# %% [markdown]
# 1. The model itself: n*n Booleans and 2n + 2(2n-3) linear constraints.

# %%
model, x = build_model(Problem(8))
proto = model.proto
print(f"8 x 8 board model: {len(proto.variables)} Booleans, {len(proto.constraints)} constraints")

# %% [markdown]
# 2. One solution, drawn.

# %%
engine = engines.get("cpsat-board")
answer = engine.first(Problem(8))  # the answer, with the statistics of the call
show(answer.value)  # a board: text in a terminal, a picture in Jupyter
print(wrapped(answer.stats.summary()))

# %% [markdown]
# 3. Count every solution (the solver enumerates them through a callback).

# %%
answer = engine.count(Problem(8))
print("solutions for n = 8:", answer.value)
print(wrapped(answer.stats.summary()))

# %% [markdown]
# 4. Complete a board with given queens: fix x[r][c] = 1 for each of them.

# %%
given = Problem(8, fixed={0: 2, 1: 4})
print("completions of queens at (0,2) and (1,4):")
for solution in engine.solutions(given):
    print("  ", list(solution))
