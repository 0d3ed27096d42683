"""The engines the completion tests ask (given queens, blocked squares), and their oracle.

``tests/test_completion.py`` and ``tests/test_blocked.py`` hold every engine that takes
given queens to the same brute-force answers: the list of those engines, which of them
count or enumerate, and which take a board of a given size (an engine's ``max_n``: the
compiled ``fast`` kernels stop at n = 62) live here once, read off the engine classes.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection
from functools import cache

from cp_queens import Problem, engines, verify
from tests.helpers import usable

#: Every installed engine that takes given queens (and blocked squares).
FIXED_ENGINES = usable([n for n in engines.names() if engines.engine_class(n).supports_fixed])

#: Engines that start a process or build a solver's model per call (MiniZinc 0.1 s of
#: CPU a call, CPMpy 0.04 s; the others a few ms): the default run's random boards leave
#: them to the slow run, and ask them every question on a fixed board instead.
PER_CALL = frozenset({"minizinc", "cpmpy"})


def completion_engines(
    n: int, task: str = "first", *, skip: Collection[str] = frozenset()
) -> list[str]:
    """The engines of ``FIXED_ENGINES`` that do ``task`` (``first``, ``count`` or
    ``enumerate``) on a board of ``n`` (within their ``max_n``), but those in ``skip``."""
    chosen = []
    for name in FIXED_ENGINES:
        cls = engines.engine_class(name)
        able = {"first": True, "count": cls.can_count, "enumerate": cls.can_enumerate}[task]
        if able and (cls.max_n is None or n <= cls.max_n) and name not in skip:
            chosen.append(name)
    return chosen


@cache
def engine(name: str) -> engines.Engine:
    """One instance of each engine for the tests' loops: building ``minizinc`` asks the
    program for its solvers (a process, 0.03 s of CPU) every time, and a call keeps no
    state in its engine, so many calls of one instance ask what fresh ones would."""
    return engines.get(name)


def distinct_diagonals(p: tuple[int, ...]) -> bool:
    """No two queens of the permutation ``p`` share a diagonal (nor an anti-diagonal)."""
    return len({c + r for r, c in enumerate(p)}) == len({c - r for r, c in enumerate(p)}) == len(p)


@cache
def all_solutions(n: int) -> frozenset[tuple[int, ...]]:
    """Brute force over every permutation (n <= 8: at most 40,320 candidates); those with
    distinct diagonals (the cheap test first: asking verify about all 40,320 of n = 8
    took 0.3 s) go to :func:`verify`, which must accept them."""
    return frozenset(
        p for p in itertools.permutations(range(n)) if distinct_diagonals(p) and verify(p).ok
    )


def oracle(problem: Problem) -> frozenset[tuple[int, ...]]:
    """The completions of ``problem`` by brute force: the solutions that hold its given
    queens and stand on none of its blocked squares."""
    return frozenset(
        s
        for s in all_solutions(problem.n)
        if all(s[r] == c for r, c in problem.fixed.items())
        and not any(s[r] == c for r, c in problem.blocked)
    )
