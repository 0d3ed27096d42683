"""The class list: every student on it gets a row, handed in or not (``--roster FILE``).

Without a list, a student who handed nothing in has no row, and a lecturer with 60
students counts rows. A roster is a CSV with a header: the student's id and name,
and whatever else the LMS put in it. It may be the LMS's own export: Canvas's
gradebook export (``Student, ID, SIS User ID, SIS Login ID, Section, ...``; its
"Points Possible" line is skipped), Moodle's grading worksheet (``Identifier,
Full name, ...``) or participants list (``First name, Last name, ID number, Email
address``). Those columns are kept for the gradebook file
(``cp_queens.grading.marking.export``).

Submissions are matched to roster lines as LMS downloads name them
(``cp_queens.grading.intake.discover``): by the id in the name (Canvas's user id, Moodle's
participant id, the digits of the worksheet's "Participant 12345"), else by the
name, compared without case, accents or punctuation, in either order (Canvas's
``lovelaceada`` is "Ada Lovelace" and "Lovelace, Ada"), else a file named by an id
(``s1234567.py``, a username). A roster student with no submission is a row
``missing`` ("nothing handed in", 0 points); a submission that matches no line is
its row, flagged "not on the roster".

Examples:
    >>> sorted(name_keys("Ada Lovelace")) == sorted(name_keys("Lovelace, Ada"))
    True
    >>> sorted(name_keys("Ada Lovelace"))
    ['adalovelace', 'lovelaceada']
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cp_queens.grading.points as points
from cp_queens.errors import CpQueensError
from cp_queens.grading.intake.textfile import (
    CONFIG_BYTES,
    TextFileError,
    decode_config,
    read_capped,
)
from cp_queens.grading.results import SizeResult, StudentResult
from cp_queens.grading.rubric import Rubric

#: Columns that identify a student, best first (compared without case, blanks or
#: punctuation): the first present is the roster's id.
ID_COLUMNS = (
    "id",
    "studentid",
    "userid",
    "sisuserid",
    "idnumber",
    "identifier",
    "username",
    "sisloginid",
    "emailaddress",
    "email",
)

#: Columns that name a student; else "first name" and "last name" (or "surname") together.
NAME_COLUMNS = ("name", "student", "fullname", "studentname")

MISSING = "missing"
NOT_ON_ROSTER = "not on the roster"


class RosterError(CpQueensError):
    """A roster that cannot be read, or has no id or name column, or a line without one."""


@dataclass(slots=True)
class RosterStudent:
    """One line of the roster: its id (the first id column), name, every column as given."""

    id: str
    name: str
    columns: dict[str, str] = field(default_factory=dict)
    line: int = 0

    def ids(self) -> set[str]:
        """Every id the student is known by here, as compared: each id column's value, and
        the number of a Moodle worksheet's "Participant 12345"."""
        found = set()
        for header, value in self.columns.items():
            if _key(header) in ID_COLUMNS and value.strip():
                found.add(value.strip().casefold())
                number = re.fullmatch(r"participant\s*(\d+)", value.strip(), re.IGNORECASE)
                if number is not None:
                    found.add(number[1])
        return found


@dataclass(slots=True)
class Roster:
    """The students in the file's order, its header as given, and which column is the id."""

    students: list[RosterStudent]
    header: list[str]
    id_column: str
    source: str = ""


def read_roster(path: str | Path) -> Roster:
    """The roster at ``path`` (CSV with a header), checked: an id and a name on each line,
    no id twice; one line naming the file and line for anything else."""
    where = str(path)
    try:
        text = decode_config(read_capped(path, CONFIG_BYTES, "roster file"), where)
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except TextFileError as error:
        raise RosterError(str(error)) from None
    except csv.Error as error:
        raise RosterError(f"{where}: cannot read the roster: {error}") from None
    if not rows:
        raise RosterError(f"{where}: an empty roster (expected a header: id,name)")
    header = [cell.strip() for cell in rows[0]]
    keys = [_key(cell) for cell in header]
    id_at = next((keys.index(k) for k in ID_COLUMNS if k in keys), None)
    name_at = next((keys.index(k) for k in NAME_COLUMNS if k in keys), None)
    first_at = next((keys.index(k) for k in ("firstname", "givenname") if k in keys), None)
    last_at = next(
        (keys.index(k) for k in ("lastname", "surname", "familyname") if k in keys), None
    )
    if id_at is None or (name_at is None and (first_at is None or last_at is None)):
        raise RosterError(
            f"{where}: line 1: the header needs an id column (id, ID number, SIS User ID, "
            "Identifier, Username, Email address...) and a name column (name, Student, Full "
            "name, or First name and Last name)"
        )
    students: list[RosterStudent] = []
    seen: dict[str, int] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = [*row, *[""] * (len(header) - len(row))]
        if name_at is not None:
            name = cells[name_at].strip()
        else:
            assert first_at is not None and last_at is not None
            name = f"{cells[first_at].strip()} {cells[last_at].strip()}".strip()
        ident = cells[id_at].strip()
        if not ident and name.casefold() == "points possible":
            continue  # Canvas's export: the second line holds each assignment's maximum
        if not ident or not name:
            what = header[id_at] if not ident else "name"
            raise RosterError(f"{where}: line {line}: no {what}")
        if ident.casefold() in seen:
            raise RosterError(
                f"{where}: line {line}: {ident} is on the roster twice "
                f"(line {seen[ident.casefold()]})"
            )
        seen[ident.casefold()] = line
        students.append(RosterStudent(ident, name, dict(zip(header, cells, strict=False)), line))
    if not students:
        raise RosterError(f"{where}: no student on the roster")
    return Roster(students, header, header[id_at], where)


def name_keys(name: str) -> set[str]:
    """A name as it may appear in a download: its letters and digits (no case, accents or
    punctuation) in the given order, last word first, and first word last."""
    tokens = _tokens(name)
    if not tokens:
        return set()
    return {"".join(tokens), "".join(tokens[-1:] + tokens[:-1]), "".join(tokens[1:] + tokens[:1])}


def place(results: Sequence[StudentResult], roster: Roster, rubric: Rubric) -> list[StudentResult]:
    """The class by the roster: one row per roster student in its order (their
    submission's, or ``missing``), then each submission that matched no line, flagged."""
    by_id: dict[str, list[RosterStudent]] = {}
    by_name: dict[str, list[RosterStudent]] = {}
    for student in roster.students:
        for ident in student.ids():
            by_id.setdefault(ident, []).append(student)
        for key in name_keys(student.name):
            by_name.setdefault(key, []).append(student)
    taken: dict[int, StudentResult] = {}
    unmatched: list[StudentResult] = []
    for result in results:
        matched = _match(result, by_id, by_name)
        if matched is None or id(matched) in taken:
            if matched is not None:
                result.notes.insert(
                    0,
                    f"{NOT_ON_ROSTER}: {matched.name} ({matched.id}) matched another "
                    "submission first",
                )
            result.status = f"{result.status}, {NOT_ON_ROSTER}"
            unmatched.append(result)
            continue
        taken[id(matched)] = result
        result.student, result.student_id = matched.name, matched.id
    sizes = [size.n for size in results[0].sizes] if results else []
    placed = []
    for student in roster.students:
        found = taken.get(id(student))
        placed.append(found if found is not None else missing(student, sizes, rubric))
    return placed + unmatched


def missing(student: RosterStudent, sizes: Sequence[int], rubric: Rubric) -> StudentResult:
    """The row of a roster student who handed nothing in: every size 0, status ``missing``."""
    result = StudentResult(
        student.name, Path(""), task=rubric.task, isolation=rubric.limits.isolation
    )
    result.status, result.student_id = MISSING, student.id
    result.notes.append("nothing handed in")
    for n in sizes:
        worth = points.exact(rubric.points_for(n))
        result.sizes.append(
            SizeResult(n, "not run", points.exact(0), worth, None, "nothing handed in")
        )
    return result


def _match(
    result: StudentResult,
    by_id: dict[str, list[RosterStudent]],
    by_name: dict[str, list[RosterStudent]],
) -> RosterStudent | None:
    """The roster line of a submission: by its LMS id, else its name, else a file named by an
    id; None when nothing matches or the name fits two lines."""
    if result.student_id:
        found = by_id.get(result.student_id.casefold(), [])
        if len(found) == 1:
            return found[0]
    for key in name_keys(result.student):
        found = by_name.get(key, [])
        if len(found) == 1:
            return found[0]
    found = by_id.get(result.student.strip().casefold(), [])
    return found[0] if len(found) == 1 else None


def _tokens(text: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch)).casefold()
    return re.findall(r"[^\W_]+", plain)


def _key(header: str) -> str:
    return "".join(_tokens(header))
