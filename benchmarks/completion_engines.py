"""Which engine should ``cp-queens complete`` use by default? Every one, on each kind of board.

Run: ``python benchmarks/completion_engines.py [--engines fast,cpsat,pyconstraint,reference]
[--timeout 60]`` (some 15 minutes on a busy 2-core machine with the defaults: most of
it is the engines that run out their time).

Each instance is solved by whole processes, as a user runs them, once per engine and
task: ``cp-queens complete FILE -e ENGINE`` (one completion) and the same with
``--count``. The table gives each run's answer, wall seconds and CPU seconds (user +
system of the process and its children: on a shared machine wall time also measures
the wait for a core, so compare CPU), ``timeout`` for a run past ``--timeout``.

The instances, one of each kind of board the default has to serve:

* ``gen-20-4-1..3`` (``tests/data``): CSPLib prob079's n-queens completion generator
  (``queens-gen-fast.py 20 4 SEED``): 4 queens given at random on a 20 x 20 board,
  hundreds of thousands of completions;
* ``blocked-20-no-completion`` (``tests/data``): prob079's excluded diagonals,
  ``diag-20-4-3`` with 27 diagonals: no completion, a proof of "none";
* ``small-8``: 3 queens on 8 x 8, a residue of a few squares (start-up is everything);
* ``gen-40-2-1``: prob079's generator, 2 queens on 40 x 40: many completions, a
  count far out of reach (refused before any work), one completion easy for a
  solver that does not search in row order.

The default engine of each task is the fastest on the kinds it serves; the
docstring of ``cp_queens.default_complete_engine`` and ``docs/completion.md`` give
the figures of the last run.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"

#: Instances written here (the others are read from ``tests/data``).
BOARDS = {
    "small-8": '{"n": 8, "queens": [[0, 0], [1, 4], [2, 7]]}',
    "gen-40-2-1": '{"n": 40, "queens": [[8, 36], [4, 16]]}',
}


def instances(folder: Path) -> list[Path]:
    paths = [DATA / f"gen-20-4-{seed}.json" for seed in (1, 2, 3)]
    paths.append(DATA / "blocked-20-no-completion.txt")
    for name, text in BOARDS.items():
        path = folder / f"{name}.json"
        path.write_text(text + "\n")
        paths.append(path)
    return paths


def run(path: Path, engine: str, count: bool, timeout: float) -> tuple[str, float, float]:
    """One ``cp-queens complete`` process: its answer, wall seconds and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    command = [sys.executable, "-m", "cp_queens", "complete", str(path), "-e", engine]
    command += ["--quiet", *(["--count"] if count else [])]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        answer = {0: "found", 1: "none", 2: "refused"}.get(
            done.returncode, f"exit {done.returncode}"
        )
        if count and done.returncode == 0:
            answer = done.stdout.split()[0]  # the number of completions
    except subprocess.TimeoutExpired:
        answer = "timeout"
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return answer, wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--engines",
        type=lambda text: text.split(","),
        default=["fast", "cpsat", "pyconstraint", "reference"],
    )
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    from cp_queens import __version__

    print(f"# cp_queens {__version__}, Python {platform.python_version()}, {platform.machine()}")
    print(f"# {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    print("| instance | task | engine | answer | wall s | CPU s |")
    print("| --- | --- | --- | --- | ---: | ---: |")
    with tempfile.TemporaryDirectory() as folder:
        for path in instances(Path(folder)):
            for count in (False, True):
                for engine in args.engines:
                    answer, wall, cpu = run(path, engine, count, args.timeout)
                    task = "count" if count else "first"
                    print(
                        f"| {path.stem} | {task} | {engine} | {answer} | {wall:.2f} | {cpu:.2f} |",
                        flush=True,
                    )
    print(f"# load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
