"""One model, many solvers: the card's model counted and solved on every solver.

Run: ``python benchmarks/solvers.py [--count 8..13] [--first 50,200,1000]
[--count-limit 20] [--first-limit 30] [--markdown]`` (some fifteen minutes on a
2-core machine with the defaults).

Every cell is one run of one engine in a fresh process (``python -c``), the
same model everywhere: ``cpsat`` (the project's own CP-SAT engine, for scale),
``cpmpy`` on each backend, ``minizinc`` on Gecode (plain, and with the
first-fail search annotation), and ``cpmpy`` on OR-Tools forced to enumerate
by blocking clauses, to show what the native enumeration saves. Each cell gives
wall seconds of the call and its CPU seconds (all threads, and child processes:
MiniZinc runs Gecode in one) in brackets. ``limit`` marks a run the engine's
own time limit stopped (exit 4, its partial figure ignored); later sizes of that
engine are not run. Counts are checked against OEIS A000170 and first solutions
by ``cp_queens.verify``: the script exits 1 on a wrong answer.

One run per cell on a shared machine: CPU seconds are the fairer figure; the
load average is printed with the table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from importlib import metadata

from cp_queens.compare import parse_range
from cp_queens.limits import KNOWN_TOTALS

ENGINES = [
    ("cpsat", {}),
    ("cpmpy", {"solver": "ortools"}),
    ("cpmpy", {"solver": "ortools", "enumeration": "blocking"}),
    ("cpmpy", {"solver": "choco"}),
    ("cpmpy", {"solver": "exact"}),
    ("cpmpy", {"solver": "pumpkin"}),
    ("cpmpy", {"solver": "pysat"}),
    ("minizinc", {"solver": "gecode"}),
    ("minizinc", {"solver": "gecode", "model": "first-fail"}),
]

#: The child: one call, timed inside, its answer checked, printed as JSON.
CHILD = """
import json, resource, sys, time
from cp_queens import engines, Problem, verify
name, options, task, n, limit = json.loads(sys.argv[1])
engine, budget = engines.build(name, time_limit=limit, **options)
def cpu():
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    return sum(u.ru_utime + u.ru_stime for u in usage)
wall, used = time.perf_counter(), cpu()
result = (engine.count if task == "count" else engine.first)(Problem(n), budget=budget)
if not result.complete:
    answer, status = None, "limit"
elif task == "count":
    answer, status = result.value, "ok"
else:
    answer, status = bool(result.value is not None and verify(result.value).ok), "ok"
print(json.dumps({"status": status, "answer": answer, "wall": time.perf_counter() - wall,
                  "cpu": cpu() - used, "stats": result.stats.summary()}))
"""


def label(name: str, options: dict[str, str]) -> str:
    return ":".join([name, *(f"{key}={value}" for key, value in options.items())])


def run_cell(name: str, options: dict[str, str], task: str, n: int, limit: float) -> dict:
    """One call in a fresh process; a process that overruns its limit by a minute is killed."""
    argument = json.dumps([name, options, task, n, limit])
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, argument],
            capture_output=True,
            text=True,
            timeout=limit + 60,
        )
    except subprocess.TimeoutExpired:
        return {"status": "killed"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["?"])[-1]
        return {"status": "error", "message": last[:120]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def cell_text(result: dict) -> str:
    if result["status"] == "ok":
        return f"{result['wall']:.2f} ({result['cpu']:.2f})"
    if result["status"] == "limit":
        return "limit"
    return result["status"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", default="8..13", help="sizes to count (default 8..13)")
    parser.add_argument("--first", default="50,200,1000", help="sizes to solve once")
    parser.add_argument("--count-limit", type=float, default=20.0, help="seconds per count")
    parser.add_argument("--first-limit", type=float, default=30.0, help="seconds per solve")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--only", default="", help="engines whose label contains this text")
    parser.add_argument("--tasks", default="count,first", help="count, first or both")
    args = parser.parse_args()
    wrong = False
    tables = []
    for task, sizes, limit in (
        ("count", parse_range(args.count), args.count_limit),
        ("first", parse_range(args.first), args.first_limit),
    ):
        if task not in args.tasks.split(","):
            continue
        rows = []
        for name, options in ENGINES:
            if args.only not in label(name, options):
                continue
            if task == "count" and options.get("model") == "first-fail":
                continue  # the annotation is about finding one solution
            if task == "first" and options.get("enumeration"):
                continue  # enumeration does not change a first solution
            cells, stopped = [], False
            for n in sizes:
                if stopped:
                    cells.append("")
                    continue
                result = run_cell(name, options, task, n, limit)
                if result["status"] == "ok":
                    expected = KNOWN_TOTALS[n - 1] if task == "count" else True
                    if result["answer"] != expected:
                        wrong = True
                        result["status"] = f"WRONG {result['answer']}"
                else:
                    stopped = True
                cells.append(cell_text(result))
                print(f"# {task} n={n} {label(name, options)}: {cells[-1]}", file=sys.stderr)
            rows.append((label(name, options), cells))
        tables.append((task, sizes, limit, rows))
    print_tables(tables, markdown=args.markdown)
    return 1 if wrong else 0


def print_tables(tables: list, *, markdown: bool) -> None:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    versions = []
    for package in ("cpmpy", "ortools", "pychoco", "exact", "pumpkin-solver", "python-sat"):
        try:
            versions.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            continue
    minizinc = subprocess.run(
        ["minizinc", "--version"], capture_output=True, text=True, check=False
    ).stdout.split("\n")[0]
    print(f"date {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit}")
    print(f"{platform.machine()}, {os.cpu_count()} cores, load average at the end {load}")
    print(f"{'; '.join(versions)}; {minizinc}")
    for task, sizes, limit, rows in tables:
        what = "count every solution" if task == "count" else "first solution"
        print(f"\n{what}, wall s (CPU s), limit {limit:g} s a run\n")
        header = ["engine", *(f"n={n}" for n in sizes)]
        if markdown:
            print("| " + " | ".join(header) + " |")
            print("|" + "---|" * len(header))
            for name, cells in rows:
                print("| " + " | ".join([f"`{name}`", *cells]) + " |")
        else:
            width = max(len(name) for name, _ in rows)
            print("  ".join([header[0].ljust(width), *(h.rjust(14) for h in header[1:])]))
            for name, cells in rows:
                print("  ".join([name.ljust(width), *(c.rjust(14) for c in cells)]))


if __name__ == "__main__":
    sys.exit(main())
