"""The grader: a class folder in, marks and feedback out.

One module a job: ``discover`` finds who is in the class folder (every entry a row),
``grade`` runs a class (each submission in the sandbox), ``roster`` and ``export`` bring a
class list in and a gradebook file out, ``written`` and ``textfile`` write and read
files whole and capped, ``tasks``
says what a task asks and how it is judged, ``judge`` judges one model's solutions
(``check_model``), ``answers`` computes the expected answers (never stored),
``hints`` names the pattern behind a wrong answer, ``rubric`` and ``overrides`` read the
lecturer's files, ``marks`` writes marks.csv and the feedback, ``as_graded`` runs a
student's own check the way the grader does.

``cp_queens.grading.sandbox`` is the room a submission runs in (bubblewrap, cgroups, the
watcher, the result protocol, the child harness): nothing of the submission outlives it.

This ``__init__`` imports nothing, so importing one module of the grader loads only
what that module needs.
"""
