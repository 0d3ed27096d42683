"""python-constraint2: global versus pairwise columns, and which solver to use.

Run: ``python benchmarks/pyconstraint_models.py`` (about two minutes). Prints the
machine and versions, then three tables measured in this one run:

1. counting all solutions with the columns stated as one ``AllDifferent``
   (global) or folded into the n(n-1)/2 pairwise constraints, with the ratio;
2. the first solution with each solver, including python-constraint2's own
   default (``optimized``, a static row order) and min-conflicts with a global
   ``AllDifferent`` (which cannot tell which queen to move);
3. the first solution with columns tried centre first or in the natural order.
"""

from __future__ import annotations

import os
import platform
import random
import time
from importlib import metadata

import constraint

from cp_queens import Budget, Problem, engines, verify
from cp_queens.engines.pyconstraint import build_problem

FIRST_LIMIT = 10.0


def timed_count(columns: str, n: int) -> tuple[float, int, int]:
    engine = engines.get("pyconstraint", columns=columns)
    started = time.perf_counter()
    answer = engine.count(Problem(n))
    return time.perf_counter() - started, answer.value, answer.stats.branches or 0


def timed_first(solver: str, n: int, values: str = "centre") -> str:
    engine = engines.get("pyconstraint", solver=solver, values=values, seed=1)
    started = time.perf_counter()
    placement = engine.first(Problem(n), budget=Budget.of(time_limit=FIRST_LIMIT)).value
    seconds = time.perf_counter() - started
    if placement is None:
        return f">{FIRST_LIMIT:g} s" if solver != "min-conflicts" else f"gave up {seconds:.2f} s"
    assert verify(placement).ok
    return f"{seconds:.3f} s"


def min_conflicts_with_global_columns(n: int, steps: int) -> str:
    solver = constraint.MinConflictsSolver(steps=steps, rand=random.Random(1))
    started = time.perf_counter()
    found = build_problem(Problem(n), solver, columns="global").getSolution()
    seconds = time.perf_counter() - started
    return f"{seconds:.3f} s" if found else f"gave up {seconds:.2f} s"


def main() -> None:
    print(
        f"machine: {platform.platform()}, {os.cpu_count()} cpus, Python "
        f"{platform.python_version()}, python-constraint2 "
        f"{metadata.version('python-constraint2')} (shared machine, timings noisy)"
    )
    print("\n1. count all solutions, solver=backtracking: columns global vs pairwise")
    print(
        f"{'n':>3} {'solutions':>9} {'global s':>9} {'pairwise s':>10} {'ratio':>6} "
        f"{'nodes (both)':>12}"
    )
    for n in (8, 9, 10, 11):
        g_time, g_total, g_nodes = timed_count("global", n)
        p_time, p_total, p_nodes = timed_count("pairwise", n)
        assert g_total == p_total
        nodes = f"{g_nodes}" if g_nodes == p_nodes else f"{g_nodes}/{p_nodes}"
        print(
            f"{n:>3} {g_total:>9} {g_time:>9.3f} {p_time:>10.3f} {p_time / g_time:>6.2f} "
            f"{nodes:>12}"
        )

    print(f"\n2. first solution (limit {FIRST_LIMIT:g} s per run; values tried centre first)")
    solvers = ("backtracking", "recursive", "optimized", "min-conflicts")
    print(f"{'n':>4} " + " ".join(f"{s:>14}" for s in solvers) + f" {'mc, global cols':>16}")
    for n in (20, 50, 100):
        cells = [timed_first(solver, n) for solver in solvers]
        steps = 100 if n <= 50 else 20
        cells.append(min_conflicts_with_global_columns(n, steps))
        print(f"{n:>4} " + " ".join(f"{c:>14}" for c in cells[:-1]) + f" {cells[-1]:>16}")
    print("(mc, global cols: min-conflicts with AllDifferent on the columns, 100 / 20 steps)")

    print("\n3. first solution, solver=backtracking: which column each row tries first")
    print(f"{'n':>4} {'centre first':>14} {'natural':>14}")
    for n in (50, 100, 128, 200):
        centre, natural = timed_first("backtracking", n), timed_first("backtracking", n, "natural")
        print(f"{n:>4} {centre:>14} {natural:>14}")
    print("(natural: the domain 0..n-1, which the solver takes from the end: column n-1 first)")


if __name__ == "__main__":
    main()
