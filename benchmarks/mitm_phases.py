"""Where a meet-in-the-middle count spends its time: the phases of the C counter, per n and
per split.

Run: ``python benchmarks/mitm_phases.py [--n 16 17 18] [--splits 20,22,24,26]`` (one core;
n = 18 takes a few seconds a split, n = 19 half a minute, n = 20 some minutes). For each n
and each split (``split=``: joins of at least 2^split pairs are first partitioned on a
shared bit) the whole count runs once in this process with its phases timed
(``_mitm.phases``, which reads the clock a few times per class and per block):

* ``halves``: making the halves of each class from the precomputed quarters (cut where
  the count cuts them, ``meet.QUARTER_ROWS``);
* ``partition``: choosing the bit to split on (a sample's tally) and partitioning both
  sides on it;
* ``tables``: the rest of the join: compressing the keys to the bits both sides use,
  bit-slicing a block of the smaller side and building its tables;
* ``scan``: the keys of the larger side scanning the tables.

Also printed: the CPU seconds of the whole count (``time.process_time``), the candidate
pairs the joins looked at, the cost per pair and per solution. Every count is checked
against OEIS A000170; the script exits 1 on a wrong one. ``meet.SPLIT`` (the split per n)
and ``meet.SECONDS_PER_SOLUTION`` (which sizes the pieces) are read from this table.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from cp_queens import limits
from cp_queens.engines.fast import loader, meet, mitm


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[16, 17, 18])
    parser.add_argument(
        "--splits", default="20,22,24,26", help="log2 of the pairs, comma-separated"
    )
    args = parser.parse_args()
    code = loader.mitm()
    if code is None:
        raise SystemExit("the compiled counter (_mitm) is not built")
    splits = [int(word) for word in args.splits.split(",")]
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; path: {code.VARIANT}")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    header = (
        "| n | split | CPU s | halves | partition | tables | scan | pairs | ps/pair | ns/solution |"
    )
    print(header)
    print("|" + "---|" * header.count(" | ") + "---|")
    wrong = False
    for n in args.n:
        rows = meet.QUARTER_ROWS.get(n, 0)  # where the count cuts its quarters
        code.count_range(n, mitm.middles(n)[0], 0, 1, -1, 0, rows)  # built once per n
        for split in splits:
            started = time.process_time()
            solutions = pairs = 0
            halves = join = partition = scan = 0.0
            for middle in mitm.middles(n):
                found = code.phases(n, middle, 0, mitm.classes(n), -1, split, rows)
                solutions += found[0]
                pairs += found[1]
                halves += found[2]
                join += found[3]
                partition += found[4]
                scan += found[5]
            cpu = time.process_time() - started
            total = solutions  # every orbit times its size: the symmetric piece is not needed
            expected = limits.known_or_estimated_total(n)
            if total != expected:
                print(f"n={n} split={split}: counted {total}, A000170 says {expected}")
                wrong = True
                continue
            tables = join - partition - scan
            row = [
                n, split, f"{cpu:.2f}", f"{halves:.2f}", f"{partition:.2f}", f"{tables:.2f}",
                f"{scan:.2f}", f"{pairs:.3g}", f"{1e12 * cpu / pairs:.1f}",
                f"{1e9 * cpu / total:.2f}",
            ]  # fmt: skip
            print("| " + " | ".join(str(cell) for cell in row) + " |", flush=True)
    print(f"\nload average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
