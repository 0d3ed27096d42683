# %% [markdown]
# # Lesson 6: completion - some queens are already on the board; place the rest.
#
# This is where a constraint model pays off. A hand-written backtracker must be
# rewritten to respect pre-placed queens; the model simply gets smaller: a given
# queen's row needs no variable, and its column and diagonals leave the other
# rows' domains (the *residue*). Squares can also be *blocked* ('x': no queen may
# stand there), the "blocked n-queens" of CSPLib prob079. The problem is
# NP-complete (Gent, Jefferson & Nightingale 2017), and the interesting answer is
# often "impossible": a claim you cannot check by looking at a board. So we ask
# two engines and compare.
#
# Run it as a script, from the repository:
#
#     python examples/06_completion.py

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
from cp_queens.completion import completions, cross_check, first_completion
from cp_queens.partial import parse_partial
from cp_queens.render import unicode

# %% [markdown]
# A partial board, written the way `cp-queens complete FILE` reads it.
# Rows top to bottom; '.' is an empty square, 'Q' a given queen.

# %%
BOARD = """
. . Q . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . Q . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
"""
problem = parse_partial(BOARD, "lesson board")
print(f"n={problem.n}, given queens (row: column): {problem.fixed}")

# %% [markdown]
# One completion. Every answer goes through the independent verifier, which
# also checks the given queens were kept. In the picture, given queens are ♕.

# %%
solution = first_completion(problem, "cpsat")
print(unicode(solution, given=problem.fixed))

# %% [markdown]
# How many completions? The model and the hand-written backtracker must agree.

# %%
for name in ("cpsat", "reference"):
    answer = engines.get(name).count(problem)  # the answer and its statistics, in one
    print(f"{name:>9}: {answer.value} completions, {answer.stats.wall_time:.3f}s")

# %% [markdown]
# One more queen, attacking neither given queen, can make the board impossible.
# A proof of "no completion" is a complete search that found nothing; a second,
# independent search confirms it. (JSON works too, rows and columns from 0.)

# %%
harder = parse_partial('{"n": 10, "queens": [[0, 2], [3, 7], [9, 4]]}')
print(f"\nwith {len(harder.fixed)} given queens:", end=" ")
if first_completion(harder, "cpsat") is None:
    print("no completion exists (cpsat)")
    print("reference agrees:", cross_check(harder, "reference", exists=False) is None)
else:
    print("still completable")

# %% [markdown]
# Small boards: count completions for every single pre-placed queen of 8x8.

# %%
print("\n8x8, completions for a single given queen on each square of the top half:")
for row in range(4):
    counts = [len(list(completions(Problem(8, {row: c}), "cpsat"))) for c in range(8)]
    print("  row", row, counts)

# %% [markdown]
# Only the residue is solved: the rows without a given queen, each with the columns
# still open in it. Given queens and blocked squares never enter the model.

# %%
residue = problem.residue()
print(f"\nthe lesson board leaves {len(residue.rows)} rows, {residue.open_squares()} open squares;")
print(f"  row {residue.rows[0]} may still use columns {residue.open_columns(0)}")

# %% [markdown]
# Blocked squares ('x'): here the two corners of the bottom row and two squares of row 5.

# %%
BLOCKED = """
. . Q . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . Q . .
. . . . . . . . . .
. . . x x . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
x . . . . . . . . x
"""
blocked = parse_partial(BLOCKED, "blocked board")
print(f"\n{len(blocked.blocked)} blocked squares:")
for name in ("cpsat", "pyconstraint", "reference"):
    engine = engines.get(name)
    print(f"{name:>12}: {engine.count(blocked).value} completions")
print(
    "no queen on a blocked square:", all(blocked.admits(p) for p in completions(blocked, "cpsat"))
)
