"""Words for people: an answer's line (what the ``text`` format prints) and the one
stderr line of an answer a limit cut short, written from the answer's own record.

Apart from ``cp_queens.writers`` (the formats and the sink that writes them), which
prints these lines; both are core modules.
"""

from __future__ import annotations

from cp_queens.answer import NEGATIVE, Answer
from cp_queens.stats import STOPPED

__all__ = ["answer_text", "counted", "stopped_line"]


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless it is one: ``1 placement``, ``92 solutions``.

    Examples:
        >>> counted(1, "placement"), counted(0, "solution"), counted(14200, "solution")
        ('1 placement', '0 solutions', '14200 solutions')
    """
    return f"{count} {noun}{'s' * (count != 1)}"


def _completing(answer: Answer) -> bool:
    """Whether the answer is about completions (given queens or blocked squares, or
    asked as a completion: ``cp-queens complete``)."""
    problem = answer.problem
    return "given" in answer.details or (problem is not None and not problem.is_empty_board)


def _solutions(count: int, given: bool) -> str:
    """``92 solutions`` or, for completions, ``1 completion``."""
    return counted(count, "completion" if given else "solution")


def _no_solution(answer: Answer) -> str:
    if _completing(answer):
        return "no completion exists"
    return f"no solution exists for N={answer.n}"


def answer_text(answer: Answer) -> str:
    """The answer as a line (or a few) for people: what the ``text`` format prints."""
    value, details, given = answer.value, answer.details, _completing(answer)
    if answer.task in ("first", "complete", "solutions") and answer.outcome == NEGATIVE:
        return _no_solution(answer)
    if answer.task == "count":
        if given:
            return _no_solution(answer) if value == 0 else _solutions(value, given)
        unique = details.get("unique")
        also = "" if unique is None else f", {unique} unique"
        return f"n={answer.n}: {_solutions(value, given)}{also}"
    if answer.task == "count_unique":
        return f"n={answer.n}: {counted(value.total, 'solution')}, {value.unique} unique"
    if answer.task == "dominate":
        return _domination(answer)
    if "summary" in details:  # verify, check: the command's own words
        return str(details["summary"])
    if answer.task == "solutions":
        return f"{_solutions(value, given)} written"
    return str(value)


def _domination(answer: Answer) -> str:
    """A dominating set's line: its size, and proven the smallest or how far from it."""
    found, details, n = answer.found, answer.details, answer.n
    what = "independent dominating set" if details.get("independent") else "dominating set"
    queens = f"{found['size']} queen{'s' * (found['size'] != 1)}"
    if answer.complete:
        how = "" if details.get("proof") == "search" else ", by the classic bound"
        return f"{queens}: a smallest {what} of the {n} x {n} board (proven optimal{how})"
    return (
        f"{queens}: the best {what} found, not proven optimal; "
        f"lower bound {details.get('bound')} (gap {details.get('gap', 0):.0%})"
    )


def stopped_line(answer: Answer, where: str = "") -> str:
    """The one stderr line of an answer a limit cut short, saying what was found so far.

    Why it stopped is the answer's own record: its ``reason`` and the time limit its
    statistics say the call ran under (a search that ends incomplete without one gave
    up: local search after its steps). ``where``: the file the placements went to,
    said of a stream (`` in out.jsonl``).

    Examples:
        >>> from cp_queens.problem import Problem
        >>> from cp_queens.stats import Stats
        >>> cut = Answer("count", Problem(15), complete=False, partial=7, stats=Stats(time_limit=0.5))
        >>> stopped_line(cut)
        'cp-queens: stopped by the time limit of 0.5 s: n=15 has at least 7 solutions (the count is incomplete)'
        >>> stopped_line(Answer("first", Problem(30), complete=False, stats=Stats()))
        'cp-queens: the search gave up: no solution found (none is not proven)'
    """  # noqa: E501
    partial, given = answer.partial, _completing(answer)
    limit = None if answer.stats is None else answer.stats.time_limit
    if answer.reason == STOPPED:
        stopped = "cp-queens: stopped"
    elif limit is None:
        stopped = "cp-queens: the search gave up"
    else:
        stopped = f"cp-queens: stopped by the time limit of {limit:g} s"
    if answer.task in ("first", "complete"):
        if given:
            return f"{stopped}: no completion found"
        if limit is not None and answer.reason != STOPPED:
            return (
                f"cp-queens: no solution found within the time limit of {limit:g} s "
                "(none is not proven)"
            )
        return f"{stopped}: no solution found (none is not proven)"
    if answer.task == "count" and given:
        return f"{stopped}: at least {partial} completions, the count is incomplete"
    if answer.task == "count":
        unique = answer.details.get("unique")
        also = "" if unique is None else f", {unique} unique"
        return (
            f"{stopped}: n={answer.n} has at least {partial} solutions{also} "
            "(the count is incomplete)"
        )
    if answer.task == "count_unique":
        total, unique = partial
        return (
            f"{stopped}: n={answer.n} has at least {total} solutions, {unique} unique "
            "(the count is incomplete)"
        )
    if answer.task == "solutions":
        found = counted(partial, "completion" if given else "solution")
        return f"{stopped} after {found}; those written{where} are complete, the list is not"
    if answer.task == "dominate" and isinstance(partial, dict):
        return (
            f"{stopped}: the best set found has {partial['size']} "
            f"queen{'s' * (partial['size'] != 1)}, not proven the "
            f"fewest (lower bound {answer.details.get('bound')})"
        )
    found = "" if partial is None else f": best found so far {partial}"
    return f"{stopped}{found} (the answer is incomplete)"
