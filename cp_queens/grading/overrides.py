"""A lecturer's decisions: ``--overrides FILE`` replaces a student's computed points.

A rubric marks every submission by the same rules, and now and then a
lecturer decides otherwise: a right model that counts columns from 1 earns
little by the rules and 12 of 13 by the lecturer's judgement. The decision is
recorded, not typed over the CSV: a file ``student,points,reason``, read
here, checked (every student must be in the class, the points within the
maximum, the reason given), and applied to the results, so that
``marks.csv`` shows the mark, the computed points beside it and the reason,
and the student's feedback says the same.

Examples:
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "overrides.csv"
    >>> _ = path.write_text("student,points,reason\\neve,12,right model with 1-based columns\\n")
    >>> read_overrides(path)
    {'eve': Override(points=12.0, reason='right model with 1-based columns')}
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from cp_queens.errors import CpQueensError
from cp_queens.grading.grade import StudentResult

COLUMNS = ("student", "points", "reason")


class OverrideError(CpQueensError):
    """An overrides file that cannot be read, or names a student or points we cannot use."""


class Override(NamedTuple):
    """The lecturer's points for one student, and why."""

    points: float
    reason: str


def read_overrides(path: str | Path) -> dict[str, Override]:
    """The decisions in the CSV at ``path`` (header ``student,points,reason``), by student."""
    where = Path(path)
    try:
        with where.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))
    except FileNotFoundError:
        raise OverrideError(f"{where}: no such overrides file") from None
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise OverrideError(f"{where}: cannot read the overrides: {error}") from None
    if not rows or [cell.strip().lower() for cell in rows[0]] != list(COLUMNS):
        raise OverrideError(f"{where}: line 1: the header must be {','.join(COLUMNS)}")
    found: dict[str, Override] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(COLUMNS):
            raise OverrideError(
                f"{where}: line {line}: {len(row)} fields, expected 3 ({','.join(COLUMNS)}; "
                "quote a reason that holds a comma)"
            )
        student, text, reason = (cell.strip() for cell in row)
        try:
            points = float(text)
        except ValueError:
            points = math.nan
        if not math.isfinite(points) or points < 0:
            raise OverrideError(f"{where}: line {line}: points must be a number >= 0, got {text!r}")
        if not reason:
            raise OverrideError(f"{where}: line {line}: {student}: an override needs a reason")
        if student in found:
            raise OverrideError(f"{where}: line {line}: {student} is overridden twice")
        found[student] = Override(points, reason)
    return found


def apply_overrides(
    results: Sequence[StudentResult], overrides: dict[str, Override], source: str = "overrides"
) -> None:
    """Set each overridden student's mark; refuse a student not in the class or points above
    the maximum (a typo must not give a mark to nobody, or 120 of 13)."""
    by_student = {result.student: result for result in results}
    for student, override in overrides.items():
        result = by_student.get(student)
        if result is None:
            raise OverrideError(f"{source}: {student}: no such student in this class")
        if override.points > result.max_points:
            raise OverrideError(
                f"{source}: {student}: {override.points:g} points is more than the maximum "
                f"{result.max_points:g}"
            )
        result.override = override.points
        result.override_reason = override.reason
