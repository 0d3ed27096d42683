"""The ``propagate`` engine: CPU per consistency level, and the largest first solution in 10 s.

Run: ``python benchmarks/propagate.py [--sizes 8..12] [--before DIR] [--largest]``

1. **Counting** (all solutions, rows in order, columns left to right) for every
   consistency level and every n of ``--sizes``: CPU seconds (``time.process_time``
   of the search alone), wall seconds, nodes and fails, each run in a fresh
   process. With ``--before DIR`` (a source tree holding an older ``cp_queens``,
   e.g. ``git archive COMMIT cp_queens | tar -x -C DIR``) every run is also made
   with that code, interleaved with the current one so both see the same load,
   and the CPU ratio is printed. ``--repeat R`` keeps the least CPU of R runs.
2. **The largest board within 10 s** (``--largest``): the first solution with
   ``variable_order=first-fail-centre`` and ``value_order=centre`` at each level,
   n doubled from 8 until a search needs more than 10 s of CPU, then bisected to
   about 5 %. CPU, not wall time: on a shared machine the wall time depends on
   the load (printed at the start and the end); on an idle one the two agree.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

LEVELS = ("none", "forward", "arc", "alldiff")
HERE = Path(__file__).resolve().parent.parent
#: The budget of part 2, in CPU seconds of the search.
BUDGET = 10.0
#: Wall-clock limits of one run: generous, so that a loaded machine does not decide.
COUNT_LIMIT = 300.0
FIRST_LIMIT = 4 * BUDGET

CHILD = """
import json, sys, time
from cp_queens import Problem, engines
n, task, consistency, variable_order, value_order, limit = sys.argv[1:]
options = dict(consistency=consistency, variable_order=variable_order, value_order=value_order,
               time_limit=float(limit))
if hasattr(engines, "build"):  # the run settings go with the call
    engine, budget = engines.build("propagate", **options)
    call = {"budget": budget}
else:  # older trees kept them on the engine
    engine, call = engines.get("propagate", **options), {}
cpu, wall = time.process_time(), time.perf_counter()
try:
    result = (engine.count if task == "count" else engine.first)(Problem(int(n)), **call)
    stats = getattr(result, "stats", None)
except Exception as cut:  # TimeLimitError, which older trees do not have
    if type(cut).__name__ != "TimeLimitError":
        raise
    result, stats = cut.partial, None
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
if hasattr(result, "complete"):  # an answer, with its own statistics
    result = result.value if result.complete else result.partial
stats = stats or engine.stats  # older trees kept the latest call's on the engine
import cp_queens.engines.propagate as module
print(json.dumps({"cpu": cpu, "wall": wall, "nodes": stats.branches,
                  "fails": stats.conflicts, "status": stats.status,
                  "solutions": result if task == "count" else int(result is not None),
                  "module": module.__file__}))
"""


def run(tree: Path, n: int, task: str, consistency: str, order: tuple[str, str]) -> dict:
    """One search in a fresh process, with ``tree`` first on the import path."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    limit = COUNT_LIMIT if task == "count" else FIRST_LIMIT
    args = [str(n), task, consistency, *order, str(limit)]
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=limit + 60,
            cwd="/",
        )
    except subprocess.TimeoutExpired:
        return {"status": "killed"}
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1:] or ["?"]
        return {"status": "error: " + last[0]}
    result = json.loads(done.stdout)
    if not result["module"].startswith(str(tree)):
        raise SystemExit(f"expected cp_queens from {tree}, got {result['module']}")
    return result


def sizes_from(text: str) -> list[int]:
    low, _, high = text.partition("..")
    return list(range(int(low), int(high or low) + 1))


def best(repeat: int, *args: object) -> dict:
    """The run with the least CPU of ``repeat`` runs (the others were slowed by the load)."""
    runs = [run(*args) for _ in range(repeat)]  # type: ignore[arg-type]
    return min(runs, key=lambda result: result.get("cpu", float("inf")))


def counting(sizes: list[int], before: Path | None, repeat: int) -> None:
    in_order = ("input", "min")
    print("\n## All solutions, rows in order: CPU s (wall s), nodes / fails")
    header = "| level | n | after CPU (wall) | nodes / fails |"
    if before is not None:
        header += " before CPU (wall) | before / after |"
    print(header)
    print("|---" * (header.count("|") - 1) + "|")
    for level in LEVELS:
        for n in sizes:
            after = best(repeat, HERE, n, "count", level, in_order)
            cells = [level, str(n), _cpu(after), _nodes(after)]
            if before is not None:
                old = best(repeat, before, n, "count", level, in_order)
                ratio = (
                    f"{old['cpu'] / after['cpu']:.2f}"
                    if "cpu" in old and "cpu" in after and after["status"] == old["status"]
                    else "-"
                )
                cells += [_cpu(old), ratio]
            print("| " + " | ".join(cells) + " |", flush=True)


def _cpu(result: dict) -> str:
    if "cpu" not in result:
        return result["status"]
    note = "" if result["status"] == "complete" else f" {result['status']}"
    return f"{result['cpu']:.2f} ({result['wall']:.2f}){note}"


def _nodes(result: dict) -> str:
    return f"{result['nodes']:,} / {result['fails']:,}" if "nodes" in result else "-"


def largest() -> None:
    heuristic = ("first-fail-centre", "centre")
    print(f"\n## First solution, first-fail-centre + centre: largest n in {BUDGET:g} s of CPU")
    print("| level | largest n | its CPU (wall) s | nodes / fails | first n that did not |")
    print("|---|---|---|---|---|")

    def solved(level: str, n: int) -> tuple[bool, dict]:
        result = run(HERE, n, "first", level, heuristic)
        ok = result.get("status") == "complete" and result.get("cpu", BUDGET + 1) <= BUDGET
        print(f"  {level} n={n}: {_cpu(result)} {_nodes(result)}", file=sys.stderr, flush=True)
        return ok, result

    for level in LEVELS:
        low, low_result, high = 0, {}, 8
        while True:
            ok, result = solved(level, high)
            if not ok:
                break
            low, low_result, high = high, result, high * 2
        while high - low > max(low // 20, 1):
            middle = (low + high) // 2
            ok, result = solved(level, middle)
            if ok:
                low, low_result = middle, result
            else:
                high = middle
        print(
            f"| {level} | {low} | {_cpu(low_result) if low else '-'} | "
            f"{_nodes(low_result) if low else '-'} | {high} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="8..12", help="board sizes to count, e.g. 8..12")
    parser.add_argument("--before", type=Path, help="a source tree with an older cp_queens")
    parser.add_argument("--largest", action="store_true", help="also search the largest n")
    parser.add_argument("--no-count", action="store_true", help="skip the counting table")
    parser.add_argument("--repeat", type=int, default=1, help="count runs: best CPU of R runs")
    args = parser.parse_args()
    print(
        f"# {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()};"
        f" load average {os.getloadavg()[0]:.2f} at the start"
    )
    if not args.no_count:
        before = args.before.resolve() if args.before else None
        counting(sizes_from(args.sizes), before, args.repeat)
    if args.largest:
        largest()
    print(f"# load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
