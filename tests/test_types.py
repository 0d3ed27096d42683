"""The package's type hints hold: ``mypy`` over ``cp_queens/`` (configured in pyproject.toml).

Marked slow: a first run without mypy's cache takes 15-50 s, most of the default suite's
budget. ``.ci/run`` runs mypy itself as well; run ``pytest -m slow tests/test_types.py`` or
plain ``mypy`` before landing a change to the hints.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_mypy_finds_no_type_errors() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
