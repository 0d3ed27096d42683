"""The documentation cannot go stale: its pictures and Python examples are checked here.

(The site itself is built with ``mkdocs build --strict`` in CI, which fails on a broken
link, anchor or API reference.)
"""

from __future__ import annotations

import os
import re
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


#: A Sphinx role left in a docstring: mkdocstrings renders it as raw text
#: (":class:`Problem`"), so docstrings write a name as a code span (``Problem``) instead.
ROLE = re.compile(r":(?:py:)?(?:class|func|meth|data|mod|attr|exc|obj|const|ref):`")
RAW_ROLE_IN_HTML = re.compile(r":(?:class|func|meth|data|mod|attr|exc|obj|const|ref):(?:<code>|`)")
LESSONS = sorted((ROOT / "examples" / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def test_no_sphinx_roles_in_the_package() -> None:
    """The quick half of the check below: no docstring in cp_queens/ uses a role."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted((ROOT / "cp_queens").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ROLE.search(line)
    ]
    assert not found, "write ``name``, not a Sphinx role:\n" + "\n".join(found[:20])


def test_the_role_patterns_catch_a_role() -> None:
    assert ROLE.search("see :class:`Problem`") and not ROLE.search("see ``Problem``")
    assert RAW_ROLE_IN_HTML.search("see :class:<code>Problem</code>")
    assert RAW_ROLE_IN_HTML.search("<p>:func:`count`</p>")
    assert not RAW_ROLE_IN_HTML.search("<code>Problem</code>")


#: An output that shows a board as a Python string: Jupyter's repr of a str, one quoted
#: line with a literal ``\n`` between the rows (``'7 ■ □ …\n6 …'``), as lesson 11 once did.
STRING_BOARD = re.compile(r"(?:[■□♛♕]|[.Q] [.Q])[^<\n]*\\n")
OUTPUT_TEXT = re.compile(r'class="[^"]*jp-OutputArea-output[^"]*"[^>]*>(.*?)</div>', re.S)


def string_boards(html: str) -> list[str]:
    """The outputs of a built lesson page that show a board as a Python string."""
    found = []
    for output in OUTPUT_TEXT.findall(html):
        found += [match.group(0)[:60] for match in STRING_BOARD.finditer(output)]
    return found


def test_a_board_shown_as_a_python_string_is_caught() -> None:
    def page(text: str) -> str:
        return (
            f'<div class="jp-OutputArea-output" data-mime-type="text/plain"><pre>{text}</pre></div>'
        )

    assert string_boards(page("&#39;7 ■ □ ♛ □\\n6 □ ■ □ ■\\n  a b&#39;"))
    assert string_boards(page("&#x27;. Q . .\\n. . . Q&#x27;"))
    assert not string_boards(page("7 ■ □ ♛ □\n6 □ ■ □ ■\n  a b"))  # printed: rows on lines
    assert not string_boards('<code>print("\\n  n | queens")</code>')  # source, not output


def built_site(tmp_path: Path) -> Path:
    """The site, built in strict mode with the lessons run. ``.ci/run`` builds it once and
    names it in ``CP_QUEENS_BUILT_SITE``, so CI runs the lessons for the site only once."""
    given = os.environ.get("CP_QUEENS_BUILT_SITE")
    if given:
        return Path(given)
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "CP_QUEENS_DOCS_EXECUTE": "true"},
        timeout=900,
    )
    problems = [
        line
        for line in result.stderr.splitlines()
        if "WARNING" in line and "[IPKernelApp]" not in line
    ]
    assert result.returncode == 0, "\n".join(problems) or result.stderr[-3000:]
    return tmp_path


@pytest.mark.slow
def test_the_site_builds_in_strict_mode(tmp_path: Path) -> None:
    """``mkdocs build --strict``: a broken link, anchor or API reference fails here (new
    pages outside the nav are only reported), and so does a lesson that raises (it runs
    while the site is built). A minute and more: in the slow run.

    The built site then shows every lesson with its output, the plots of the lessons that
    draw one, and no raw Sphinx role anywhere."""
    site = built_site(tmp_path)
    assert (site / "index.html").is_file()
    raw = [
        f"{page.relative_to(site)}: {match.group(0)}"
        for page in sorted(site.rglob("*.html"))
        for match in RAW_ROLE_IN_HTML.finditer(page.read_text(encoding="utf-8"))
    ]
    assert not raw, f"{len(raw)} raw Sphinx role(s) in the site:\n" + "\n".join(raw[:20])
    assert LESSONS
    for notebook in LESSONS:
        page = site / "notebooks" / notebook.stem / "index.html"
        assert page.is_file(), f"no page for {notebook.name}"
        html = page.read_text(encoding="utf-8")
        assert re.search(r'class="[^"]*jp-OutputArea-output', html), f"{page}: no output"
        if notebook.stem in ("08_propagation", "09_cp_vs_mip"):
            assert 'src="data:image/png' in html, f"{page}: the plot is missing"
        if notebook.stem in ("03_board_model", "11_optimisation"):  # a board drawn as SVG
            assert 'data-mime-type="image/svg+xml"' in html, f"{page}: the board is missing"
        shown = string_boards(html)
        assert not shown, f"{page}: a board shown as a Python string: {shown}"
    # the exercises keep their numbers (lesson 06 starts at 15), and the unit has its plan
    exercises = (site / "exercises" / "index.html").read_text(encoding="utf-8")
    assert '<ol start="15">' in exercises and "Lesson 11" in exercises
    assert (site / "week-plan" / "index.html").is_file()


#: ``cp_queens.name.name...`` written in backquotes in a page, as code a reader types.
_DOTTED = re.compile(r"`(cp_queens(?:\.[A-Za-z_][A-Za-z0-9_]*)+)(?:\(\))?`")


def test_every_name_the_pages_write_as_code_is_reached_by_attributes() -> None:
    """``cp_queens.answer.schema()`` was once documented while ``cp_queens.answer`` was a
    function shadowing its module: every ``cp_queens.x.y`` a page shows must work as a
    reader types it, after ``import cp_queens`` and the module's own import."""
    import importlib
    import pkgutil

    for module in pkgutil.walk_packages(cp_queens.__path__, "cp_queens."):
        if module.name.endswith("__main__") or ".sandbox." in module.name:
            continue
        importlib.import_module(module.name)  # as a reader who imported it would have it
    unreachable = []
    for page in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        for match in _DOTTED.finditer(page.read_text(encoding="utf-8")):
            found: object = cp_queens
            for part in match[1].split(".")[1:]:
                if not hasattr(found, part):
                    unreachable.append(f"{page.relative_to(ROOT)}: {match[1]}")
                    break
                found = getattr(found, part)
    assert not unreachable, unreachable
