"""Grade a folder of submissions: each ``model(n)`` run apart, judged against the reference.

A submission is a Python file (or a notebook, whose code cells are read as
one file) defining ``model(n)``, which returns or yields every solution of
the ``n``-queens problem (or, for the ``dominate`` task, a set of queens that
dominates the board; ``cp_queens.grading.tasks``). Each one runs in a sandbox
of its own (``cp_queens.grading.sandbox``: namespaces, limits on its whole
process tree); what it returned comes back as data and is judged here, in the
grader's process, by the same code as ``check_model`` (counts, first missing /
invalid / duplicate board, and the pattern behind them). The rubric
(``cp_queens.grading.rubric``) turns that into points; a hostile or broken
submission costs only its own: a file too large, a notebook that is not one,
a link instead of a file, are that student's row with the reason. One file is
graded by the same path as a class (``grade_file``): a student's own check is
the grader.

Examples:
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "ada.py").write_text("def model(n):\\n    return [[0]] if n == 1 else []\\n")
    >>> [(r.student, r.points, r.max_points, r.statuses()) for r in grade(folder, [1, 2, 4])]
    [('ada', Fraction(2, 1), Fraction(4, 1), ['ok', 'ok', '2 missing'])]
    >>> [(r.student, str(r.points), r.full_marks) for r in grade(folder, [1])]
    [('ada', '1', True)]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cp_queens.grading.marking.written as written
import cp_queens.grading.sandbox as sandbox
import cp_queens.grading.tasks as tasks
import cp_queens.grading.tasks.variants as variants
from cp_queens.grading.intake.discover import (
    find_submissions,
    is_submission_name,
    with_siblings,
)
from cp_queens.grading.intake.roster import NOT_ON_ROSTER, Roster, place, read_rosters
from cp_queens.grading.marking import export as marking_export
from cp_queens.grading.marking.marks import feedback, write_feedback, write_marks
from cp_queens.grading.marking.overrides import apply_overrides, read_for_class
from cp_queens.grading.marking.uploads import beside, feedback_zip
from cp_queens.grading.results import GradeError, StudentResult
from cp_queens.grading.rubric import Rubric
from cp_queens.grading.rubric import load as load_rubric
from cp_queens.grading.run import DEFAULT_JOBS, GradingInterrupted, grade_submissions
from cp_queens.grading.tasks.variants import InstanceFile, Variant
from cp_queens.output import reason
from cp_queens.sizes import UnreadableSize, ranges


def parse_sizes(text: str, task: str = "solutions") -> list[int]:
    """The board sizes to grade from ``"1..9"``, ``"8"`` or ``"4,6,8"`` (ranges
    inclusive), sorted, each from 1 to the task's largest (``LARGEST``): the grader's own
    reading, with its own bounds, not a comparison's.

    Examples:
        >>> parse_sizes("4..6, 9")
        [4, 5, 6, 9]
        >>> parse_sizes("1..20")
        Traceback (most recent call last):
        ...
        cp_queens.grading.results.GradeError: board size 20: the grader takes 1..12 for task solutions
    """  # noqa: E501
    largest = tasks.get(task).largest
    sizes: set[int] = set()
    try:
        parts = ranges(text)  # the one grammar of every --n (cp_queens.sizes)
    except UnreadableSize as error:
        part = error.args[0]
        raise GradeError(
            f"cannot read {_short(part)} in {_short(text)} (expected e.g. 1..9 or 4,6,8)"
        ) from None
    for part, low, high in parts:
        if high < low:
            raise GradeError(f"{_short(part)} is an empty range (the end is below the start)")
        for n in (low, high):
            if not 1 <= n <= largest:
                raise GradeError(f"board size {n}: the grader takes 1..{largest} for task {task}")
        sizes.update(range(low, high + 1))
    return sorted(sizes)


def _short(text: str) -> str:
    """``text`` for a one-line message: quoted, cut after 20 characters."""
    return repr(text) if len(text) <= 24 else f"{text[:20]!r}..."


def check_sizes(sizes: Iterable[int], task: str = "solutions") -> list[int]:
    """The board sizes, sorted, each 1..the task's largest."""
    chosen = sorted(set(sizes))
    largest = tasks.get(task).largest
    if not chosen:
        raise GradeError("no board sizes to grade")
    for n in chosen:
        if not 1 <= n <= largest:
            raise GradeError(f"board size {n}: the grader takes 1..{largest} for task {task}")
    return chosen


def grade(
    folder: str | Path,
    sizes: Iterable[int] = range(1, 10),
    *,
    rubric: Rubric | str | Path | None = None,
    task: str | None = None,
    jobs: int = DEFAULT_JOBS,
    on_done: Callable[[StudentResult], None] | None = None,
    isolation: str | None = None,
    variant: Variant | None = None,
    variant_ids: dict[str, str] | None = None,
    hidden: bool = True,
) -> list[StudentResult]:
    """Grade every submission in ``folder`` for the board ``sizes``; one result per student.

    ``rubric`` is a ``Rubric``, a TOML file, or None for the default; ``task`` replaces
    the rubric's task. ``jobs`` submissions run at a time; ``on_done`` hears of each as
    it finishes. ``isolation`` ("bwrap" or "none") overrides the rubric's; where
    bubblewrap cannot run, grading with it is refused (``sandbox.IsolationError``, one
    line: why, what to do). ``variant``: each student graded on their own instance
    (``cp_queens.grading.tasks.variants``), by their id in ``variant_ids`` (the roster's, by
    submission name), else the LMS's, else the submission's name; with ``hidden``, one
    size more than ``sizes`` is graded (``variants.hidden_size``: the boards handed out
    are ``sizes``, so answers computed elsewhere and pasted in do not pass).
    """
    rubric = _rubric(rubric, task, isolation)
    chosen = check_sizes(sizes, rubric.task)
    sandbox.check_isolation(rubric.limits.isolation)  # IsolationError: why, what to do
    if variant is not None:
        variants.check_sizes(rubric.task, chosen)
        chosen = variants.with_hidden(rubric.task, chosen) if hidden else chosen
    submissions = find_submissions(folder, rubric.limits.submission_kb << 10)
    if variant_ids:
        submissions = [
            dataclasses.replace(s, student_id=variant_ids.get(s.student, s.student_id))
            for s in submissions
        ]
    return grade_submissions(submissions, chosen, rubric, jobs, on_done, variant)


def grade_file(
    path: str | Path,
    sizes: Iterable[int] = range(1, 10),
    *,
    rubric: Rubric | str | Path | None = None,
    task: str | None = None,
    isolation: str | None = None,
    variant: Variant | InstanceFile | None = None,
    hidden: bool = True,
) -> StudentResult:
    """Grade one submission exactly as ``grade`` grades it in a class: ``cp-queens grade FILE``
    and ``check_model`` give a student the grader's own verdict, not a second opinion.
    ``variant`` a lecturer's seed (the hidden size too, as ``grade``) or a student's
    instance file (``--instance``: its boards, and a note of the size the grader hides)."""
    rubric = _rubric(rubric, task, isolation)
    chosen = check_sizes(sizes, rubric.task)
    if isinstance(variant, Variant) and hidden:
        chosen = variants.with_hidden(rubric.task, chosen)
    where = Path(path)
    if not where.is_file() or not is_submission_name(where.name):
        raise GradeError(f"{where}: not a submission (a .py file or a .ipynb notebook)")
    sandbox.check_isolation(rubric.limits.isolation)
    student = where.name.rstrip().rsplit(".", 1)[0]
    submission = with_siblings(student, where, rubric.limits.submission_kb << 10)
    if variant is not None:
        variants.check_sizes(rubric.task, chosen)
    [result] = grade_submissions([submission], chosen, rubric, 1, None, variant)
    if isinstance(variant, InstanceFile) and variant.hidden:
        unseen = (
            f"the grader also grades n = {', '.join(map(str, variant.hidden))}, a board you "
            "have not seen: your model must solve the board it is given, not only these"
        )
        result = dataclasses.replace(result, notes=(*result.notes, unseen))
    return result


def _rubric(rubric: Rubric | str | Path | None, task: str | None, isolation: str | None) -> Rubric:
    chosen = rubric if isinstance(rubric, Rubric) else load_rubric(rubric)
    if isolation is not None and isolation != chosen.limits.isolation:
        limits = dataclasses.replace(chosen.limits, isolation=isolation)
        chosen = dataclasses.replace(chosen, limits=limits)
    return chosen.for_task(task)


#: Where an interrupted run's rows go when a marks.csv is there already.
PARTIAL_MARKS = "marks.partial.csv"


@dataclass(frozen=True, slots=True)
class Export:
    """The LMS's gradebook file to write (``lms``: ``canvas`` or ``moodle``) at ``path``,
    its grade ``column`` (None: the roster's own, else the rubric's name; see
    ``marking.export.column``), and the feedback upload zip (None: beside the file)."""

    lms: str
    path: str | Path
    column: str | None = None
    feedback_zip: str | Path | None = None


@dataclass(frozen=True, slots=True)
class ClassReport:
    """A class graded: its rows (in the class's order, the roster's students placed), the
    files written, and the lines the lecturer must read (``warnings``: decisions not
    applied, students without a mark; ``notices``: what the export holds). ``interrupted``:
    Ctrl-C or SIGTERM stopped the run; ``results`` are then the rows graded before it
    (``total`` submissions were found) and ``marks`` the file that holds them."""

    results: list[StudentResult]
    rubric: Rubric
    sizes: list[int]
    marks: Path
    feedback: Path
    warnings: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    interrupted: bool = False
    total: int = 0
    kept: Path | None = None  # an interrupted run's untouched marks.csv of an earlier run


def grade_class(
    folder: str | Path,
    sizes: Iterable[int],
    *,
    rubric: Rubric | str | Path | None = None,
    task: str | None = None,
    roster: Roster | str | Path | Sequence[str | Path] | None = None,
    overrides: str | Path | None = None,
    export: Export | None = None,
    variant: Variant | None = None,
    out: str | Path = "grades",
    jobs: int = DEFAULT_JOBS,
    isolation: str | None = None,
    on_start: Callable[[], None] | None = None,
    on_done: Callable[[StudentResult], None] | None = None,
) -> ClassReport:
    """Grade the class in ``folder`` as ``cp-queens grade FOLDER`` does, and write its files.

    Everything that can be checked is checked before any submission runs (the sizes, the
    roster, the overrides against the class, the export's column); then ``on_start`` is
    called, each submission runs (``on_done`` hears of each), the roster's students are
    placed (``missing`` for those who handed in nothing), the lecturer's overrides applied,
    ``out/feedback/`` and ``out/marks.csv`` written (marks last), and the LMS's file and
    upload zip. Interrupted (Ctrl-C, SIGTERM), the rows graded so far are written, never
    over a whole class's marks.csv (``PARTIAL_MARKS`` then), and the report says so.

    Examples:
        >>> import tempfile, pathlib
        >>> folder, out = (pathlib.Path(tempfile.mkdtemp()) for _ in range(2))
        >>> _ = (folder / "ada.py").write_text("def model(n):\\n    return [[0]] if n == 1 else []\\n")
        >>> report = grade_class(folder, [1, 2], out=out)
        >>> [(r.student, str(r.points)) for r in report.results], report.marks.name
        ([('ada', '2')], 'marks.csv')
    """  # noqa: E501
    rubric_file = rubric if isinstance(rubric, str | Path) else None
    rubric = _rubric(rubric, task, isolation)
    chosen = check_sizes(sizes, rubric.task)
    if variant is not None:
        variants.check_sizes(rubric.task, chosen)
    if roster is not None and not isinstance(roster, Roster):
        roster = read_rosters([roster] if isinstance(roster, str | Path) else roster)
    column = ""
    if export is not None:
        if roster is None:
            raise GradeError("an export needs a roster (the gradebook's ids come from it)")
        column = marking_export.column(roster, export.lms, export.column, rubric.name)
    decisions = read_for_class(overrides, folder, rubric, chosen, roster) if overrides else {}
    where = Path(out)
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise GradeError(f"{where}: cannot create the folder: {error.strerror}") from None
    try:
        written.check_folder(where / "feedback")  # never written through a link
    except OSError as error:
        raise GradeError(reason(error)) from None
    if export is not None and roster is not None:
        _check_export(export, where, folder, roster, rubric_file, overrides)
    ids = _roster_ids(folder, rubric, roster) if variant is not None and roster else None
    if on_start is not None:
        on_start()
    source = str(overrides)
    try:
        results = grade(
            folder,
            chosen,
            rubric=rubric,
            jobs=jobs,
            on_done=on_done,
            variant=variant,
            variant_ids=ids,
        )
    except GradingInterrupted as stopped:  # the rows graded before it are kept
        graded, warnings = apply_overrides(stopped.results, decisions, source)
        write_feedback(graded, where / "feedback", rubric, replace=False, problems=warnings)
        kept = where / "marks.csv"  # a whole class's marks are never replaced by some rows
        marks = where / PARTIAL_MARKS if kept.exists() else kept
        write_marks(graded, marks, rubric)
        return ClassReport(
            graded,
            rubric,
            chosen,
            marks,
            where / "feedback",
            warnings,
            interrupted=True,
            total=stopped.total,
            kept=kept if marks != kept else None,
        )
    if roster is not None:
        results = place(results, roster, rubric)
    results, warnings = apply_overrides(results, decisions, source)
    # A feedback file that cannot be written is a warning: the class keeps its marks.
    write_feedback(results, where / "feedback", rubric, problems=warnings)
    write_marks(results, where / "marks.csv", rubric)  # last: whole marks, whole feedback
    (where / PARTIAL_MARKS).unlink(missing_ok=True)  # an interrupted run's rows: superseded
    notices: list[str] = []
    if export is not None and roster is not None:
        warnings += _export(results, roster, export, column, rubric, notices)
    return ClassReport(
        results, rubric, chosen, where / "marks.csv", where / "feedback", warnings, notices
    )


def _check_export(
    export: Export,
    out: Path,
    folder: str | Path,
    roster: Roster,
    rubric: str | Path | None,
    overrides: str | Path | None,
) -> None:
    """The export and its upload zip, checked before any submission runs: never one of the
    files the run reads or writes itself, in a folder that exists and takes a new file."""
    ours: dict[str, str | Path | None] = {
        "the run's marks.csv": out / "marks.csv",
        f"the run's {PARTIAL_MARKS}": out / PARTIAL_MARKS,
        "the rubric": rubric,
        "the overrides": overrides,
        "the class folder": folder,
    }
    ours.update({f"the roster ({file.source})": file.source for file in roster.files})
    written.check_target(export.path, "the export", ours)
    zipped = export.feedback_zip or beside(export.path)
    written.check_target(zipped, "the feedback zip", {**ours, "the export": export.path})


def _export(
    results: list[StudentResult],
    roster: Roster,
    export: Export,
    column: str,
    rubric: Rubric,
    notices: list[str],
) -> list[str]:
    """The gradebook file and the feedback upload zip: its warnings returned, and what it
    holds (who has no mark, who has no feedback file, the counts) added to ``notices``."""
    path = export.path
    done = marking_export.export(results, roster, export.lms, path, column)
    notices += [f"{path}: no mark for {line}" for line in done.blank]
    zipped = export.feedback_zip or beside(path)
    uploaded = feedback_zip(results, export.lms, zipped, lambda row: feedback(row, rubric))
    notices += [f"{zipped}: no feedback file for {line}" for line in uploaded.left_out]
    notices.append(
        f"{path}: {done.marks} marks ({done.form}), {len(done.blank)} students "
        f"without one (named above; marks.csv has every row); {zipped}: "
        f"{len(uploaded.files)} feedback files"
    )
    return list(done.warnings)


def _roster_ids(folder: str | Path, rubric: Rubric, roster: Roster | None) -> dict[str, str] | None:
    """Each submission's roster id, found as the roster places the graded rows (by the
    LMS's id, else the name), before grading: a variant's boards come from the id."""
    if roster is None:
        return None
    found = find_submissions(folder, rubric.limits.submission_kb << 10)
    rows = [
        StudentResult(s.student, Path(s.path), student_id=s.student_id, keys=dict(s.keys))
        for s in found
    ]
    names = {row.path: row.student for row in rows}  # a submission's path is its own
    return {
        names[row.path]: row.student_id
        for row in place(rows, roster, rubric)
        if row.path in names and row.student_id and NOT_ON_ROSTER not in row.status
    }
