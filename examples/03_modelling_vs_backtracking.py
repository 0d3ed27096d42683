# %% [markdown]
# # Modelling versus backtracking, measured: the engines side by side on the same task.
#
# Each run happens in its own process with a time limit; we record wall time,
# peak memory and each engine's own search figures. The command-line version,
# with CSV, JSON and a plot, is `cp-queens compare`.
#
# Run it as a script, from the repository:
#
#     python examples/03_modelling_vs_backtracking.py

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
from rich.console import Console

from cp_queens.compare import compare
from cp_queens.compare.report import table

runs = compare(
    ["reference", "cpsat", "cpsat-board", "pyconstraint"],
    sizes=[6, 8, 9],
    task="count",
    time_limit=10,
)
# (start-up, peak memory and status are in `cp-queens compare`'s table; 80 columns hold
# the rest: the solve is the count once the engine is loaded, its start-up apart)
shown = ("engine", "n", "solve s", "solutions", "branches", "conflicts", "agrees")
Console(width=80).print(table(runs, title="count all solutions", columns=shown))

# %% [markdown]
# 'branches' is each engine's own unit: queens placed (reference), values that
# passed every constraint (pyconstraint), solver decisions (CP-SAT). At these
# sizes the plain backtracker is fastest: each node costs a few list lookups.
# pyconstraint visits half as many nodes (it always picks the row with the fewest
# free columns) but pays Python calls per constraint; CP-SAT pays a solver's
# bookkeeping per node and per solution, which a count of all solutions repeats.

# %%
by_engine = {run.engine: run for run in runs if run.n == 9}
for name, run in by_engine.items():
    print(f"n = 9 {name:>12}: {run.branches:>7,} branches, {run.wall_time:.3f} s")
