"""The course kit: what the lessons in ``examples/`` import, and nothing of the grader.

* ``cp_queens.course.drawing`` draws a search (its tree of partial boards, the board
  animated step by step, slides);
* ``cp_queens.course.display`` shows boards in a notebook, ``snapshot`` keeps a lesson's
  numbers, ``needs`` says which optional package a lesson lacks.

``check_model`` (a student's own check of their model, as the grader marks it) lives
with the grader in ``cp_queens.grading``; it stays importable from here, as the lessons
import it, but is loaded only when asked for: importing the drawings must not load the
grader and its sandbox (``tests/test_imports.py`` checks both).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cp_queens.grading.as_graded import check_model
    from cp_queens.grading.tasks.solutions.judge import CheckReport

__all__ = ["CheckReport", "check_model"]


def __getattr__(name: str) -> Any:
    """``check_model`` and ``CheckReport``, imported from the grader on first use."""
    if name == "check_model":
        from cp_queens.grading.as_graded import check_model

        return check_model
    if name == "CheckReport":
        from cp_queens.grading.tasks.solutions.judge import CheckReport

        return CheckReport
    raise AttributeError(f"module 'cp_queens.course' has no attribute {name!r}")
