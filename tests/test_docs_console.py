"""Every console example of the README and docs/ runs against the tool and must print
what it shows.

The README's own blocks run in the default tests (``tests/test_readme.py``); the pages
of docs/ run here, in the slow tests, a page at a time, its blocks in order in one
fresh directory (see ``tests/console.py`` for the ``...`` wildcards, and
``tests/console_needs.py`` for what a block that needs a cluster, a clone or another
machine is given). No block is left out: a stale example fails CI.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.console import blocks, given, mismatches
from tests.console_needs import NEEDS

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").rglob("*.md"))
WITH_CONSOLE = [page for page in PAGES if blocks(page)]
#: The README's blocks, as tests/test_readme.py finds and runs them.
README_BLOCKS = re.findall(r"^```console\n(.*?)^```", README.read_text("utf-8"), re.M | re.S)


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.slow
@pytest.mark.parametrize("page", WITH_CONSOLE, ids=_name)
def test_the_console_examples_of_a_page_print_what_it_shows(page: Path, tmp_path: Path) -> None:
    cwd = tmp_path / "page"
    cwd.mkdir()
    given(cwd)
    failures = [found for block in blocks(page) for found in mismatches(block, cwd)]
    assert not failures, f"{_name(page)}:\n\n" + "\n\n----\n".join(failures)


def test_every_console_block_of_readme_and_docs_runs() -> None:
    """The blocks the tests run are every block the pages hold: a new one cannot go
    untested, and none is marked to be left out."""
    found = 0
    for page in [README, *PAGES]:
        found += page.read_text(encoding="utf-8").count("```console")
    ran = len(README_BLOCKS) + sum(len(blocks(page)) for page in WITH_CONSOLE)
    assert ran == found
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "console: not run" not in text, f"{_name(page)}: a block left out"
        for block in blocks(page):
            assert block.sessions, f"{_name(page)}: a block without a command"
            unknown = set(block.needs) - set(NEEDS)
            assert not unknown, (
                f"{_name(page)}: needs {unknown}, which tests/console_needs.py lacks"
            )
