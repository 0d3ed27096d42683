"""A task of one's own: per-student instances, so the keys in the repository answer nothing.

The repository students clone holds right answers to the plain tasks
(``examples/solutions/lesson11.py`` scores 12 of 12 on domination,
``examples/assignment/submissions/ada.py`` 13 of 13 on the first assignment), and every
student gets the same boards. With ``cp-queens grade --variant SEED``, each student gets
an instance of their own, computed from their id (the roster's, else the submission's
name) and the lecturer's secret ``SEED`` by HMAC-SHA256, so it cannot be guessed from the
id without the seed, and two students share one only by chance:

* ``solutions``: complete a board: some queens are given (``queens``, ``{row: column}``,
  taken from a solution, so there is always one) and some squares are blocked (no queen
  may stand on them); ``model(n, queens=..., blocked=...)`` returns every completion,
  each once;
* ``dominate``: some squares are holes (``blocked``): no queen stands on one, no queen
  attacks across one, and a hole need not be guarded; ``model(n, blocked=...)`` returns
  the squares of as few queens as possible that occupy or attack every other square. A
  set found for the whole board seldom works once lines are cut; the minimum is
  computed (CP-SAT, proven optimal), never stored.

The lecturer tells each student their instance with
``cp-queens grade --variant SEED --show-instance STUDENT_ID --n 4..8``; the grader calls
the student's ``model`` with that student's instance and judges the answer against it.
Nothing is stored: the keys are computed from the seed each time.

Examples:
    >>> variant = Variant("lecturer's secret")
    >>> a, b = variant.instance("solutions", "s1001", 8), variant.instance("solutions", "s1002", 8)
    >>> a == variant.instance("solutions", "s1001", 8), a != b
    (True, True)
    >>> sorted(a.arguments())
    ['blocked', 'queens']
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from cp_queens.errors import CpQueensError
from cp_queens.problem import Problem

Square = tuple[int, int]

#: What each task's ``model`` is called with under ``--variant`` (the task text says it).
CALLS = {
    "solutions": "model(n, queens={row: column, ...}, blocked=[(row, column), ...])",
    "dominate": "model(n, blocked=[(row, column), ...])",
}


#: The largest board of a variant, per task. A board with holes needs its minimum proven
#: (CP-SAT): 0.2 s of CPU at n = 7, 1.5 to 4.6 s at n = 8, over 30 s at n = 9 (measured
#: on the two-core machine these docs were written on, under load).
LARGEST = {"solutions": 12, "dominate": 8}


def check_sizes(task: str, sizes: Iterable[int]) -> None:
    """Refuse a board too large for a variant of ``task``, in one line."""
    largest = LARGEST[task]
    too_big = [n for n in sizes if n > largest]
    if too_big:
        raise VariantError(
            f"variants of task {task} go up to n = {largest} (a board with holes "
            f"needs its minimum proven), got n = {too_big[0]}"
        )


class VariantError(CpQueensError):
    """A seed that cannot be used (empty, or a file that cannot be read)."""


@dataclass(frozen=True, slots=True)
class Instance:
    """One student's board of size ``n`` for ``task``: queens given and squares blocked."""

    task: str
    n: int
    queens: dict[int, int] = field(default_factory=dict)
    blocked: tuple[Square, ...] = ()

    def __hash__(self) -> int:
        return hash((self.task, self.n, tuple(sorted(self.queens.items())), self.blocked))

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments ``model(n, ...)`` gets: plain data only."""
        if self.task == "dominate":
            return {"blocked": [list(square) for square in self.blocked]}
        return {
            "queens": dict(sorted(self.queens.items())),
            "blocked": [list(square) for square in self.blocked],
        }

    def call(self) -> str:
        """The call the grader makes for this board, as Python: ``model(6, queens=...)``."""
        given = ", ".join(
            f"{key}={[tuple(v) for v in value] if key == 'blocked' else value!r}"
            for key, value in self.arguments().items()
        )
        return f"model({self.n}, {given})"

    def problem(self) -> Problem:
        """The completion problem of the ``solutions`` task (cp_queens' own ``Problem``)."""
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


class Variant:
    """The lecturer's secret seed, and the instance it gives each student."""

    def __init__(self, seed: str) -> None:
        if not isinstance(seed, str) or not seed.strip():
            raise VariantError("a variant's seed must be a non-empty text")
        self._key = seed.encode("utf-8")

    @classmethod
    def from_option(cls, text: str) -> Variant:
        """``--variant SEED``, or ``--variant @FILE`` (the seed in a file, kept out of the
        shell's history and of ``ps``)."""
        if text.startswith("@"):
            path = Path(text[1:])
            try:
                seed = path.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError) as error:
                raise VariantError(f"cannot read the seed from {path}: {error}") from None
            return cls(seed)
        return cls(text)

    def fingerprint(self) -> str:
        """8 hex digits that tell two seeds apart without telling either."""
        return hmac.new(self._key, b"cp-queens fingerprint", hashlib.sha256).hexdigest()[:8]

    def _random(self, task: str, student: str, n: int) -> random.Random:
        message = f"cp-queens variant|{task}|{student}|{n}".encode()
        digest = hmac.new(self._key, message, hashlib.sha256).digest()
        return random.Random(int.from_bytes(digest, "big"))

    def instances(self, task: str, student: str, sizes: Iterable[int]) -> dict[int, Instance]:
        """``student``'s own board of each size."""
        return {n: self.instance(task, student, n) for n in sizes}

    def instance(self, task: str, student: str, n: int) -> Instance:
        """``student``'s own board of size ``n`` for ``task``."""
        chance = self._random(task, student.strip(), n)
        squares = [(r, c) for r in range(n) for c in range(n)]
        if task == "dominate":
            count = max(1, n // 2)
            blocked = tuple(sorted(chance.sample(squares, min(count, len(squares) - 1))))
            return Instance(task, n, {}, blocked)
        solutions = _solutions(n)
        if not solutions:  # n = 2, 3: nothing to complete; a blocked square all the same
            return Instance(task, n, {}, (chance.choice(squares),))
        kept = chance.choice(solutions)
        given_count = 0 if n < 4 else (1 if n < 7 else 2)
        rows = sorted(chance.sample(range(n), given_count))
        queens = {row: kept[row] for row in rows}
        free = [(r, c) for r, c in squares if kept[r] != c and r not in queens]
        blocked = tuple(sorted(chance.sample(free, min(len(free), n // 3))))
        return Instance(task, n, queens, blocked)


@lru_cache(maxsize=32)
def _solutions(n: int) -> tuple[tuple[int, ...], ...]:
    import cp_queens

    return tuple(tuple(p) for p in cp_queens.solutions(n, engine="reference"))


def wrapper(instances: dict[int, Instance]) -> str:
    """Python appended to a submission's source: its ``model(n)``, as the grader calls it,
    calls the student's ``model`` with their instance of board ``n``. Appended, so that
    every line number of the student's code stays what it was."""
    given = {n: instance.arguments() for n, instance in sorted(instances.items())}
    return (
        "\n\n# Added by the grader: your own instance of each board size (a variant).\n"
        f"_cp_queens_instances = {given!r}\n"
        "if callable(globals().get('model')):\n"
        "    def model(n, _model=model, _given=_cp_queens_instances):\n"
        "        return _model(n, **_given[n])\n"
    )


def guarded(n: int, queen: Square, holes: frozenset[Square]) -> set[Square]:
    """The squares a queen on ``queen`` occupies or attacks when ``holes`` cut its lines:
    along each of the eight directions, up to the first hole or the edge."""
    seen = {queen}
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)):
        r, c = queen[0] + dr, queen[1] + dc
        while 0 <= r < n and 0 <= c < n and (r, c) not in holes:
            seen.add((r, c))
            r, c = r + dr, c + dc
    return seen


def unguarded(n: int, queens: list[Square], holes: frozenset[Square]) -> list[Square]:
    """The squares (holes aside) that no queen occupies or attacks, row by row."""
    covered: set[Square] = set()
    for queen in queens:
        covered |= guarded(n, queen, holes)
    return [
        (r, c) for r in range(n) for c in range(n) if (r, c) not in holes and (r, c) not in covered
    ]


def minimum_dominating(n: int, holes: tuple[Square, ...]) -> int:
    """The fewest queens that guard every square of the board with ``holes``: CP-SAT,
    proven optimal (one worker: the same answer on every machine), computed when asked."""
    return len(smallest_guarding_set(n, holes))


def smallest_guarding_set(n: int, holes: Iterable[Square]) -> tuple[Square, ...]:
    """A smallest set of queens guarding the board with ``holes`` (proven optimal)."""
    return _smallest(n, tuple(sorted(holes)))


@lru_cache(maxsize=4096)
def _smallest(n: int, holes: tuple[Square, ...]) -> tuple[Square, ...]:
    from ortools.sat.python import cp_model

    cut = frozenset(holes)
    squares = [(r, c) for r in range(n) for c in range(n) if (r, c) not in cut]
    model = cp_model.CpModel()
    queen = {s: model.new_bool_var(f"q{s}") for s in squares}
    sees = {s: guarded(n, s, cut) for s in squares}
    for target in squares:
        model.add_bool_or([queen[s] for s in squares if target in sees[s]])
    model.minimize(sum(queen.values()))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 120.0
    if solver.solve(model) != cp_model.OPTIMAL:
        raise VariantError(f"the minimum of a {n} x {n} variant could not be proven in 120 s")
    return tuple(s for s in squares if solver.value(queen[s]))


def check_holes(n: int, queens: list[Square], holes: frozenset[Square]) -> tuple[str, list[Square]]:
    """Why ``queens`` do not guard the board with ``holes`` ("" when they do), and the
    squares left unguarded."""
    seen: set[Square] = set()
    for row, col in queens:
        if not (0 <= row < n and 0 <= col < n):
            return f"queen ({row}, {col}) is off the {n} x {n} board", []
        if (row, col) in seen:
            return f"two queens on ({row}, {col})", []
        if (row, col) in holes:
            return f"queen ({row}, {col}) stands in a hole (a blocked square)", []
        seen.add((row, col))
    left = unguarded(n, queens, holes)
    if left:
        first = left[0]
        return (
            f"square {first} (row {first[0]}, column {first[1]}) is neither occupied nor "
            f"attacked (holes cut the lines); {len(left)} square"
            f"{'s' if len(left) > 1 else ''} in all are not guarded",
            left,
        )
    return "", []


def settle(result: Any, instances: dict[int, Instance], lines: int = 0) -> None:
    """The student's own boards in their feedback, and a model written for the plain task
    (``model(n)``: "unexpected keyword argument") told how it is called now; a line past
    the student's ``lines`` (the grader's call, appended) is not named."""
    result.instance = [
        f"{instances[n].describe()}: `{instances[n].call()}`" for n in sorted(instances)
    ]
    task = next(iter(instances.values())).task if instances else "solutions"
    for size in result.sizes:
        said = size.problem or ""
        if "unexpected keyword argument" in said or "positional argument" in said:
            said = re.sub(r" \(line (\d+)\)", lambda m: "" if int(m[1]) > lines else m[0], said)
            size.problem = (
                f"{said} - this assignment gives each student their own board: "
                f"{CALLS[task]} (see the task text)"
            )


def told(variant: Variant, task: str, student: str, sizes: Iterable[int]) -> str:
    """What the lecturer hands a student (``--show-instance``): the call, and each board."""
    what = (
        "returns every completion, each once"
        if task == "solutions"
        else "returns the squares of as few queens as possible that occupy or attack "
        "every square that is not a hole (no queen in a hole, none attacks across one)"
    )
    lines = [
        f"Your own boards (student {student.strip()}, task {task}, variant "
        f"{variant.fingerprint()}): {CALLS[task]} {what}.",
        "Rows and columns count from 0; "
        + ("Q a given queen, # a blocked square." if task == "solutions" else "# a hole."),
        "",
    ]
    for n in sizes:
        instance = variant.instance(task, student, n)
        lines += [instance.describe(), *("    " + row for row in instance.draw().splitlines())]
        lines += [f"    {instance.call()}", ""]
    return "\n".join(lines)
