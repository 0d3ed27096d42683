"""Every console example of docs/ runs against the tool and must print what it shows.

The README's own blocks run in the default tests (``tests/test_readme.py``); the pages
of docs/ run here, in the slow tests, a page at a time, its blocks in order in one
fresh directory (see ``tests/console.py`` for the ``...`` wildcards and for blocks
that cannot run here). A stale example fails CI.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.console import blocks, mismatch

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").rglob("*.md"))
WITH_CONSOLE = [page for page in PAGES if blocks(page)]


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.slow
@pytest.mark.parametrize("page", WITH_CONSOLE, ids=_name)
def test_the_console_examples_of_a_page_print_what_it_shows(page: Path, tmp_path: Path) -> None:
    failures = [
        found
        for block in blocks(page)
        if block.not_run is None
        for command, expected in block.sessions
        if (found := mismatch(command, expected, tmp_path)) is not None
    ]
    assert not failures, f"{_name(page)}:\n\n" + "\n\n----\n".join(failures)


def test_every_console_block_is_found_and_runs_or_says_why_not() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        found = blocks(page)
        assert len(found) == text.count("```console"), _name(page)
        for block in found:
            assert block.sessions or block.not_run, f"{_name(page)}: a block without a command"
    ran = [block for page in WITH_CONSOLE for block in blocks(page) if block.not_run is None]
    assert len(ran) >= 29  # most run: the others need a cluster, a ^C, a class or minutes
