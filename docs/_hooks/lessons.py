"""MkDocs hook: every lesson notebook becomes a page of the site, found by a glob.

The notebooks live beside their scripts (``examples/notebooks/NN_*.ipynb``, paired by
Jupytext), not under ``docs/``: this hook adds each one as ``notebooks/NN_*.ipynb``, so
mkdocs-jupyter renders (and, with ``execute: true``, runs) it, and fills the "Lessons"
section of the nav, titled by the notebook's first heading. A new lesson needs no edit
here or in ``mkdocs.yml``: commit its script and notebook and it appears.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "examples" / "notebooks"
SECTION = "Lessons"


def notebooks() -> list[Path]:
    """The lesson notebooks in lesson order (the file names start with the number)."""
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def title(notebook: Path) -> str:
    """The first Markdown heading: "Lesson 1: the N-Queens constraint model ..."."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"])
            for line in source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip().rstrip(".")
    return notebook.stem


def short_title(notebook: Path) -> str:
    """For the nav: "01 The N-Queens constraint model, nothing else" (number, first clause)."""
    text = re.sub(r"^Lesson \d+:\s*", "", title(notebook))
    text = re.split(r" - |: | \(", text, maxsplit=1)[0]
    return f"{notebook.stem[:2]} {text[:1].upper()}{text[1:]}"


def on_config(config: Any) -> Any:
    """Put one nav entry per lesson into the "Lessons" section of ``mkdocs.yml``."""
    entries = [{short_title(path): f"notebooks/{path.name}"} for path in notebooks()]
    for item in config["nav"] or []:
        if isinstance(item, dict) and SECTION in item:
            item[SECTION] = [*(item[SECTION] or []), *entries]
            break
    return config


@event_priority(100)  # before mkdocs-jupyter's on_files turns notebooks into pages
def on_files(files: Files, config: Any) -> Files:
    for path in notebooks():
        # A real source directory, not File.generated: mkdocs-jupyter's wrapper finds the
        # file through src_dir. The page's address is then notebooks/NN_name/.
        files.append(
            File(
                f"notebooks/{path.name}",
                src_dir=str(NOTEBOOKS.parent),
                dest_dir=config["site_dir"],
                use_directory_urls=config["use_directory_urls"],
            )
        )
    return files


TABLE = "<!-- lessons-table -->"


def table(page_dir: str) -> str:
    """The lesson table of docs/course.md, from the files: it cannot miss a lesson."""
    rows = ["| | lesson | script |", "|---|---|---|"]
    for path in notebooks():
        link = f"notebooks/{path.name}"
        rows.append(f"| {path.stem[:2]} | [{title(path)}]({link}) | `examples/{path.stem}.py` |")
    return "\n".join(rows)


EXERCISES = ROOT / "examples" / "EXERCISES.md"
EXERCISES_MARK = "<!-- exercises -->"
LINK = re.compile(r"\[([^\]]+)\]\((?!https?:|#)([^)]+)\)")
SCRIPT = re.compile(r"`(\d\d_\w+)\.py`")


def exercises() -> str:
    """``examples/EXERCISES.md`` for the site: one source, in the repository and here.

    Its links are relative to ``examples/`` and lead nowhere on the site, so each becomes
    the path it names; a lesson's script in a heading links to that lesson's page."""

    def unlink(match: re.Match[str]) -> str:
        text, target = match.groups()
        return f"`examples/{target}`" if text.strip("`") == target else text

    def lesson_link(match: re.Match[str]) -> str:
        name = match.group(1)
        if (NOTEBOOKS / f"{name}.ipynb").is_file():
            return f"[`{name}.py`](notebooks/{name}.ipynb)"
        return match.group(0)

    lines = EXERCISES.read_text(encoding="utf-8").splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]  # the page has its own title
    text = LINK.sub(unlink, "\n".join(lines))
    return "\n".join(
        SCRIPT.sub(lesson_link, line) if line.startswith("## Lesson") else line
        for line in text.splitlines()
    )


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Replace ``<!-- lessons-table -->`` with the table of every lesson, and
    ``<!-- exercises -->`` with the exercises."""
    if TABLE in markdown:
        markdown = markdown.replace(TABLE, table(page.file.src_uri))
    if EXERCISES_MARK in markdown:
        markdown = markdown.replace(EXERCISES_MARK, exercises())
    return markdown
