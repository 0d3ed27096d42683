"""Counting n = 16..18: ``cp-queens count`` against the strongest public counters, whole processes.

Run: ``python benchmarks/count.py [--min-n 16] [--max-n 18] [--repeat R] [--dask]
[--faf DIR]`` (about five minutes on an idle 2-core machine with NQueensFAF). Prints the
machine, the compilers and versions, the load average, then one Markdown table measured
in this one run. Every program runs as its own process, so the times include start-up
(imports, loading the compiled kernels, starting the pool; the JVM for NQueensFAF):

* ``C sym``: the classic full-symmetry counter in the manner of Takaken's
  (``benchmarks/c_symmetry.c``: corner and edge subtrees of the first queen,
  BOUND1/BOUND2 pruning, orbit sizes 2/4/8), one thread;
* ``FAF 1t`` / ``FAF 2t``: NQueensFAF's ``CpuSolver`` (constellations: the boards'
  border queens preset, the rest searched with bit masks; the fastest public CPU counter
  we know), one and two threads, run by ``benchmarks/FafCount.java``. Built here from
  a checkout given as ``--faf DIR`` (a work tree or a git directory, e.g. one fetched
  from github.com/olepoeschl/NQueensFAF) with ``javac`` and Kryo
  (``apt-get install libkryo-java``); left out without ``--faf``;
* ``1 worker``: ``cp-queens count N --workers 1`` (one process);
* ``all cores``: ``cp-queens count N`` (the default: every core);
* ``dask local:2`` (with ``--dask``): ``cp-queens count N --cluster local:2``.

The C program is built here with the system C compiler (``cc -O3 -march=native``);
cp-queens runs its kernels as installed (the C extensions built by ``pip install``,
portable, choosing their AVX2/AVX-512 paths at load; the script says which).
Each cell gives wall seconds and, in brackets, CPU seconds (user + system of
the process and all its descendants: the pool's workers too, and helpers that
outlive it, which the script adopts as a subreaper and waits for).
On a shared machine CPU seconds are the fair measure of the work; wall
seconds well above them mean the run did not get its cores. The ratios
(from this one run):

* ``1w/FAF cpu``: CPU of ``--workers 1`` over the CPU of FAF on one thread (issue 37:
  at most 0.25 at n = 17 and 18);
* ``1w/C cpu``: CPU of ``--workers 1`` over the CPU of C sym;
* ``all/FAF wall``: wall of ``all cores`` over the wall of FAF on two threads.

Each timing is the best of ``--repeat`` runs (by CPU seconds). Every count is
checked against OEIS A000170 / A002562: the script exits 1 if any disagrees.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: OEIS A000170 and A002562 (total, unique) to check every count printed.
EXPECTED = {
    8: (92, 12),
    10: (724, 92),
    12: (14200, 1787),
    13: (73712, 9233),
    14: (365596, 45752),
    15: (2279184, 285053),
    16: (14772512, 1846955),
    17: (95815104, 11977939),
    18: (666090624, 83263591),
    19: (4968057848, 621012754),
    20: (39029188884, 4878666808),
}

CFLAGS = ["-O3", "-march=native"]


class Mismatch(Exception):
    """A program printed a count that is not the known one."""


def become_subreaper() -> None:
    """Adopt every orphaned descendant (Linux ``PR_SET_CHILD_SUBREAPER``).

    The CPU time of a process reaches ``RUSAGE_CHILDREN`` only when its parent
    waits for it. A helper that outlives its parent (a fork server, whose
    children are a pool's or Dask's workers) is re-parented, and without this its
    CPU, and its workers', would be missing from the figures: a Dask run once
    looked 2.7 s where it used 6.7 s.
    """
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)
    except (OSError, AttributeError):
        print("warning: cannot adopt orphaned processes here; CPU of helpers may be missing")


def reap(grace: float = 10.0) -> None:
    """Wait for every adopted descendant (they end soon after the command)."""
    deadline = time.monotonic() + grace
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if time.monotonic() > deadline:
                return
            time.sleep(0.02)


def run(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (the process and all its descendants) and stdout of
    ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - started
    reap()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise Mismatch(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def best(repeat: int, command: list[str], n: int, parse) -> tuple[float, float]:
    """(wall, cpu) of the run with the least CPU among ``repeat``; checks every answer."""
    runs = []
    for _ in range(repeat):
        wall, cpu, out = run(command)
        answer = parse(out)
        expected = EXPECTED[n][: len(answer)]
        if answer != expected:
            raise Mismatch(f"{' '.join(command)} gave {answer}, expected {expected}")
        runs.append((cpu, wall))
    cpu, wall = min(runs)
    return wall, cpu


#: Where Debian's libkryo-java puts Kryo and what it needs (NQueensFAF saves with it).
KRYO = ("/usr/share/java/kryo.jar", "/usr/share/java/minlog.jar", "/usr/share/java/objenesis.jar")
#: The NQueensFAF sources its CPU solver needs (no GPU, no GUI).
FAF_SOURCES = (
    "nqueensfaf-core/src/main/java/de/nqueensfaf/core",
    "nqueensfaf-impl/src/main/java/de/nqueensfaf/impl/Constellation.java",
    "nqueensfaf-impl/src/main/java/de/nqueensfaf/impl/ConstellationUtils.java",
    "nqueensfaf-impl/src/main/java/de/nqueensfaf/impl/ConstellationsGenerator.java",
    "nqueensfaf-impl/src/main/java/de/nqueensfaf/impl/CpuSolver.java",
    "nqueensfaf-impl/src/main/java/de/nqueensfaf/impl/SymSolver.java",
)


def build_faf(checkout: str, directory: str) -> tuple[list[str], str]:
    """Compile NQueensFAF's CPU solver and ``FafCount.java``; (the java command, versions)."""
    root = Path(checkout)
    if not (root / "nqueensfaf-impl").is_dir():  # a git directory: take its HEAD's files
        tree = Path(directory) / "faf"
        archive = subprocess.run(
            ["git", "--git-dir", str(root), "archive", "HEAD"], capture_output=True, check=True
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tree, filter="data")
        root = tree
    missing = [jar for jar in KRYO if not os.path.exists(jar)]
    if missing or shutil.which("javac") is None:
        raise SystemExit("--faf needs javac and Kryo (apt-get install default-jdk libkryo-java)")
    sources = []
    for part in FAF_SOURCES:
        path = root / part
        sources += sorted(str(p) for p in path.glob("*.java")) if path.is_dir() else [str(path)]
    classes = os.path.join(directory, "faf-classes")
    classpath = ":".join([classes, *KRYO])
    subprocess.run(
        [
            "javac",
            "-nowarn",
            "-d",
            classes,
            "-cp",
            classpath,
            *sources,
            str(HERE / "FafCount.java"),
        ],
        check=True,
        capture_output=True,
    )
    commit = (
        subprocess.run(
            ["git", "-C", str(root), "log", "-1", "--format=%h %cs"], capture_output=True, text=True
        ).stdout.strip()
        or "(no git log)"
    )
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr
    return ["java", "-cp", classpath, "FafCount"], f"NQueensFAF {commit}, {java.splitlines()[0]}"


def parse_c(out: str) -> tuple[int, ...]:
    return tuple(int(word) for word in out.split())


def parse_cli(out: str) -> tuple[int, ...]:
    # "n=16: 14772512 solutions, 1846955 unique"
    words = out.strip().splitlines()[-1].replace(",", " ").split()
    return int(words[1]), int(words[3])


def build(source: str, directory: str) -> tuple[str, str]:
    """Compile ``benchmarks/<source>`` with the system compiler; (binary, compiler version)."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        raise SystemExit("no C compiler found (cc, gcc or clang): the yardstick needs one")
    binary = os.path.join(directory, Path(source).stem)
    subprocess.run([compiler, *CFLAGS, "-o", binary, str(HERE / source)], check=True)
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout
    return binary, f"{compiler} {' '.join(CFLAGS)} ({version.splitlines()[0]})"


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
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def versions() -> str:
    names = ("cp-queens", "numpy")
    found = []
    for name in names:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return f"Python {platform.python_version()}; " + ", ".join(found)


def kernel_mode() -> str:
    """Which kernels cp-queens counts with: the C extension built at install (and which
    build of it), or the pure-Python ones (and why)."""
    probe = (
        "from cp_queens.engines.fast import loader as l; m = l.mitm(); "
        "print(f'C extension {l.COMPILED.__file__.rsplit(chr(47), 1)[-1]}, {l.COMPILED.VARIANT}' "
        "if l.COMPILED else f'pure Python: {l.MISSING}'); "
        "print(f'meeting in the middle: {m.VARIANT}' if m else 'meeting in the middle: not built')"
    )
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    return found.stdout.strip() or found.stderr.strip()


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cell(wall: float, cpu: float) -> str:
    return f"{wall:.2f} ({cpu:.2f})"


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def anchors(args: argparse.Namespace, cli: list[str]) -> int:
    """``--anchors``: cp-queens (one worker) beside N-Queens-Count-Sol and NQueensFAF (one
    thread each), interleaved round by round, CPU ratios paired within each round; by
    default n = 17..19, NQueensFAF up to 18 (issue 48's goals, one run)."""
    import anchors as public

    failed = False
    with tempfile.TemporaryDirectory() as build_dir:
        where = Path(build_dir)
        kluev_tree = public.checkout(args.kluev, public.KLUEV_URL, where, "kluev")
        faf_tree = public.checkout(args.faf, public.FAF_URL, where, "faf")
        faf, faf_version = build_faf(str(faf_tree), build_dir)
        print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        print(f"machine: {machine()}")
        print(f"versions: {versions()}")
        print(
            f"N-Queens-Count-Sol: {public.commit_of(kluev_tree, args.kluev)}, "
            "g++ -std=c++20 -O3 -march=native"
        )
        print(
            f"NQueensFAF: {public.commit_of(faf_tree, args.faf)}, {faf_version.split(', ', 1)[-1]}"
        )
        run([*cli, "13", "--workers", "1"])  # warm the file cache; not timed
        print(f"kernels: {kernel_mode()}")
        print(f"rounds per n: {args.repeat} (the programs in turn, their order rotating)\n")
        header = ["n", "cp-queens 1w", "Kluev 1t", "FAF 1t", "cp/Kluev cpu", "cp/FAF cpu", "load"]
        print(
            "CPU seconds (wall seconds) per whole process, medians of the rounds; CPU ratios "
            "paired within each round, their median; load average (1 min) at the row's start "
            "and end\n"
        )
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for n in range(args.min_n, args.max_n + 1):
            kluev = public.build_kluev(kluev_tree, n, where)
            programs = {
                "cp": ([*cli, str(n), "--workers", "1"], parse_cli),
                "kluev": ([str(kluev), "1"], public.parse_kluev),
            }
            if n <= args.faf_max_n:
                programs["faf"] = ([*faf, str(n), "1"], parse_c)
            times: dict[str, list[float]] = {name: [] for name in programs}
            walls: dict[str, list[float]] = {name: [] for name in programs}
            started = load()
            try:
                for round_ in range(args.repeat):
                    names = list(programs)
                    names = names[round_ % len(names) :] + names[: round_ % len(names)]
                    for name in names:
                        command, parse = programs[name]
                        wall, cpu = best(1, command, n, parse)
                        times[name].append(cpu)
                        walls[name].append(wall)
            except Mismatch as error:
                print(f"n={n}: {error}")
                failed = True
                continue
            cp, kl = times["cp"], times["kluev"]
            fa = times.get("faf")
            row = [str(n)] + [
                f"{median(times[name]):.2f} ({median(walls[name]):.2f})" if name in times else "-"
                for name in ("cp", "kluev", "faf")
            ]
            row.append(f"{median([a / b for a, b in zip(cp, kl, strict=True)]):.3f}x")
            row.append(
                f"{median([a / b for a, b in zip(cp, fa, strict=True)]):.3f}x" if fa else "-"
            )
            row.append(f"{started.split()[0]} -> {load().split()[0]}")
            print("| " + " | ".join(row) + " |", flush=True)
        print(f"\nload average at end: {load()}")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-n", type=int, help="default 16 (with --anchors 17)")
    parser.add_argument("--max-n", type=int, help="default 18 (with --anchors 19)")
    parser.add_argument("--repeat", type=int, default=1, help="best of R runs (default 1)")
    parser.add_argument("--dask", action="store_true", help="add cp-queens --cluster local:2")
    parser.add_argument("--faf", metavar="DIR", help="a checkout (or git directory) of NQueensFAF")
    parser.add_argument("--no-c", action="store_true", help="leave out the C sym column")
    parser.add_argument(
        "--anchors",
        action="store_true",
        help="one worker beside N-Queens-Count-Sol and NQueensFAF (cloned unless given)",
    )
    parser.add_argument(
        "--kluev", metavar="DIR", help="a checkout (or git dir) of N-Queens-Count-Sol"
    )
    parser.add_argument(
        "--faf-max-n", type=int, default=18, help="with --anchors: NQueensFAF up to this n"
    )
    args = parser.parse_args()
    if args.min_n is None:
        args.min_n = 17 if args.anchors else 16
    if args.max_n is None:
        args.max_n = 19 if args.anchors else 18
    if not set(range(args.min_n, args.max_n + 1)) <= set(EXPECTED):
        raise SystemExit(f"n must be within {min(EXPECTED)}..{max(EXPECTED)} (known counts)")

    become_subreaper()
    cli = [sys.executable, "-m", "cp_queens", "count"]
    if args.anchors:
        return anchors(args, cli)
    with tempfile.TemporaryDirectory() as build_dir:
        c_sym, compiler = build("c_symmetry.c", build_dir)
        faf, faf_version = build_faf(args.faf, build_dir) if args.faf else (None, "not run")
        print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        print(f"machine: {machine()}")
        print(f"versions: {versions()}")
        print(f"C compiler: {compiler}")
        print(f"NQueensFAF: {faf_version}")
        run([*cli, "13", "--workers", "1"])  # warm the file cache; not timed
        print(f"kernels: {kernel_mode()}")
        print(f"load average at start: {load()}")
        wall_8, cpu_8, _ = run([*cli, "8"])
        print(f"start-up: `cp-queens count 8` {wall_8:.2f} s wall, {cpu_8:.2f} s CPU\n")

        header = ["n"]
        header += [] if args.no_c else ["C sym"]
        header += ["FAF 1t", "FAF 2t"] if faf else []
        header += ["1 worker", "all cores"]
        header += ["dask local:2"] if args.dask else []
        header += ["1w/FAF cpu", "all/FAF wall"] if faf else []
        header += [] if args.no_c else ["1w/C cpu"]
        print("wall seconds (CPU seconds) per whole process; ratios from this run\n")
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        failed = False
        for n in range(args.min_n, args.max_n + 1):
            try:
                sym = None if args.no_c else best(args.repeat, [c_sym, str(n)], n, parse_c)
                faf1 = faf2 = None
                if faf:
                    faf1 = best(args.repeat, [*faf, str(n), "1"], n, parse_c)
                    faf2 = best(args.repeat, [*faf, str(n), "2"], n, parse_c)
                one = best(args.repeat, [*cli, str(n), "--workers", "1"], n, parse_cli)
                every = best(args.repeat, [*cli, str(n)], n, parse_cli)
                dask = (
                    best(args.repeat, [*cli, str(n), "--cluster", "local:2"], n, parse_cli)
                    if args.dask
                    else None
                )
            except Mismatch as error:
                print(f"n={n}: {error}")
                failed = True
                continue
            row = [str(n)]
            row += [cell(*sym)] if sym else []
            row += [cell(*faf1), cell(*faf2)] if faf1 and faf2 else []
            row += [cell(*one), cell(*every)]
            row += [cell(*dask)] if dask else []
            if faf1 and faf2:
                row += [f"{one[1] / faf1[1]:.2f}x", f"{every[0] / faf2[0]:.2f}x"]
            row += [f"{one[1] / sym[1]:.2f}x"] if sym else []
            print("| " + " | ".join(row) + " |", flush=True)
        print(f"\nload average at end: {load()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
