"""Every example is tested code: each file in examples/ must run cleanly.

Each example runs once per session (:func:`tests.helpers.run_example`); the
lesson tests read the same run's output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import EXAMPLES, run_example

#: run_example caches each run per process: the tests reading a run share a worker.
pytestmark = pytest.mark.xdist_group("examples")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_example_runs(example: Path) -> None:
    result = run_example(example.name)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip(), "an example should show its result"


def test_model_example_prints_the_92_solutions() -> None:
    result = run_example("01_model.py")
    solutions = [line for line in result.stdout.splitlines() if re.match(r"\s*\d+: \[", line)]
    assert len(solutions) == 92
    assert len({line.split(":")[1] for line in solutions}) == 92
    assert "92 solutions, search OPTIMAL" in result.stdout
