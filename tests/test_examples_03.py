"""One runnable example per formulation (tests/test_examples.py runs every example)."""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path(__file__).parent.parent / "examples"


def test_there_is_one_example_per_formulation() -> None:
    for name in ("board_model", "python_constraint", "mip", "modelling_vs_backtracking"):
        assert (EXAMPLES / f"03_{name}.py").is_file(), name
