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
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import cp_queens.grading.sandbox as sandbox
import cp_queens.grading.tasks as tasks
import cp_queens.grading.tasks.variants as variants
from cp_queens.grading.intake.discover import (
    find_submissions,
    is_submission_name,
    with_siblings,
)
from cp_queens.grading.results import GradeError, StudentResult
from cp_queens.grading.rubric import Rubric
from cp_queens.grading.rubric import load as load_rubric
from cp_queens.grading.run import DEFAULT_JOBS, grade_submissions
from cp_queens.grading.tasks.variants import InstanceFile, Variant

#: One part of a list of board sizes: ``8`` or ``4..9`` (ASCII digits, a few of them: no
#: board graded has more than two).
_SIZES = re.compile(r"(?P<low>[0-9]{1,6})(?:\.\.(?P<high>[0-9]{1,6}))?")


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
    for part in text.split(","):
        part = part.strip()
        match = _SIZES.fullmatch(part)
        if match is None:
            raise GradeError(
                f"cannot read {_short(part)} in {_short(text)} (expected e.g. 1..9 or 4,6,8)"
            )
        low = int(match["low"])
        high = low if match["high"] is None else int(match["high"])
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
        for submission in submissions:
            submission.student_id = variant_ids.get(submission.student, submission.student_id)
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
        result = dataclasses.replace(result, notes=[*result.notes, unseen])
    return result


def _rubric(rubric: Rubric | str | Path | None, task: str | None, isolation: str | None) -> Rubric:
    chosen = rubric if isinstance(rubric, Rubric) else load_rubric(rubric)
    if isolation is not None and isolation != chosen.limits.isolation:
        limits = dataclasses.replace(chosen.limits, isolation=isolation)
        chosen = dataclasses.replace(chosen, limits=limits)
    return chosen.for_task(task)
