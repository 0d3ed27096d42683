"""One solution of a large board with the ``cpsat`` engine: tuned default against CP-SAT's.

Run: ``python benchmarks/cpsat_first.py [N ...] [--repeat R] [--baseline-limit S]``
(default N = 100 500 1000 2000, R = 2, S = 30; about three minutes).

Prints the machine, the versions and the load, then one table measured in this run:

* ``greedy`` - ``cpsat`` ``first()`` as shipped (``strategy="auto"``): the 0/1
  channel of the model, random queen placements, no presolve/inprocessing
  (see ``cp_queens/engines/cpsat/greedy.py``); seconds are the whole call,
  model building included; every answer is checked with ``cp_queens.verify``;
* ``portfolio`` - the integer model with CP-SAT's default search and all
  cores (the setting before this work), with a time limit of S seconds;
* ``fixed(min-domain, median)`` - the textbook first-fail / middle value order
  as CP-SAT offers it, with the same limit;
* ``cp-queens solve N --engine cpsat`` - the whole command in a fresh process
  (interpreter start, import, solve, verify-free printing as JSON).

The ratio column is (the row's median seconds) / (greedy's median seconds) at
the same n; a run that hit its limit shows ``>`` the limit.
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


def machine() -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    versions = ", ".join(
        f"{name} {metadata.version(name)}" for name in ("ortools", "numpy", "cp-queens")
    )
    return (
        f"{platform.node()}: {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, load average {load}\n"
        f"Python {platform.python_version()}, {versions}"
    )


def run_engine(n: int, options: dict) -> tuple[float, dict]:
    engine, budget = engines.build("cpsat", **options)
    started = time.perf_counter()
    answer = engine.first(Problem(n), budget=budget)
    placement = answer.value  # out of time: no placement, and ``status`` says so
    seconds = time.perf_counter() - started
    stats = answer.stats
    if placement is not None and not verify(placement).ok:
        raise AssertionError(f"n={n} {options}: {verify(placement).reason}")
    return seconds, {
        "found": placement is not None,
        "branches": stats.branches,
        "conflicts": stats.conflicts,
        "status": stats.status,
    }


def run_command(n: int) -> tuple[float, dict]:
    command = [sys.executable, "-m", "cp_queens", "solve", str(n), "--engine", "cpsat"]
    started = time.perf_counter()
    done = subprocess.run(
        [*command, "--format", "jsonl"], capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - started
    import json

    found = done.returncode == 0 and verify(json.loads(done.stdout)).ok
    return seconds, {"found": found, "branches": None, "conflicts": None, "status": "complete"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[100, 500, 1000, 2000])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--baseline-limit", type=float, default=30.0)
    parser.add_argument(
        "--baseline-up-to", type=int, default=1000, help="largest n for the slow baselines"
    )
    args = parser.parse_args()
    print(machine())
    print()
    limit = args.baseline_limit
    rows = [
        ("greedy", {}, None),
        ("portfolio", {"strategy": "portfolio", "time_limit": limit}, limit),
        (
            "fixed(min-domain, median)",
            {
                "strategy": "fixed",
                "variable_order": "min-domain",
                "value_order": "median",
                "time_limit": limit,
            },
            limit,
        ),
        ("cp-queens solve N --engine cpsat", None, None),
    ]
    header = (
        f"{'n':>5}  {'setting':34} {'seconds (runs)':24} {'median':>7} {'ratio':>6} "
        f"{'branches':>9} {'conflicts':>9}  status"
    )
    print(header)
    print("-" * len(header))
    for n in args.sizes:
        greedy_median = None
        for label, options, row_limit in rows:
            if row_limit is not None and n > args.baseline_up_to:
                continue
            runs = []
            info: dict = {}
            for _ in range(args.repeat if row_limit is None else 1):
                seconds, info = run_command(n) if options is None else run_engine(n, options)
                runs.append(seconds)
            median = statistics.median(runs)
            if label == "greedy":
                greedy_median = median
            timed_out = not info["found"] and info["status"] == "time_limit"
            shown = f">{row_limit:g}" if timed_out else f"{median:.2f}"
            ratio = (
                (">" if timed_out else "") + f"{median / greedy_median:.1f}"
                if greedy_median
                else ""
            )
            status = "verified" if info["found"] else info["status"]
            print(
                f"{n:>5}  {label:34} {' '.join(f'{s:.2f}' for s in runs):24} {shown:>7} "
                f"{ratio:>6} {info['branches'] or '':>9} {info['conflicts'] or '':>9}  {status}",
                flush=True,
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of this process: {peak:.0f} MiB")
    print(
        "greedy settings: 0/1 channel x[r][c] <=> q[r] == c given to CP-SAT as text; "
        "num_workers=1, random_branches_ratio=1, initial_polarity=POLARITY_TRUE, "
        "use_sat_inprocessing=false, cp_model_presolve=false, cp_model_probing_level=0, "
        "symmetry_level=0, linearization_level=0"
    )


if __name__ == "__main__":
    main()
