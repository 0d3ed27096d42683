"""The cause named before any guess: CP-SAT asked to enumerate all solutions on several
workers (OR-Tools does not support it, google/or-tools#1186, #1591) is found in the
source, said first with the fix, and marked by its verdict alone, the same on every run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cp_queens.grading import tasks
from cp_queens.grading.grade import grade_file
from cp_queens.grading.marking.marks import feedback, reason
from cp_queens.grading.results import StudentResult
from cp_queens.grading.tasks.solutions import causes
from tests import mistakes
from tests.grading.judged import marked

#: The card's model enumerating on ``{workers}`` workers (lines 14 and 15 set them).
PARALLEL = (
    "\nfrom ortools.sat.python import cp_model\n\nWORKERS = 8\n\n\ndef model(n):\n"
    + mistakes.CARD
    + """\
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = {workers}
    found = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()

        def on_solution_callback(self):
            found.append([self.value(v) for v in q])

    solver.solve(m, Collect())
    return found
"""
)


@pytest.mark.parametrize(
    ("workers", "found"),
    [("8", "8 workers"), ("WORKERS", "8 workers"), ("os.cpu_count()", "several workers")],
)
def test_parallel_enumeration_is_found_in_the_source(workers: str, found: str) -> None:
    evidence = causes.find(PARALLEL.replace("{workers}", workers))
    assert evidence is not None and found in evidence.sentence()
    assert "enumerate_all_solutions, line 14" in evidence.sentence()
    assert "line 15)" in evidence.sentence()


@pytest.mark.parametrize(
    "source",
    [
        PARALLEL.replace("{workers}", "1"),
        PARALLEL.replace("{workers}", "0"),  # the default: CP-SAT enumerates on one worker
        PARALLEL.replace("{workers}", "workers_from_elsewhere"),
        PARALLEL.replace("{workers}", "8").replace("enumerate_all_solutions = True", "x = 1"),
        # two solvers: one optimises on 8 workers, the other enumerates on one
        "def a(s):\n    s.parameters.num_workers = 8\n"
        "def b(t):\n    t.parameters.enumerate_all_solutions = True\n",
        "def model(n):\n    return [[0]] if n == 1 else []\n",
        "this is not python (",
    ],
)
def test_no_evidence_without_both_on_one_solver(source: str) -> None:
    assert causes.find(source) is None


@pytest.mark.parametrize(
    "source",
    [
        "p = SatParameters(num_search_workers=4, enumerate_all_solutions=True)\n",
        "def f(s):\n    setattr(s.parameters, 'num_workers', 3)\n"
        "    s.parameters.enumerate_all_solutions = True\n",
        "def f(s):\n    s.parameters.num_search_workers = 2\n    s.SearchForAllSolutions(m, cb)\n",
        "text_format.Parse('num_workers: 8 enumerate_all_solutions: true', p)\n",
    ],
)
def test_every_way_of_saying_it_is_found(source: str) -> None:
    assert causes.find(source) is not None


def judged(source: str, answers: dict[int, list[list[int]]]) -> StudentResult:
    return causes.settle(marked(answers, student="par"), source)


def run_of(seed: int) -> dict[int, list[list[int]]]:
    """What an 8-worker enumeration might return: some solutions missed, some repeated,
    which ones depending on the run (the seed)."""
    import random

    chance = random.Random(seed)
    answers = {}
    for n in (4, 5, 6, 8):
        truth = [list(q) for q in tasks.reference("solutions", n)]
        kept = [q for q in truth if chance.random() < 0.7] or truth[:1]
        answers[n] = kept + chance.sample(kept, k=min(len(kept), chance.randrange(3)))
    return answers


def test_the_mark_does_not_depend_on_the_run_and_the_cause_comes_first() -> None:
    source = PARALLEL.replace("{workers}", "8")
    runs = [judged(source, run_of(seed)) for seed in range(6)]
    # Seen in the source only, the answer is luck: the verdict is scored, not the boards
    # (the rubric's credit.parallel_enumeration: half of each size by default).
    assert len({run.points for run in runs}) == 1 and runs[0].points == runs[0].max_points / 2
    assert {tuple(run.statuses()) for run in runs} == {(causes.STATUS,) * 4}
    text = feedback(runs[0])
    what = text.index("## What to look at")
    assert text.index("8 workers", what) < text.index("first missing", what)
    assert "google/or-tools#1186" in text and "num_workers = 1" in text
    assert "symmetry" not in text and "mirror" not in text
    assert "8 workers" in reason(runs[0])
    assert "Every board size is right" not in feedback(judged(source, {4: run_of(0)[4][:2]}))


def test_repeats_and_misses_of_an_ortools_model_name_the_workers_as_a_hint() -> None:
    source = PARALLEL.replace("{workers}", "workers_from_elsewhere")
    truth = [list(q) for q in tasks.reference("solutions", 6)]
    result = judged(source, {6: [truth[0], truth[0], truth[2]]})
    [size] = result.sizes
    assert size.status == "2 missing, 1 duplicate" and 0 < size.points < size.max_points
    assert size.row is not None and "several workers" in size.row.hints[0]
    assert not any("symmetry" in hint or "mirror" in hint for hint in size.row.hints)


@pytest.mark.slow
def test_an_8_worker_cp_sat_model_is_told_why_by_the_grader(tmp_path: Path) -> None:
    path = tmp_path / "par.py"
    path.write_text(PARALLEL.replace("{workers}", "8"), encoding="utf-8")
    marks = [grade_file(path, range(1, 9)) for _ in range(2)]
    # Its boards are scored less the rubric's deduction (issue 46), the same on every run.
    assert marks[0].points == marks[1].points > 0
    assert all(s == causes.STATUS for s in marks[0].statuses())
    assert "8 workers" in feedback(marks[0])


def test_an_answer_that_changes_between_runs_is_said_so_first() -> None:
    """In a student's own check (in this process), a wrong size is run again: an answer
    that differs is reported as such, and no pattern of one answer is guessed from it."""
    from itertools import count

    from cp_queens.grading.tasks.solutions.judge import check_model

    calls = count()

    def flaky(n: int) -> list[tuple[int, ...]]:
        truth = tasks.reference("solutions", n)
        return truth[next(calls) % 2 :]  # the first solution missing on every other run

    report = check_model(flaky, n_max=6)
    text = str(report)
    assert not report.ok
    assert "flaky(4) answered differently when run again" in text
    assert "num_workers = 1" in text and "symmetry" not in text and "mirror" not in text


def test_a_deterministic_mistake_keeps_its_own_pattern() -> None:
    from cp_queens.grading.tasks.solutions.judge import check_model

    def mirror_half(n: int) -> list[tuple[int, ...]]:
        return [q for q in tasks.reference("solutions", n) if q[0] < n / 2]

    text = str(check_model(mirror_half, n_max=6))
    assert "mirror image" in text and "answered differently" not in text
