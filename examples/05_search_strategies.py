# %% [markdown]
# # Lesson 5: the same model, different searches - how CP-SAT chooses its decisions.
#
# A constraint model says *what* a solution is; the search strategy says in
# which order the solver tries rows (variables) and columns (values). We ask the
# ``cpsat`` engine for one solution of the same board under each strategy and
# compare the branches, the conflicts (dead ends) and the time. Every strategy
# gets one second; "-" means it found nothing in that second.
#
# Things to notice:
#
# * rows in order, smallest column first (``input``/``min``) is the plain
#   backtracker: fine for tiny boards, hopeless soon after;
# * starting in the middle (``median``) or at random (``random``) helps a lot;
# * ``min-domain`` is CP-SAT's first-fail rule. It helps here, but CP-SAT
#   measures a domain by its bounds, and queens mostly punch holes in the
#   middle of other rows' domains: at n = 500 it found nothing in 30 s;
# * ``greedy`` - random queen placements with clause learning on the 0/1 view
#   of the model - is what ``first()`` uses by default: it answers large boards.
#
# Run it as a script, from the repository:
#
#     python examples/05_search_strategies.py

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
from cp_queens import Budget, Problem, engines, verify

N = 28
STRATEGIES = [
    {"strategy": "fixed", "variable_order": "input", "value_order": "min"},
    {"strategy": "fixed", "variable_order": "input", "value_order": "median"},
    {"strategy": "fixed", "variable_order": "input", "value_order": "random"},
    {"strategy": "fixed", "variable_order": "min-domain", "value_order": "min"},
    {"strategy": "fixed", "variable_order": "min-domain", "value_order": "median"},
    {"strategy": "portfolio", "solver_workers": 1},
    {"strategy": "greedy"},
]


def show(n: int, options: dict) -> None:
    engine = engines.get("cpsat", seed=1, **options)
    answer = engine.first(Problem(n), budget=Budget.of(time_limit=1.0))
    # Out of time, there is no answer: ``complete`` is false (``None`` as a complete
    # answer would mean "none exists").
    placement = answer.value if answer.complete else None
    stats = answer.stats
    seconds = "-" if placement is None else f"{stats.wall_time:.2f}"
    assert placement is None or verify(placement).ok
    label = stats.extra["strategy"]
    print(f"{n:>5}  {label:26} {seconds:>7} {stats.branches or 0:>9} {stats.conflicts or 0:>9}")


print(f"{'n':>5}  {'strategy':26} {'seconds':>7} {'branches':>9} {'conflicts':>9}")
for options in STRATEGIES:
    show(N, options)
print()
print("The default first() on a larger board:")
show(300, {})
