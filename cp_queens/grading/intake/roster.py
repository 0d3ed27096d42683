"""The class list: every student on it gets a row, handed in or not (``--roster FILE``).

A roster is a CSV with a header: the students' keys and names, and whatever else
the LMS put in it. It may be the LMS's own export, read as it comes:

* Canvas's gradebook export (``Student, ID, SIS User ID, SIS Login ID, Section``,
  then ``Title (id)`` per assignment; its ``Points Possible`` line and its
  ``Manual Posting`` / ``Muted`` line are skipped): ``ID`` is Canvas's user id,
  the one its download's names carry.
* Moodle's grading worksheet (``Identifier, Full name, Email address, ...,
  Grade, ..., Last modified (grade), Feedback comments``): ``Identifier``'s
  "Participant 1234501" is the participant id its download's folders carry.
* Moodle's gradebook export or participants list (``First name, Last name, ID
  number, Email address``), or a registrar's list (``Student number``,
  ``Matrikelnummer``, ``SIS User ID``, ``Username``, ``Email``...).

Each line's keys are kept by kind (``KINDS``); a line whose main id is blank is
known by another key (its email), with a warning. Two rosters (``--roster A
--roster B``) are one class: a line of B joins the student of A it shares a key
with (Moodle's worksheet and gradebook export share the email), so a download's
participant id reaches the gradebook's ID number.

Submissions are matched to students by the LMS's key from the download's name
(``cp_queens.grading.intake.lms``) where the roster has that kind of key; else by the
name, compared without case, accents or punctuation in any split of given and
family names (``lms.name_keys``); else a file named by a key (``s1234567.py``).
A name that fits two students is given to neither: the submission is flagged
and each student it could be is ``ambiguous`` (no mark for the LMS), never
``missing``. A roster student no submission can be is ``missing`` ("nothing
handed in", 0 points); a submission that matches no line is its row, flagged
"not on the roster".

Examples:
    >>> sorted(name_keys("Ada Lovelace")) == sorted(name_keys("Lovelace, Ada"))
    True
    >>> "fernandezgarciamarialucia" in name_keys("María Lucía Fernández García")
    True
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cp_queens.grading.intake.lms as lms
import cp_queens.grading.points as points
from cp_queens.errors import CpQueensError
from cp_queens.grading.intake.discover import tell_apart
from cp_queens.grading.intake.lms import name_keys, name_tokens
from cp_queens.grading.intake.textfile import (
    CONFIG_BYTES,
    TextFileError,
    decode_config,
    read_capped,
)
from cp_queens.grading.results import SizeResult, StudentResult
from cp_queens.grading.rubric import Rubric

#: The kinds of key a roster column holds, by its header (compared without case, blanks
#: or punctuation); ``id`` is Canvas's user id in Canvas's export, a plain id elsewhere.
HEADERS = {
    "identifier": lms.PARTICIPANT,
    "idnumber": "number",
    "studentnumber": "number",
    "studentno": "number",
    "studentid": "number",
    "sisuserid": "number",
    "matrikelnummer": "number",
    "matrnr": "number",
    "matriculationnumber": "number",
    "registrationnumber": "number",
    "enrolmentnumber": "number",
    "enrollmentnumber": "number",
    "userid": "userid",
    "id": "id",
    "username": "username",
    "sisloginid": "login",
    "emailaddress": "email",
    "email": "email",
    "mail": "email",
}

#: A line's main id: its first key of these kinds.
KINDS = (lms.CANVAS_USER, lms.PARTICIPANT, "number", "userid", "id", "username", "login", "email")

#: What each kind is called on the command line's messages.
SAID = {
    lms.CANVAS_USER: "ID",
    lms.PARTICIPANT: "Identifier",
    "number": "ID number",
    "userid": "user id",
    "id": "id",
    "username": "username",
    "login": "SIS Login ID",
    "email": "email",
}

#: Columns that name a student; else first and last names together.
NAME_COLUMNS = ("name", "student", "fullname", "studentname")
FIRST_NAMES = ("firstname", "givenname", "firstnames", "vorname")
LAST_NAMES = ("lastname", "surname", "familyname", "nachname")

#: Which roster keys a download's key is compared with (the others are no evidence).
DOWNLOAD_KINDS = {
    lms.PARTICIPANT: (lms.PARTICIPANT, "id"),
    lms.CANVAS_USER: (lms.CANVAS_USER, "userid", "id"),
    lms.CANVAS_ANON: (),
}

MISSING = "missing"
AMBIGUOUS = "ambiguous"
NOT_ON_ROSTER = "not on the roster"

#: Canvas's lines that are no student: the maxima, and the posting policy per column.
_POINTS_POSSIBLE = re.compile(r"^\s*points possible\s*$", re.IGNORECASE)
_POSTING = re.compile(r"^\s*(muted|manual posting.*)?\s*$", re.IGNORECASE)


class RosterError(CpQueensError):
    """A roster that cannot be read, has no key or name column, or a line without one."""


@dataclass(frozen=True, slots=True)
class RosterStudent:
    """One student: the main id, the name, every key by kind, each roster file's line
    (its columns as given, by file), and where it was first read. A value: a later
    roster's line joins it in a new one."""

    id: str
    name: str
    columns: Mapping[str, str] = field(default_factory=dict)
    line: int = 0
    keys: Mapping[str, str] = field(default_factory=dict)
    lines: Mapping[int, Mapping[str, str]] = field(default_factory=dict)


@dataclass(slots=True)
class RosterFile:
    """One ``--roster`` file: where, its header as given, its LMS shape (``canvas``,
    ``moodle-worksheet``, ``moodle-gradebook``, ``plain``) and its students in order."""

    source: str
    header: list[str]
    kind: str
    students: list[RosterStudent]
    points_possible: dict[str, str] = field(default_factory=dict)  # Canvas's maxima, by column


@dataclass(slots=True)
class Roster:
    """The class: the students in the first file's order (then any only in a later
    file), the first file's header and main id column, every file, the warnings."""

    students: list[RosterStudent]
    header: list[str]
    id_column: str
    source: str = ""
    files: list[RosterFile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def read_roster(path: str | Path) -> Roster:
    """The roster at ``path``; one line naming the file and line for anything wrong."""
    return read_rosters([path])


def read_rosters(paths: Sequence[str | Path]) -> Roster:
    """The class from one or more roster files: each line of a later file joins the
    student it shares a key with (an email, an ID number...), or is a new student."""
    warnings: list[str] = []
    files = [_read_file(path, number, warnings) for number, path in enumerate(paths)]
    students = list(files[0].students)
    for roster in files[1:]:
        for student in roster.students:
            _join(students, student, roster.source)
    first = files[0]
    main = next((k for k in KINDS if any(k in s.keys for s in first.students)), "id")
    id_column = next(
        (h for h in first.header if HEADERS.get(_key(h)) == main or _canvas_id(first, h, main)),
        first.header[0],
    )
    return Roster(students, first.header, id_column, first.source, files, warnings)


def _canvas_id(roster: RosterFile, header: str, kind: str) -> bool:
    return roster.kind == "canvas" and kind == lms.CANVAS_USER and _key(header) == "id"


def _read_file(path: str | Path, number: int, warnings: list[str]) -> RosterFile:
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
    kind = _shape(keys)
    kinds = {
        at: (lms.CANVAS_USER if kind == "canvas" and key == "id" else HEADERS[key])
        for at, key in enumerate(keys)
        if key in HEADERS
    }
    name_at = next((keys.index(k) for k in NAME_COLUMNS if k in keys), None)
    first_at = next((keys.index(k) for k in FIRST_NAMES if k in keys), None)
    last_at = next((keys.index(k) for k in LAST_NAMES if k in keys), None)
    if not kinds or (name_at is None and (first_at is None or last_at is None)):
        raise RosterError(
            f"{where}: line 1: the header needs an id column (ID, ID number, Student number, "
            "SIS User ID, Identifier, Username, Email address...) and a name column (name, "
            "Student, Full name, or First name and Last name)"
        )
    main_kind = next(k for k in KINDS if k in kinds.values())
    students: list[RosterStudent] = []
    seen: dict[tuple[str, str], int] = {}
    maxima: dict[str, str] = {}
    for line, row in enumerate(rows[1:], start=2):
        cells = [*row, *[""] * (len(header) - len(row))]
        if _POINTS_POSSIBLE.match(cells[0]):
            maxima = {h: c.strip() for h, c in zip(header, cells, strict=False) if c.strip()}
            continue
        if not any(cell.strip() for cell in row) or _not_a_student(cells):
            continue
        if name_at is not None:
            name = cells[name_at].strip()
        else:
            assert first_at is not None and last_at is not None
            name = f"{cells[first_at].strip()} {cells[last_at].strip()}".strip()
        found = {}
        for at, key_kind in kinds.items():
            value = cells[at].strip()
            if key_kind == lms.PARTICIPANT:
                digits = re.search(r"(\d+)\s*$", value)
                value = digits[1] if digits else ""
            if value and key_kind not in found:
                found[key_kind] = value
        if not found:
            raise RosterError(f"{where}: line {line}: no {_said(header, kinds, main_kind)}")
        if not name:
            raise RosterError(f"{where}: line {line}: no name")
        main = next(k for k in KINDS if k in found)
        if main != main_kind:
            warnings.append(
                f"{where}: line {line}: {name}: no {_said(header, kinds, main_kind)}; known "
                f"by {_said(header, kinds, main)} {found[main]}"
            )
        for key_kind, value in found.items():
            if (key_kind, value.casefold()) in seen:
                raise RosterError(
                    f"{where}: line {line}: {value} is on the roster twice "
                    f"(line {seen[key_kind, value.casefold()]})"
                )
            seen[key_kind, value.casefold()] = line
        columns = dict(zip(header, cells, strict=False))
        students.append(RosterStudent(found[main], name, columns, line, found, {number: columns}))
    if not students:
        raise RosterError(f"{where}: no student on the roster")
    return RosterFile(where, header, kind, students, maxima)


def _shape(keys: list[str]) -> str:
    """Which LMS made the file, by its header."""
    if keys[:2] in (["student", "id"], ["lastname", "firstname"]) and "section" in keys:
        return "canvas"
    if {"identifier", "grade", "lastmodifiedgrade"} <= set(keys):
        return "moodle-worksheet"
    if ("idnumber" in keys or "emailaddress" in keys) and "firstname" in keys:
        return "moodle-gradebook"
    return "plain"


def _not_a_student(cells: list[str]) -> bool:
    """Canvas's line of posting policies (``Manual Posting``, ``Muted`` and blanks)."""
    return all(_POSTING.match(cell) for cell in cells)


def _said(header: list[str], kinds: dict[int, str], kind: str) -> str:
    return next((header[at] for at, k in kinds.items() if k == kind), SAID.get(kind, kind))


def _join(students: list[RosterStudent], line: RosterStudent, source: str) -> None:
    """A later roster's line onto the student it shares a key with (or a new one)."""
    shared = [
        student
        for student in students
        if any(
            kind in student.keys and student.keys[kind].casefold() == value.casefold()
            for kind, value in line.keys.items()
        )
    ]
    if len(shared) > 1:
        names = "; ".join(f"{s.name} ({s.id})" for s in shared)
        raise RosterError(f"{source}: line {line.line}: {line.name} matches two students: {names}")
    if not shared:
        students.append(line)
        return
    student = shared[0]
    keys = dict(student.keys)
    for kind, value in line.keys.items():
        keys.setdefault(kind, value)
    at = next(index for index, one in enumerate(students) if one is student)
    students[at] = replace(student, keys=keys, lines={**student.lines, **line.lines})


def place(results: Sequence[StudentResult], roster: Roster, rubric: Rubric) -> list[StudentResult]:
    """The class by the roster: one row per roster student in its order (their
    submission's, ``ambiguous`` or ``missing``), then each submission that matched no
    line (or more than one), flagged."""
    by_key: dict[tuple[str, str], list[RosterStudent]] = {}
    by_name: dict[str, list[RosterStudent]] = {}
    for student in roster.students:
        for kind, value in student.keys.items():
            by_key.setdefault((kind, value.strip().casefold()), []).append(student)
        for key in name_keys(student.name):
            by_name.setdefault(key, []).append(student)
    kinds = {kind for kind, _ in by_key}
    taken: dict[int, StudentResult] = {}
    maybe: dict[int, list[str]] = {}
    unmatched: list[StudentResult] = []
    for result in results:
        matched, candidates = _match(result, by_key, by_name, kinds)
        if matched is None or id(matched) in taken:
            said: list[str] = []  # put before the row's own notes
            if len(candidates) > 1:
                listed = "; ".join(f"{s.name} ({s.id})" for s in candidates)
                said.append(
                    f"{AMBIGUOUS}: the name {result.student} fits {len(candidates)} students of "
                    f"the roster: {listed}; given to none (a roster with the LMS's ids, such as "
                    "Moodle's grading worksheet, tells them apart)",
                )
                for student in candidates:
                    maybe.setdefault(id(student), []).append(result.student)
            if matched is not None:
                said.append(
                    f"{NOT_ON_ROSTER}: {matched.name} ({matched.id}) matched another "
                    "submission first",
                )
            status = f"{result.status}, {NOT_ON_ROSTER}"
            unmatched.append(replace(result, status=status, notes=(*said, *result.notes)))
            continue
        taken[id(matched)] = replace(
            result,
            student=matched.name,
            student_id=matched.id,
            keys={**matched.keys, **result.keys},
        )
    sizes = [size.n for size in results[0].sizes] if results else []
    placed = []
    for student in roster.students:
        found = taken.get(id(student))
        if found is not None:
            placed.append(found)
        elif id(student) in maybe:
            placed.append(ambiguous(student, maybe[id(student)], sizes, rubric))
        else:
            placed.append(missing(student, sizes, rubric))
    return tell_apart(placed + unmatched)


def who(result: StudentResult) -> str:
    """A row as the lecturer reads it in a message: the name and the id (once)."""
    if not result.student_id or result.student.endswith(f"[{result.student_id}]"):
        return result.student
    return f"{result.student} ({result.student_id})"


def missing(student: RosterStudent, sizes: Sequence[int], rubric: Rubric) -> StudentResult:
    """The row of a roster student who handed nothing in: every size 0, status ``missing``."""
    return _not_handed_in(student, sizes, rubric, MISSING, "nothing handed in")


def ambiguous(
    student: RosterStudent, names: Sequence[str], sizes: Sequence[int], rubric: Rubric
) -> StudentResult:
    """The row of a roster student a submission may be of, but a namesake's as well: no
    mark (status ``ambiguous``), the submissions named."""
    said = f"a submission named {', '.join(names)} may be theirs or a namesake's: not matched"
    return _not_handed_in(student, sizes, rubric, AMBIGUOUS, said)


def _not_handed_in(
    student: RosterStudent, sizes: Sequence[int], rubric: Rubric, status: str, said: str
) -> StudentResult:
    not_run = (
        SizeResult(n, "not run", points.exact(0), points.exact(rubric.points_for(n)), None, said)
        for n in sizes
    )
    return StudentResult(
        student.name,
        Path(""),
        sizes=tuple(not_run),
        notes=(said,),
        task=rubric.task,
        isolation=rubric.limits.isolation,
        status=status,
        student_id=student.id,
        keys=dict(student.keys),
    )


def _match(
    result: StudentResult,
    by_key: dict[tuple[str, str], list[RosterStudent]],
    by_name: dict[str, list[RosterStudent]],
    kinds: set[str],
) -> tuple[RosterStudent | None, list[RosterStudent]]:
    """The roster line of a submission, and the students its name fits when that is not
    one: by the download's key where the roster has that kind (then nothing else counts),
    else by its name, else a file named by a key."""
    for kind, value in result.keys.items():
        compared = [k for k in DOWNLOAD_KINDS.get(kind, ()) if k in kinds and k != "id"]
        if compared:
            found = _unique(by_key.get((k, value.casefold()), []) for k in compared)
            return (found[0] if len(found) == 1 else None), found
    if result.student_id and not result.keys:
        found = _unique(by_key.get((k, result.student_id.casefold()), []) for k in kinds)
        if len(found) == 1:
            return found[0], found
    plain = "".join(name_tokens(result.student))
    for key in (result.keys.get(lms.PARTICIPANT), result.keys.get(lms.CANVAS_USER)):
        if key:  # the roster's plain "id" column may hold the LMS's ids
            found = by_key.get(("id", key.casefold()), [])
            if len(found) == 1:
                return found[0], found
    found = _unique([by_name.get(plain, [])]) if plain else []
    if found:
        return (found[0] if len(found) == 1 else None), found
    found = _unique(by_key.get((k, result.student.strip().casefold()), []) for k in kinds)
    return (found[0] if len(found) == 1 else None), found


def _unique(groups: Iterable[list[RosterStudent]]) -> list[RosterStudent]:
    """The students of ``groups``, each once, in order."""
    seen: dict[int, RosterStudent] = {}
    for group in groups:
        for student in group:
            seen.setdefault(id(student), student)
    return list(seen.values())


def _key(header: str) -> str:
    return "".join(name_tokens(header))
