"""The README cannot go stale: its commands run here and must print what it shows.

Every ```console block is a little session: ``$ command`` lines run in a fresh
directory (files a block writes are there for its later commands), and the lines
after a command are what it prints, stdout and stderr interleaved as on a terminal.
Values that change from run to run are written ``...``: inside a line it stands for
any text (a wall time, a branch count). The ```python blocks run as doctests, and
the quick-start test command must be the one CI runs.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.console import interleaves, run, sessions
from tests.helpers import run_python_blocks

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TEXT = README.read_text(encoding="utf-8")
CONSOLE_BLOCKS = re.findall(r"^```console\n(.*?)^```", TEXT, re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("block", CONSOLE_BLOCKS, ids=lambda b: b.split("\n", 1)[0][2:40])
def test_console_example_prints_what_the_readme_shows(block: str, tmp_path: Path) -> None:
    for command, expected in sessions(block):
        out, err = run(command, tmp_path)
        assert interleaves(expected, out, err), (
            f"$ {command}\nREADME shows:\n"
            + "\n".join(expected)
            + "\n\nstdout:\n"
            + "\n".join(out)
            + "\n\nstderr:\n"
            + "\n".join(err)
        )


def test_the_matcher_tells_right_from_wrong() -> None:
    expected = ["# engine=x wall_time=...", "n=8: 92 solutions"]
    assert interleaves(expected, ["n=8: 92 solutions"], ["# engine=x wall_time=0.1s"])
    assert not interleaves(expected, ["n=8: 93 solutions"], ["# engine=x wall_time=0.1s"])
    assert not interleaves(expected, ["n=8: 92 solutions"], [])  # a line missing
    assert not interleaves(expected[1:], ["n=8: 92 solutions", "extra"], [])  # one too many
    assert not interleaves(["a", "b"], ["b", "a"], [])  # stdout keeps its order


@pytest.mark.slow
def test_python_m_doctest_readme_works_too() -> None:
    """``python -m doctest README.md``, as a reader might try it. The same blocks run as
    doctests in this process in the default run (``test_python_examples_in_the_readme_run``);
    the fresh interpreter this needs is the slow run's."""
    done = subprocess.run(
        [sys.executable, "-m", "doctest", str(README)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-2000:]


def test_every_console_block_was_found() -> None:
    assert len(CONSOLE_BLOCKS) == TEXT.count("```console")
    assert sum(len(sessions(block)) for block in CONSOLE_BLOCKS) >= 5


def test_python_examples_in_the_readme_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_python_blocks(README)
    assert result.attempted > 0 and result.failed == 0


def test_the_quick_start_test_command_is_what_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = (
        "python3 -m venv .venv && .venv/bin/pip install -q '.[test]' && .venv/bin/python -m pytest"
    )
    assert f"\n{command}\n" in ci
    assert f"\n{command}\n" in TEXT


def test_the_readme_is_short_and_its_links_resolve() -> None:
    assert len(TEXT.splitlines()) < 250
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", TEXT) + re.findall(r'src="([^"]+)"', TEXT)
    for target in links:
        if not re.match(r"[a-z]+://", target):
            assert (ROOT / target).exists(), f"README links to {target}, which does not exist"
