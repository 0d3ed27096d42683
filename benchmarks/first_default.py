"""Where the default ``first`` should switch from the card's model to the greedy search.

Run: ``python benchmarks/first_default.py [N ...] [--repeat R] [--limit S]``
(default N = 8 16 24 32 40 48 64 96, R = 5, S = 30; two to four minutes).

``cp-queens solve N`` runs the ``cpsat`` engine's ``first()``. Two searches can
answer it:

* ``model`` - the design card's integer model (``cp_queens/engines/cpsat/model.py``),
  CP-SAT's own search on all cores, the solution taken in a solution callback
  (``strategy="portfolio"``): what the README shows, and what a student who edits
  the model sees run;
* ``greedy`` - random queen placements on the 0/1 view of the model, built for
  boards in the thousands (``strategy="greedy"``, ``cp_queens/engines/cpsat/greedy.py``).

Two measurements for each n, both searches alternating, ``R`` times each:

* **solve**: the call alone, in this one process (OR-Tools loaded once, as in a
  program that calls the engine many times): the median wall seconds, and CPU seconds
  (user + system, all threads); every board is checked with ``cp_queens.verify``;
* **command**: ``cp-queens solve N --strategy S -q`` as a user types it, a whole new
  process each time (start-up included): the median wall seconds, and the range of its
  CPU seconds over the runs.

The search alone is faster with greedy at every n (a greedy decision is a random queen;
the model's portfolio starts its threads and presolves); what a user can measure is the
command, and on a shared machine its wall time mostly measures the wait for a core. So
greedy *measurably wins* at n when every one of its commands took less CPU than the
cheapest of the model's (the CPU ranges do not overlap). The default keeps the model up
to the last n before greedy wins at that n and every larger one: the last line names it
(``FIRST_MODEL_UP_TO`` in ``cp_queens/engines/cpsat/search.py``).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from importlib import metadata

from cp_queens import Problem, engines, verify

SIZES = [8, 16, 24, 32, 40, 48, 64, 96]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def one(strategy: str, n: int, limit: float) -> tuple[float, float]:
    """Wall and CPU seconds of one ``first()``; ``inf`` when it ran out of time."""
    engine, budget = engines.build("cpsat", strategy=strategy, time_limit=limit)
    started, cpu_started = time.perf_counter(), cpu()
    answer = engine.first(Problem(n), budget=budget)
    wall, spent = time.perf_counter() - started, cpu() - cpu_started
    if not answer.complete:  # the time limit ran out
        return float("inf"), spent
    assert answer.value is not None and verify(answer.value), (strategy, n)
    return wall, spent


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command(strategy: str, n: int) -> tuple[float, float]:
    """Wall and CPU seconds of ``cp-queens solve N --strategy S -q`` in a new process."""
    argv = [sys.executable, "-m", "cp_queens", "solve", str(n), "--strategy", strategy, "-q"]
    started, cpu_started = time.perf_counter(), children_cpu()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started, children_cpu() - cpu_started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=SIZES)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--limit", type=float, default=30.0)
    args = parser.parse_args()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.node()}, "
        f"{os.cpu_count()} cores, load average {load}; Python {platform.python_version()}, "
        f"ortools {metadata.version('ortools')}"
    )
    one("greedy", 8, args.limit)  # OR-Tools loaded and warmed before any figure
    print(
        "| n | solve: model s (CPU) | solve: greedy s (CPU) "
        "| command: model s (CPU range) | command: greedy s (CPU range) | greedy wins |"
    )
    print("|---:|---:|---:|---:|---:|:---|")
    wins: dict[int, bool] = {}
    for n in args.sizes:
        solve: dict[str, list[tuple[float, float]]] = {"portfolio": [], "greedy": []}
        whole: dict[str, list[tuple[float, float]]] = {"portfolio": [], "greedy": []}
        for _ in range(args.repeat):
            for strategy in solve:
                solve[strategy].append(one(strategy, n, args.limit))
                whole[strategy].append(command(strategy, n))
        wall = {k: statistics.median(w for w, _ in runs) for k, runs in solve.items()}
        spent = {k: statistics.median(c for _, c in runs) for k, runs in solve.items()}
        cpus = {k: [c for _, c in runs] for k, runs in whole.items()}
        wins[n] = max(cpus["greedy"]) < min(cpus["portfolio"])
        shown = {
            k: f"{statistics.median(w for w, _ in runs):.2f} "
            f"(CPU {min(cpus[k]):.2f}-{max(cpus[k]):.2f})"
            for k, runs in whole.items()
        }
        print(
            f"| {n} | {wall['portfolio']:.3f} ({spent['portfolio']:.3f}) | "
            f"{wall['greedy']:.3f} ({spent['greedy']:.3f}) | {shown['portfolio']} | "
            f"{shown['greedy']} | {'yes' if wins[n] else 'no'} |",
            flush=True,
        )
    sizes = list(wins)
    since = next((n for i, n in enumerate(sizes) if all(wins[m] for m in sizes[i:])), None)
    if since is None:
        print("\ngreedy does not measurably win at the largest n: keep the model")
        return
    below = [n for n in sizes if n < since]
    print(
        f"\ngreedy measurably wins from n = {since} on: the model up to "
        f"n = {below[-1] if below else 0}"
    )


if __name__ == "__main__":
    main()
