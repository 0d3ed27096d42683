"""Completion at scale: ``cp-queens complete`` on generated boards of growing n and density.

Run: ``python benchmarks/completion.py [--sizes 100,1000,5521] [--missing 1,10,20,40]
[--blocked 0,1] [--engines cpsat,pyconstraint,reference] [--timeout 60]``
(some ten minutes on an idle 2-core machine with the defaults; ``--quick`` for
a two-minute subset).

Instances come from :func:`cp_queens.completion.generate`: a solution of ``n``
from the ``construct`` formula with ``missing`` queens taken out (rows drawn
at random, seed 0), and with ``--blocked 1`` as many squares blocked as there
are missing queens (never on the hidden solution, so a completion exists).
Each board is written to a file in the board format (``.``, ``Q``, ``x``) and
every measurement is a whole ``cp-queens complete FILE -e ENGINE [--count]``
process run under ``/usr/bin/time``, so it includes start-up, imports, reading
the board and writing the answer (to ``/dev/null``). Each cell gives wall
seconds, CPU seconds (user + system, in brackets) and the peak resident memory
of the process (``/usr/bin/time``'s "Maximum resident set size").

On a shared machine CPU seconds are the fair measure of the work; wall seconds
well above them mean the process waited for a core. ``timeout`` marks a run
stopped after ``--timeout`` seconds of wall time. Every count printed by an
engine is compared with the others: the script exits 1 if two disagree.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

from cp_queens.completion import generate
from cp_queens.partial import format_partial

TASKS = ("first", "count")


def run_once(command: list[str], timeout: float, output: Path) -> dict[str, object]:
    """One whole process under ``/usr/bin/time``, stdout to ``output``, ``timeout`` s at most.

    ``/usr/bin/time`` (a small C program) reports the peak memory: a child forked
    from this Python process would start from this process's own peak.
    """
    report = output.with_suffix(".time")
    timed = ["/usr/bin/time", "-o", str(report), "-f", "%e %U %S %M", *command]
    with output.open("w") as out:
        # A session of its own, so that a timeout stops cp-queens too and not only
        # /usr/bin/time (an orphaned search would go on eating a core).
        process = subprocess.Popen(
            timed, stdout=out, stderr=subprocess.DEVNULL, start_new_session=True
        )
        try:
            code = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return {"timeout": True}
    wall, user, system, kilobytes = report.read_text(encoding="utf-8").split()[-4:]
    return {
        "timeout": False,
        "wall": float(wall),
        "cpu": float(user) + float(system),
        "rss_mb": int(kilobytes) / 1024,
        "code": code,
        "out": output.read_text(encoding="utf-8") if output.stat().st_size < 1000 else "",
    }


def cell(result: dict[str, object]) -> str:
    if result["timeout"]:
        return "timeout"
    return f"{result['wall']:.2f} ({result['cpu']:.2f}) {result['rss_mb']:.0f} MB"


def header(args: argparse.Namespace) -> None:
    versions = ", ".join(
        f"{name} {metadata.version(name)}"
        for name in ("cp-queens", "ortools", "python-constraint2")
    )
    print(f"# Completion benchmark, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"# {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"# {versions}")
    print(f"# load average at start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"# command: {' '.join(sys.argv)}")
    print()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,5521")
    parser.add_argument("--missing", default="1,10,20,40", help="queens taken out")
    parser.add_argument(
        "--blocked", default="0,1", help="0: none; 1: one per missing queen (at most all open)"
    )
    parser.add_argument(
        "--solutions", default="construct,random", help="hidden solution: construct, random"
    )
    parser.add_argument("--engines", default="cpsat,pyconstraint,reference")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--quick", action="store_true", help="n=1000 and 5521, missing 1 and 21")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.missing, args.blocked = "1000,5521", "1,21", "0"
        args.solutions = "construct"
    sizes = [int(x) for x in args.sizes.split(",")]
    missing_counts = [int(x) for x in args.missing.split(",")]
    blocked_levels = [int(x) for x in args.blocked.split(",")]
    sources = args.solutions.split(",")
    names = args.engines.split(",")
    cli = str(Path(sys.executable).with_name("cp-queens"))
    header(args)
    columns = [f"{name} {task}" for name in names for task in TASKS]
    print(
        "| n | solution | given | blocked | open squares | completions | "
        + " | ".join(columns)
        + " |"
    )
    print("|---:|---|---:|---:|---:|---:|" + "---:|" * len(columns))
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            for missing in missing_counts:
                if missing > n:
                    continue
                for source, level in itertools.product(sources, blocked_levels):
                    free = generate(n, missing, seed=0, source=source)
                    blockable = free.residue().open_squares() - missing
                    blocked = min(missing * level, blockable)
                    if level and not blocked:
                        continue  # nothing can be blocked: the same board as level 0
                    problem = generate(n, missing, blocked=blocked, seed=0, source=source)
                    board = Path(tmp) / f"n{n}_m{missing}_b{level}_{source}.txt"
                    board.write_text(format_partial(problem) + "\n", encoding="utf-8")
                    cells, counts = [], set()
                    for name in names:
                        for task in TASKS:
                            command = [cli, "complete", str(board), "-e", name]
                            command += ["--count"] if task == "count" else ["-o", os.devnull]
                            result = run_once(command, args.timeout, Path(tmp) / "out.txt")
                            cells.append(cell(result))
                            if task == "count" and not result["timeout"] and result["code"] == 0:
                                counts.add(int(str(result["out"]).split()[0]))
                    if len(counts) > 1:
                        failed = True
                    found = "/".join(map(str, sorted(counts))) or "?"
                    print(
                        f"| {n} | {source} | {len(problem.fixed)} | {len(problem.blocked)} | "
                        f"{free.residue().open_squares()} | {found} | " + " | ".join(cells) + " |",
                        flush=True,
                    )
    print()
    print("# cells: wall s (CPU s) peak RSS; first: one completion, count: --count")
    if failed:
        print("ENGINES DISAGREE on a count (see the completions column)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
