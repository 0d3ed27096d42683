"""Marks into the LMS's gradebook, never a wrong one: ``--export canvas|moodle FILE``.

Each LMS imports a file of its own shape, keyed by its own ids (docs/course-grading.md
cites the LMSs' docs and source):

* **Canvas** (``app/models/gradebook_importer.rb``): a file shaped like its gradebook
  export, ``Student, ID, SIS User ID, SIS Login ID, Section``, then the assignment's
  column. A student is found by ``ID`` (the user id), else the SIS ids, else the
  name; a column by ``Title (id)`` or its exact title, else Canvas *creates a new
  assignment*. So the column is the roster's own (Canvas's export as roster: its one
  assignment, or the one ``--assignment`` names), and a blank cell changes nothing.
* **Moodle**, with the grading worksheet as roster: the worksheet itself, as "Upload
  grading worksheet" reads it (``mod/assign/feedback/offline``: ``Identifier``,
  ``Grade``, ``Last modified (grade)`` required, ``Feedback comments`` imported),
  every participant's line, ``Grade`` and ``Feedback comments`` filled; a blank grade
  is skipped by Moodle.
* **Moodle**, with any other roster (the gradebook export): the form the gradebook's
  "Import: CSV file" maps (``grade/import/csv``: "Map from" ``useridnumber`` or
  ``useremail``), one key column present on every line, ``Full name``, the grade.
  Moodle takes a blank cell there for "no grade" (it clears one), and a line with a
  blank key for the line before's student, so a student without a mark has no line.

A cell is a mark only for a row that was graded (or is on the roster with nothing
handed in: 0). A row ``not graded``, ``conflict``, ``ambiguous`` or not on the roster
gets no mark; every one is named (``Exported.blank``) for stderr and the summary.
Cells are written as ``marks.csv``'s (``cp_queens.grading.marking.written``): whole or not at
all, no formula.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cp_queens.grading.intake.lms as lms
import cp_queens.grading.marking.written as written
import cp_queens.grading.points as points
from cp_queens.errors import CpQueensError
from cp_queens.grading.intake.roster import (
    AMBIGUOUS,
    MISSING,
    NOT_ON_ROSTER,
    Roster,
    RosterFile,
    who,
)
from cp_queens.grading.marking.marks import reason
from cp_queens.grading.results import StudentResult

#: The LMSs ``--export`` writes for.
FORMATS = ("canvas", "moodle")

#: Canvas's gradebook columns before the assignments, as its export names them.
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")

#: Canvas's columns that are no assignment (its importer's ``NON_ASSIGNMENT_COLUMN_HEADERS``
#: and the student's own), by the start of their header.
_NOT_ASSIGNMENTS = re.compile(
    r"^(Unposted )?(Current|Final|Override) (Score|Points|Grade|Status)\b"
    r"|^(Student|LastName|FirstName|ID|SIS User ID|SIS Login ID|Integration ID|Root Account"
    r"|Section)$"
)

#: Canvas's ``Title (id)``.
_TITLE_AND_ID = re.compile(r"^(?P<title>.*\S)\s*\((?P<id>\d+)\)$")

#: The worksheet's columns, as Moodle's ``assign`` language strings name them.
IDENTIFIER, GRADE, MODIFIED, COMMENTS = (
    "Identifier",
    "Grade",
    "Last modified (grade)",
    "Feedback comments",
)


class ExportError(CpQueensError):
    """A gradebook column the LMS would not match, or no key to give it: one line, the
    choices named."""


@dataclass(slots=True)
class Exported:
    """What the gradebook file holds: its form, how many marks, who got none and why."""

    form: str
    marks: int = 0
    blank: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def markable(result: StudentResult) -> bool:
    """A row whose mark may go into the LMS: graded and on the roster, or on it with
    nothing handed in (0)."""
    return result.status in ("graded", MISSING)


def form(roster: Roster, lms_name: str) -> tuple[str, RosterFile | None]:
    """Which file ``--export LMS`` writes for this roster: (``canvas``,
    ``moodle-worksheet`` or ``moodle-gradebook``; the roster file it is shaped by)."""
    if lms_name == "canvas":
        return "canvas", _first(roster, "canvas")
    worksheet = _first(roster, "moodle-worksheet")
    if worksheet is not None:
        return "moodle-worksheet", worksheet
    return "moodle-gradebook", _first(roster, "moodle-gradebook")


def column(roster: Roster, lms_name: str, assignment: str | None, default: str) -> str:
    """The grade column of the export, checked before anything runs: Canvas's one the
    roster has (the only one, or the one ``assignment`` names); Moodle's worksheet has
    its own; Moodle's gradebook the roster's ``Assignment: ...`` column, else
    ``assignment``, else ``default``. ``ExportError`` naming the choices otherwise."""
    shape, source = form(roster, lms_name)
    if shape == "moodle-worksheet":
        return GRADE
    if shape == "canvas":
        if source is None:
            if assignment is not None and _TITLE_AND_ID.match(assignment):
                return assignment
            raise ExportError(
                "the roster is not Canvas's gradebook export, so which column Canvas would "
                "match is unknown: name the assignment 'Title (id)' as Canvas's export names it "
                "(Canvas makes a new assignment of any other title), or give Canvas's export "
                "as the roster"
            )
        choices = _canvas_assignments(source)
        if not choices:
            raise ExportError(
                f"{source.source} has no assignment column: create the assignment in Canvas "
                "and export the gradebook again (Canvas makes a new assignment of a column it "
                "does not know)"
            )
    else:
        choices = [h for h in (source.header if source else []) if h.startswith("Assignment:")]
        if not choices:
            return assignment or default
    if assignment is None and len(choices) == 1:
        return choices[0]
    if assignment is not None:
        chosen = [c for c in choices if _names(c, assignment)]
        if len(chosen) == 1:
            return chosen[0]
    said = "; ".join(repr(c) for c in choices) or "none"
    what = f"{assignment!r} is none of them" if assignment is not None else "name one"
    raise ExportError(f"the roster's assignment columns are {said}: {what}")


def export(
    results: Sequence[StudentResult],
    roster: Roster,
    lms_name: str,
    path: str | Path,
    grade_column: str,
) -> Exported:
    """Write the gradebook file for ``lms_name``: what it holds and who has no mark."""
    shape, source = form(roster, lms_name)
    done = Exported(shape)
    rows: list[StudentResult] = list(results)
    for result in rows:
        if not markable(result):
            done.blank.append(f"{who(result)}: {_why(result)}")
    most = max((r.max_points for r in rows), default=points.exact(0))
    if shape == "canvas":
        table = _canvas(rows, source, grade_column, most, done)
    elif shape == "moodle-worksheet":
        assert source is not None
        table = _worksheet(rows, roster, source, most, done)
    else:
        table = _gradebook(rows, roster, grade_column, most, done)
    written.write_csv(path, table)
    return done


def _canvas(
    rows: list[StudentResult],
    source: RosterFile | None,
    grade_column: str,
    most: points.Number,
    done: Exported,
) -> list[list[object]]:
    """Canvas's import: its export's student columns, the one grade column, its
    ``Points Possible`` line with the column's own maximum."""
    possible = source.points_possible.get(grade_column, "") if source else ""
    if possible and _number(possible) != most:
        done.warnings.append(
            f"Canvas's Points Possible for {grade_column!r} is {possible}; the rubric's "
            f"maximum is {_mark(most)}: the marks are points of {_mark(most)}"
        )
    table: list[list[object]] = [
        [*CANVAS_COLUMNS, grade_column],
        ["    Points Possible", "", "", "", "", possible or _mark(most)],
    ]
    names: dict[str, int] = {}
    for result in rows:
        names[result.student.casefold()] = names.get(result.student.casefold(), 0) + 1
    for result in rows:
        if NOT_ON_ROSTER in result.status:
            continue
        keys = result.keys
        given = _line(result, source)
        mark = _mark(result.points, most) if markable(result) else ""
        by_name_only = not (keys.get(lms.CANVAS_USER) or keys.get("number") or keys.get("login"))
        if mark and by_name_only and names[result.student.casefold()] > 1:
            done.blank.append(f"{who(result)}: no Canvas id, and the name is not unique")
            mark = ""
        done.marks += bool(mark)
        table.append(
            [
                given.get("Student", result.student),
                keys.get(lms.CANVAS_USER, ""),
                keys.get("number", ""),
                keys.get("login", ""),
                given.get("Section", ""),
                mark,
            ]
        )
    return table


def _worksheet(
    rows: list[StudentResult],
    roster: Roster,
    source: RosterFile,
    most: points.Number,
    done: Exported,
) -> list[list[object]]:
    """Moodle's grading worksheet, written back: its own columns and lines, ``Grade``
    and ``Feedback comments`` filled where there is a mark."""
    number = roster.files.index(source)
    header: list[object] = list(source.header)
    if COMMENTS not in header:
        header.append(COMMENTS)
    by_participant = {r.keys.get(lms.PARTICIPANT): r for r in rows if NOT_ON_ROSTER not in r.status}
    table: list[list[object]] = [header]
    for student in source.students:
        line = dict(student.lines.get(number, student.columns))
        result = by_participant.get(student.keys.get(lms.PARTICIPANT))
        mark = _mark(result.points, most) if result is not None and markable(result) else ""
        maximum = line.get("Maximum Grade", "").strip()
        if mark and maximum and _number(maximum) != most and not done.warnings:
            done.warnings.append(
                f"the worksheet's Maximum Grade is {maximum}; the rubric's maximum is "
                f"{_mark(most)}: the marks are points of {_mark(most)}"
            )
        line[GRADE] = mark
        if result is not None and mark:
            line[COMMENTS] = f"{mark} of {_mark(most)} points. {reason(result)}".strip()
        done.marks += bool(mark)
        table.append([line.get(str(column), "") for column in header])
    return table


#: The keys Moodle's gradebook import maps a user from ("Map from"), best first, with the
#: header written for each (a plain roster's ``id`` keeps its own header).
MOODLE_KEYS = (("number", "ID number"), ("email", "Email address"), ("username", "Username"),
               ("userid", "User id"), ("id", ""))  # fmt: skip


def _gradebook(
    rows: list[StudentResult],
    roster: Roster,
    grade_column: str,
    most: points.Number,
    done: Exported,
) -> list[list[object]]:
    """Moodle's gradebook import: one key column, the first kind every marked line has
    (``ID number``, else ``Email address``...), ``Full name``, the grade; only students
    with a mark (and a key of that kind: any other is named)."""
    marked = [r for r in rows if markable(r)]
    present = [(k, h) for k, h in MOODLE_KEYS if any(r.keys.get(k) for r in marked)]
    complete = [(k, h) for k, h in present if all(r.keys.get(k) for r in marked)]
    kind, header = (complete or present or [MOODLE_KEYS[0]])[0]
    header = header or roster.id_column
    table: list[list[object]] = [[header, "Full name", grade_column]]
    for result in marked:
        key = result.keys.get(kind, "")
        if not key:
            done.blank.append(f"{who(result)}: no {header} on the roster")
            continue
        done.marks += 1
        table.append([key, result.student, _mark(result.points, most)])
    return table


def _canvas_assignments(source: RosterFile) -> list[str]:
    """The assignment columns of Canvas's export: those with a number on its ``Points
    Possible`` line (or, without that line, named ``Title (id)``)."""
    found = []
    for header in source.header:
        if _NOT_ASSIGNMENTS.match(header):
            continue
        possible = source.points_possible.get(header)
        if (possible is not None and _number(possible) is not None) or (
            not source.points_possible and _TITLE_AND_ID.match(header)
        ):
            found.append(header)
    return found


def _names(column_header: str, asked: str) -> bool:
    """Does ``asked`` name the column (its whole header, its title, its id)?"""
    wanted = asked.strip().casefold()
    title = _TITLE_AND_ID.match(column_header)
    plain = column_header.removeprefix("Assignment:").strip()
    candidates = {column_header.casefold(), plain.casefold()}
    if title is not None:
        candidates |= {title["title"].casefold(), title["id"]}
    return wanted in candidates


def _line(result: StudentResult, source: RosterFile | None) -> Mapping[str, str]:
    """The student's line of the Canvas roster, as given (its name, its section)."""
    user = result.keys.get(lms.CANVAS_USER)
    for student in source.students if source is not None and user else []:
        if student.keys.get(lms.CANVAS_USER) == user:
            return student.columns
    return {}


def _first(roster: Roster, kind: str) -> RosterFile | None:
    return next((f for f in roster.files if f.kind == kind), None)


def _why(result: StudentResult) -> str:
    if result.notes and result.notes[0].startswith(AMBIGUOUS):
        return f"{result.status} (its name fits several students)"
    return result.status


def _number(text: str) -> points.Number | None:
    try:
        return points.exact(float(text.replace(",", ".")))
    except ValueError:
        return None


def _mark(value: points.Number, most: points.Number | None = None) -> str:
    """A mark as the gradebook reads it: a plain decimal, two places at most, never
    rounded up to a maximum not reached."""
    return points.shown(value, most)
