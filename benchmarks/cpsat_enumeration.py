"""CP-SAT exact enumeration: one plain model against the fast path, n = 10..13.

Run: ``python benchmarks/cpsat_enumeration.py [MAX_N]`` (a few minutes for
MAX_N = 13, most of it the plain model at n = 13). Prints the machine and
versions, then one table measured in this one run:

* ``plain``: the one-model ``cpsat`` engine (``method="plain"``): count, and
  enumerate into a set;
* ``first-fail``: the same single model with the fast path's fixed search
  (the row with the fewest columns left first, smallest column first), to show
  how much of the gain that order alone brings;
* ``fast``: ``method="fast"``: one solution per orbit, first row(s) fixed in
  independent models run in a process pool, orbits expanded;
* the ratios plain / fast in wall time (count, enumerate) and in CPU seconds
  of the counts (this process plus the pool's; less sensitive to the other
  work on a shared machine, and blind to the gain from using two cores), and
  whether both produced the same solution set.

Times are the best of 3 runs up to n = 12 (other work on the shared machine
only ever adds time) and of a single run at n = 13.
"""

from __future__ import annotations

import os
import platform
import resource
import sys
import time
from collections.abc import Callable
from importlib import metadata
from typing import Any

from ortools.sat.python import cp_model

from cp_queens import Problem, engines
from cp_queens.engines._cpsat import runner
from cp_queens.engines.cpsat import orbits as fast
from cp_queens.engines.cpsat.model import build_model
from cp_queens.stats import Stats


def cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes (the fast path's pool)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


#: Each measurement is repeated this often up to n = 12 and the best kept (other work on
#: the machine only ever adds time); n = 13 is measured once, the plain model takes minutes.
REPEAT = 3


def timed_with_cpu(repeat: int, task: Callable[..., Any], *args: Any) -> tuple[float, float, Any]:
    """Best wall seconds and best CPU seconds over ``repeat`` runs, and the result."""
    best_wall = best_cpu = float("inf")
    result = None
    for _ in range(repeat):
        cpu = cpu_seconds()
        started = time.perf_counter()
        result = task(*args)
        best_wall = min(best_wall, time.perf_counter() - started)
        best_cpu = min(best_cpu, cpu_seconds() - cpu)
    return best_wall, best_cpu, result


def timed(repeat: int, task: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    seconds, _, result = timed_with_cpu(repeat, task, *args)
    return seconds, result


def plain_first_fail_count(n: int) -> int:
    model, q = build_model(Problem(n))
    model.add_decision_strategy(q, cp_model.CHOOSE_MIN_DOMAIN_SIZE, cp_model.SELECT_MIN_VALUE)
    settings = runner.SolverSettings(parameters={"search_branching": cp_model.FIXED_SEARCH})
    return runner.count(model, settings, Stats())


def solution_set(engine_options: dict[str, object], n: int) -> set[tuple[int, ...]]:
    engine = engines.get("cpsat", **engine_options)
    return {p.cols for p in engine.solutions(Problem(n))}


def main() -> None:
    max_n = int(sys.argv[1]) if len(sys.argv) > 1 else 13
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"machine: {platform.platform()}, {os.cpu_count()} cpus, load average {load:.1f} "
        f"at start (shared machine, timings noisy); Python {platform.python_version()}, "
        f"ortools {metadata.version('ortools')}; fast path: {fast.default_processes()} "
        f"processes"
    )
    header = (
        f"{'n':>3} {'solutions':>9} {'unique':>6} | {'plain count':>11} {'plain enum':>10} "
        f"{'first-fail':>13} | {'fast count':>10} {'fast enum':>9} | "
        f"{'count x':>7} {'enum x':>6} {'cpu x':>5} {'same set':>8}"
    )
    print(header)
    print("-" * len(header))
    for n in range(10, max_n + 1):
        r = REPEAT if n <= 12 else 1
        plain = engines.get("cpsat", method="plain")
        plain_count_s, plain_cpu, counted = timed_with_cpu(r, plain.count, Problem(n))
        plain_total = counted.value
        plain_enum_s, plain_set = timed(r, solution_set, {"method": "plain"}, n)
        ordered_s, ordered_total = timed(r, plain_first_fail_count, n)
        quick = engines.get("cpsat", method="fast")
        fast_count_s, fast_cpu, both = timed_with_cpu(r, quick.count_unique, Problem(n))
        total, unique = both.value
        fast_enum_s, fast_set = timed(r, solution_set, {"method": "fast"}, n)
        assert plain_total == total == ordered_total == len(fast_set), n
        print(
            f"{n:>3} {total:>9} {unique:>6} | {plain_count_s:>10.2f}s {plain_enum_s:>9.2f}s "
            f"{ordered_s:>12.2f}s | {fast_count_s:>9.2f}s {fast_enum_s:>8.2f}s | "
            f"{plain_count_s / fast_count_s:>6.1f}x {plain_enum_s / fast_enum_s:>5.1f}x "
            f"{plain_cpu / fast_cpu:>4.1f}x "
            f"{'yes' if plain_set == fast_set else 'NO':>8}",
            flush=True,
        )


if __name__ == "__main__":
    main()
