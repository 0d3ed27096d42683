"""The documentation cannot go stale: its pictures and Python examples are checked here.

(The site itself is built with ``mkdocs build --strict`` in CI, which fails on a broken
link, anchor or API reference.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import cp_queens
from cp_queens.render import svg
from tests.helpers import run_python_blocks

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def test_the_board_picture_is_what_the_renderer_draws() -> None:
    """docs/board8.svg is ``cp-queens solve 8 --engine reference --format svg``."""
    placement = cp_queens.first(8, engine="reference")
    assert placement is not None
    assert (DOCS / "board8.svg").read_text(encoding="utf-8").strip() == svg(placement)


PAGES_WITH_PYTHON = sorted(
    path for path in DOCS.rglob("*.md") if ">>> " in path.read_text(encoding="utf-8")
)


@pytest.mark.parametrize("page", PAGES_WITH_PYTHON, ids=lambda p: str(p.relative_to(DOCS)))
def test_python_examples_in_the_docs_run(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # examples may write files (a checkpoint, a board)
    result = run_python_blocks(page)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} example(s) failed in {page.name}"


@pytest.mark.slow
def test_the_site_builds_in_strict_mode(tmp_path: Path) -> None:
    """``mkdocs build --strict``: a broken link, anchor or API reference fails here (new
    pages outside the nav are only reported). Five seconds of CPU: in the slow run, and
    ``.ci/run`` builds the site in strict mode on its own too."""
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=600,
    )
    problems = [line for line in result.stderr.splitlines() if "WARNING" in line]
    assert result.returncode == 0, "\n".join(problems) or result.stderr[-3000:]
    assert (tmp_path / "index.html").is_file()
