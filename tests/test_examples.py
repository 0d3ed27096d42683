"""Every example is tested code: each file in examples/ must run cleanly.

Each example runs once per session (the ``example_run`` fixture); the lesson
tests read the same run's output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import EXAMPLES


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_example_runs(example_run, example: Path) -> None:
    result = example_run(example.name)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip(), "an example should show its result"


def test_model_example_prints_the_92_solutions(example_run) -> None:
    result = example_run("01_model.py")
    solutions = [line for line in result.stdout.splitlines() if re.match(r"\s*\d+: \[", line)]
    assert len(solutions) == 92
    assert len({line.split(":")[1] for line in solutions}) == 92
    assert "92 solutions, search OPTIMAL" in result.stdout
