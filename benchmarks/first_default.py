"""Where the default ``first`` should switch from the card's model to the greedy search.

Run: ``python benchmarks/first_default.py [N ...] [--repeat R] [--limit S]``
(default N = 8 12 16 20 24 32 48 64 96 128, R = 5, S = 30; a minute or two).

``cp-queens solve N`` runs the ``cpsat`` engine's ``first()``. Two searches can
answer it:

* ``model`` - the design card's integer model (``cp_queens/engines/cpsat/model.py``),
  CP-SAT's own search on all cores, the solution taken in a solution callback
  (``strategy="portfolio"``): what the README shows, and what a student who edits
  the model sees run;
* ``greedy`` - random queen placements on the 0/1 view of the model, built for
  boards in the thousands (``strategy="greedy"``, ``cp_queens/engines/cpsat/greedy.py``).

For each n both run ``R`` times, alternating, in this one process (OR-Tools loaded
once, as in any program that calls the engine twice); the seconds are the whole call
(building the model included), the median and the CPU seconds of this process
(user + system, all threads) over the runs, and every board is checked with
``cp_queens.verify``. ``ratio`` is model / greedy in wall time: the default keeps the
model up to the largest n before greedy is faster by ``WINS`` or more in both wall and
CPU time, which the last line names (``FIRST_MODEL_UP_TO`` in ``cp_queens/engines/cpsat``).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import time
from importlib import metadata

from cp_queens import Problem, TimeLimitError, engines, verify

#: Greedy "measurably wins" when the model takes at least this many times as long.
WINS = 1.5


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def one(strategy: str, n: int, limit: float) -> tuple[float, float]:
    """Wall and CPU seconds of one ``first()``; ``inf`` when it ran out of time."""
    engine, budget = engines.build("cpsat", strategy=strategy, time_limit=limit)
    started, cpu_started = time.perf_counter(), cpu()
    try:
        found = engine.first(Problem(n), budget=budget)
    except TimeLimitError:
        return float("inf"), cpu() - cpu_started
    wall, spent = time.perf_counter() - started, cpu() - cpu_started
    assert found is not None and verify(found), (strategy, n)
    return wall, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "sizes", nargs="*", type=int, default=[8, 12, 16, 20, 24, 32, 48, 64, 96, 128]
    )
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
    print("| n | model s (CPU) | greedy s (CPU) | ratio |")
    print("|---:|---:|---:|---:|")
    wins: list[int] = []
    measured: list[int] = []
    for n in args.sizes:
        times: dict[str, list[tuple[float, float]]] = {"portfolio": [], "greedy": []}
        for _ in range(args.repeat):
            for strategy in times:
                times[strategy].append(one(strategy, n, args.limit))
        wall = {s: statistics.median(w for w, _ in runs) for s, runs in times.items()}
        spent = {s: statistics.median(c for _, c in runs) for s, runs in times.items()}
        ratio = wall["portfolio"] / wall["greedy"]
        print(
            f"| {n} | {wall['portfolio']:.3f} ({spent['portfolio']:.3f}) | "
            f"{wall['greedy']:.3f} ({spent['greedy']:.3f}) | {ratio:.2f} |",
            flush=True,
        )
        measured.append(n)
        if ratio >= WINS and spent["portfolio"] >= WINS * spent["greedy"]:
            wins.append(n)
    # the model is kept up to the last size before greedy wins at every size from there on
    since = next((n for i, n in enumerate(measured) if all(m in wins for m in measured[i:])), None)
    if since is None:
        print(f"\ngreedy does not win by {WINS}x at the largest n measured: keep the model")
    else:
        below = [n for n in measured if n < since]
        print(
            f"\ngreedy wins by {WINS}x or more from n = {since} on; the model up to "
            f"n = {below[-1] if below else 0}"
        )


if __name__ == "__main__":
    main()
