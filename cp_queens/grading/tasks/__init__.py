"""The task registry: every graded task by name, as ``cp_queens.engines`` holds the engines.

Task ``x`` lives in module (or package) ``x`` of this package, a ``Task`` subclass
registered with ``register`` (``cp_queens.grading.tasks.base`` says what a task owns and
how to add one), so a new graded task is one new file. Task names, ``--task``'s choices
and the rubric's task list all come from here (``names``); a task's module is imported
only when the task is first asked for.

The doors below find the task by its name (or the rubric's task) and ask it; nothing
here, nor anywhere else in the grader, branches on a task's name.

Examples:
    >>> from cp_queens.grading.rubric import load
    >>> rubric = load()
    >>> answer = [[1, 3, 0, 2], [2, 0, 3, 1], [2, 0, 3, 1]]
    >>> row = judge("solutions", 4, answer, reference("solutions", 4))
    >>> row.verdict(), share(row, rubric)
    ('1 duplicate', Fraction(2, 3))
    >>> rubric = rubric.for_task("dominate")
    >>> row = judge("dominate", 4, [(0, 0), (2, 2)], reference("dominate", 4))
    >>> row.verdict(), share(row, rubric)
    ('ok', Fraction(1, 1))
"""

from __future__ import annotations

import importlib
import pkgutil
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from cp_queens.errors import CpQueensError

if TYPE_CHECKING:
    from cp_queens.grading.results import Row
    from cp_queens.grading.tasks.base import Instance, Task

_REGISTRY: dict[str, Task] = {}

#: Modules of this package that hold no task.
NOT_TASKS = frozenset({"base", "came_back", "variants"})

T = TypeVar("T", bound="type[Task]")


class UnknownTaskError(CpQueensError):
    """A task name no module of this package registers."""


def register(cls: T) -> T:
    """Class decorator: make a task available under ``cls.name`` (one instance, kept)."""
    if not cls.name:
        raise TypeError(f"{cls.__qualname__} has no name")
    _REGISTRY[cls.name] = cls()
    return cls


def names() -> list[str]:
    """Every task name, sorted, read off the module names (no task module imported)."""
    in_modules = {
        module.name
        for module in pkgutil.iter_modules(__path__)
        if module.name not in NOT_TASKS and not module.name.startswith("_")
    }
    return sorted(in_modules | _REGISTRY.keys())


def get(name: str) -> Task:
    """The task registered under ``name``; a clear error lists the known names."""
    if name not in _REGISTRY:
        if name not in names():
            raise UnknownTaskError(f"task {name!r}: unknown (expected {', '.join(names())})")
        importlib.import_module(f"{__name__}.{name}")
        if name not in _REGISTRY:
            raise UnknownTaskError(f"task {name!r}: its module registers no task")
    return _REGISTRY[name]


def reference(task: str, n: int, instance: Instance | None = None) -> Any:
    """What an answer of size ``n`` is judged against (``Task.reference``)."""
    return get(task).reference(n, instance)


def judge(task: str, n: int, produced: Any, expected: Any) -> Row:
    """What ``model(n)`` returned, judged for ``task``; never raises (``Task.judged``)."""
    return get(task).judged(n, produced, expected)


def error_row(task: str, n: int, expected: Any, problem: str) -> Row:
    """The row of a size that raised, hit a limit or never answered."""
    return get(task).error_row(n, expected, problem)


def share(row: Any, rubric: Any) -> Fraction:
    """The share (0..1) of a size's points this row earns under ``rubric``, exact: a ratio
    of counts, never rounded (the task whose row it is says)."""
    return _task_of(row).share(row, rubric)


def points(row: Any, worth: float, rubric: Any) -> Fraction:
    """The points a size's row earns under ``rubric``: its worth times its share, exact."""
    return _task_of(row).points(row, worth, rubric)


def _task_of(row: Any) -> Task:
    """The task whose judge made ``row`` (each task has its own ``row_type``)."""
    for task in _REGISTRY.values():
        if isinstance(row, task.row_type):
            return task
    raise TypeError(f"{type(row).__name__}: the row of no registered task")
