"""Tools for teaching with cp_queens: the search drawn (:mod:`cp_queens.course.trace`)."""
