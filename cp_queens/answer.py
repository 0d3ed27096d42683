"""The one answer type: what a task found, whether it is whole, and what it cost.

Every answering door (the library functions, each CLI command, ``compare``,
completion, domination) ends in one ``Answer``; every output format writes an
``Answer`` (``cp_queens.formats``), so no command builds its own output by hand.

Why a separate ``partial``: a figure that a limit cut short (a count so far, the
best dominating set found) is not an answer, and must never sit where an answer
goes. ``value`` holds the answer only when ``complete``; ``partial`` holds what was
found only when not. A reader of the JSON document meets ``"value"`` or
``"partial"``, never a lower bound under the answer's name.

Every engine call (``count``, ``count_unique``, ``first``) returns an ``Answer`` with
its statistics; ``cp_queens.ask()`` (``cp_queens.engines.ask``) asks an engine any
task, a stream of solutions included, and gives its ``Answer``. Made by hand:

    >>> answer = Answer("count", Problem(6), 4)
    >>> answer.value, answer.complete, answer.outcome
    (4, True, 'answer')
    >>> cut = Answer("count", Problem(14), complete=False, partial=100)
    >>> cut.complete, cut.value, cut.partial, cut.outcome, cut.reason
    (False, None, 100, 'incomplete', 'time_limit')
    >>> document = answer.to_json()
    >>> document["schema"], document["version"], document["n"], document["value"]
    ('cp-queens/answer', 2, 6, 4)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cp_queens.errors import IncompleteError, TimeLimitError
from cp_queens.problem import Placement, Problem
from cp_queens.stats import COMPLETE, TIME_LIMIT, Stats

__all__ = [
    "ANSWER",
    "DISAGREE",
    "INCOMPLETE",
    "NEGATIVE",
    "OUTCOMES",
    "SCHEMA",
    "SCHEMA_FILE",
    "TASKS",
    "VERSION",
    "Answer",
    "cut_short",
    "plain",
    "schema",
    "streamed",
]

#: The ``schema`` field of every JSON answer, and its ``version``: a reader checks both.
#: The version goes up when a field changes meaning, changes shape or goes away (adding
#: one does not); tests/test_answer_shapes.py holds every command's document to a frozen
#: example of its version. 2: ``count`` writes ``"value": 14200, "unique": 1787`` (version
#: 1 wrote ``"task": "count_unique", "value": {"total": 14200, "unique": 1787}``).
SCHEMA = "cp-queens/answer"
VERSION = 2

#: What was asked. ``first`` one solution (``complete``: one completion of given
#: queens), ``count`` / ``count_unique`` how many, ``solutions`` every placement
#: (streamed: the value is how many), ``verify`` / ``check`` a verdict on given
#: placements, ``compare`` engines side by side, ``dominate`` the fewest queens
#: covering the board.
TASKS = (
    "first",
    "count",
    "count_unique",
    "solutions",
    "verify",
    "check",
    "complete",
    "compare",
    "dominate",
)

#: Outcomes, one per kind of exit: an answer, a proven "no" (no solution, an invalid
#: placement), two engines that disagree, and an answer a limit cut short.
ANSWER = "answer"
NEGATIVE = "negative"
DISAGREE = "disagree"
INCOMPLETE = "incomplete"
OUTCOMES = (ANSWER, NEGATIVE, DISAGREE, INCOMPLETE)

#: Keys of the JSON document that ``details`` may not take.
_RESERVED = frozenset(
    {
        "schema",
        "version",
        "task",
        "n",
        "fixed",
        "blocked",
        "complete",
        "outcome",
        "reason",
        "value",
        "partial",
        "stats",
    }
)


@dataclass(frozen=True)
class Answer:
    """One task's result.

    Attributes:
        task: what was asked (one of ``TASKS``).
        problem: the board asked about (``None`` for tasks over many, e.g. ``compare``).
        value: the answer, when ``complete``; ``None`` otherwise. Per task: a
            ``Placement`` or ``None`` (proven none) for ``first``/``complete``, an
            ``int`` for ``count``, a ``UniqueCount`` for ``count_unique``, the number
            of placements streamed for ``solutions``; what the maker chose otherwise.
        complete: whether ``value`` is the whole answer.
        partial: what was found before a limit stopped the task (a lower bound, the
            best found, ``None`` when nothing); ``None`` when ``complete``.
        reason: why the task ended: ``complete``, ``time_limit`` or ``stopped``.
        outcome: ``answer``, ``negative``, ``disagree`` or ``incomplete`` (set from
            ``complete``): what the exit code says.
        stats: the engine's statistics of the call, when one engine answered.
        details: other task-specific fields, written beside the answer (``unique``
            counts, verdict reasons, compare's runs); JSON-ready after ``plain``.
        error: the ``IncompleteError`` an incomplete answer was made from (not written):
            ``result()`` raises it again, so a library function can return an answer's
            value and keep the completeness convention.
    """

    task: str
    problem: Problem | None
    value: Any = None
    complete: bool = True
    partial: Any = None
    reason: str = COMPLETE
    outcome: str = ANSWER
    stats: Stats | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    error: IncompleteError | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.task not in TASKS:
            raise ValueError(f"unknown task {self.task!r} (one of {', '.join(TASKS)})")
        if self.outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {self.outcome!r} (one of {', '.join(OUTCOMES)})")
        clash = _RESERVED & set(self.details)
        if clash:
            raise ValueError(f"details may not use the reserved key {sorted(clash)[0]!r}")
        if self.complete:
            if self.outcome == INCOMPLETE or self.partial is not None:
                raise ValueError("a complete answer has no partial figure and is not incomplete")
            if self.reason != COMPLETE:
                object.__setattr__(self, "reason", COMPLETE)
        else:
            if self.value is not None:
                raise ValueError("an incomplete answer keeps what it found in partial, not value")
            object.__setattr__(self, "outcome", INCOMPLETE)
            if self.reason == COMPLETE:
                object.__setattr__(self, "reason", TIME_LIMIT)

    @property
    def n(self) -> int | None:
        """The board size asked about, if there is one board."""
        return None if self.problem is None else self.problem.n

    @property
    def found(self) -> Any:
        """The value when complete, else the partial figure: for text that says which."""
        return self.value if self.complete else self.partial

    def result(self) -> Any:
        """The value of a complete answer; for one cut short, raise what cut it
        (``TimeLimitError``, carrying ``partial`` and ``stats``).

        Examples:
            >>> Answer("count", Problem(4), 2).result()
            2
            >>> Answer("count", Problem(9), complete=False, partial=5).result()
            Traceback (most recent call last):
            ...
            cp_queens.errors.TimeLimitError: count of n=9 stopped by time_limit: 5 found so far
        """
        if self.complete:
            return self.value
        if self.error is not None:
            raise self.error
        where = "" if self.n is None else f" of n={self.n}"
        raise TimeLimitError(
            f"{self.task}{where} stopped by {self.reason}: {self.partial} found so far",
            partial=self.partial,
            stats=self.stats,
        )

    def replace(self, **changes: Any) -> Answer:
        """A copy with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The one versioned JSON document (``cp_queens/answer.schema.json``).

        ``value`` appears when the answer is complete, ``partial`` when it is not;
        ``n`` (and ``fixed``/``blocked`` when given) describe the board.
        """
        document: dict[str, Any] = {"schema": SCHEMA, "version": VERSION, "task": self.task}
        if self.problem is not None:
            document["n"] = self.problem.n
            if self.problem.fixed:
                document["fixed"] = [[r, c] for r, c in sorted(self.problem.fixed.items())]
            if self.problem.blocked:
                document["blocked"] = [[r, c] for r, c in sorted(self.problem.blocked)]
        document["complete"] = self.complete
        document["outcome"] = self.outcome
        document["reason"] = self.reason
        if self.complete:
            document["value"] = plain(self.value)
        else:
            document["partial"] = plain(self.partial)
        document.update((key, plain(value)) for key, value in self.details.items())
        document["stats"] = None if self.stats is None else self.stats.as_dict()
        return document


#: The JSON Schema of the document, shipped beside this module (package data).
SCHEMA_FILE = "answer.schema.json"


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) every ``to_json`` document validates against."""
    import json
    from importlib import resources

    text = resources.files("cp_queens").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    return json.loads(text)


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data: placements as lists of columns, named tuples and
    dataclasses as objects, tuples and sets as lists.

    Examples:
        >>> plain(Placement([1, 3, 0, 2])), plain({"a": (1, 2)})
        ([1, 3, 0, 2], {'a': [1, 2]})
    """
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Placement):
        return list(value.cols)
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {key: plain(item) for key, item in value._asdict().items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        as_dict = getattr(value, "as_dict", None)
        source = as_dict() if callable(as_dict) else dataclasses.asdict(value)
        return {key: plain(item) for key, item in source.items()}
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return [plain(item) for item in items]
    if hasattr(value, "__index__"):  # NumPy integers
        return int(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def cut_short(
    task: str,
    problem: Problem | None,
    error: IncompleteError,
    details: Mapping[str, Any] | None = None,
) -> Answer:
    """The ``Answer`` of a call that raised ``TimeLimitError`` (or another
    ``IncompleteError``): its partial figure, its statistics, why it stopped."""
    stats = error.stats if isinstance(error.stats, Stats) else None
    reason = TIME_LIMIT if stats is None or stats.status == COMPLETE else stats.status
    return Answer(
        task,
        problem,
        complete=False,
        partial=error.partial,
        reason=reason,
        stats=stats,
        details=details or {},
        error=error,
    )


def streamed(
    problem: Problem,
    items: Iterable[Any],
    write: Callable[[Any], object] | None,
    *,
    stats: Stats | None,
    limit: int | None = None,
) -> Answer:
    """The ``solutions`` answer of a stream: every item handed to ``write``, the value how
    many placements were written (``write`` may return how many an item held, a block of
    placements; anything else counts one), a ``TimeLimitError`` an incomplete answer.

    None at all, in a search that ran to its end, is a proven "no"; ``stats`` (the call's
    statistics, filled as it runs) tell.
    """
    written = 0
    try:
        for item in items:
            took = None if write is None else write(item)
            written += took if isinstance(took, int) and not isinstance(took, bool) else 1
    except IncompleteError as error:
        error.partial = written  # what reached ``write``, not what the engine saw
        return cut_short("solutions", problem, error)
    ended = stats is None or stats.status == COMPLETE
    outcome = NEGATIVE if written == 0 and ended and limit != 0 else ANSWER
    return Answer("solutions", problem, written, outcome=outcome, stats=stats)
