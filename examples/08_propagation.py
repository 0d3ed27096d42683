# %% [markdown]
# # Lesson 8: propagation - why constraint programming works.
#
# CP-SAT does its reasoning out of sight. The ``propagate`` engine is a small
# solver of our own, in plain Python, over the same model (``q[r]``, AllDifferent
# on ``q``, ``q + r`` and ``q - r``), and it lets us choose how hard it thinks
# after each queen (``consistency``):
#
# * ``none``    - chronological backtracking: try a square, keep it if nothing
#   placed attacks it, back up to the last queen when a row has none left;
# * ``forward`` - forward checking: a new queen crosses out what it attacks in
#   every empty row, so a row with no square left is seen at once;
# * ``arc``     - arc consistency on the pairwise "not equal" constraints: a row
#   down to one square crosses out in turn, until nothing changes;
# * ``alldiff`` - generalised arc consistency on each AllDifferent (Régin's
#   matching algorithm): also sees "these two rows share the last two columns".
#
# We count the nodes (queens placed) and the fails (dead ends) of the same
# search at each level, through ``compare`` (each run in its own process, with a
# time limit), for all solutions and for the first one. Then the other side of
# the coin: what each level costs per node. Finally the heuristics: with
# first-fail (the row with fewest squares left, ties to the middle) and the
# middle columns first, how large a board does this pure-Python solver finish?
#
# Run it as a script, from the repository:
#
#     python examples/08_propagation.py          a quick tour (under a minute)
#     python examples/08_propagation.py --full   n = 4..20 as in docs/course-propagation.md

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
import dataclasses
import sys
import tempfile
from pathlib import Path

from cp_queens.compare import OK, compare, run_one
from cp_queens.compare.report import plot
from cp_queens.course.display import show
from cp_queens.course.drawing.trace import record
from cp_queens.course.needs import have

FULL = "--full" in sys.argv
LEVELS = ("none", "forward", "arc", "alldiff")
SPECS = [f"propagate:consistency={level}" for level in LEVELS]
COUNT_SIZES = range(4, 13 if FULL else 10)
FIRST_SIZES = range(4, 21 if FULL else 13)
TIME_LIMIT = 10.0 if FULL else 3.0
HEURISTIC = "propagate:consistency=arc:variable_order=first-fail-centre:value_order=centre"


def as_task(run, task):
    """The run with its task as its method, for one plot of both tasks: a level keeps its
    colour and marker, the first solution's line dashed."""
    return dataclasses.replace(run, method=task)


class Picture:
    """A PNG: drawn inline in Jupyter, one line in a terminal."""

    def __init__(self, path: Path, words: str) -> None:
        self.png = path.read_bytes()  # read now: the file is temporary
        self.words = words

    def _repr_png_(self) -> bytes:
        return self.png

    def to_text(self) -> str:
        return f"[{self.words} - drawn in the notebook version]"


def nodes_table(runs, title):
    """Nodes / fails, one row per n and one column per level: fits 80 columns."""
    print(f"\n{title}: nodes / fails")
    print(f"{'n':>3}" + "".join(f"{level:>19}" for level in LEVELS))
    for n in sorted({run.n for run in runs}):
        cells = []
        for level in LEVELS:
            run = next(r for r in runs if r.n == n and r.engine.endswith("=" + level))
            done = run.status == OK
            cells.append(f"{run.branches:,} / {run.conflicts:,}" if done else run.status)
        print(f"{n:>3}" + "".join(f"{cell:>19}" for cell in cells))
    agree = all(run.agrees is not False for run in runs)
    print(f"every run agrees with the reference: {'yes' if agree else 'NO'}")


# %% [markdown]
# 1. All solutions: the whole tree, so every level explores the same solutions.

# %%
count_runs = compare(SPECS, COUNT_SIZES, "count", time_limit=TIME_LIMIT)
nodes_table(count_runs, "all solutions")

# %% [markdown]
# 2. The first solution, rows in order and columns left to right.

# %%
first_runs = compare(SPECS, FIRST_SIZES, "first", time_limit=TIME_LIMIT)
nodes_table(first_runs, "first solution, rows in order")

# %% [markdown]
# One plot of the nodes for both tasks, drawn by compare's report.

# %%
both = [as_task(run, "all") for run in count_runs] + [as_task(run, "first") for run in first_runs]
if have("lesson 08", "plot", "matplotlib", doing="the plot"):
    with tempfile.TemporaryDirectory() as folder:
        picture = Path(folder) / "propagation_nodes.png"
        title = "search nodes per level"
        plot(both, picture, time_limit=TIME_LIMIT, metric="branches", title=title)
        show(Picture(picture, "plot of the nodes per level"))

# %% [markdown]
# 3. Nodes saved against time spent, relative to plain backtracking, at each n.


# %%
def finished(runs, level, n):
    for run in runs:
        if run.engine.endswith("=" + level) and run.n == n and run.status == OK:
            return run
    return None


print("\nall solutions, relative to 'none' (nodes ratio / time ratio; below 1 is better),")
print("from the n where 'none' needs at least 2000 nodes:")
print(f"{'n':>3}  " + "  ".join(f"{level:>15}" for level in LEVELS[1:]) + "   fastest")
never_more_nodes = True
for n in COUNT_SIZES:
    base = finished(count_runs, "none", n)
    if base is None or base.branches < 2000:
        continue  # a few milliseconds of search are too quick to time fairly
    cells, times = [], {"none": base.wall_time}
    for level in LEVELS[1:]:
        run = finished(count_runs, level, n)
        if run is None:
            cells.append(f"{'-':>15}")
            continue
        times[level] = run.wall_time
        cells.append(f"{run.branches / base.branches:6.2f} / {run.wall_time / base.wall_time:6.2f}")
    print(f"{n:>3}  " + "  ".join(cells) + f"   {min(times, key=times.get)}")
for n in COUNT_SIZES:
    nodes = [finished(count_runs, level, n) for level in LEVELS]
    if all(nodes):
        counts = [run.branches for run in nodes]
        never_more_nodes &= counts == sorted(counts, reverse=True)
print(f"nodes never grow with a stronger level (rows in order): {never_more_nodes}")

# %% [markdown]
# 4. Heuristics: first-fail with ties to the middle rows, middle columns first. The search
# hardly backtracks (about n nodes), so the cost of a node decides how far it gets. Measured
# with benchmarks/propagate.py on 23 Nov 2026 (2-core machine, 10 s of CPU): `forward` and
# `arc` find a first solution up to n = 2500 or so, `alldiff` up to 1600. `--full` below
# measures it again, in wall time, so a busy machine finds less. The search is a loop over
# an explicit stack, not a recursion: n is not bounded by Python's recursion limit.

# %%
print(f"\nfirst solution, time limit 10 s, with\n  {HEURISTIC}:")
sizes = [25, 50, 100, 200, 400, 800, 1600, 3200] if FULL else [25, 50, 100]
largest, too_large = None, None
for n in sizes:
    run = run_one(HEURISTIC, n, "first", time_limit=10.0)
    wall = "-" if run.wall_time is None else f"{run.wall_time:.2f}s"
    print(f"  n={n:>5}: {run.status:8} {wall:>8}  nodes {run.branches}  fails {run.conflicts}")
    if run.status != OK:
        too_large = n
        break
    largest = n
if FULL and largest is not None and too_large is not None:
    low, high = largest, too_large  # bisect between the last success and the first timeout
    while high - low > max(low // 20, 1):
        middle = (low + high) // 2
        run = run_one(HEURISTIC, middle, "first", time_limit=10.0)
        print(f"  n={middle:>5}: {run.status:8} nodes {run.branches} {run.message}")
        low, high = (middle, high) if run.status == OK else (low, middle)
    largest = low
if FULL:
    print(f"largest n solved within 10 s (to about 5 %): {largest}")

# %% [markdown]
# 5. The search drawn: the tree of forward checking on 5 x 5 (inline in Jupyter; from the
# shell: cp-queens trace 5 --engine propagate --consistency forward --output tree.svg).

# %%
show(record(5, engine="propagate", consistency="forward"))
