"""The notebook check is the grader: ``check_model`` called in a notebook grades the
notebook as the grader will (every code cell, the check cell too, the same allowed
modules), so the two agree: on a notebook that imports ``cp_queens`` to check itself, on
a CP-SAT model with a callback class next to ``import matplotlib``, and on every notebook
in ``examples/``.

An IPython shell in this process stands in for a kernel in the default run; a real
kernel (nbclient) runs the notebooks in the slow run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cp_queens.grading.as_graded import check_model
from cp_queens.grading.grade import grade_file
from cp_queens.grading.run import GUARD
from tests import mistakes
from tests.helpers import ROOT
from tests.hostile import RIGHT

CHECK = """
from cp_queens.course import check_model
report = check_model(model, n_max=5)
print("CHECKED", bool(report), report.marks)
"""

GUARDED = 'if __name__ == "__main__":\n' + "".join(
    f"    {line}\n" for line in CHECK.strip().splitlines()
)

#: A CP-SAT model with a callback class, next to ``import matplotlib``.
CALLBACK = "import matplotlib\n" + mistakes.cpsat(
    "    solver.parameters.enumerate_all_solutions = True\n    solver.parameters.num_workers = 1\n"
)

NOTEBOOKS = {
    "imports_the_toolkit": [RIGHT, CHECK],
    "callback_and_matplotlib": [CALLBACK, CHECK],
    "guarded_check": [RIGHT, GUARDED],
}


def notebook(cells: list[str], path: Path) -> Path:
    path.write_text(
        json.dumps(
            {
                "cells": [
                    {
                        "cell_type": "code",
                        "metadata": {},
                        "source": cell,
                        "outputs": [],
                        "execution_count": None,
                    }
                    for cell in cells
                ],
                "metadata": {},
                "nbformat": 4,
                "nbformat_minor": 4,
            }
        ),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def shell() -> Iterator[object]:
    """An IPython shell in this process, its history the cells it ran (as a kernel's)."""
    from IPython.core.interactiveshell import InteractiveShell

    instance = InteractiveShell.instance(history_length=0)
    try:
        yield instance
    finally:
        InteractiveShell.clear_instance()


@pytest.mark.parametrize("case", ["imports_the_toolkit", "guarded_check"])
def test_the_check_in_a_notebook_gives_the_grader_s_mark(
    case: str, shell, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cells = NOTEBOOKS[case]
    for cell in cells:
        result = shell.run_cell(cell, store_history=True)  # type: ignore[attr-defined]
        assert result.error_in_exec is None, result.error_in_exec
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith("CHECKED")]
    graded = grade_file(notebook(cells, tmp_path / f"{case}.ipynb"), range(1, 6))
    # No saved notebook to grade (a kernel without a session file): the mark is for the
    # cells this kernel ran, and says so; never "as the grader marks it".
    assert said == [
        f"CHECKED {graded.full_marks} {graded.points} of 7 points, for the {len(cells)} cells "
        "run in this kernel"
    ]
    if case == "imports_the_toolkit":
        assert graded.points == 0 and GUARD in graded.notes
    else:
        assert graded.full_marks


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(NOTEBOOKS))
def test_a_kernel_s_check_and_the_grader_agree(case: str, tmp_path: Path) -> None:
    import nbformat
    from nbclient import NotebookClient

    path = notebook(NOTEBOOKS[case], tmp_path / f"{case}.ipynb")
    ran = nbformat.read(path, as_version=4)
    NotebookClient(
        ran, timeout=300, kernel_name="python3", resources={"metadata": {"path": tmp_path}}
    ).execute()
    printed = "".join(
        output.get("text", "") for cell in ran.cells for output in cell.get("outputs", [])
    )
    [line] = [line for line in printed.splitlines() if line.startswith("CHECKED")]
    graded = grade_file(path, range(1, 6))
    assert line == (
        f"CHECKED {graded.full_marks} {graded.points} of 7 points, for the "
        f"{len(NOTEBOOKS[case])} cells run in this kernel"
    )
    assert graded.full_marks == (case == "guarded_check")


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", sorted(ROOT.glob("examples/**/*.ipynb")), ids=lambda path: path.stem
)
def test_every_notebook_in_examples_gets_one_mark(path: Path) -> None:
    """``check_model("x.ipynb")`` and ``cp-queens grade x.ipynb`` are one verdict."""
    report = check_model(path, n_max=4)
    graded = grade_file(path, range(1, 5))
    assert bool(report) == graded.full_marks
    assert report.marks.startswith(f"{graded.points} of {graded.max_points} points")
