"""The ``solutions`` task: every solution of the n-queens problem, each once.

``judge`` judges a model's solutions against the reference (``check_model``'s report),
``answers`` reads what a model returned, ``hints`` names the pattern behind a wrong answer,
``causes`` the line of the source that shows it, ``judge_file`` a file of placements
(``cp-queens check``).

Why the share of a size is ``found x exact`` by default: a mark must tell mistakes
apart. A model that checks no diagonal returns every permutation (40,320 boards for
n = 8, 92 of them right); one that forgets one diagonal returns 2,113; a right model
returns 92. All three *find* every solution, so marking by what was found (minus a flat
penalty for "something invalid") gave the first two the same mark. ``exact``, the share
of what was returned that is right, orders them as a teacher would, and a model that
returns one stray board among 92 loses about 1 %, not half.

Examples:
    >>> from cp_queens.grading.rubric import load
    >>> task = Solutions()
    >>> row = task.judge(4, [[1, 3, 0, 2], [2, 0, 3, 1], [2, 0, 3, 1]], task.reference(4))
    >>> row.verdict(), task.share(row, load())
    ('1 duplicate', Fraction(2, 3))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from cp_queens.grading.points import exact
from cp_queens.grading.results import StudentResult
from cp_queens.grading.tasks import register
from cp_queens.grading.tasks.base import Instance, Task, came_back_cell
from cp_queens.grading.tasks.solutions import causes
from cp_queens.grading.tasks.solutions.judge import CheckReport, CheckRow, reference_solutions
from cp_queens.grading.tasks.solutions.judge import judge as judge_solutions
from cp_queens.problem import Problem


class Completions(list[tuple[int, ...]]):
    """The solutions of one student's board (``--variant``), with its ``Problem``: the
    judge checks given queens and blocked squares by it, and names a broken one."""

    problem: Problem


@register
class Solutions(Task):
    """Every solution of the n-queens problem, each exactly once."""

    name = "solutions"
    summary = "every solution of the n-queens problem"
    #: The reference lists every solution of each size once per class (n = 12: 14,200
    #: solutions, about a second); a submission's output is judged in full.
    largest = 12
    row_type = CheckRow
    columns = ("solutions", "you returned", "correct")
    all_right = "Every board size is right: every solution, each exactly once."
    variant_largest = 12
    variant_call = "model(n, queens={row: column, ...}, blocked=[(row, column), ...])"
    variant_returns = "returns every completion, each once"
    variant_legend = "Q a given queen, # a blocked square."

    def reference(self, n: int, instance: Instance | None = None) -> Any:
        """Every solution (the reference engine's), or every completion of the student's
        own board."""
        if instance is None:
            return reference_solutions(n)
        import cp_queens

        problem = instance.problem()
        found = Completions(tuple(p) for p in cp_queens.solutions(problem, engine="reference"))
        found.problem = problem
        return found

    def judge(self, n: int, produced: Any, expected: Any) -> CheckRow:
        return judge_solutions(n, produced, expected, "model")

    def error_row(self, n: int, expected: Any, problem: str) -> CheckRow:
        return CheckRow(n, len(expected), error=problem)

    def share(self, row: Any, rubric: Any) -> Fraction:
        """By the rubric's ``scheme``: ``exact`` all or nothing, ``penalties`` what was
        found less a penalty per kind of mistake, else found x exact (above)."""
        if row.error is not None:
            return Fraction(0)
        if rubric.scheme == "exact":
            return Fraction(1 if row.ok else 0)
        found = Fraction(row.correct, row.expected) if row.expected else Fraction(1)
        if rubric.scheme == "penalties":
            value = found
            if row.invalid:
                value -= exact(rubric.invalid_penalty)
            if row.duplicates:
                value -= exact(rubric.duplicate_penalty)
            return max(Fraction(0), value)
        precise = Fraction(row.correct, row.returned) if row.returned else Fraction(1)
        return found * precise

    def cells(self, row: Any) -> tuple[str, ...]:
        usable = isinstance(row, CheckRow) and row.error is None
        returned = str(row.returned) if usable else came_back_cell(row)
        correct = str(row.correct) if usable else "-"
        expected = "-" if row is None else str(row.expected)
        return expected, returned, correct

    def answers(self, n: int) -> tuple[Any, Any]:
        """Every solution; and one missing (or, with none to miss, an attacking board)."""
        right = [list(solution) for solution in reference_solutions(n)]
        return right, right[1:] if right else [[0] * n]

    def details(self, rows: Sequence[Any]) -> list[str]:
        """The first missing, invalid and repeated board, and the hints (the report's)."""
        report = CheckReport("model", tuple(row for row in rows if isinstance(row, CheckRow)))
        return [line for line in report.details() if not line.startswith("error: ")]

    def settle(self, result: StudentResult, source: str, rubric: Any) -> StudentResult:
        """A cause the source or the run shows (CP-SAT enumerating on several workers, a
        time limit of the student's own), named first."""
        return causes.settle(result, source, rubric.parallel_deduction)

    def instance(self, chance: random.Random, n: int) -> Instance:
        """A completion: up to two queens of one solution given, ``n // 3`` squares that
        solution leaves free blocked (so there is always one); for n = 2, 3 (nothing to
        complete) one blocked square all the same."""
        squares = [(r, c) for r in range(n) for c in range(n)]
        solutions = _solutions(n)
        if not solutions:
            return Instance(self.name, n, {}, (chance.choice(squares),))
        kept = chance.choice(solutions)
        given_count = 0 if n < 4 else (1 if n < 7 else 2)
        rows = sorted(chance.sample(range(n), given_count))
        queens = {row: kept[row] for row in rows}
        free = [(r, c) for r, c in squares if kept[r] != c and r not in queens]
        blocked = tuple(sorted(chance.sample(free, min(len(free), n // 3))))
        return Instance(self.name, n, queens, blocked)


@lru_cache(maxsize=32)
def _solutions(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(reference_solutions(n))
