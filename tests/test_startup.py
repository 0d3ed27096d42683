"""What ``cp-queens`` imports to start: heavy libraries load only for the command that uses them.

A nearly full 1000-board is completed in milliseconds; what a user waits for is
the start-up. Importing NumPy alone takes longer than the whole search, OR-Tools
close to a second. So these tests run a command in a fresh interpreter and
assert *which modules* it loaded (not how long it took: timings vary with the
machine's load, the module list does not).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cp_queens.completion import generate
from cp_queens.partial import format_partial

#: Loaded only by the commands and engines that use them.
HEAVY = (
    "numpy",
    "numba",
    "ortools",
    "constraint",  # python-constraint2
    "rich",
    "matplotlib",
    "dask",
    "distributed",
    "pulp",
    "highspy",
    "multiprocessing",
    "concurrent.futures.process",
    "cp_queens.parallel",
    "cp_queens.course",
)

RUN = """
import json, sys
from cp_queens.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as stop:  # --help
    code = stop.code
sys.stdout.flush()
print("\\n" + json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def loaded(*argv: str) -> tuple[int, set[str]]:
    """Run ``cp-queens ARGV`` in a fresh interpreter: its exit code and every module loaded."""
    result = subprocess.run(
        [sys.executable, "-c", RUN, *argv], capture_output=True, text=True, timeout=60
    )
    last = json.loads(result.stdout.strip().splitlines()[-1])
    return last["code"], set(last["modules"])


def heavy(modules: set[str], allowed: tuple[str, ...] = ()) -> list[str]:
    """The heavy packages among ``modules`` (a package counts with its submodules)."""
    return [
        name
        for name in HEAVY
        if name not in allowed and any(m == name or m.startswith(name + ".") for m in modules)
    ]


@pytest.fixture(scope="module")
def nearly_full(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # n = 300: large enough that checking the answer once took the NumPy path.
    path = tmp_path_factory.mktemp("startup") / "board.txt"
    path.write_text(format_partial(generate(300, 2, seed=1)) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["complete", "--help"], ["count", "--help"], ["solve", "--help"]],
)
def test_building_the_parser_and_help_import_nothing_heavy(argv: list[str]) -> None:
    code, modules = loaded(*argv)
    assert code == 0
    assert heavy(modules) == []
    # Argument parsing reads the engines' option choices without running an engine.
    assert "cp_queens.engines.pyconstraint" not in modules


def test_complete_with_the_reference_imports_only_the_reference(nearly_full: Path) -> None:
    code, modules = loaded("complete", str(nearly_full), "-e", "reference", "-q")
    assert code == 0
    assert heavy(modules) == []
    engines = {m for m in modules if m.startswith("cp_queens.engines.") and m.count(".") == 2}
    # cpsat and propagate declare option choices that the parser shows; OR-Tools stays out.
    light = {"base", "reference", "cpsat", "propagate"}
    assert engines <= {f"cp_queens.engines.{name}" for name in light}


@pytest.mark.parametrize("extra", [[], ["--count"], ["--cross-check", "reference"]])
def test_complete_by_default_loads_python_constraint_and_no_more(
    nearly_full: Path, extra: list[str]
) -> None:
    code, modules = loaded("complete", str(nearly_full), "-q", *extra)
    assert code == 0
    assert "constraint" in modules  # the default engine for a small residue
    # python-constraint2 itself imports concurrent.futures' process pool
    allowed = ("constraint", "multiprocessing", "concurrent.futures.process")
    assert heavy(modules, allowed) == []
