"""What ``cp-queens`` imports to start: heavy libraries load only for the command that uses them.

A nearly full 1000-board is completed in milliseconds; what a user waits for is
the start-up. Importing NumPy alone takes longer than the whole search, OR-Tools
close to a second. So these tests run a command in a fresh interpreter and
assert *which modules* it loaded (not how long it took: timings vary with the
machine's load, the module list does not).
"""

from __future__ import annotations

import functools
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
import sys
from cp_queens.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as stop:  # --help
    code = stop.code
modules = sorted(sys.modules)
import json  # after the list: the command itself may not need it
sys.stdout.flush()
print("\\n" + json.dumps({"code": code, "modules": modules}))
"""


@functools.cache
def loaded(*argv: str) -> tuple[int, frozenset[str]]:
    """Run ``cp-queens ARGV`` in a fresh interpreter: its exit code and every module loaded.

    Kept for the test process: the help tests and the parsing tests ask about the same
    four commands, and a second fresh interpreter would load the very same modules."""
    result = subprocess.run(
        [sys.executable, "-c", RUN, *argv], capture_output=True, text=True, timeout=60
    )
    last = json.loads(result.stdout.strip().splitlines()[-1])
    return last["code"], frozenset(last["modules"])


def heavy(modules: frozenset[str], allowed: tuple[str, ...] = ()) -> list[str]:
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
    # The option choices the parser offers are read off an engine only when a flag is used.
    light = {"ask", "base", "call", "reference"}
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


#: Our modules a small count needs: the command, the engine, the in-process runner.
SMALL_COUNT = {
    "cp_queens",
    "cp_queens.startup",  # the command's signals from its first line
    "cp_queens.answer",
    "cp_queens.budget",
    "cp_queens.cli",
    "cp_queens.cli._args",
    "cp_queens.cli._common",
    "cp_queens.cli._engine",
    "cp_queens.cli._output",
    "cp_queens.cli._parser",
    "cp_queens.cli._progress",
    "cp_queens.cli.count",
    "cp_queens.cli.exit_codes",
    "cp_queens.engines",
    "cp_queens.engines.ask",  # the dispatcher from a task's name to the engine's call
    "cp_queens.engines.base",
    "cp_queens.engines.call",
    "cp_queens.engines.fast",
    "cp_queens.engines.fast._kernels",  # the C extension: about a millisecond to import
    "cp_queens.engines.fast.bits",
    "cp_queens.engines.fast.dynamic",
    "cp_queens.engines.fast.kernels",
    "cp_queens.engines.fast.loader",
    "cp_queens.engines.fast.parse",
    "cp_queens.engines.fast.stopping",  # how a compiled search is stopped (Ctrl-C)
    "cp_queens.engines.fast.subproblems",
    "cp_queens.engines.fast.where",  # on how many workers a count runs
    "cp_queens.errors",
    "cp_queens.limits",
    "cp_queens.output",
    "cp_queens.parallel",
    "cp_queens.parallel.local",
    "cp_queens.problem",
    "cp_queens.render",
    "cp_queens.stats",
    "cp_queens.verify",
    "cp_queens.wording",  # the count's line for people, split from writers
    "cp_queens.writers",
}

#: Standard modules that only some commands need (a pool, a file format, a build, a log).
NOT_FOR_A_SMALL_COUNT = (
    "multiprocessing",
    "concurrent.futures",
    "logging",
    "json",
    "shutil",
    "ctypes",
    "hashlib",
    "tempfile",
    "platform",
    "subprocess",
    "pickle",
    "socket",
    "traceback",
)


def ours(modules: frozenset[str]) -> set[str]:
    return {m for m in modules if m == "cp_queens" or m.startswith("cp_queens.")}


def present(modules: frozenset[str], names: tuple[str, ...]) -> list[str]:
    return [n for n in names if any(m == n or m.startswith(n + ".") for m in modules)]


@pytest.mark.parametrize("n", ["1", "8", "10"])
def test_a_small_count_imports_its_command_and_engine_only(n: str) -> None:
    code, modules = loaded("count", n, "-q")
    assert code == 0
    assert ours(modules) <= SMALL_COUNT, sorted(ours(modules) - SMALL_COUNT)
    assert heavy(modules, allowed=("cp_queens.parallel",)) == []
    assert present(modules, NOT_FOR_A_SMALL_COUNT) == []


def test_a_count_in_this_process_starts_no_pool() -> None:
    # n = 11 looks for the native library (ctypes), and still starts no pool.
    code, modules = loaded("count", "11", "--workers", "1", "-q")
    assert code == 0
    assert present(modules, ("multiprocessing", "concurrent.futures")) == []


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["--help"], None),
        (["--version"], None),
        (["count", "--help"], "count"),
        (["solve", "--help"], "solve"),
        (["complete", "--help"], "complete"),
        (["compare", "--help"], "compare"),
        (["trace", "--help"], "trace"),
        (["grade", "--help"], "grade"),
        (["dominate", "--help"], "dominate"),
    ],
)
def test_parsing_loads_only_the_command_given(argv: list[str], command: str | None) -> None:
    code, modules = loaded(*argv)
    assert code == 0
    commands = {
        m for m in modules if m.startswith("cp_queens.cli.") and not m.startswith("cp_queens.cli._")
    } - {"cp_queens.cli.exit_codes"}
    assert commands == ({f"cp_queens.cli.{command}"} if command else set())
    # The choices --help shows (--method, --strategy, --consistency) are the engine classes'
    # own: their modules load, the solver libraries they drive do not.
    engines = {m for m in modules if m.startswith("cp_queens.engines.")}
    assert engines <= SHOWN_IN_HELP
    assert heavy(modules) == []
    assert present(modules, NOT_FOR_A_SMALL_COUNT) == []


#: The engine modules whose option choices ``--help`` shows (no solver library among them),
#: and the dispatcher ``ask``, which ``import cp_queens`` loads.
SHOWN_IN_HELP = {
    "cp_queens.engines.ask",
    "cp_queens.engines.base",
    "cp_queens.engines.call",
    "cp_queens.engines._alldiff",
    "cp_queens.engines._cpsat",
    "cp_queens.engines._cpsat.settings",
    "cp_queens.engines.cpsat",
    "cp_queens.engines.cpsat.search",
    "cp_queens.engines.cpsat.symmetry",
    "cp_queens.engines.propagate",
}


def test_a_command_that_uses_no_method_flag_imports_no_other_engine() -> None:
    code, modules = loaded("count", "6", "-e", "reference", "-q")
    assert code == 0
    engines = {m for m in modules if m.startswith("cp_queens.engines.")}
    assert engines == {
        "cp_queens.engines.ask",
        "cp_queens.engines.base",
        "cp_queens.engines.call",
        "cp_queens.engines.reference",
    }


def test_solve_loads_its_engine_and_no_other_command() -> None:
    code, modules = loaded("solve", "8", "-q")
    assert code == 0
    assert "ortools" in modules  # the default engine for n = 8 is the CP-SAT model
    commands = {
        m for m in modules if m.startswith("cp_queens.cli.") and not m.startswith("cp_queens.cli._")
    }
    assert commands <= {"cp_queens.cli.exit_codes", "cp_queens.cli.solve"}
    assert "cp_queens.engines.fast" not in modules
    assert "cp_queens.engines.propagate" not in modules


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "8"],
        ["--debug", "count", "12", "--workers", "1", "-q", "--unique"],
        ["solve", "8", "--strategy", "fixed", "--value-order", "max", "--debug"],
        ["enumerate", "6", "--format", "csv", "--limit", "3"],
        ["verify", "-", "--n", "8", "--distinct"],
        ["check", "f.jsonl", "--n", "6"],
        ["complete", "b.txt", "--count", "-x", "reference"],
        ["compare", "--n", "4..6", "--engines", "reference", "--repeat", "1"],
        ["trace", "5", "--engine", "propagate", "--consistency", "arc", "-o", "t.svg"],
        ["grade", "subs", "--n", "1..9", "--rubric", "r.toml", "--jobs", "1", "-q"],
        ["dominate", "8", "--independent", "--model", "mip", "--symmetry", "lex", "-q"],
        ["completion", "bash"],
    ],
)
def test_the_lazy_parser_reads_what_the_whole_parser_reads(argv: list[str]) -> None:
    from cp_queens.cli import build_parser

    assert vars(build_parser(lazy=True).parse_args(argv)) == vars(build_parser().parse_args(argv))


def test_statistics_still_reach_a_configured_logger(caplog: pytest.LogCaptureFixture) -> None:
    # The engines log only once ``logging`` is imported (whoever configures it imports it).
    import logging

    import cp_queens

    caplog.set_level(logging.INFO, logger="cp_queens")
    assert cp_queens.count(6, engine="reference") == 4
    assert "engine=reference n=6 solutions=4" in caplog.text
