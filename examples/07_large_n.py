# %% [markdown]
# # Lesson 7: huge boards - when search stops scaling, use a formula or local search.
#
# A complete search (backtracking, CP-SAT) can prove things - "92 solutions",
# "no completion" - but its tree grows exponentially. CP-SAT's greedy search
# (lesson 5) still finds one solution of n = 500 in about a second, yet its 0/1
# model has n^2 literals: n = 2000 needs gigabytes. Two ways out, both only able
# to give ONE solution:
#
# * a formula: Hoffman, Loessi & Moore (1969) wrote down a solution for every
#   n >= 4 - the `construct` engine evaluates it, O(n), a million queens in
#   milliseconds;
# * local search: start with a full, flawed board and repair it - the
#   `minconflicts` engine moves an attacked queen to its least attacked square,
#   again and again (Minton et al. 1992). Random, so it takes a seed.
#
# And a million-queen answer still has to be checked: `verify` does it with a
# few vectorised NumPy passes (it shares no code with the engines).
#
# Run it as a script, from the repository:
#
#     python examples/07_large_n.py

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
import time

from cp_queens import Problem, engines, verify


def timed(engine_name: str, n: int, **options) -> None:
    engine = engines.get(engine_name, **options)
    started = time.perf_counter()
    placement = engine.first(Problem(n)).value
    solve_seconds = time.perf_counter() - started
    started = time.perf_counter()
    verdict = verify(placement)
    check_seconds = time.perf_counter() - started
    print(
        f"{engine_name:>12} n={n:>9,}  solve {solve_seconds:7.3f}s  "
        f"verify {check_seconds:6.3f}s  valid={verdict.ok}"
    )


print("CP-SAT: the model grows like n^2, and so does the time")
for n in (100, 200, 400):
    timed("cpsat", n)

print("\nthe formula: linear in n")
for n in (1_000, 100_000, 1_000_000):
    timed("construct", n)

print("\nlocal search (compiled kernels, built with the package)")
for n in (1_000, 100_000):
    timed("minconflicts", n, seed=1)

# %% [markdown]
# The formula always gives the same board; local search gives a different one
# per seed - handy when you need many different large solutions.

# %%
a = engines.get("minconflicts", seed=1).first(Problem(50)).value
b = engines.get("minconflicts", seed=2).first(Problem(50)).value
print("\nseed 1 and seed 2 give different boards:", a != b)

# %% [markdown]
# In Jupyter a placement draws itself as a board; a huge one is shrunk to a
# sample of rows, so the notebook is not flooded.

# %%
picture = engines.get("construct").first(Problem(1_000_000)).value._repr_svg_()
print(f"SVG of the million-queen board: {len(picture):,} characters")
