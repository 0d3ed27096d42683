"""The package's type hints hold: ``mypy`` over ``cp_queens/`` (configured in pyproject.toml).

Run in the default suite so a change that breaks the hints is seen before it lands; with
mypy's cache a repeated run takes a couple of seconds.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_type_errors() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
