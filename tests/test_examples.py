"""Every example is tested code: each file in examples/ must run cleanly in a few seconds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
#: Examples import the cp_queens of this checkout, not whichever one is installed.
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_example_runs(example: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(example)], capture_output=True, text=True, timeout=120, env=ENV
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip(), "an example should show its result"


def test_model_example_prints_the_92_solutions() -> None:
    example = next(path for path in EXAMPLES if path.name == "01_model.py")
    result = subprocess.run([sys.executable, str(example)], capture_output=True, text=True)
    solutions = [line for line in result.stdout.splitlines() if re.match(r"\s*\d+: \[", line)]
    assert len(solutions) == 92
    assert len({line.split(":")[1] for line in solutions}) == 92
    assert "92 solutions, search OPTIMAL" in result.stdout
