"""The course kit: tools for teaching and learning with the lessons in ``examples/``.

``check_model`` tells a student whether their own model finds every solution
exactly once: for a file, or a model defined in a notebook or a script, as
the grader runs and marks it (``cp_queens.course.as_graded``); for a function
of another module, in this process (``cp_queens.course.check``).
``cp_queens.course.trace`` draws a search: its tree of partial boards, and the
board animated step by step.
"""

from cp_queens.course.as_graded import check_model
from cp_queens.course.check import CheckReport

__all__ = ["CheckReport", "check_model"]
