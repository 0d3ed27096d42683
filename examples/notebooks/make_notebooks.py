"""Generate the lesson notebooks from the lesson scripts, so the two never drift apart.

Each ``examples/NN_*.py`` becomes ``examples/notebooks/NN_*.ipynb``:

* the module docstring becomes the first Markdown cell (its first line the title);
* the code is cut into cells at every top-level comment that follows a blank
  line; that comment becomes a Markdown cell before the code it introduces.

Notebooks are written without outputs (small, reviewable diffs); running them
fills in the boards and plots, because lessons draw through
:func:`cp_queens.course.display.show`, which displays inline in Jupyter.

Run:    python examples/notebooks/make_notebooks.py            (write the notebooks)
        python examples/notebooks/make_notebooks.py --check    (exit 1 if any is stale)
        python examples/notebooks/make_notebooks.py --execute  (also run them in place)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent
KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}


def lesson_scripts() -> list[Path]:
    """Every numbered lesson: ``examples/01_model.py`` ... (not the key, not helpers)."""
    return sorted(p for p in EXAMPLES.glob("[0-9][0-9]_*.py"))


def notebook_for(script: Path) -> nbformat.NotebookNode:
    source = script.read_text(encoding="utf-8")
    docstring = ast.get_docstring(ast.parse(source), clean=True) or script.stem
    body = _without_docstring(source)
    title, _, rest = docstring.partition("\n")
    cells = [new_markdown_cell(f"# {title.strip()}\n\n{_markdown(rest.strip())}".strip())]
    for comment, code in _sections(body):
        if comment:
            cells.append(new_markdown_cell(comment))
        if code.strip():
            cells.append(new_code_cell(code.strip("\n")))
    notebook = new_notebook(cells=cells, metadata={"kernelspec": KERNEL})
    # Stable ids, so regenerating an unchanged lesson gives an identical file.
    for index, cell in enumerate(notebook.cells):
        cell["id"] = f"{script.stem[:2]}-{index:02d}"
    return notebook


def _without_docstring(source: str) -> str:
    tree = ast.parse(source)
    first = tree.body[0] if tree.body else None
    if isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant):
        lines = source.splitlines(keepends=True)
        return "".join(lines[first.end_lineno :])
    return source


def _markdown(text: str) -> str:
    """Docstring text as Markdown, without the ``Run it:`` lines (a notebook runs itself)."""
    lines = []
    skipping = False
    for line in text.splitlines():
        if line.startswith(("Run it:", "Run:")):
            skipping = True  # the notebook is how it runs here
            continue
        if skipping and line.startswith(" "):
            continue  # a second command under "Run it:"
        skipping = False
        lines.append(line)
    return "\n".join(lines).strip()


def _sections(body: str) -> list[tuple[str, str]]:
    """(leading comment as Markdown, code) pairs, cut at top-level comments after a blank.

    A comment inside a statement (a function body, a loop) never cuts: only lines
    between the top-level statements the parser sees are candidates.
    """
    lines = body.splitlines()
    inside = set()
    for statement in ast.parse(body).body:
        first = min(
            [statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", []))]
        )
        inside.update(range(first, statement.end_lineno + 1))  # 1-based line numbers
    sections: list[tuple[list[str], list[str]]] = [([], [])]
    i = 0
    while i < len(lines):
        line = lines[i]
        after_blank = i == 0 or not lines[i - 1].strip()
        if after_blank and line.startswith("# ") and (i + 1) not in inside:
            comment = []
            while i < len(lines) and lines[i].startswith("#") and (i + 1) not in inside:
                comment.append(lines[i].lstrip("#").strip())
                i += 1
            sections.append((comment, []))
            continue
        sections[-1][1].append(line)
        i += 1
    return [(" ".join(c).strip(), "\n".join(code)) for c, code in sections]


def write_all() -> list[Path]:
    written = []
    for script in lesson_scripts():
        path = HERE / f"{script.stem}.ipynb"
        nbformat.write(notebook_for(script), path)
        written.append(path)
    return written


def stale() -> list[str]:
    """Names of notebooks missing or different from what their script generates."""
    out = []
    for script in lesson_scripts():
        path = HERE / f"{script.stem}.ipynb"
        if not path.exists():
            out.append(f"{path.name} (missing)")
            continue
        committed = nbformat.read(path, as_version=4)
        fresh = notebook_for(script)
        if [(c.cell_type, c.source) for c in committed.cells] != [
            (c.cell_type, c.source) for c in fresh.cells
        ]:
            out.append(path.name)
    return out


def execute(path: Path, timeout: int = 120) -> nbformat.NotebookNode:
    """Run a notebook with a real kernel, in examples/ (as the scripts run)."""
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": EXAMPLES}}
    ).execute()
    return notebook


def main(argv: list[str]) -> int:
    if "--check" in argv:
        old = stale()
        if old:
            print("stale notebooks (run examples/notebooks/make_notebooks.py):", ", ".join(old))
            return 1
        print(f"all {len(lesson_scripts())} notebooks match their lessons")
        return 0
    for path in write_all():
        print("wrote", path.relative_to(EXAMPLES.parent))
        if "--execute" in argv:
            nbformat.write(execute(path), path)
            print("   executed in place")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
