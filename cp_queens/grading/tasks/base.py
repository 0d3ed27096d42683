"""What every graded task is: the ``Task`` base class, a student's own ``Instance`` of a
board (``--variant``), and ``VariantError``.

A task is one class in one file of ``cp_queens.grading.tasks`` (or a package, when it
brings its judge, hints and causes), registered by name with ``register``. It owns
everything the grader asks of it: the reference an answer is judged against, the judge,
the row of a size that never answered, the share of a size's points a row earns, the
columns of its feedback table and the findings below it, the largest board, and the
variant instance of a student (or a clear refusal). No other module of the grader knows
a task by its name; ``tests/grading/test_task_contract.py`` holds every registered task
to these promises, as ``tests/test_contract.py`` holds every engine.

How to add one (see ``dominate.py`` for a whole task in one file)::

    @register
    class First(Task):
        name = "first"
        summary = "one solution of the n-queens problem"
        largest = 12
        columns = ("a solution?",)

        def reference(self, n, instance=None): ...
        def judge(self, n, produced, expected): ...      # a row: verdict(), ok, error
        def error_row(self, n, expected, problem): ...
        def share(self, row, rubric): ...                # 0..1, exact
        def cells(self, row): ...                        # one cell per column
        def answers(self, n): ...                        # a right and a wrong answer
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar

from cp_queens.errors import CpQueensError
from cp_queens.grading.points import exact
from cp_queens.grading.results import Row, StudentResult
from cp_queens.grading.tasks.came_back import describe, shown
from cp_queens.problem import Problem

Square = tuple[int, int]


class VariantError(CpQueensError):
    """A variant that cannot be made: an empty seed, a seed file that cannot be read, a
    board too large, or a task that has no variants."""


@dataclass(frozen=True, slots=True)
class Instance:
    """One student's board of size ``n`` for ``task``: queens given and squares blocked;
    ``keywords`` are the arguments the task's ``model`` is called with."""

    task: str
    n: int
    queens: dict[int, int] = field(default_factory=dict)
    blocked: tuple[Square, ...] = ()
    keywords: tuple[str, ...] = ("queens", "blocked")

    def __hash__(self) -> int:
        return hash((self.task, self.n, tuple(sorted(self.queens.items())), self.blocked))

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments ``model(n, ...)`` gets: plain data only."""
        given = {
            "queens": dict(sorted(self.queens.items())),
            "blocked": [list(square) for square in self.blocked],
        }
        return {key: given[key] for key in self.keywords}

    def call(self) -> str:
        """The call the grader makes for this board, as Python: ``model(6, queens=...)``."""
        given = ", ".join(
            f"{key}={[tuple(v) for v in value] if key == 'blocked' else value!r}"
            for key, value in self.arguments().items()
        )
        return f"model({self.n}, {given})"

    def problem(self) -> Problem:
        """The completion problem of this board (cp_queens' own ``Problem``)."""
        return Problem(self.n, fixed=dict(self.queens), blocked=frozenset(self.blocked))

    def describe(self) -> str:
        """One line: what is given and what is blocked (rows and columns from 0)."""
        parts = []
        if self.queens:
            given = ", ".join(f"({r}, {c})" for r, c in sorted(self.queens.items()))
            parts.append(f"queens given at {given}")
        if self.blocked:
            parts.append("blocked " + ", ".join(f"({r}, {c})" for r, c in self.blocked))
        return f"n={self.n}: " + ("; ".join(parts) or "the empty board")

    def draw(self) -> str:
        """The board: ``Q`` a given queen, ``#`` a blocked square, ``.`` a free one."""
        marks = {square: "#" for square in self.blocked}
        marks.update({(r, c): "Q" for r, c in self.queens.items()})
        n = self.n
        return "\n".join(" ".join(marks.get((r, c), ".") for c in range(n)) for r in range(n))


class Task(ABC):
    """A graded task: what ``model(n)`` returns, how it is judged and marked, how its
    feedback reads. One instance per task (``tasks.get(name)``); it holds no state."""

    #: The name of ``--task`` and of the rubric's ``task``.
    name: ClassVar[str] = ""
    #: What ``model(n)`` returns, for ``--task``'s help.
    summary: ClassVar[str] = ""
    #: The largest board graded (the reference of each size is computed once per class).
    largest: ClassVar[int] = 0
    #: The type of the rows ``judge`` and ``error_row`` make.
    row_type: ClassVar[type] = object
    #: The feedback table's columns between ``n`` and ``status``, in order; ``cells``
    #: gives one cell per column.
    columns: ClassVar[tuple[str, ...]] = ()
    #: The feedback's sentence when every size is right.
    all_right: ClassVar[str] = "Every board size is right."
    #: ``--variant``: the largest board of a variant (0: the task has none), what ``model``
    #: is called with and what it returns, and the legend of the drawn boards.
    variant_largest: ClassVar[int] = 0
    variant_call: ClassVar[str] = ""
    variant_returns: ClassVar[str] = ""
    variant_legend: ClassVar[str] = ""

    @abstractmethod
    def reference(self, n: int, instance: Instance | None = None) -> Any:
        """What an answer of size ``n`` is judged against (of the student's own
        ``instance`` under ``--variant``): computed, never stored."""

    @abstractmethod
    def judge(self, n: int, produced: Any, expected: Any) -> Row:
        """What ``model(n)`` returned, judged against ``expected``. It may raise on an
        answer it cannot read: ``judged`` turns that into the size's error row."""

    @abstractmethod
    def error_row(self, n: int, expected: Any, problem: str) -> Row:
        """The row of a size that raised, hit a limit or never answered."""

    @abstractmethod
    def share(self, row: Any, rubric: Any) -> Fraction:
        """The share (0..1) of a size's points ``row`` earns under the rubric, exact."""

    @abstractmethod
    def cells(self, row: Any) -> tuple[str, ...]:
        """The feedback table's cells of one size, one per ``columns`` (``row`` is None
        for a size never run)."""

    @abstractmethod
    def answers(self, n: int) -> tuple[Any, Any]:
        """A right answer of size ``n`` and a wrong one, as a model would return them: what
        the task contract (``tests/grading/test_task_contract.py``) judges."""

    def details(self, rows: Sequence[Any]) -> list[str]:
        """The findings below the feedback table, each kind of mistake once: a first line,
        then a board drawn if there is one."""
        return []

    def settle(self, result: StudentResult, source: str, rubric: Any) -> StudentResult:
        """The row once the source is read too (a cause the source shows): by default as
        it is."""
        return result

    def instance(self, chance: random.Random, n: int) -> Instance:
        """A student's own board of size ``n``, drawn with ``chance`` (seeded from the
        lecturer's seed and the student's id): a task without variants refuses."""
        raise VariantError(f"task {self.name} has no variants: every student gets the same boards")

    def judged(self, n: int, produced: Any, expected: Any) -> Row:
        """``judge`` that never raises: whatever came back, a failure to judge it is that
        size's verdict (an error row saying what came back), so one strange answer never
        costs the class its marks."""
        try:
            return self.judge(n, produced, expected)
        except Exception as error:  # the judge's own limits must not become the class's
            row = self.error_row(
                n,
                expected,
                f"model({n}) returned {shown(produced)}, which the grader could not judge "
                f"({describe(error)}): return plain lists of whole numbers",
            )
            return replace(row, came_back=shown(produced, 24))

    def points(self, row: Any, worth: float, rubric: Any) -> Fraction:
        """The points a size's row earns: its worth times its share, exact."""
        return exact(worth) * self.share(row, rubric)


def came_back_cell(row: object) -> str:
    """A table cell for an answer that was not one: what came back, as a Markdown cell
    (``1 (an int)``), or ``-`` when nothing did (it raised, a limit stopped it)."""
    said = getattr(row, "came_back", "")
    if not said:
        return "-"
    return "`" + said.replace("`", "'").replace("|", "\\|") + "`"
