"""The rows the grading stages hand each other are values: frozen dataclasses whose
sequences are tuples, so a stage makes new rows (``dataclasses.replace``) and can never
change a row another stage holds (``cp_queens.grading.results``)."""

from __future__ import annotations

import dataclasses
import types
import typing
from pathlib import Path

import pytest

import cp_queens.grading.tasks as tasks
from cp_queens.grading.intake.discover import Submission
from cp_queens.grading.intake.roster import RosterStudent
from cp_queens.grading.results import SizeResult, StudentResult
from cp_queens.grading.tasks.dominate import DominateRow
from cp_queens.grading.tasks.solutions.judge import CheckReport, CheckRow

#: Every row type of a grading run, every task's row type too (a new task's is checked).
ROWS = sorted(
    {
        Submission,
        RosterStudent,
        SizeResult,
        StudentResult,
        CheckRow,
        CheckReport,
        DominateRow,
        *(tasks.get(name).row_type for name in tasks.names()),
    },
    key=lambda kind: kind.__name__,
)

#: Field types a stage could change in place.
MUTABLE = (list, dict, set, bytearray)


@pytest.mark.parametrize("kind", ROWS, ids=lambda kind: kind.__name__)
def test_every_row_type_is_a_frozen_dataclass_without_mutable_fields(kind: type) -> None:
    assert dataclasses.is_dataclass(kind), kind
    assert kind.__dataclass_params__.frozen, f"{kind.__name__} is not frozen"  # type: ignore[attr-defined]
    hints = typing.get_type_hints(kind)
    for field in dataclasses.fields(kind):
        hint = hints[field.name]
        union = typing.get_origin(hint) in (typing.Union, types.UnionType)
        kinds = typing.get_args(hint) if union else (hint,)
        for one in kinds:
            origin = typing.get_origin(one) or one
            assert not (isinstance(origin, type) and issubclass(origin, MUTABLE)), (
                f"{kind.__name__}.{field.name}: {hint} can be changed in place (use a tuple "
                "or a Mapping)"
            )


def test_a_row_cannot_be_edited_only_replaced() -> None:
    size = SizeResult(4, "ok", 1, 1)
    row = StudentResult("ada", Path("ada.py"), (size,), ("a note",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.status = "graded, not on the roster"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        row.notes.append("another")  # type: ignore[attr-defined]
    changed = dataclasses.replace(row, notes=(*row.notes, "another"))
    assert row.notes == ("a note",) and changed.notes == ("a note", "another")
    assert changed.sizes[0] is size
