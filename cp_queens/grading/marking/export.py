"""Marks into the LMS's gradebook without retyping: ``--export canvas|moodle FILE``.

Each LMS imports a CSV of its own shape (docs/course-grading.md cites their pages):

* **Canvas** imports a file shaped like its own gradebook export: the columns
  ``Student, ID, SIS User ID, SIS Login ID, Section``, then one column per
  assignment, and a second line ``Points Possible`` with each assignment's maximum.
  Canvas matches a student by ``ID`` (its user id) or ``SIS User ID``/``SIS Login
  ID``; a roster that is Canvas's own export fills all five.
* **Moodle**'s gradebook "Import: CSV file" maps one identifier column (user id,
  username, ID number or email address, the lecturer picks which under "Map from")
  to the user, and a grade column to a grade item: the file has the roster's id
  column (under its own header), ``Full name`` and the grade.

Every roster student is in the file: the mark where they handed something in, 0
where they did not. A submission that matches no roster line is not (there is no id
to give it); the command says how many were left out. Cells are written as
``marks.csv``'s (``cp_queens.grading.marking.written``): whole or not at all, no formula.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cp_queens.grading.marking.written as written
import cp_queens.grading.points as points
from cp_queens.grading.intake.roster import NOT_ON_ROSTER, Roster
from cp_queens.grading.results import StudentResult

#: The LMSs ``--export`` writes for.
FORMATS = ("canvas", "moodle")

#: Canvas's gradebook columns before the assignments, as its export names them.
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")


def export(
    results: Sequence[StudentResult],
    roster: Roster,
    lms: str,
    path: str | Path,
    assignment: str,
) -> int:
    """Write the gradebook file for ``lms``; how many rows were left out (not on the roster)."""
    by_id = {r.student_id: r for r in results if NOT_ON_ROSTER not in r.status and r.student_id}
    left_out = sum(NOT_ON_ROSTER in r.status for r in results)
    most = max((r.max_points for r in results), default=points.exact(0))
    rows: list[list[object]]
    if lms == "canvas":
        rows = [[*CANVAS_COLUMNS, assignment], ["Points Possible", "", "", "", "", _mark(most)]]
        for student in roster.students:
            given = {key.casefold(): value for key, value in student.columns.items()}
            result = by_id.get(student.id)
            rows.append(
                [
                    given.get("student", student.name),
                    given.get("id", student.id),
                    given.get("sis user id", ""),
                    given.get("sis login id", ""),
                    given.get("section", ""),
                    _mark(result.points if result is not None else 0, most),
                ]
            )
    elif lms == "moodle":
        rows = [[roster.id_column, "Full name", assignment]]
        for student in roster.students:
            result = by_id.get(student.id)
            mark = _mark(result.points if result is not None else 0, most)
            rows.append([student.id, student.name, mark])
    else:
        raise ValueError(f"gradebook: one of {', '.join(FORMATS)}, got {lms!r}")
    written.write_csv(path, rows)
    return left_out


def _mark(value: points.Number, most: points.Number | None = None) -> str:
    """A mark as the gradebook reads it: a plain decimal, two places at most, never
    rounded up to a maximum not reached."""
    return points.shown(value, most)
