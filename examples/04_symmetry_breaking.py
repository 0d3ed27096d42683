# %% [markdown]
# # Symmetry: the 8 ways to turn or mirror a board, and three ways to tell CP-SAT about them.
#
# Every solution, turned a quarter or mirrored, is again a solution. So the
# solutions fall into classes ("orbits") of 1, 2, 4 or 8 boards, and a solver
# that finds all of them does up to 8 times the necessary work.
#
# Run it as a script, from the repository:
#
#     python examples/04_symmetry_breaking.py

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

from cp_queens import Placement, Problem, engines, symmetry

# %% [markdown]
# 1. One solution of n = 8 and its images: 8 different boards, one orbit.

# %%
p = Placement((0, 4, 7, 5, 2, 6, 1, 3))
for name, image in symmetry.images(p).items():
    print(f"{name:>15}: {list(image)}")
print(
    "orbit size:", symmetry.orbit_size(p), "| canonical (smallest) member:", symmetry.canonical(p)
)

# %% [markdown]
# 2. The same CP-SAT model with no, the mirror and the complete symmetry break.
#    mirror: one constraint, 2*q[0] <= n-1 (first queen in the left half);
#    full:   q <=lex each of its 7 images, so only canonical solutions remain.

# %%
n = 10  # even: the mirror break halves the count exactly (exercise 11 asks about odd n)
found = {}
print(f"\nn = {n}: {'symmetry':>8} {'solutions':>9} {'seconds':>8}")
for level in ("none", "mirror", "full"):
    engine = engines.get("cpsat", symmetry=level, method="plain")
    started = time.perf_counter()
    found[level] = set(engine.solutions(Problem(n)))
    print(f"       {level:>8} {len(found[level]):>9} {time.perf_counter() - started:>8.3f}")

# %% [markdown]
# 3. The complete break loses nothing: expanding its orbits gives every solution back.

# %%
expanded = set(symmetry.expand(iter(found["full"])))
print(
    "full break = the canonical solutions:",
    found["full"] == set(filter(symmetry.is_canonical, found["none"])),
)
print("orbits of the full break = all solutions:", expanded == found["none"])

# %% [markdown]
# 4. Orbit sizes: 8 unless the board looks the same after a half (4) or quarter turn (2).

# %%
sizes = [symmetry.orbit_size(q) for q in found["full"]]
print("orbit sizes:", {size: sizes.count(size) for size in sorted(set(sizes))})

# %% [markdown]
# 5. The fast path of the cpsat engine uses exactly this: search one solution per
#    orbit in small models (first row fixed) in parallel processes, then expand.

# %%
for method in ("plain", "fast"):
    engine = engines.get("cpsat", method=method)
    started = time.perf_counter()
    total, unique = engine.count_unique(Problem(10)).value
    seconds = time.perf_counter() - started
    print(f"n = 10, method={method:<5}: {total} solutions, {unique} unique, {seconds:.2f} s")
