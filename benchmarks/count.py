"""Counting n = 12..17: pure-Python bitmask path against the compiled ``fast`` engine.

Run: ``python benchmarks/count.py [MAX_N] [--repeat R] [--python-max N]``
(about a minute with the defaults on an idle 2-core machine). Prints the
machine and versions, then one table measured in this one run:

* ``python``: the same bitmask kernels, interpreted (the fallback without
  Numba), one process; skipped above ``--python-max`` where it is hopeless
  (each n costs about 6x the one before);
* ``fast 1 core``: the compiled kernels in this process;
* ``fast all cores``: :func:`cp_queens.parallel.count_board` on a local process
  pool of every core, pool start-up included;
* ``C mirror s``: a plain C bitmask counter with only the mirror symmetry
  (``benchmarks/c_bitmask.c``, built here with ``cc -O3 -march=native``; the
  column is left out when no C compiler is found), as a yardstick;
* ``(cpu s)``: CPU seconds of the run before it (this process and the pool's
  workers). On a shared machine they show what the work costs when the other
  load is not counted: wall seconds well above them mean the run did not get
  its cores;
* ratios, and the compile time of the kernels reported apart: once compiled
  from scratch (an empty Numba cache, in a fresh process) and once loaded from
  the cache, as every later run does. Timings of compiled runs exclude it.

Each timing is the best of ``--repeat`` runs (the machine may be shared, so the
best run is the one least disturbed); every count is checked against OEIS.
"""

from __future__ import annotations

import argparse
import atexit
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib import metadata

from cp_queens import Problem, engines, parallel
from cp_queens.engines.fast import subproblems as split_module

#: OEIS A000170 and A002562 for n = 12..17, to check every count printed.
EXPECTED = {
    12: (14200, 1787),
    13: (73712, 9233),
    14: (365596, 45752),
    15: (2279184, 285053),
    16: (14772512, 1846955),
    17: (95815104, 11977939),
}

COMPILE_PROBE = (
    "import time; from cp_queens.engines.fast import subproblems as s; t = time.perf_counter(); "
    "s.warm_up(); print(time.perf_counter() - t)"
)


def count_in_process(n: int, force_python: bool) -> tuple[int, int]:
    engine = engines.get("fast", workers=1, force_python=force_python)
    return tuple(engine.count_unique(Problem(n)))


def count_on_all_cores(n: int) -> tuple[int, int]:
    result = parallel.count_board(n, workers=None)
    assert result.unique is not None
    return result.total, result.unique


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def best_of(repeat: int, n: int, task: Callable[[int], tuple[int, int]]) -> tuple[float, float]:
    """Best wall seconds of ``repeat`` runs, and the CPU seconds of that run."""
    best = (float("inf"), 0.0)
    for _ in range(repeat):
        cpu = cpu_seconds()
        started = time.perf_counter()
        answer = task(n)
        best = min(best, (time.perf_counter() - started, cpu_seconds() - cpu))
        if answer != EXPECTED[n]:
            raise SystemExit(f"wrong count for n={n}: {answer}, expected {EXPECTED[n]}")
    return best


def compile_seconds() -> tuple[float, float]:
    """(compile from an empty cache, load from the cache), each in a fresh process."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        runs = [
            float(
                subprocess.run(
                    [sys.executable, "-c", COMPILE_PROBE],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            for _ in range(2)
        ]
    return runs[0], runs[1]


def build_c(directory: str) -> str | None:
    """Compile the C yardstick; ``None`` when there is no working C compiler."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "c_bitmask.c")
    binary = os.path.join(directory, "c_bitmask")
    for compiler in ("cc", "gcc", "clang"):
        try:
            subprocess.run(
                [compiler, "-O3", "-march=native", "-o", binary, source],
                check=True,
                capture_output=True,
            )
            return binary
        except (OSError, subprocess.CalledProcessError):
            continue
    return None


def run_c(binary: str, n: int) -> float:
    started = time.perf_counter()
    out = subprocess.run([binary, str(n)], capture_output=True, text=True, check=True).stdout
    seconds = time.perf_counter() - started
    if int(out) != EXPECTED[n][0]:
        raise SystemExit(f"C yardstick gave {out.strip()} for n={n}")
    return seconds


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    versions = ", ".join(
        f"{name} {metadata.version(name)}" for name in ("cp-queens", "numba", "numpy")
    )
    return (
        f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}; {versions}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("max_n", nargs="?", type=int, default=17)
    parser.add_argument("--min-n", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=2, help="best of R runs (default 2)")
    parser.add_argument(
        "--python-max", type=int, default=14, help="largest n for the interpreted path"
    )
    args = parser.parse_args()

    print(f"machine: {machine()}")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    fresh, cached = compile_seconds()
    print(f"kernel compile: {fresh:.2f} s from scratch, {cached:.2f} s loaded from the cache")
    split_module.warm_up()
    build_dir = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, build_dir, ignore_errors=True)
    c_binary = build_c(build_dir)
    print(
        f"\n{'n':>3} {'solutions':>10} {'unique':>9} {'python s':>9} {'C mirror s':>10} "
        f"{'1 core s':>9} {'(cpu s)':>8} {'all cores s':>12} {'(cpu s)':>8} {'python/1 core':>14} "
        f"{'C/1 core':>9} {'1 core/all':>11}"
    )
    for n in range(args.min_n, args.max_n + 1):
        total, unique = EXPECTED[n]
        python = (
            best_of(1, n, lambda m: count_in_process(m, True))[0] if n <= args.python_max else None
        )
        c_seconds = run_c(c_binary, n) if c_binary else None
        one, one_cpu = best_of(args.repeat, n, lambda m: count_in_process(m, False))
        every, every_cpu = best_of(args.repeat, n, count_on_all_cores)
        python_text = f"{python:9.3f}" if python is not None else f"{'skipped':>9}"
        c_text = f"{c_seconds:10.3f}" if c_seconds is not None else f"{'-':>10}"
        ratio = f"{python / one:13.0f}x" if python is not None else f"{'-':>14}"
        c_ratio = f"{c_seconds / one:8.2f}x" if c_seconds is not None else f"{'-':>9}"
        print(
            f"{n:>3} {total:>10} {unique:>9} {python_text} {c_text} {one:>9.3f} {one_cpu:>8.2f} "
            f"{every:>12.3f} {every_cpu:>8.2f} {ratio} {c_ratio} {one / every:>10.2f}x"
        )
    print(f"\nload average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if c_binary is None:
        print("C yardstick skipped: no C compiler found")
    if args.python_max < args.max_n:
        print(
            f"python path skipped above n={args.python_max}: each n costs ~6x the previous, "
            "so n=17 would take hours"
        )


if __name__ == "__main__":
    main()
