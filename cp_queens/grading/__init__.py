"""The grader: a class folder in, marks and feedback out.

A folder a job, as otter-grader's: ``intake/`` (who is in the class: ``discover``,
``roster``, ``textfile``), ``tasks/`` (what each task asks and how it is judged: the
``solutions`` task with its judge, answers, hints and causes; ``variants``, a student's
own instance), ``run`` (each submission run in the sandbox and judged), ``results`` (the
rows the stages hand each other, and ``GradeError``), ``marking/`` (marks.csv and the
feedback, overrides, the LMS's export, files written whole). ``grade`` is the door
(a class, one file), ``as_graded`` a student's own check the way the grader runs it;
``rubric`` and ``points`` every job reads.

``cp_queens.grading.sandbox`` is the room a submission runs in (bubblewrap, cgroups, the
watcher, the result protocol, the child harness): nothing of the submission outlives it.

This ``__init__`` imports nothing until asked, so importing one module of the grader
loads only what that module needs; ``cp_queens.grading.grade_class`` (and ``grade``,
``grade_file``, ``ClassReport``, ``Export``) load ``grade`` on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cp_queens.grading.grade import ClassReport, Export, grade, grade_class, grade_file

__all__ = ["ClassReport", "Export", "grade", "grade_class", "grade_file"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        import cp_queens.grading.grade as doors

        return getattr(doors, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
