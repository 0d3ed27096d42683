"""What a solver refuses or reports is checked, never taken for something else (issue 38):
CP-SAT's rejection of the user's parameters is a one-line error, not "gave up"; what a
``minizinc`` on PATH prints is bounded, and its boards verified before they count."""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cp_queens
from cp_queens import Placement, Problem
from cp_queens.errors import EngineOptionError, SolverFailedError
from tests.helpers import fake_minizinc

CLASHING = {"num_search_workers": 2}  # CP-SAT: "Do not specify both ... and num_workers"

TASKS: dict[str, Callable[[str], Any]] = {
    "first": lambda engine: cp_queens.first(8, engine=engine, parameters=CLASHING),
    "count": lambda engine: cp_queens.count(8, engine=engine, parameters=CLASHING),
    "completion": lambda engine: cp_queens.count(
        8, fixed={0: 0}, engine=engine, parameters=CLASHING
    ),
    "solutions": lambda engine: list(cp_queens.solutions(8, engine=engine, parameters=CLASHING)),
}


@pytest.mark.parametrize("engine", ["cpsat", "cpsat-board"])
@pytest.mark.parametrize("task", sorted(TASKS))
def test_cpsat_refusing_the_parameters_is_an_option_error(engine: str, task: str) -> None:
    with pytest.raises(EngineOptionError) as raised:
        TASKS[task](engine)
    message = str(raised.value)
    assert "num_search_workers" in message and "parameters" in message
    assert "\n" not in message and "incomplete" not in message


# -- minizinc: what it prints is bounded and checked -----------------------------------


def printing(board: list[int], times: int) -> str:
    solution = json.dumps({"type": "solution", "output": {"json": {"q": board}}})
    status = json.dumps({"type": "status", "status": "ALL_SOLUTIONS"})
    return f"i=0; while [ $i -lt {times} ]; do echo '{solution}'; i=$((i+1)); done\necho '{status}'"


@pytest.mark.parametrize(
    ("board", "times", "said"),
    [
        ([0, 1, 2, 3, 4, 5, 6, 7], 500, "not a solution: [0, 1, 2, 3, 4, 5, 6, 7]: rows 0 and 1"),
        ([0, 4, 7, 5, 2, 6, 1, 3], 500, "the same solution twice"),
        ([0, 4, 7], 1, "expected 8 column numbers"),
    ],
    ids=["attacking", "repeated", "short"],
)
def test_a_minizinc_reporting_wrong_boards_fails_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, board: list[int], times: int, said: str
) -> None:
    monkeypatch.setenv("PATH", fake_minizinc(tmp_path / "bin", printing(board, times)))
    from cp_queens.engines import build
    from cp_queens.engines.ask import ask

    engine, budget = build("minizinc")
    for task in ("count", "solutions"):
        with pytest.raises(SolverFailedError, match=re.escape(said)):
            ask(task, Problem(8), engine, budget=budget, each=lambda _: None)


def test_a_minizinc_printing_noise_is_remembered_by_its_tail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cp_queens.engines import build, minizinc

    noise = "i=0; while [ $i -lt 3000 ]; do echo noise line $i; i=$((i+1)); done; exit 3"
    monkeypatch.setenv("PATH", fake_minizinc(tmp_path / "bin", noise))
    engine, budget = build("minizinc")
    with pytest.raises(SolverFailedError, match=r"exit 3.*noise line 2999") as raised:
        engine.count(Problem(8), budget=budget)
    assert "\n" not in str(raised.value)
    assert minizinc.SAID_KEPT < 3000  # what the message came from is a tail, not all


@pytest.mark.slow  # 4 s: a flood for the time limit, then the grace
def test_a_minizinc_flooding_stdout_stays_in_bounded_memory(tmp_path: Path) -> None:
    """``yes`` prints hundreds of megabytes a second: every line kept grew cp-queens to
    4 GB in 20 s (issue 38); now it keeps a tail. Measured by the child's peak RSS."""
    path = fake_minizinc(tmp_path / "bin", 'exec yes "noise, not the protocol"')
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run(
        [sys.executable, "-m", "cp_queens", "count", "8", "-e", "minizinc", "--time-limit", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PATH": path},
    )
    assert done.returncode == 4, done.stderr
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert max(peak_kb, before) < 500 * 1024  # the bound: under 500 MB


def test_a_minizinc_line_without_end_is_one_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cp_queens.engines import build, minizinc

    monkeypatch.setattr(minizinc, "MAX_LINE_BYTES", 1 << 16)
    monkeypatch.setenv("PATH", fake_minizinc(tmp_path / "bin", "head -c 200000 /dev/zero"))
    engine, budget = build("minizinc")
    with pytest.raises(SolverFailedError, match="longer than 65,536 bytes"):
        engine.count(Problem(8), budget=budget)


# -- cpmpy: the backend's boards are checked in the child that runs it --------------------


def test_a_cpmpy_backend_reporting_a_wrong_board_fails_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The child's side run here (``in_child``), its backend replaced by one that
    reports an attacking board, then a right one twice."""
    from cp_queens.engines.cpmpy import CpmpyEngine

    boards = [[0, 1, 2, 3, 4, 5, 6, 7], [0, 4, 7, 5, 2, 6, 1, 3], [0, 4, 7, 5, 2, 6, 1, 3]]

    skip = [0]

    def reported(self: CpmpyEngine, problem: Problem, call: Any) -> Any:
        return iter([Placement(tuple(board)) for board in boards[skip[0] :]])

    monkeypatch.setattr(CpmpyEngine, "in_child", True)
    monkeypatch.setattr(CpmpyEngine, "_reported_here", reported)
    engine = CpmpyEngine()
    for skip[0], said in ((0, "not a solution"), (1, "the same solution twice")):
        with pytest.raises(SolverFailedError, match=said):
            list(engine.solutions(Problem(8)))


def test_cpmpy_5000_without_a_limit_is_refused_naming_its_setup(capsys) -> None:
    """It ran silently for hours (CPMpy's transformations cannot look at the clock)."""
    from tests.helpers import run_cli

    code, out, err = run_cli(capsys, "solve", "5000", "-e", "cpmpy", "--format", "jsonl")
    assert code == 2
    assert out == ""
    (line,) = err.splitlines()
    assert "to build and load its model of n=5000" in line and "time limit" in line
    # with a limit shorter than the setup, the call ends at once, nothing searched
    code, out, err = run_cli(
        capsys, "solve", "5000", "-e", "cpmpy", "--format", "jsonl", "--time-limit", "5"
    )
    assert code == 4 and out == ""
    assert "setup_seconds=" in err
