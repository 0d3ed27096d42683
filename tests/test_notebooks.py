"""The lesson notebooks: generated from the scripts (no drift) and run by a real kernel."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import ROOT

NOTEBOOKS = ROOT / "examples" / "notebooks"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_notebooks", NOTEBOOKS / "make_notebooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_lesson_has_an_up_to_date_notebook() -> None:
    make = generator()
    assert make.lesson_scripts(), "no lessons found"
    assert make.stale() == [], "run: python examples/notebooks/make_notebooks.py"
    committed = {path.stem for path in NOTEBOOKS.glob("*.ipynb")}
    assert committed == {script.stem for script in make.lesson_scripts()}


def test_notebooks_are_committed_without_outputs() -> None:
    import nbformat

    for path in NOTEBOOKS.glob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
        assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")


def test_cells_are_cut_at_top_level_comments_only() -> None:
    make = generator()
    body = "x = 1\n\n# 1. First part.\ny = 2\n\n\ndef f():\n    a = 1\n\n# inside f\n    return a\n"
    sections = make._sections(body)
    assert [comment for comment, _ in sections] == ["", "1. First part."]
    assert "# inside f" in sections[1][1]


@pytest.mark.slow
@pytest.mark.parametrize("script", generator().lesson_scripts(), ids=lambda path: path.stem)
def test_notebook_runs_in_a_kernel(script: Path) -> None:
    make = generator()
    notebook = make.execute(NOTEBOOKS / f"{script.stem}.ipynb", timeout=300)
    kinds = {
        kind
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        for kind in (output.get("data") or {"text/plain": None})
    }
    assert kinds, "a lesson should show its result"
    if script.stem == "03_board_model":
        assert "image/svg+xml" in kinds  # the board, drawn inline
    if script.stem == "08_propagation":
        assert {"image/svg+xml", "image/png"} <= kinds  # the search tree and the plot
    if script.stem == "09_cp_vs_mip":
        assert {"image/svg+xml", "image/png"} <= kinds  # boards and the plot
