"""The public counters ``benchmarks/count.py --anchors`` measures the project against.

Nothing of theirs is kept in this repository: each is cloned from its public repository
when the benchmark runs (or taken from a checkout or git directory given on the command
line), built in a temporary directory, and deleted with it.

* NQueensFAF (github.com/olepoeschl/NQueensFAF): its ``CpuSolver``, compiled with
  ``javac`` and run through ``benchmarks/FafCount.java`` (see ``count.build_faf``).
* N-Queens-Count-Sol by Evgeny Kluev (github.com/EvgenyKluev/N-Queens-Count-Sol): C++20,
  joins precomputed quarter boards. Its board size and tuning are compile-time constants
  in ``solcounter.h``, with a table of the author's settings per size in a comment beside
  them; it is built once per n with that column of the table (read from the source at
  run time), ``g++ -std=c++20 -O3 -march=native``, and prefetch and BMI2 switched on
  where the table says so (the header's ``prefetch.h`` / ``bmintrin.h`` includes
  uncommented, as its README says to).
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

FAF_URL = "https://github.com/olepoeschl/NQueensFAF"
KLUEV_URL = "https://github.com/EvgenyKluev/N-Queens-Count-Sol"
#: The settings in Kluev's table that the build sets per n (the others keep their defaults).
KLUEV_SETTINGS = ("sieveCuts", "matchMinSize", "bmiIntrin", "prefetch")


def checkout(source: str | None, url: str, directory: Path, name: str) -> Path:
    """A work tree of the counter: ``source`` (a work tree, or a git directory whose HEAD
    is taken) or, without one, a shallow clone of ``url``, under ``directory``."""
    tree = directory / name
    if source is None:
        subprocess.run(
            ["git", "clone", "-q", "--depth", "1", url, str(tree)], check=True, capture_output=True
        )
        return tree
    root = Path(source)
    if (root / ".git").exists() or not (root / "HEAD").is_file():
        return root
    archive = subprocess.run(
        ["git", "--git-dir", str(root), "archive", "HEAD"], capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    return tree


def commit_of(tree: Path, source: str | None) -> str:
    """The commit a counter was built from (short hash and date), for the header."""
    where = (
        ["--git-dir", source] if source and (Path(source) / "HEAD").is_file() else ["-C", str(tree)]
    )
    found = subprocess.run(
        ["git", *where, "log", "-1", "--format=%h %cs"], capture_output=True, text=True
    ).stdout.strip()
    return found or "(no git log)"


def kluev_table(header: str) -> dict[int, dict[str, str]]:
    """The author's settings per board size, read from the comment table of
    ``solcounter.h`` (``// s= 16 17 ...`` then one row per setting)."""
    sizes: list[int] = []
    table: dict[int, dict[str, str]] = {}
    for line in header.splitlines():
        if "// s=" in line:
            sizes = [int(word) for word in line.split("// s=")[1].split()]
            table = {size: {} for size in sizes}
        match = re.search(r"\.(\w+)\s*=\s*[^,]+,\s*//(.*)", line)
        if sizes and match and match.group(1) in KLUEV_SETTINGS:
            for size, value in zip(sizes, match.group(2).split(), strict=False):
                table[size][match.group(1)] = value
    if not table:
        raise SystemExit("N-Queens-Count-Sol: no settings table found in solcounter.h")
    return table


def kluev_value(name: str, value: str) -> str:
    """A table cell as C++: T/F as booleans; a '*' (the author undecided) as on."""
    if name in ("bmiIntrin", "prefetch"):
        return "false" if value == "F" else "true"
    return value


def build_kluev(tree: Path, n: int, directory: Path) -> Path:
    """Compile N-Queens-Count-Sol for board ``n`` with its own settings for ``n`` (the
    nearest size of its table); the binary's path."""
    work = directory / f"kluev-{n}"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(tree, work, ignore=shutil.ignore_patterns(".git"))
    header_path = work / "solcounter.h"
    header = header_path.read_text()
    table = kluev_table(header)
    settings = table[min(table, key=lambda size: (abs(size - n), size))]
    header = re.sub(
        r"inline constexpr int size = \d+;", f"inline constexpr int size = {n};", header
    )
    for name, value in settings.items():
        header = re.sub(rf"\.{name}\s*=\s*[^,]+,", f".{name} = {kluev_value(name, value)},", header)
    header_path.write_text(header)
    for switch, include in (("prefetch", "prefetchx86.h"), ("bmiIntrin", "bmi2.h")):
        if kluev_value(switch, settings.get(switch, "F")) == "true":
            path = work / ("prefetch.h" if switch == "prefetch" else "bmintrin.h")
            path.write_text(
                path.read_text().replace(f'//#include "{include}"', f'#include "{include}"')
            )
    binary = work / "nqueens"
    compiler = shutil.which("g++")
    if compiler is None:
        raise SystemExit("--anchors needs g++ (N-Queens-Count-Sol is C++20, built with GCC)")
    subprocess.run(
        [compiler, "-std=c++20", "-O3", "-march=native", "-o", str(binary), str(work / "main.cpp")],
        check=True,
        capture_output=True,
    )
    return binary


def parse_kluev(out: str) -> tuple[int, ...]:
    """``Result: 666090624`` -> (666090624,)."""
    for line in out.splitlines():
        if line.startswith("Result:"):
            return (int(line.split()[1]),)
    return ()
