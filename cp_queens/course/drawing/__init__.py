"""The search drawn, for lessons and slides: one module a picture.

* ``trace`` records a search (``record``, ``Trace``) from an engine's tracer events;
  ``recorded`` is what a recording holds (``Node``, ``Step``, ``Recording``), the data
  every drawing reads, so no drawing module depends on another's;
* ``tree`` draws its tree of partial boards, ``animation`` the board step by step,
  ``board`` one board and the colours both share;
* ``slides`` lays several drawings out for a lecture.

Nothing here imports the grader: ``import cp_queens.course.drawing.trace`` loads the
engines it traces and these modules only (``tests/test_imports.py`` checks it).
"""
