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
from dataclasses import replace
from pathlib import Path

import cp_queens.grading.tasks as tasks
from cp_queens.grading.results import StudentResult
from cp_queens.grading.tasks.base import Instance, VariantError


def check_sizes(task: str, sizes: Iterable[int]) -> None:
    """Refuse a board too large for a variant of ``task``, or a task without variants,
    in one line."""
    largest = tasks.get(task).variant_largest
    if not largest:
        raise VariantError(f"task {task} has no variants: every student gets the same boards")
    too_big = [n for n in sizes if n > largest]
    if too_big:
        raise VariantError(
            f"variants of task {task} go up to n = {largest} (a board with holes "
            f"needs its minimum proven), got n = {too_big[0]}"
        )


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
        return tasks.get(task).instance(chance, n)


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


def settle(result: StudentResult, instances: dict[int, Instance], lines: int = 0) -> StudentResult:
    """The row with the student's own boards for their feedback, and a model written for
    the plain task (``model(n)``: "unexpected keyword argument") told how it is called now;
    a line past the student's ``lines`` (the grader's call, appended) is not named."""
    call = tasks.get(result.task).variant_call
    sizes = []
    for size in result.sizes:
        said = size.problem or ""
        if "unexpected keyword argument" in said or "positional argument" in said:
            said = re.sub(r" \(line (\d+)\)", lambda m: "" if int(m[1]) > lines else m[0], said)
            size = replace(
                size,
                problem=f"{said} - this assignment gives each student their own board: "
                f"{call} (see the task text)",
            )
        sizes.append(size)
    boards = [f"{instances[n].describe()}: `{instances[n].call()}`" for n in sorted(instances)]
    return replace(result, instance=boards, sizes=sizes)


def told(variant: Variant, task: str, student: str, sizes: Iterable[int]) -> str:
    """What the lecturer hands a student (``--show-instance``): the call, and each board."""
    graded = tasks.get(task)
    lines = [
        f"Your own boards (student {student.strip()}, task {task}, variant "
        f"{variant.fingerprint()}): {graded.variant_call} {graded.variant_returns}.",
        "Rows and columns count from 0; " + graded.variant_legend,
        "",
    ]
    for n in sizes:
        instance = variant.instance(task, student, n)
        lines += [instance.describe(), *("    " + row for row in instance.draw().splitlines())]
        lines += [f"    {instance.call()}", ""]
    return "\n".join(lines)
