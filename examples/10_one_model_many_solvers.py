# %% [markdown]
# # Lesson 10: one model, many solvers.
#
# CP-SAT counts the 14,200 solutions of n = 12 in a couple of seconds. Is that the
# model, AllDifferent's propagation, clause learning, or CP-SAT itself? The
# modelling world answers with one model run on many solvers. We write the card's
# model once in CPMpy (``q[r]``, AllDifferent on ``q``, ``q + r`` and ``q - r``)
# and hand it to solvers of different families:
#
# * CP with propagation - Choco, and Gecode through MiniZinc: search a tree,
#   shrink domains after each choice, forget nothing;
# * lazy clause generation - OR-Tools CP-SAT and Pumpkin: propagate like CP,
#   but explain each failure as a clause and learn it;
# * SAT - PySAT: no integers at all; CPMpy *encodes* each ``q[r]`` as n Booleans
#   and each AllDifferent as clauses before the solver sees anything;
# * pseudo-Boolean - Exact: linear inequalities over 0/1 variables.
#
# Then the same model as a MiniZinc file, and what a search annotation changes.
# Every count is checked against the reference backtracker.
#
# Run it:  python examples/10_one_model_many_solvers.py          a quick tour (seconds)
#          python examples/10_one_model_many_solvers.py --full   n = 8 and 9, larger boards
# Needs:   pip install '.[solvers]' in a clone (or '.[course]', for every lesson), and
#          apt-get install minizinc (without it, the lesson leaves Gecode out)

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
import shutil
import sys
import time

from cp_queens.course.needs import require

# The solvers are not in `pip install .`: without them, stop here with one line.
SOLVER_MODULES = ("cpmpy", "pychoco", "exact", "pumpkin_solver", "pysat", "pypblib", "pindakaas")
require("lesson 10", "solvers", *SOLVER_MODULES)

import cpmpy as cp  # noqa: E402 (after the check above, which says what to install)

from cp_queens import Budget, Problem, engines  # noqa: E402
from cp_queens.engines.minizinc import model_path  # noqa: E402

SOLVERS = ("ortools", "choco", "exact", "pumpkin", "pysat")
FULL = "--full" in sys.argv
COUNT_SIZES = (8, 9) if FULL else (6, 7)
FIRST_SIZES = (20, 40, 60) if FULL else (20, 40)
# MiniZinc is a program, not a Python package: without it the lesson leaves out Gecode.
MINIZINC = shutil.which("minizinc") is not None
if not MINIZINC:
    print("(Gecode skipped) lesson 10 runs Gecode through MiniZinc: apt-get install minizinc")

# %% [markdown]
# 1. The card's model in CPMpy: six lines, no solver named yet.


# %%
def queens_model(n):
    q = cp.intvar(0, n - 1, shape=n, name="q")
    model = cp.Model(
        cp.AllDifferent(q),
        cp.AllDifferent([q[r] + r for r in range(n)]),
        cp.AllDifferent([q[r] - r for r in range(n)]),
    )
    return model, q


print("The model for n = 4, as CPMpy holds it:")
print(queens_model(4)[0])
model, q = queens_model(8)
print("n = 8 on each solver:")
for solver in SOLVERS:
    found = model.solve(solver=solver)
    print(f"  {solver:8} first solution: {[int(v) for v in q.value()] if found else None}")

# %% [markdown]
# 2. Count on every solver, against the reference. The `cpmpy` engine is this model.


# %%
def timed_count(engine, n):
    started = time.perf_counter()
    answer = engine.count(Problem(n))  # the count and the statistics of this call
    return answer.value, time.perf_counter() - started, answer.stats


reference = engines.get("reference")
sizes = " and ".join(map(str, COUNT_SIZES))
print(f"\nCounting n = {sizes} (seconds; each count checked against the reference):")
print(f"{'solver':10}{'family':24}" + "".join(f"{f'n={n}':>8}" for n in COUNT_SIZES) + "  how")
gecode = ["minizinc:solver=gecode"] if MINIZINC else []
for spec in [*(f"cpmpy:solver={s}" for s in SOLVERS), *gecode]:
    name, options = engines.parse_spec(spec)
    engine = engines.get(name, **options)
    cells = []
    for n in COUNT_SIZES:
        total, seconds, stats = timed_count(engine, n)
        assert total == reference.count(Problem(n)).value, (spec, n, total)
        cells.append(f"{seconds:8.2f}")
    how = stats.extra.get("enumeration", "native")
    print(f"{options['solver']:10}{engine.family:24}{''.join(cells)}  {how}")

# %% [markdown]
# 3. Native enumeration against blocking clauses, on the same solver (CP-SAT).

# %%
n = COUNT_SIZES[-1]
print(f"\nCP-SAT under CPMpy, n = {n}: its own enumeration versus blocking clauses")
for how in ("native", "blocking"):
    engine = engines.get("cpmpy", solver="ortools", enumeration="auto" if how == "native" else how)
    total, seconds, stats = timed_count(engine, n)
    print(f"  {how:9} {total} solutions in {seconds:.2f} s")
# Blocking: find a solution, add the clause "not this one", search again from the top.
# The k-th search carries k clauses and repeats the work of the k-1 before it.

# %% [markdown]
# 4. The same model as a MiniZinc file, shipped in the package.

# %%
print("\nThe model in MiniZinc (cp_queens/models/queens.mzn), without its comments:")
with open(model_path("plain"), encoding="utf-8") as source:
    for line in source:
        if line.strip() and not line.lstrip().startswith("%"):
            print("  " + line.split("  %")[0].rstrip())

# %% [markdown]
# 5. What a search annotation changes: first solutions on larger boards (Gecode).

# %%
print("\nGecode, first solution: nodes without and with int_search(first_fail, median)")
if MINIZINC:
    print(f"{'n':>4}{'plain':>12}{'first-fail':>12}")
else:
    print("  (skipped: MiniZinc is not installed)")
for n in FIRST_SIZES if MINIZINC else ():
    nodes = []
    for variant in ("plain", "first-fail"):
        engine = engines.get("minizinc", model=variant)
        answer = engine.first(Problem(n), budget=Budget.of(time_limit=20))
        nodes.append(answer.stats.branches)
    print(f"{n:>4}{nodes[0]:>12,}{nodes[1]:>12,}")
