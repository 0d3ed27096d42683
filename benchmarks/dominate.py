"""How far each domination model proves the optimum within a budget of 60 s.

Run: ``python benchmarks/dominate.py [--budget 60] [--largest 30]`` (about eight minutes:
eight series of at most the budget each).

For each model (CP-SAT, SCIP), symmetry breaking (none, lex) and variant (dominating,
independent), solve n = 1, 2, 3, ... one after the other, one worker, the classic bound
on, each with the time left of the budget as its time limit, until a board is not
proven optimal in time. Prints the largest n proven, its wall seconds and the series'
cumulative wall and CPU seconds, and checks every optimum against OEIS A075458 /
A075324 (exit 1 on a disagreement). CPU seconds (of this process) are the fair measure
on a shared machine; wall seconds well above them mean the solver waited for a core.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import ortools

from cp_queens.dominate import dominate

A075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11, 11, 12, 12, 13, 13]
A075324 = [1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7, 7, 8]


def series(model: str, symmetry: str, independent: bool, budget: float, largest: int):
    published = A075324 if independent else A075458
    wall = cpu = 0.0
    reached = (0, 0.0)
    for n in range(1, largest + 1):
        left = budget - wall
        if left <= 0:
            break
        started = time.process_time()
        result = dominate(
            n, model=model, symmetry=symmetry, independent=independent, time_limit=left
        )
        cpu += time.process_time() - started
        wall += result.seconds
        if not result.optimal:
            break
        if n <= len(published) and result.size != published[n - 1]:
            sys.exit(f"{model}/{symmetry}: n={n} gives {result.size}, OEIS {published[n - 1]}")
        reached = (n, result.seconds)
    return reached, wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--largest", type=int, default=30)
    args = parser.parse_args()
    print(
        f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, OR-Tools {ortools.__version__}, "
        f"load {os.getloadavg()[0]:.1f} at start"
    )
    print("| variant | model | symmetry | largest n proven | its wall s | series wall s | CPU s |")
    print("|---|---|---|---:|---:|---:|---:|")
    for independent in (False, True):
        for model in ("cp", "mip"):
            for symmetry in ("none", "lex"):
                (n, seconds), wall, cpu = series(
                    model, symmetry, independent, args.budget, args.largest
                )
                variant = "independent" if independent else "dominating"
                print(
                    f"| {variant} | {model} | {symmetry} | {n} | {seconds:.1f} | "
                    f"{wall:.1f} | {cpu:.1f} |",
                    flush=True,
                )
    print(f"# load {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
