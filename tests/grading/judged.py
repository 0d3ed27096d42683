"""A submission's answers judged and marked as the grader marks them, without running a
model: the marks and feedback tests' rows (``cp_queens.grading.results``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import cp_queens.grading.tasks as tasks
from cp_queens.grading.results import SizeResult, StudentResult
from cp_queens.grading.rubric import Rubric, load


def marked(
    answers: Mapping[int, Any],
    task: str = "solutions",
    *,
    rubric: Rubric | None = None,
    expected: Callable[[str, int], Any] = tasks.reference,
    student: str = "student",
) -> StudentResult:
    """``answers`` (what ``model(n)`` returned, by ``n``) judged against ``expected(task,
    n)`` and marked by ``rubric`` (the default one of ``task``): one size a row, its
    status the judge's verdict."""
    rubric = rubric or load().for_task(task)
    sizes = []
    for n, produced in answers.items():
        row = tasks.judge(task, n, produced, expected(task, n))
        worth = rubric.points_for(n)
        sizes.append(SizeResult(n, row.verdict(), tasks.points(row, worth, rubric), worth, row))
    return StudentResult(student, Path(f"{student}.py"), tuple(sizes), task=task)
