"""A lecturer's decisions: ``--overrides FILE`` sets or corrects a student's points.

A rubric marks every submission by the same rules, and now and then a
lecturer decides otherwise: a right model that counts columns from 1 earns
little by the rules and 12 of 13 by the lecturer's judgement. The decision is
recorded, not typed over the CSV: a file ``student,points,reason``, read
here, checked, and applied to the results, so that ``marks.csv`` shows the
mark, the computed points beside it and the reason, and the student's
feedback says the same.

A decision is given in one of three ways in the ``points`` column:

* ``12``: the points, whatever the rubric gives;
* ``12/13``: the points *of the maximum they were given against*: when the
  rubric changes (13 points become 21), the file is refused instead of
  silently keeping 12 of what is now 21;
* ``-3`` or ``+1.5``: a correction of the computed points (three off for a
  copied helper, whatever the rubric gives), which follows a rubric change.

Whatever the way, the mark must land within 0..the maximum: a decision that
does not (an absolute one above a new maximum, a correction below zero) is one
line naming the file, the student and why, before the class is graded where
it can be, else before anything is written.

Examples:
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "overrides.csv"
    >>> _ = path.write_text("student,points,reason\\neve,12/13,right model with 1-based columns\\n")
    >>> read_overrides(path)["eve"].describe()
    '12 of 13'
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from cp_queens.errors import CpQueensError
from cp_queens.grading.intake.lms import name_keys, name_tokens
from cp_queens.grading.intake.textfile import (
    CONFIG_BYTES,
    TextFileError,
    decode_config,
    read_capped,
)
from cp_queens.grading.points import exact, shown
from cp_queens.grading.results import StudentResult

if TYPE_CHECKING:
    from cp_queens.grading.rubric import Rubric

COLUMNS = ("student", "points", "reason")


class OverrideError(CpQueensError):
    """An overrides file that cannot be read, or names a student or points we cannot use."""


class Override(NamedTuple):
    """The lecturer's decision for one student, and why: ``points`` (``correction``: added
    to the computed points; else the mark itself, given of ``of`` points when said)."""

    points: Fraction
    reason: str
    correction: bool = False
    of: Fraction | None = None  # the maximum an absolute decision was given against

    def describe(self) -> str:
        """The decision as the file says it: ``12``, ``12 of 13``, ``-3``."""
        if self.correction:
            return ("+" if self.points >= 0 else "") + shown(self.points)
        if self.of is not None:
            return f"{shown(self.points)} of {shown(self.of)}"
        return shown(self.points)

    def mark(self, computed: Fraction, most: Fraction) -> Fraction:
        """The points this decision gives a student the rubric gave ``computed`` of
        ``most``; ``OverrideProblem`` when it cannot stand against this rubric."""
        if self.of is not None and self.of != most:
            raise OverrideProblem(
                f"{self.describe()} points was decided against a maximum of {shown(self.of)}; "
                f"this rubric gives {shown(most)}: decide again (or give a correction, "
                "e.g. -3)"
            )
        value = computed + self.points if self.correction else self.points
        if value > most:
            said = f" ({shown(computed)} {self.describe()})" if self.correction else ""
            raise OverrideProblem(
                f"{shown(value)} points{said} is more than the maximum {shown(most)}"
            )
        if value < 0:
            raise OverrideProblem(
                f"{self.describe()} takes the computed {shown(computed)} points below 0"
            )
        return value


class OverrideProblem(ValueError):
    """A decision that cannot stand against this rubric (the message says why)."""


def read_overrides(path: str | Path) -> dict[str, Override]:
    """The decisions in the CSV at ``path`` (header ``student,points,reason``), by student."""
    where = Path(path)
    try:  # capped, and as spreadsheets save it: Excel's "CSV UTF-8" starts with a BOM
        text = decode_config(read_capped(where, CONFIG_BYTES, "overrides file"), str(where))
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except TextFileError as error:
        raise OverrideError(str(error)) from None
    except csv.Error as error:
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
        decision = _decision(text, reason)
        if decision is None:
            raise OverrideError(
                f"{where}: line {line}: points must be a number >= 0 (12), of a maximum "
                f"(12/13), or a correction (-3, +1.5), got {text!r}"
            )
        if not reason:
            raise OverrideError(f"{where}: line {line}: {student}: an override needs a reason")
        if student in found:
            raise OverrideError(f"{where}: line {line}: {student} is overridden twice")
        found[student] = decision
    return found


def _decision(text: str, reason: str) -> Override | None:
    """The ``points`` cell read: ``12``, ``12/13``, ``-3``, ``+1.5``; None if it is none."""
    correction = text[:1] in "+-" and text[1:2] not in ("", "+", "-")
    main, slash, of = text.partition("/")
    value = _number(main[1:] if correction else main)
    most = _number(of) if slash else None
    if value is None or (slash and (most is None or most <= 0 or correction)):
        return None
    if correction:
        return Override(-value if text[0] == "-" else value, reason, correction=True)
    return Override(value, reason, of=most)


def _number(text: str) -> Fraction | None:
    """A finite number >= 0 as written (``12.5`` is 25/2), else None."""
    text = text.strip()
    if not text or text[0] in "+-":
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    if not math.isfinite(value) or value < 0:
        return None
    return exact(value)


#: Keys of a row that say whose it is (the others name files: cp_queens.grading.intake.lms).
ID_KEYS = (
    "participant",
    "canvas_user",
    "canvas_anon",
    "number",
    "userid",
    "id",
    "username",
    "login",
    "email",
)


#: What ``tell_apart`` adds to the second of two namesakes (`` [id]``, `` (2)``).
_TOLD_APART = re.compile(r" (\[[^\]]*\]|\(\d+\))$")


def rows_for(student: str, rows: Sequence[StudentResult]) -> list[StudentResult]:
    """The rows an overrides file's ``student`` names: those with that id (the roster's, or
    any of the LMS's keys) if any, else those with that name (compared as the roster
    compares names, the download's spelling included). More than one: ambiguous."""
    wanted = student.strip().casefold()
    by_id = [
        row
        for row in rows
        if wanted == row.student_id.strip().casefold()
        or any(wanted == row.keys.get(k, "").strip().casefold() for k in ID_KEYS)
    ]
    if by_id:
        return by_id
    plain = "".join(name_tokens(student))
    return [
        row
        for row in rows
        if any(
            plain and plain in name_keys(name)
            for name in (
                row.student,
                _TOLD_APART.sub("", row.student),
                row.keys.get("moodle_name", ""),
                row.keys.get("canvas_name", "").removesuffix("_LATE"),
            )
        )
    ]


def _whose(student: str, rows: Sequence[StudentResult]) -> StudentResult | str:
    """The one row ``student`` names, or why there is none (every candidate named)."""
    found = rows_for(student, rows)
    if len(found) == 1:
        return found[0]
    if not found:
        return "no such student in this class"
    from cp_queens.grading.intake.roster import who

    listed = "; ".join(who(row) for row in found)
    return f"the name fits {len(found)} students: {listed}; give the id instead"


def check_overrides(
    overrides: dict[str, Override],
    rows: Sequence[StudentResult],
    most: Fraction,
    source: str = "overrides",
) -> None:
    """Before a class runs: every student named is exactly one row of it (by id, else by
    a name no other student has), and every decision that can be judged without the
    marks (an absolute one, a correction larger than the maximum) fits this rubric's
    maximum ``most``."""
    for student, override in overrides.items():
        whose = _whose(student, rows)
        if isinstance(whose, str):
            raise OverrideError(f"{source}: {student}: {whose}")
        try:
            if override.correction:
                override.mark(max(Fraction(0), -override.points), most)
            else:
                override.mark(Fraction(0), most)
        except OverrideProblem as why:
            raise OverrideError(f"{source}: {student}: {why}") from None


def read_for_class(
    path: str | Path, folder: str | Path, rubric: Rubric, sizes: Sequence[int], roster: Any = None
) -> dict[str, Override]:
    """The lecturer's decisions for the class in ``folder``, read and checked before the
    class runs: a student named wrongly (in neither the folder nor the ``roster``), a name
    two students share, or a decision that cannot fit this rubric's maximum for ``sizes``
    is told now, not after every submission has run."""
    from cp_queens.grading.intake.discover import find_submissions
    from cp_queens.grading.intake.roster import place
    from cp_queens.grading.points import total

    overrides = read_overrides(path)
    if overrides:
        handed_in = find_submissions(folder, rubric.limits.submission_kb << 10)
        rows = [
            StudentResult(s.student, Path(s.path), student_id=s.student_id, keys=dict(s.keys))
            for s in handed_in
        ]
        if roster is not None:
            rows = place(rows, roster, rubric)
        most = total([rubric.points_for(n) for n in sizes])
        check_overrides(overrides, rows, most, str(path))
    return overrides


def apply_overrides(
    results: Sequence[StudentResult], overrides: dict[str, Override], source: str = "overrides"
) -> tuple[list[StudentResult], list[str]]:
    """The rows with each overridden student's mark (new rows: the rows given are left
    as they are); and what could not be applied, one line each.

    A decision that cannot stand against the marks (a correction taking a student below 0
    or above the maximum, a student no longer in the class, a name two students share) is
    not applied, and never costs the class its marks: the row keeps the computed mark, its
    reason says the decision was not applied and why (``override_refused``), and the line
    returned goes to the lecturer. Decisions that can be judged before the run were
    checked then (``read_for_class``): a typo must not give a mark to nobody, or 120 of 13.
    """
    rows = list(results)
    refused: list[str] = []
    for student, override in overrides.items():
        result = _whose(student, rows)
        if isinstance(result, str):
            refused.append(f"{source}: {student}: {result}: not applied")
            continue
        at = next(index for index, row in enumerate(rows) if row is result)
        try:
            mark = override.mark(result.computed_points, result.max_points)
        except OverrideProblem as why:
            said = f"{override.describe()} not applied: {why}"
            rows[at] = replace(result, override_refused=said)
            refused.append(f"{source}: {student}: {said}")
            continue
        rows[at] = replace(
            result,
            override=mark,
            override_reason=override.reason,
            override_given=override.describe(),
        )
    return rows, refused
