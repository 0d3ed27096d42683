"""The lesson notebooks: paired with their scripts by Jupytext (no drift) and run by a kernel.

Every lesson is found by its name (``examples/NN_*.py``), so a new lesson is checked
with no edit here: it must have a notebook in step with it (``jupytext --sync``), open
with its title and the install cell, and be committed without outputs.
"""

from __future__ import annotations

from pathlib import Path

import jupytext
import nbformat
import pytest

from tests.helpers import ROOT

EXAMPLES = ROOT / "examples"
NOTEBOOKS = EXAMPLES / "notebooks"
LESSONS = sorted(EXAMPLES.glob("[0-9][0-9]_*.py"))
SYNC = "jupytext --sync examples/[0-9][0-9]_*.py"


def cells(notebook: nbformat.NotebookNode) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source) for cell in notebook.cells]


def test_lessons_are_found() -> None:
    assert len(LESSONS) >= 12
    assert {path.stem for path in NOTEBOOKS.glob("*.ipynb")} == {path.stem for path in LESSONS}


def test_the_pairing_is_configured() -> None:
    """``jupytext --sync`` pairs each script with ``notebooks/<same name>.ipynb``."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["jupytext"]["formats"] == "notebooks//ipynb,py:percent"


@pytest.mark.parametrize("script", LESSONS, ids=lambda path: path.stem)
def test_the_notebook_is_in_step_with_its_script(script: Path) -> None:
    notebook = NOTEBOOKS / f"{script.stem}.ipynb"
    assert notebook.is_file(), f"{notebook.name} is missing: run {SYNC}"
    expected = jupytext.read(script, fmt="py:percent")
    committed = nbformat.read(notebook, as_version=4)
    assert cells(committed) == cells(expected), f"{notebook.name} is stale: run {SYNC}"


@pytest.mark.parametrize("script", LESSONS, ids=lambda path: path.stem)
def test_a_lesson_opens_with_its_title_and_the_install_cell(script: Path) -> None:
    """The site titles a lesson by its first heading; the install cell makes a kernel
    without cp_queens (a fresh notebook server in a clone) able to run it."""
    first, *_ = jupytext.read(script, fmt="py:percent").cells
    assert first.cell_type == "markdown" and first.source.startswith("# "), (
        f"{script.name} should open with a Markdown cell '# # Lesson NN: ...' (percent format)"
    )
    code = [cell.source for cell in jupytext.read(script).cells if cell.cell_type == "code"]
    assert code and 'find_spec("cp_queens") is None' in code[0], (
        f"{script.name}: the first code cell should be the install cell of the other lessons"
    )


def test_a_stale_notebook_is_caught(tmp_path: Path) -> None:
    """The comparison above sees an edit made on one side only."""
    script = LESSONS[0]
    notebook = nbformat.read(NOTEBOOKS / f"{script.stem}.ipynb", as_version=4)
    edited = tmp_path / script.name
    edited.write_text(script.read_text(encoding="utf-8") + "\nprint('one more line')\n")
    assert cells(notebook) != cells(jupytext.read(edited, fmt="py:percent"))


def test_notebooks_are_committed_without_outputs() -> None:
    for path in NOTEBOOKS.glob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
        assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")


def execute(path: Path, timeout: int = 300) -> nbformat.NotebookNode:
    """Run a notebook with a real kernel, in its own folder (as the site build runs it)."""
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": path.parent}},
    ).execute()
    return notebook


@pytest.mark.slow
@pytest.mark.parametrize("script", LESSONS, ids=lambda path: path.stem)
def test_notebook_runs_in_a_kernel(script: Path) -> None:
    notebook = execute(NOTEBOOKS / f"{script.stem}.ipynb")
    kinds = {
        kind
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        for kind in (output.get("data") or {"text/plain": None})
    }
    assert kinds, "a lesson should show its result"
    if script.stem in ("03_board_model", "11_optimisation"):
        assert "image/svg+xml" in kinds  # the board, drawn inline
    plain = [
        output["data"]["text/plain"]
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "text/plain" in (output.get("data") or {})
    ]
    assert not [text for text in plain if "\\n" in text and text[:1] in "'\""], (
        "a string shown as its repr (a board as one quoted line): print it, or show a board"
    )
    if script.stem == "08_propagation":
        assert {"image/svg+xml", "image/png"} <= kinds  # the search tree and the plot
    if script.stem == "09_cp_vs_mip":
        assert {"image/svg+xml", "image/png"} <= kinds  # boards and the plot
