"""Proving "no completion": default ``complete`` against ``complete --count`` on CSPLib prob079.

Run: ``python benchmarks/completion_proofs.py [--sizes 16-24] [--seeds 1,2,3] [--mininfile 4]
[--timeout 120]`` (a few minutes on an idle 2-core machine with the defaults).

The instances are CSPLib prob079's *excluded diagonals* family (Gent, Jefferson and
Nightingale, "Complexity of n-Queens Completion", JAIR 2017), generated as its
description says: the 2n - 1 sum diagonals (``r + c``) and the 2n - 1 difference
diagonals (``r - c``) are each shuffled with the seed; then, until both lists are
used up, a direction is drawn at random (sum or difference, or whichever is left)
and the next diagonal of that direction is excluded, unless some row or column it
crosses would be left with no more than ``mininfile`` open squares. ``diag-N-M-S``
is board N, mininfile M, seed S; an instance takes the *first* D diagonals so drawn
(prob079: other subsets are not statistically valid), their squares written as
``x``. ``tests/data/blocked-20-no-completion.txt`` is ``diag-20-4-3`` with D = 27,
and :func:`excluded_diagonals` rebuilds it square for square (a test checks this);
the other sizes take D in the same proportion, ``round(27 n / 20)``, by default.

Each instance is written to a file and solved by two whole processes, as a user
would run them: ``cp-queens complete FILE`` (the default engine and strategy: find
one completion) and ``cp-queens complete FILE --count``. The table gives each one's
answer, wall seconds and CPU seconds (user + system of the process and its
children), and the ratios of the default's times to the count's. The default must
never lose to the count by more than 2x; the script exits 1 if it does in CPU time
(on a shared machine wall time also measures the wait for a core, so it is printed,
not judged) on an instance where the count finished, or if the answers disagree.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LIMIT = 2.0


def excluded_diagonals(n: int, mininfile: int, seed: int) -> list[tuple[int, int]]:
    """The excluded diagonals of instance ``diag-n-mininfile-seed``, in the order drawn.

    Each item is ``(d, kind)``: ``kind`` 1 a sum diagonal ``r + c == d``, 0 a
    difference diagonal ``r - c == d - (n - 1)`` (prob079's own notation).
    """
    rng = random.Random(seed)
    sums, differences = list(range(2 * n - 1)), list(range(2 * n - 1))
    rng.shuffle(sums)
    rng.shuffle(differences)
    open_in_row, open_in_col = [n] * n, [n] * n
    closed: set[tuple[int, int]] = set()
    chosen: list[tuple[int, int]] = []
    while sums or differences:
        if sums and differences:
            kind = 1 if rng.randrange(-1, 2, 2) == 1 else 0
        else:
            kind = 1 if sums else 0
        d = (sums if kind else differences).pop()
        squares = [
            (r, d - r if kind else r - d + n - 1)
            for r in range(n)
            if 0 <= (d - r if kind else r - d + n - 1) < n
        ]
        squares = [square for square in squares if square not in closed]
        if any(open_in_row[r] <= mininfile or open_in_col[c] <= mininfile for r, c in squares):
            continue  # excluding it would leave a row or column too empty: skip it
        for r, c in squares:
            open_in_row[r] -= 1
            open_in_col[c] -= 1
            closed.add((r, c))
        chosen.append((d, kind))
    return chosen


def board(n: int, diagonals: list[tuple[int, int]]) -> str:
    """The instance as a board file: ``x`` on every square of an excluded diagonal."""
    sums = {d for d, kind in diagonals if kind == 1}
    differences = {d - (n - 1) for d, kind in diagonals if kind == 0}
    rows = (
        "".join("x" if r + c in sums or r - c in differences else "." for c in range(n))
        for r in range(n)
    )
    return "\n".join(rows) + "\n"


def run(path: Path, *extra: str, timeout: float) -> tuple[str, float, float]:
    """One ``cp-queens complete`` process: its answer, wall seconds and CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    command = [sys.executable, "-m", "cp_queens", "complete", str(path), "--quiet", *extra]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        answer = {0: "found", 1: "none"}.get(done.returncode, f"exit {done.returncode}")
        if extra and done.returncode == 0:
            answer = done.stdout.split()[0]  # the number of completions
    except subprocess.TimeoutExpired:
        answer = "timeout"
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return answer, wall, cpu


def sizes(text: str) -> list[int]:
    if "-" in text:
        low, high = map(int, text.split("-"))
        return list(range(low, high + 1))
    return [int(part) for part in text.split(",")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=sizes, default=sizes("16-24"))
    parser.add_argument("--seeds", type=lambda s: [int(x) for x in s.split(",")], default=[3])
    parser.add_argument("--mininfile", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument(
        "--share", type=float, default=27 / 20, help="diagonals excluded per row (D / n)"
    )
    args = parser.parse_args()
    from cp_queens import __version__

    print(f"# cp_queens {__version__}, Python {platform.python_version()}, {platform.machine()}")
    print(f"# {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    print(
        "| instance | blocked | default answer | wall s | CPU s | --count answer | wall s "
        "| CPU s | default/count wall | default/count CPU |"
    )
    print("| --- | ---: | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        for seed in args.seeds:
            for n in args.sizes:
                name = f"diag-{n}-{args.mininfile}-{seed}"
                drawn = excluded_diagonals(n, args.mininfile, seed)
                text = board(n, drawn[: round(args.share * n)])
                path = Path(folder) / f"{name}.txt"
                path.write_text(text)
                found, wall, cpu = run(path, timeout=args.timeout)
                count, count_wall, count_cpu = run(path, "--count", timeout=args.timeout)
                ratio = wall / count_wall if count_wall else float("inf")
                cpu_ratio = cpu / count_cpu if count_cpu else float("inf")
                exists = count not in ("none", "timeout") and not count.startswith("exit")
                expected = "found" if exists else "none"
                if count != "timeout" and (found != expected or cpu_ratio > LIMIT):
                    failed = True
                print(
                    f"| {name} | {text.count('x')} | {found} | {wall:.2f} | {cpu:.2f} | {count} "
                    f"| {count_wall:.2f} | {count_cpu:.2f} | {ratio:.2f} | {cpu_ratio:.2f} |",
                    flush=True,
                )
    print(f"# load average {os.getloadavg()[0]:.2f} at the end")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
