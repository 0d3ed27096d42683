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
from typing import Any, Protocol

import cp_queens.grading.tasks as tasks
from cp_queens.errors import CpQueensError
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


class Instances(Protocol):
    """Where a student's boards come from: a ``Variant`` (the lecturer's seed) or an
    ``InstanceFile`` (the boards handed to one student)."""

    def instances(self, task: str, student: str, sizes: Iterable[int]) -> dict[int, Instance]: ...

    def fingerprint(self) -> str: ...


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
            from cp_queens.grading.intake.textfile import CONFIG_BYTES, TextFileError, read_capped

            path = Path(text[1:])
            try:  # capped like the rubric and the roster: @/dev/zero read until killed
                data = read_capped(path, CONFIG_BYTES, "seed file")
            except TextFileError as error:
                raise VariantError(f"cannot read the seed from {error}") from None
            try:
                seed = data.decode("utf-8").strip()
            except UnicodeDecodeError as error:
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
    return replace(result, instance=tuple(boards), sizes=tuple(sizes))


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


#: The first line of a student's instance file (``--show-instance ALL``): what it is.
FORMAT = "cp-queens instance 1"


def hidden_size(task: str, sizes: Iterable[int]) -> int | None:
    """The size graded beyond those handed out (the largest plus one), so that answers
    computed elsewhere and pasted in do not pass: a model must solve a board its author
    has not seen. None when the task's largest variant is handed out already."""
    chosen = list(sizes)
    if not chosen:
        return None
    n = max(chosen) + 1
    return n if n <= tasks.get(task).variant_largest else None


def with_hidden(task: str, sizes: Iterable[int]) -> list[int]:
    """``sizes`` and the hidden size, where there is room for one."""
    chosen = sorted(set(sizes))
    extra = hidden_size(task, chosen)
    return chosen if extra is None else [*chosen, extra]


def count(instance: Instance) -> int:
    """The public fingerprint of a board: how many completions it has (``solutions``), or
    the fewest queens that guard it (``dominate``): a count, never an answer."""
    expected = tasks.get(instance.task).reference(instance.n, instance)
    return len(expected) if isinstance(expected, list) else int(expected)


def instance_record(
    variant: Variant, task: str, student: str, sizes: Iterable[int]
) -> dict[str, Any]:
    """A student's instance file as data: their boards of ``sizes`` with each board's
    count, the call, the variant's fingerprint, and the told text (``told``)."""
    chosen = sorted(set(sizes))
    boards = []
    for n in chosen:
        instance = variant.instance(task, student, n)
        boards.append(
            {
                "n": n,
                "queens": {str(r): c for r, c in sorted(instance.queens.items())},
                "blocked": [list(square) for square in instance.blocked],
                "count": count(instance),
            }
        )
    hidden = hidden_size(task, chosen)
    return {
        "format": FORMAT,
        "student": student.strip(),
        "task": task,
        "variant": variant.fingerprint(),
        "call": tasks.get(task).variant_call,
        "keywords": list(variant.instance(task, student, chosen[0]).keywords) if chosen else [],
        "hidden": [] if hidden is None else [hidden],
        "boards": boards,
        "told": told(variant, task, student, chosen).splitlines(),
    }


def write_instances(
    variant: Variant, task: str, students: Iterable[str], sizes: Iterable[int], folder: Path
) -> list[Path]:
    """One instance file per student in ``folder`` (``ID.json``, the id made a safe file
    name), to hand out: each student checks their model on it with ``cp-queens grade
    model.py --instance ID.json``. The paths written."""
    import json

    from cp_queens.grading.marking.written import file_names, write_files

    chosen = sorted(set(sizes))
    ids = list(students)
    # One file per student, never shared, each name within 255 bytes (written.file_names).
    names = file_names([(student, "") for student in ids], extension=".json")
    texts = {
        name: json.dumps(instance_record(variant, task, student, chosen), indent=1) + "\n"
        for name, student in zip(names, ids, strict=True)
    }
    return write_files(folder, texts, replace=False)


class InstanceFile:
    """A student's instance file, read and checked (``read_instance``): the boards it
    hands out, used like a ``Variant`` for the student's own check."""

    def __init__(self, path: Path, record: dict[str, Any], boards: dict[int, Instance]) -> None:
        self.path, self.record, self.boards = path, record, boards
        self.task: str = record["task"]
        self.hidden: list[int] = list(record.get("hidden", []))

    def fingerprint(self) -> str:
        return str(self.record.get("variant", ""))

    def instances(self, task: str, student: str, sizes: Iterable[int]) -> dict[int, Instance]:
        """The file's board of each size (whoever is graded: the file is the student's)."""
        chosen = list(sizes)
        missing = [n for n in chosen if n not in self.boards]
        if task != self.task or missing:
            have = ", ".join(map(str, sorted(self.boards)))
            raise VariantError(
                f"{self.path}: an instance of task {self.task} for n = {have}; asked for "
                f"task {task}, n = {', '.join(map(str, missing or chosen))}"
            )
        return {n: self.boards[n] for n in chosen}


def read_instance(path: str | Path) -> InstanceFile:
    """A student's instance file, every board checked against its public count: a file
    edited by hand (a queen moved, a square unblocked) is refused in one line."""
    import json

    where = Path(path)
    try:
        record = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise VariantError(f"{where}: not an instance file: {error}") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise VariantError(f"{where}: not an instance file (its format is not {FORMAT!r})")
    task = record.get("task")
    if task not in tasks.names() or not tasks.get(task).variant_largest:
        raise VariantError(f"{where}: task {task!r} has no variants here")
    keywords = tuple(str(key) for key in record.get("keywords") or ("queens", "blocked"))
    boards: dict[int, Instance] = {}
    try:
        for board in record["boards"]:
            n = int(board["n"])
            if not 1 <= n <= tasks.get(task).variant_largest:
                raise ValueError(f"n = {n}")
            queens = {int(r): int(c) for r, c in board.get("queens", {}).items()}
            blocked = tuple(sorted((int(r), int(c)) for r, c in board.get("blocked", [])))
            instance = Instance(task, n, queens, blocked, keywords)
            if "queens" in keywords:
                instance.problem()  # a board that is no problem (ProblemError): refused
            stated = int(board["count"])
            if count(instance) != stated:
                raise VariantError(
                    f"{where}: the board n = {n} is not the one handed out (its count is "
                    f"{count(instance)}, the file says {stated}): ask for the file again"
                )
            boards[n] = instance
    except VariantError:
        raise
    except (KeyError, TypeError, ValueError, CpQueensError) as error:
        raise VariantError(f"{where}: a board cannot be read: {error}") from None
    if not boards:
        raise VariantError(f"{where}: no boards in it")
    return InstanceFile(where, record, boards)
