# %% [markdown]
# # Lesson 11: from satisfaction to optimisation - the fewest queens that guard a board.
#
# Every lesson so far asked a yes/no question: is there a placement, and how
# many are there? Operations research mostly asks "how good can it get?". The
# queens have a classic one: how few queens *dominate* the n x n board, that is
# occupy or attack every square (OEIS A075458)? With non-attacking queens it is
# the *independent* domination problem (OEIS A075324).
#
# The model, one 0/1 variable per square::
#
#     minimise   sum of x[r][c]
#     subject to for every square, the x on its row, column and two diagonals sum to >= 1
#
# Each row is "this square is covered": a set cover, which both solvers take.
# The lesson walks from satisfaction to optimisation:
#
# 1. as a yes/no question: "can k queens do it?" for k = 1, 2, 3, ...;
# 2. as one optimisation run: the best set found falls, the proven bound rises,
#    and the gap between them closes;
# 3. bounds: a formula, the LP relaxation, and the optimum;
# 4. CP (CP-SAT) against MIP (SCIP) on the same rows;
# 5. symmetry: with 8 images of every optimum, breaking it helps the *proof*.
#
#
# Run it:
#
#     python examples/11_optimisation.py          (n up to 7, a few seconds)
#     python examples/11_optimisation.py --full   (n up to 8, a few minutes)

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
import sys
import time

from ortools.sat.python import cp_model

from cp_queens.course.display import Squares, show
from cp_queens.dominate import classic_lower_bound, dominate, dominates, lp_bound
from cp_queens.dominate.models import build_cp

FULL = "--full" in sys.argv
LARGEST = 8 if FULL else 7

# %% [markdown]
# 1. Satisfaction: drop the objective, demand exactly k queens, and ask CP-SAT
#    "is there such a set?" for k = 1, 2, 3, ... The first "yes" is the answer,
#    and the "no" just before it is what proves it: the hard half of the work.


# %%
def k_queens_suffice(n: int, k: int) -> tuple[bool, int, float]:
    model, x = build_cp(n)
    model.clear_objective()
    model.add(sum(v for line in x for v in line) == k)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    started = time.perf_counter()
    status = solver.solve(model)
    return status == cp_model.OPTIMAL, solver.num_branches, time.perf_counter() - started


n = 6
print(f"Can k queens dominate the {n} x {n} board?")
for k in range(1, n):
    yes, branches, seconds = k_queens_suffice(n, k)
    print(f"  k = {k}: {'yes' if yes else 'no ':3}  {branches:>7,} branches  {seconds:6.2f} s")
    if yes:
        break
# n questions for one answer, and each "no" must search everything. An
# optimisation solver asks them all at once, and uses each set it finds to
# raise the bar for the next.

# %% [markdown]
# 2. Optimisation: one run, watched as it goes. ``best`` is the smallest set found
#    so far (an upper bound on the optimum); ``bound`` is what the solver has
#    proved no set can beat (a lower bound). The gap, (best - bound) / best, is how
#    much of the best set is not yet known to be needed. Here the solver is not
#    told the classic bound (section 3), so we see its own bound rise.

# %%
n = 7
print(f"\nminimise the queens on {n} x {n} (CP-SAT, one worker):")
print(f"  {'seconds':>8}  {'best':>4}  {'bound':>5}  {'gap':>5}")


def watch(step) -> None:
    best = "-" if step.best is None else step.best
    gap = "" if step.gap is None else f"{step.gap:.0%}"
    print(f"  {step.seconds:8.3f}  {best:>4}  {step.bound:>5}  {gap:>5}".rstrip())


result = dominate(n, model="cp", classic_bound=False, on_step=watch)
print(f"  {result.size} queens, optimal: {result.optimal}")
print("  the independent checker says it dominates:", dominates(n, result.queens).ok)
show(Squares(n, result.queens))  # text in a terminal, a picture in Jupyter
# A run stopped by a time limit still has an answer: its best set and its bound.
# "6 queens, and no fewer than 5" is worth something; "no answer" is not.

# %% [markdown]
# 3. Bounds. A proof of optimality needs a lower bound that meets the best set.
#    * the classic bound: at least ceil((n - 1) / 2) queens, a theorem (Spencer);
#    * the LP relaxation: let x be any number in [0, 1] and solve the linear
#      program. It is what a MIP solver starts from;
#    * the optimum, computed here by CP-SAT.

# %%
print("\n  n | classic | LP relaxation | optimum | independent")
for size in range(1, LARGEST + 1):
    best = dominate(size, model="cp", symmetry="lex").size
    independent = dominate(size, model="cp", symmetry="lex", independent=True).size
    print(
        f"{size:>3} | {classic_lower_bound(size):>7} | {lp_bound(size):>13.2f} |"
        f" {best:>7} | {independent:>11}"
    )
# The LP bound is weak: x = 1/(3n - 2) on every square covers every square (a
# corner, the worst placed, is seen from 3n - 2 squares), so the LP needs only
# about n/3 queens. The classic bound is one or two short of the optimum: the
# solver's search has to prove that last step.

# %% [markdown]
# 4. CP against MIP on the same rows: CP-SAT propagates and learns from conflicts
#    (branches, conflicts); SCIP solves an LP at every node, adds cuts, branches
#    on a fractional x (nodes, simplex iterations). Both get the classic bound.

# %%
print(f"\n  n | {'CP-SAT s':>8} {'branches':>9} | {'SCIP s':>8} {'nodes':>6} | queens")
for size in range(5, LARGEST + 1):
    cp = dominate(size, model="cp")
    mip = dominate(size, model="mip")
    assert cp.optimal and mip.optimal and cp.size == mip.size
    print(
        f"{size:>3} | {cp.seconds:>8.2f} {cp.statistics['branches']:>9,} |"
        f" {mip.seconds:>8.2f} {mip.statistics['nodes']:>6,} | {cp.size:>6}"
    )
# On these boards SCIP's LP, its cuts and its bound tend to win as n grows:
# optimisation is home ground for a MIP solver. Measure on your machine:
# `cp-queens dominate 9 --model mip` against `--model cp`.

# %% [markdown]
# 5. Symmetry in optimisation. Turning or mirroring a dominating set gives one of
#    the same size, so the solver meets each optimum up to 8 times, and every
#    "no smaller set" proof covers 8 copies of the same ground. Two ways to cut:
#    'halves' (more queens in the top and left halves: two linear rows) and 'lex'
#    (the board, read as a 0/1 word, no larger than any of its 7 images).

# %%
n = 8 if FULL else 7
print(f"\nsymmetry breaking, n = {n}: seconds and search size to the proven optimum")
for model in ("cp", "mip"):
    for symmetry in ("none", "halves", "lex"):
        if (model, symmetry, n) == ("cp", "none", result.n):
            run = result  # section 2 ran just this
        else:
            run = dominate(n, model=model, symmetry=symmetry, classic_bound=False)
        work = run.statistics.get("branches", run.statistics.get("nodes"))
        unit = "branches" if model == "cp" else "nodes"
        print(
            f"  {model:>3} {symmetry:>6}: {run.seconds:6.2f} s {work:>9,} {unit:<8}"
            f" -> {run.size} queens, optimal {run.optimal}"
        )
# Finding a good set is easy; proving that nothing smaller exists is most of the
# time, and symmetry breaking shrinks that proof. It never loses an optimum: every
# set can be turned into one that meets the rows, so the optimum stays the same.
# But it is not free: 'lex' adds two helper 0/1 variables per square and image,
# which a CP solver propagates cheaply and a MIP solver carries into every LP.
# Which cut pays is, again, a measurement.
