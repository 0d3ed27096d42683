"""Ask an engine any task: the one door from a task's name to the engine's call.

``Answer`` (``cp_queens.answer``) is the result type every layer shares; asking is
the engines' business, so the dispatcher lives here, beside them, and the result
type stays below every engine (``engines.base`` builds answers, nothing under it
calls an engine).

Examples:
    >>> from cp_queens import engines
    >>> from cp_queens.budget import Budget
    >>> from cp_queens.problem import Problem
    >>> reference = engines.get("reference")
    >>> ask("count", Problem(6), reference).value
    4
    >>> cut = ask("count", Problem(14), reference, budget=Budget.of(time_limit=0.01))
    >>> cut.complete, cut.value, cut.partial < 365596, cut.outcome, cut.reason
    (False, None, True, 'incomplete', 'time_limit')
    >>> ask("first", Problem(3), reference).outcome
    'negative'
"""

from __future__ import annotations

from collections.abc import Callable

from cp_queens.answer import Answer, streamed
from cp_queens.budget import Budget
from cp_queens.engines.base import Engine, ProgressCallback
from cp_queens.problem import Placement, Problem

__all__ = ["ask"]


def ask(
    task: str,
    problem: Problem,
    engine: Engine,
    *,
    budget: Budget | None = None,
    limit: int | None = None,
    progress: ProgressCallback | None = None,
    each: Callable[[Placement], object] | None = None,
) -> Answer:
    """Ask ``engine`` one task about ``problem``: the one door to every task, a stream
    of solutions included (whose ``TimeLimitError`` becomes an incomplete answer here).

    Args:
        task: ``first`` / ``complete`` (one solution), ``count``, ``count_unique``
            or ``solutions`` (every placement, each handed to ``each`` as it comes;
            the value is how many).
        problem: the board and its given queens.
        engine: the engine that answers (``cp_queens.engines.get``).
        budget: the run settings of this call (default: none: no time limit).
        limit: for ``solutions``, stop after this many (not an incomplete answer).
        progress: for counts, called now and then with a ``Progress``.
        each: for ``solutions``, called with every placement as it is found.

    Returns:
        The answer; ``complete=False`` with the partial figure when a limit cut the
        call short. Bad input still raises (``CpQueensError``).
    """
    if task in ("first", "complete"):
        found = engine.first(problem, budget=budget)
        return found if task == "first" else found.replace(task=task)
    if task == "count":
        return engine.count(problem, progress=progress, budget=budget)
    if task == "count_unique":
        return engine.count_unique(problem, progress=progress, budget=budget)
    if task == "solutions":
        return _stream(problem, engine, budget, limit, each)
    raise ValueError(f"ask(): {task!r} is not an engine task")


def _stream(
    problem: Problem,
    engine: Engine,
    budget: Budget | None,
    limit: int | None,
    each: Callable[[Placement], object] | None,
) -> Answer:
    with engine.solutions(problem, limit=limit, budget=budget) as stream:
        return streamed(problem, stream, each, stats=stream.stats, limit=limit)
