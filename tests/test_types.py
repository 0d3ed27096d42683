"""The package's type hints hold: ``mypy`` over ``cp_queens/`` (configured in pyproject.toml).

Marked slow: a first run without mypy's cache takes 15-50 s, most of the default suite's
budget. ``.ci/run`` runs mypy itself as well; run ``pytest -m slow tests/test_types.py`` or
plain ``mypy`` before landing a change to the hints.
"""

from __future__ import annotations

import os
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


USER_CODE = """\
import cp_queens
from cp_queens import TimeLimitError


def lower_bound(n: int) -> int | None:
    try:
        return cp_queens.count(n, engine="reference", budget=cp_queens.Budget.of(time_limit=1))
    except TimeLimitError as err:
        partial: int | None = err.partial
        if err.stats is not None:
            status: str = err.stats.status
            print(status)
        return partial
"""


@pytest.mark.slow
def test_a_users_strict_mypy_accepts_the_partial_figure(tmp_path: Path) -> None:
    """``TimeLimitError.partial`` and ``.stats`` read in a user's ``mypy --strict`` code
    (``partial`` was typed ``object``: every such line was an error)."""
    (tmp_path / "user.py").write_text(USER_CODE)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "user.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        # The package from this checkout, however it is installed (an editable install's
        # import hook is invisible to mypy); read, not checked: the package's own
        # settings are test_mypy_finds_no_type_errors's.
        env={**os.environ, "MYPYPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stdout + result.stderr
