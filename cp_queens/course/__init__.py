"""The course kit: tools for teaching and learning with the lessons in ``examples/``.

``check_model`` tells a student whether their own model finds every solution
exactly once (see ``cp_queens.course.check``); ``cp_queens.course.trace``
draws a search: its tree of partial boards, and the board animated step by step.
"""

from cp_queens.course.check import CheckReport, check_model

__all__ = ["CheckReport", "check_model"]
