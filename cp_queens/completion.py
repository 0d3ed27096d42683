"""Solving the completion problem, with every answer checked twice.

Completing a partial board is NP-complete (Gent, Jefferson and Nightingale,
"Complexity of n-Queens Completion", *JAIR* 59, 2017), and "no completion
exists" is a claim that cannot be checked by looking at a board. So this module
never trusts one engine alone:

* every completion an engine returns goes through the independent
  ``cp_queens.verify.verify``, which also checks the given queens are kept;
* ``cross_check`` asks a *second* engine the same question and says where
  the two disagree (existence, number of completions, or the set of them).

Examples:
    >>> from cp_queens import Problem
    >>> problem = Problem(8, fixed={0: 0})
    >>> len(list(completions(problem, "reference")))
    4
    >>> cross_check(problem, "cpsat", count=4) is None
    True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import cp_queens.engines as engines
from cp_queens.answer import DISAGREE, NEGATIVE, Answer
from cp_queens.budget import Budget, check_budget
from cp_queens.engines import Engine, ProgressCallback
from cp_queens.engines.ask import ask
from cp_queens.errors import IncompleteError
from cp_queens.problem import Placement, Problem
from cp_queens.verify import verify


class WrongCompletionError(AssertionError):
    """An engine returned a board that is not a completion: a bug, never a user error."""


def checked(problem: Problem, placement: Placement, engine: str) -> Placement:
    """``placement`` if it is a valid completion of ``problem``; otherwise raise."""
    verdict = verify(placement, problem)
    if not verdict.ok:
        raise WrongCompletionError(f"engine '{engine}' returned {placement}: {verdict.reason}")
    return placement


def first_completion(
    problem: Problem, engine: str | Engine, *, budget: Budget | None = None, **options: Any
) -> Placement | None:
    """One verified completion, or ``None`` when it is proven that there is none.

    ``budget``: the run settings of the call (or give them as keywords with the
    engine's options, when ``engine`` is a name).

    Raises:
        TimeLimitError: the time limit ran out first (see ``Engine.first``).
    """
    solver, budget = _engine(engine, budget, options)
    found = solver.first(problem, budget=budget).result()
    return None if found is None else checked(problem, found, solver.name)


def completions(
    problem: Problem,
    engine: str | Engine,
    *,
    limit: int | None = None,
    budget: Budget | None = None,
    **options: Any,
) -> Iterator[Placement]:
    """Stream every completion, each verified on its way out (a stream cut short by the
    time limit raises ``TimeLimitError`` after its last one)."""
    solver, budget = _engine(engine, budget, options)
    for placement in solver.solutions(problem, limit=limit, budget=budget):
        yield checked(problem, placement, solver.name)


def complete(
    problem: Problem,
    engine: str | Engine,
    task: str = "first",
    *,
    limit: int | None = None,
    each: Callable[[Placement], object] | None = None,
    check_with: str | Engine | None = None,
    time_limit: float | None = None,
    budget: Budget | None = None,
    progress: ProgressCallback | None = None,
    **options: Any,
) -> Answer:
    """The completion problem as an ``Answer``: every completion verified, a second engine
    asked the same question when ``check_with`` names one.

    Args:
        task: ``first`` (one completion: task ``complete``), ``count`` or ``solutions``
            (every completion handed to ``each``; the value is how many).
        limit: for ``solutions``, stop after this many.
        check_with: the engine that cross-checks a complete answer; its verdict is in
            ``details["cross_check"]`` and a disagreement is the outcome ``disagree``.
        time_limit: seconds for each engine (for ``engine`` when it is a name, and for
            the engine of ``check_with``).
        budget: the run settings of the call (or give them as keywords with the
            engine's options, when ``engine`` is a name).
        progress: for ``count``, called now and then with a ``Progress`` (first with
            the estimate of its duration, made before any work).
        **options: options of ``engine`` when it is a name.

    No completion at all, proven, is the outcome ``negative`` for every task.

    Examples:
        >>> complete(Problem(8, {0: 0}), "reference", "count", check_with="cpsat").details
        {'given': 1, 'cross_check': {'engine': 'cpsat', 'agrees': True, 'difference': None}}
        >>> complete(Problem(4, {0: 0}), "reference").outcome
        'negative'
    """
    if time_limit is not None and isinstance(engine, str):
        options = {**options, "time_limit": time_limit}
    solver, budget = _engine(engine, budget, options)
    found: set[Placement] = set()

    def keep(placement: Placement) -> object:
        placement = checked(problem, placement, solver.name)
        if check_with is not None:
            found.add(placement)
        return None if each is None else each(placement)

    if task == "solutions":
        result = ask(task, problem, solver, budget=budget, limit=limit, each=keep)
    else:
        result = ask(
            "complete" if task == "first" else task,
            problem,
            solver,
            budget=budget,
            progress=progress if task == "count" else None,
        )
        if isinstance(result.value, Placement):
            checked(problem, result.value, solver.name)
    # how many queens were given: read by people as "completions", not "solutions"
    result = result.replace(details={"given": len(problem.fixed)})
    if result.complete and result.task == "count" and result.value == 0:
        result = result.replace(outcome=NEGATIVE)
    if check_with is None or not result.complete:
        return result
    asked: dict[str, Any] = {
        "complete": {"exists": result.value is not None},
        "count": {"count": result.value},
        "solutions": {"found": found},
    }[result.task]
    if time_limit is not None:
        asked["time_limit"] = time_limit
    difference = cross_check(problem, check_with, **asked)
    name = check_with if isinstance(check_with, str) else check_with.name
    verdict = {"engine": name, "agrees": difference is None, "difference": difference}
    outcome = DISAGREE if difference is not None else result.outcome
    return result.replace(outcome=outcome, details={**result.details, "cross_check": verdict})


def cross_check(
    problem: Problem,
    engine: str | Engine,
    *,
    exists: bool | None = None,
    count: int | None = None,
    found: set[Placement] | None = None,
    budget: Budget | None = None,
    **options: Any,
) -> str | None:
    """Ask ``engine`` the same question; ``None`` if it agrees, else what differs.

    Give the answer to check as ``exists`` (is there a completion?), ``count``
    (how many?) or ``found`` (the set of all completions). If the second engine
    runs out of time, that is reported too: no answer is not agreement.
    """
    solver, budget = _engine(engine, budget, options)
    name = solver.name
    try:
        return _differs(problem, solver, budget, exists, count, found)
    except IncompleteError as error:
        status = error.stats.status if error.stats is not None else "incomplete"
        return f"{name} stopped early ({status})"


def _differs(
    problem: Problem,
    solver: Engine,
    budget: Budget | None,
    exists: bool | None,
    count: int | None,
    found: set[Placement] | None,
) -> str | None:
    name = solver.name
    if found is not None:
        theirs = set(completions(problem, solver, budget=budget))
        if theirs != found:
            return (
                f"{name} finds {len(theirs)} completions, {len(found & theirs)} of them in common "
                f"with the {len(found)} being checked"
            )
        return None
    if count is not None:
        theirs_count = solver.count(problem, budget=budget).result()
        if theirs_count != count:
            return f"{name} counts {theirs_count} completions, not {count}"
        return None
    if exists is None:
        raise ValueError("cross_check needs one of exists, count or found")
    theirs_first = first_completion(problem, solver, budget=budget)
    if (theirs_first is not None) != exists:
        said = "finds a completion" if theirs_first is not None else "finds no completion"
        return f"{name} {said}"
    return None


def _engine(
    engine: str | Engine, budget: object, options: dict[str, Any]
) -> tuple[Engine, Budget | None]:
    """The engine to ask, and the budget of the call: ``budget``, else the run settings
    among ``options`` (an engine given by name is built here with the rest)."""
    budget = check_budget(budget)
    if not isinstance(engine, str):
        return engine, budget
    solver, made = engines.build(engine, **options)
    return solver, budget or made


#: Where ``generate`` takes its hidden solution from.
SOURCES = ("construct", "random")


def generate(
    n: int, missing: int, *, blocked: int = 0, seed: int = 0, source: str = "construct"
) -> Problem:
    """A completion instance that is known to be solvable, for tests and benchmarks.

    Take a solution of ``n``, remove ``missing`` queens (rows drawn at
    random), and block ``blocked`` more squares, drawn from the open squares of
    the residue that the hidden solution does not use. The hidden solution
    stays a completion, so at least one exists; others may.

    ``source="construct"`` takes the formula's solution: instant, but so
    regular that the residue is nearly forced (few squares stay open).
    ``source="random"`` takes the ``minconflicts`` engine's solution for
    ``seed``: an irregular board like the published benchmark instances, with
    more open squares and more completions.

    Examples:
        >>> problem = generate(12, 6, blocked=3, seed=1)
        >>> len(problem.fixed), len(problem.blocked)
        (6, 3)
        >>> first_completion(problem, "reference") is not None
        True
    """
    if not 0 <= missing <= n:
        raise ValueError(f"missing must be between 0 and n={n}, got {missing}")
    if source not in SOURCES:
        raise ValueError(f"unknown source {source!r} (choose from {', '.join(SOURCES)})")
    if source == "construct":
        solution = engines.get("construct").first(Problem(n)).result()
    else:
        solution = engines.get("minconflicts", seed=seed).first(Problem(n)).result()
    if solution is None:
        raise ValueError(f"{source} has no solution of n={n} to start from")
    chance = random.Random(seed)
    free_rows = set(chance.sample(range(n), missing))
    fixed = {row: col for row, col in enumerate(solution) if row not in free_rows}
    residue = Problem(n, fixed).residue()
    candidates = [
        (row, col)
        for index, row in enumerate(residue.rows)
        for col in residue.open_columns(index)
        if solution[row] != col
    ]
    if blocked > len(candidates):
        raise ValueError(
            f"only {len(candidates)} open squares are off the hidden solution; "
            f"cannot block {blocked}"
        )
    return Problem(n, fixed, frozenset(chance.sample(candidates, blocked)))
