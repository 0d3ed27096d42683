"""Giant boards: the million-queen pipeline step by step, and min-conflicts at n = 100,000.

Run: ``python benchmarks/large_n.py [N]`` (N defaults to 1,000,000; about ten
seconds). Prints the machine and versions, then, measured in this one run:

1. the command line, each step a fresh process as a user would run it:
   ``cp-queens solve N --engine construct --format jsonl > FILE``, then
   ``cp-queens verify FILE``, then the two joined by a pipe;
   plus ``cp-queens --help`` alone: the start-up every command pays (Python,
   imports, engine registry), so the rest is the real work;
2. the same steps inside one process: the formula, building the Placement,
   writing the jsonl line, reading it back, ``verify``;
3. ``minconflicts`` at n = 100,000 for three seeds (the kernels are compiled
   and cached before timing), with the moves each needed.

Timings are wall-clock seconds, best of three for the in-process steps.
"""

from __future__ import annotations

import io
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib import metadata
from typing import Any

from cp_queens import Problem, engines, verify
from cp_queens.engines.construct import construct_columns
from cp_queens.formats import format_placement, read_placements
from cp_queens.problem import Placement

CLI = [sys.executable, "-m", "cp_queens"]


def best_of(repeats: int, task: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        result = task()
        best = min(best, time.perf_counter() - started)
    return best, result


def shell(command: str) -> float:
    started = time.perf_counter()
    subprocess.run(command, shell=True, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def machine() -> None:
    versions = ", ".join(f"{p} {metadata.version(p)}" for p in ("numpy", "numba", "ortools"))
    print(f"# {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"# {versions}; load average {os.getloadavg()[0]:.2f}")


def command_line(n: int) -> None:
    cli = " ".join(CLI)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "solution.jsonl")
        solve = f"{cli} solve {n} --engine construct --format jsonl"
        rows = [
            ("start-up only: cp-queens --help", shell(f"{cli} --help")),
            (f"solve {n} --engine construct --format jsonl > FILE",
             shell(f"{solve} > {path} 2>/dev/null")),
            ("verify FILE", shell(f"{cli} verify {path}")),
            (f"solve {n} ... | verify (the pipe)",
             shell(f"{solve} 2>/dev/null | {cli} verify")),
        ]  # fmt: skip
    print(f"\n1. command line, n = {n:,} (one process per command)")
    for label, seconds in rows:
        print(f"   {label:<55} {seconds:7.3f} s")


def in_process(n: int) -> None:
    print(f"\n2. inside one process, n = {n:,} (best of 3)")
    cols = construct_columns(n)
    placement = Placement(tuple(cols.tolist()))
    line = format_placement(placement, "jsonl")
    steps: list[tuple[str, Callable[[], Any]]] = [
        ("formula (NumPy)", lambda: construct_columns(n)),
        ("Placement from the columns", lambda: Placement(tuple(cols.tolist()))),
        ("write one jsonl line", lambda: format_placement(placement, "jsonl")),
        ("read it back", lambda: next(read_placements(io.StringIO(line)))),
        ("verify(Placement)", lambda: verify(placement)),
        ("verify(list from jsonl)", lambda: verify(next(read_placements(io.StringIO(line))))),
    ]
    for label, task in steps:
        seconds, _ = best_of(3, task)
        print(f"   {label:<55} {seconds:7.3f} s")
    assert verify(placement).ok


def local_search(n: int = 100_000) -> None:
    engines.get("minconflicts", seed=0).first(Problem(20))  # compile / load the kernels
    print(f"\n3. minconflicts, n = {n:,}")
    for seed in (1, 2, 3):
        answer = engines.get("minconflicts", seed=seed).first(Problem(n))
        placement, extra = answer.value, answer.stats.extra
        print(
            f"   seed {seed}: {answer.stats.wall_time:6.3f} s, "
            f"{extra['start_conflicts']} attacked queens after the greedy start, "
            f"{extra['moves']} moves, {extra['restarts']} restarts, valid={verify(placement).ok}"
        )


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    machine()
    command_line(size)
    in_process(size)
    local_search()
