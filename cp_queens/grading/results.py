"""The rows of a grading run: one ``StudentResult`` per student, one ``SizeResult`` per
board size, and ``GradeError``, the grader's one-line refusal.

They live apart from the runner so that every stage (intake, the tasks' causes, marking,
the roster, overrides, the export) can name them without importing the runner: the rows
are what the stages hand each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Protocol

import cp_queens.grading.points as points
from cp_queens.errors import CpQueensError
from cp_queens.grading.points import Number


class Row(Protocol):
    """What every task's judged row of one size offers the stages after the judge
    (``cp_queens.grading.tasks``: each task has its own row type). A frozen dataclass: a
    stage that changes a row makes a new one (``dataclasses.replace``)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def n(self) -> int: ...

    @property
    def error(self) -> str | None: ...  # model(n) raised, hit a limit, or returned nothing usable

    @property
    def came_back(self) -> str: ...  # what came back, shown, when it was not an answer at all

    @property
    def expected(self) -> int: ...  # the feedback's reference figure (solutions, minimum)

    @property
    def ok(self) -> bool: ...

    def verdict(self) -> str: ...


class GradeError(CpQueensError):
    """A folder with nothing to grade, a notebook that is not one, sizes out of range."""


@dataclass(frozen=True, slots=True)
class SizeResult:
    """One board size of one submission: the check (None if it never ran), status, points."""

    n: int
    status: str
    points: Number  # exact (a Fraction) from the judge; cp_queens.grading.points
    max_points: Number
    row: Row | None = None  # the task's judged row; None: never ran
    problem: str | None = None  # a limit, a crash, an exception: the reason in words
    cpu_seconds: float | None = None  # CPU of the whole tree while model(n) ran; None: not run
    solver: Mapping[str, Any] | None = None  # CP-SAT's parameters seen as it solved (the harness)


@dataclass(frozen=True, slots=True)
class StudentResult:
    """A submission graded: points per size, the sentences of its feedback."""

    student: str
    path: Path
    sizes: tuple[SizeResult, ...] = ()
    notes: tuple[str, ...] = ()  # about the run as a whole
    isolation: str = "bwrap"  # how it ran: "bwrap" (a sandbox) or "none"
    output: str = ""
    output_bytes: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    task: str = "solutions"
    override: Number | None = None  # the lecturer's decision (``--overrides``), if any
    override_reason: str = ""
    # "graded"; "not graded" (not read: its reason is the first note), "conflict" (two
    # submissions of one student), "missing" (on the roster, nothing handed in); ", not on
    # the roster" is added to a submission that matches no line of the roster.
    status: str = "graded"
    student_id: str = ""  # the roster's id (or the LMS's, from the download's names)
    keys: Mapping[str, str] = field(default_factory=dict)  # the LMS's keys (intake.lms, roster)
    entries: tuple[str, ...] = ()  # the class folder's names behind it
    override_given: str = ""  # the decision as written: "12", "12 of 13", "-3"
    override_refused: str = ""  # a decision that could not stand, and why (not applied)
    instance: tuple[str, ...] = ()  # the student's own boards (--variant)
    cpu_limit: float = 0.0  # the CPU seconds the run was allowed (per solver thread)
    peak_memory: int = 0  # bytes, the largest resident memory of its tree seen
    stopped: str | None = None  # the limit the grader stopped it at (Outcome.stopped's value)
    reruns: tuple[str, ...] = ()  # borderline verdicts measured again
    flags: tuple[str, ...] = ()  # for the lecturer only (a copied key)
    nearest: str = ""  # the most similar submission of the class and how similar ("bob 0.93")

    @property
    def computed_points(self) -> Fraction:
        """The points the rubric gives, size by size, before any override: exact, never
        rounded (``cp_queens.grading.points.shown`` rounds for the eye)."""
        return points.total([size.points for size in self.sizes])

    @property
    def points(self) -> Fraction:
        """The mark: the lecturer's override where there is one, else the computed points."""
        if self.override is not None:
            return points.exact(self.override)
        return self.computed_points

    @property
    def full_marks(self) -> bool:
        """Full marks, what ``cp-queens grade FILE`` exits 0 for: every size right (nothing
        missing, repeated or wrong anywhere) and every point earned; or a lecturer's
        override of the maximum."""
        if not self.sizes or self.points < self.max_points:
            return False
        return self.override is not None or all(size.status == "ok" for size in self.sizes)

    @property
    def max_points(self) -> Fraction:
        return points.total([size.max_points for size in self.sizes])

    def statuses(self) -> list[str]:
        return [size.status for size in self.sizes]
