"""The formulation examples (examples/03_*.py) run and print what they promise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("03_*.py"))


def test_there_is_one_example_per_formulation() -> None:
    assert {p.stem for p in EXAMPLES} == {
        "03_board_model",
        "03_python_constraint",
        "03_mip",
        "03_modelling_vs_backtracking",
    }


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs(path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.strip()
