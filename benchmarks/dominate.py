"""How far each domination model proves the optimum, and how long each board takes.

Two ways to run it:

``python benchmarks/dominate.py [--budget 60] [--largest 30]`` (about eight minutes):
for each model (CP-SAT, SCIP), symmetry breaking (none, lex) and variant (dominating,
independent), solve n = 1, 2, 3, ... one after the other, one thread, the classic bound
on, each with the time left of the budget as its time limit, until a board is not
proven optimal in time. Prints the largest n proven, its wall seconds and the series'
cumulative wall and CPU seconds.

``python benchmarks/dominate.py --per-n 120 --smallest 6 --largest 10``: every board
from ``--smallest`` to ``--largest`` gets its own time limit (here 120 s), model by
model, so the table says which model to pick for which n; a series stops at the first
board it does not prove (a larger one would only time out too). Prints one row per n,
wall and CPU seconds per model/symmetry, ">120" where the limit was hit, and the load
before each board.

``--pairs cp:none,mip:none`` compares only those model/symmetry pairs.

Both check every optimum against OEIS A075458 / A075324 (exit 1 on a disagreement).
CPU seconds are the fair measure on a shared machine (this process's, plus those of the
child process SCIP runs in, which it reports); wall seconds well above them mean the
solver waited for a core.
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
#: The model/symmetry pairs compared by --per-n: the default, the two symmetry breakings
#: on CP-SAT, and SCIP with and without lex.
PER_N = [("cp", "none"), ("cp", "halves"), ("cp", "lex"), ("mip", "none"), ("mip", "lex")]


def check(model: str, symmetry: str, independent: bool, n: int, size: int | None) -> None:
    published = A075324 if independent else A075458
    if n <= len(published) and size != published[n - 1]:
        sys.exit(f"{model}/{symmetry}: n={n} gives {size}, OEIS {published[n - 1]}")


def cpu_of(started: float, result) -> float:
    """CPU seconds of one run: this process's since ``started``, plus SCIP's child's."""
    return time.process_time() - started + result.statistics.get("child_cpu_time", 0.0)


def series(model: str, symmetry: str, independent: bool, budget: float, largest: int):
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
        cpu += cpu_of(started, result)
        wall += result.seconds
        if not result.optimal:
            break
        check(model, symmetry, independent, n, result.size)
        reached = (n, result.seconds)
    return reached, wall, cpu


def per_n(independent: bool, limit: float, smallest: int, largest: int, pairs=PER_N) -> None:
    """One row per board: wall/CPU seconds of each model, each with its own time limit."""
    variant = "independent" if independent else "dominating"
    print(f"\n{variant}, time limit {limit:g} s per board, 1 thread, classic bound on")
    print("| n | " + " | ".join(f"{m} {s}: wall / CPU s" for m, s in pairs) + " | load |")
    print("|---:|" + "---:|" * len(pairs) + "---|")
    stopped: set[tuple[str, str]] = set()
    for n in range(smallest, largest + 1):
        load = os.getloadavg()[0]
        cells = []
        for model, symmetry in pairs:
            if (model, symmetry) in stopped:
                cells.append("-")
                continue
            started = time.process_time()
            result = dominate(
                n, model=model, symmetry=symmetry, independent=independent, time_limit=limit
            )
            cpu = cpu_of(started, result)
            if result.optimal:
                check(model, symmetry, independent, n, result.size)
                cells.append(f"{result.seconds:.1f} / {cpu:.1f}")
            else:
                stopped.add((model, symmetry))
                cells.append(f">{limit:g} / {cpu:.0f} (gap {result.size}-{result.bound})")
        print(f"| {n} | " + " | ".join(cells) + f" | {load:.1f}-{os.getloadavg()[0]:.1f} |")
        sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--smallest", type=int, default=1)
    parser.add_argument("--largest", type=int, default=30)
    parser.add_argument("--per-n", type=float, metavar="S", help="time limit of each board")
    parser.add_argument("--variant", choices=("dominating", "independent", "both"))
    parser.add_argument("--pairs", help="model:symmetry pairs for --per-n, comma-separated")
    args = parser.parse_args()
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, OR-Tools {ortools.__version__}, "
        f"load {os.getloadavg()[0]:.1f} at start"
    )
    variants = {"dominating": (False,), "independent": (True,)}.get(
        args.variant or "both", (False, True)
    )
    if args.per_n is not None:
        for independent in variants:
            pairs = PER_N
            if args.pairs:
                pairs = [tuple(pair.split(":")) for pair in args.pairs.split(",")]
            per_n(independent, args.per_n, args.smallest, args.largest, pairs)
        print(f"# load {os.getloadavg()[0]:.1f} at the end")
        return
    print("| variant | model | symmetry | largest n proven | its wall s | series wall s | CPU s |")
    print("|---|---|---|---:|---:|---:|---:|")
    for independent in variants:
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
