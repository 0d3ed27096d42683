# %% [markdown]
# # Lesson 9: CP versus MIP - the same board, two ways of searching, measured.
#
# Constraint programming (CP-SAT, the card's model) and mixed-integer
# programming (SCIP, the 0/1 board model of lesson 3) both answer "place n
# queens". They get there differently:
#
# * the MIP solver relaxes x[r][c] in {0, 1} to 0 <= x[r][c] <= 1, solves that
#   linear program (LP), and branches on a fractional variable when the LP
#   answer is not a board: branch and bound, guided by the LP's *bound*;
# * the CP solver branches on q[r] = c and, after every decision, *propagates*:
#   it removes the columns the new queen attacks from the other rows' domains.
#
# What does the LP know about queens? Ask it for as many queens as it can place
# and look at what it returns. Then let both solvers find one board for
# n = 8..64 and compare their search trees (branch-and-bound nodes against CP
# branches) and their time.
#
# Run it as a script, from the repository:
#
#     python examples/09_cp_vs_mip.py          (n = 8 and 16, a few seconds)
#     python examples/09_cp_vs_mip.py --full   (n = 8..64, about half a minute)

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

from cp_queens import Placement, Problem, verify
from cp_queens.course.display import show
from cp_queens.course.needs import have
from cp_queens.engines.cpsat.model import build_model as build_cp_model
from cp_queens.engines.mip import build_model as build_mip_model

FULL = "--full" in sys.argv
SIZES = [8, 12, 16, 24, 32, 48, 64] if FULL else [8, 16]

# %% [markdown]
# 1. Two models of the same board. CP: n integer variables, 3 AllDifferent.
#    MIP: n^2 binaries, one linear row per row, column and diagonal.

# %%
cp, q = build_cp_model(Problem(8))
mip, x = build_mip_model(Problem(8))
print(f"n = 8  CP: {len(q)} variables, {len(cp.proto.constraints)} constraints")
print(f"      MIP: {mip.NumVariables()} binaries, {mip.NumConstraints()} linear rows")

# %% [markdown]
# 2. The LP relaxation. Take the MIP model, allow "at most one" per row and column,
#    ask for as many queens as possible, and drop integrality: x may be 0.5.


# %%
def most_queens(n: int, *, relaxed: bool) -> tuple[float, list[list[float]]]:
    solver, x = build_mip_model(Problem(n))
    for row in solver.constraints():
        if row.name().startswith(("row", "col")):  # sum = 1  becomes  sum <= 1
            row.SetLb(0)
    objective = solver.Objective()
    for var in (var for line in x for var in line):
        objective.SetCoefficient(var, 1)
        var.SetInteger(not relaxed)
    objective.SetMaximization()
    solver.Solve()
    return objective.Value(), [[var.solution_value() for var in line] for line in x]


print("\nhow many queens fit?    LP relaxation   integer optimum")
for n in (2, 3, 4, 8):
    bound, _ = most_queens(n, relaxed=True)
    best, _ = most_queens(n, relaxed=False)
    print(f"  n = {n}:               {bound:>8.2f}       {best:>8.0f}")
# The LP bound is n every time: x = 1/n on every square is feasible, since no
# line holds more than n squares. So the relaxation cannot tell that 3 queens
# do not fit on a 3 x 3 board; only branching proves it.

bound, point = most_queens(8, relaxed=True)
half = sum(1 for line in point for value in line if 1e-6 < value < 1 - 1e-6)
print(f"\nthe LP's answer for n = 8: {bound:.0f} 'queens', {half} squares fractional")
for line in point:
    print("   ", " ".join("  ." if value < 1e-6 else f"{value:.1f}" for value in line))

# %% [markdown]
# 3. One board each, n = 8..64: the MIP's branch-and-bound nodes and simplex
#    iterations against CP-SAT's branches and conflicts (one worker each, so the
#    search is one tree and the times are comparable).


# %%
def solve_mip(n: int) -> tuple[Placement, int, int, float]:
    solver, x = build_mip_model(Problem(n))
    started = time.perf_counter()
    solver.Solve()
    seconds = time.perf_counter() - started
    cols = tuple(next(c for c, var in enumerate(line) if var.solution_value() > 0.5) for line in x)
    return Placement(cols), solver.nodes(), solver.iterations(), seconds


def solve_cp(n: int) -> tuple[Placement, int, int, float]:
    model, q = build_cp_model(Problem(n))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    started = time.perf_counter()
    solver.solve(model)
    seconds = time.perf_counter() - started
    cols = tuple(solver.value(var) for var in q)
    return Placement(cols), solver.num_branches, solver.num_conflicts, seconds


print(f"\n{'n':>4} | {'MIP nodes':>9} {'LP iters':>9} {'seconds':>8} |", end="")
print(f" {'CP branches':>11} {'conflicts':>9} {'seconds':>8} | MIP/CP")
rows = []
boards = {}
for n in SIZES:
    mip_board, nodes, iterations, mip_seconds = solve_mip(n)
    cp_board, branches, conflicts, cp_seconds = solve_cp(n)
    assert verify(mip_board).ok and verify(cp_board).ok  # the independent checker
    rows.append((n, nodes, mip_seconds, branches, cp_seconds))
    boards[n] = (mip_board, cp_board)
    print(
        f"{n:>4} | {nodes:>9,} {iterations:>9,} {mip_seconds:>8.2f} |"
        f" {branches:>11,} {conflicts:>9,} {cp_seconds:>8.2f} | {mip_seconds / cp_seconds:>6.1f}x"
    )
# A MIP node is expensive (an LP with n^2 columns, thousands of simplex
# iterations) and the MIP solver needs very few: SCIP usually has its board
# at the root node, before any branching (presolve, cuts and its primal
# heuristics work there). A CP branch is cheap (propagate a few
# domains) and CP-SAT takes thousands. Which wins is a question of n and of
# the machine: measure, don't guess.

# %% [markdown]
# Two different boards for n = 8: each solver stops at the first one its search meets.

# %%
print("\nn = 8, MIP (SCIP):")
show(boards[8][0])
print("n = 8, CP (CP-SAT):")
show(boards[8][1])

# %% [markdown]
# 4. The same table as a picture (drawn inline in the notebook version).

# %%
if have("lesson 09", "plot", "matplotlib", doing="the plot"):
    import matplotlib.pyplot as plt

    from cp_queens.compare.style import style

    mip, cp = style("mip"), style("cpsat")  # each engine's colour in every plot
    figure, (trees, times) = plt.subplots(1, 2, figsize=(9, 3.5))
    sizes = [row[0] for row in rows]
    trees.semilogy(
        sizes,
        [max(row[1], 1) for row in rows],
        marker=mip.marker,
        color=mip.colour,
        label="MIP nodes",
    )
    trees.semilogy(
        sizes, [row[3] for row in rows], marker=cp.marker, color=cp.colour, label="CP branches"
    )
    trees.set_xlabel("n")
    trees.set_title("search tree size (one board)")
    trees.legend()
    times.plot(
        sizes, [row[2] for row in rows], marker=mip.marker, color=mip.colour, label="MIP (SCIP)"
    )
    times.plot(
        sizes, [row[4] for row in rows], marker=cp.marker, color=cp.colour, label="CP (CP-SAT)"
    )
    times.set_xlabel("n")
    times.set_ylabel("seconds")
    times.set_title("time to the first board")
    times.legend()
    figure.tight_layout()
    show(figure)
