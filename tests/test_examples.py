"""Every example is tested code: each file in examples/ must run cleanly.

Each example runs once per session (the ``example_run`` fixture: a child of a process
that has already imported what the lessons import); the lesson tests read the same
run's output. One lesson runs as a real script here, every one in the slow run (the
long ones, :data:`~tests.helpers.LONG_LESSONS`, only there).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import COLUMNS, EXAMPLES, LONG_LESSONS, check_width, run_example


@pytest.mark.parametrize(
    "example",
    [path for path in EXAMPLES if path.name not in LONG_LESSONS],
    ids=lambda path: path.name,
)
def test_example_runs(example_run, example: Path) -> None:
    result = example_run(example.name)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip(), "an example should show its result"
    check_width(result.stdout)


def test_the_long_lessons_are_lessons() -> None:
    """A renamed lesson must not drop out of both runs."""
    assert {path.name for path in EXAMPLES} >= LONG_LESSONS


def test_the_width_check_catches_a_wide_line() -> None:
    check_width("short\n" + "x" * COLUMNS)
    with pytest.raises(AssertionError, match="wider than 80"):
        check_width("short\n" + "x" * (COLUMNS + 1))


def check_model_example(stdout: str) -> None:
    solutions = [line for line in stdout.splitlines() if re.match(r"\s*\d+: \[", line)]
    assert len(solutions) == 92
    assert len({line.split(":")[1] for line in solutions}) == 92
    assert "92 solutions, search OPTIMAL" in stdout


def test_model_example_prints_the_92_solutions(example_run) -> None:
    check_model_example(example_run("01_model.py").stdout)


def test_model_example_runs_as_a_script_alike() -> None:
    """``python examples/01_model.py`` in a new process: what the shared runs stand for."""
    result = run_example("01_model.py")
    assert result.returncode == 0, result.stderr
    check_model_example(result.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_example_runs_as_a_script(example: Path) -> None:
    """Each lesson in a new process of its own, as a reader runs it. (Its output is not
    compared with the shared run's: solver statistics and times differ run to run.)"""
    result = run_example(example.name)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip(), "an example should show its result"
    check_width(result.stdout)
