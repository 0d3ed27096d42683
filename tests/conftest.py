"""Shared fixtures: known counts (OEIS) and an ``engine`` fixture over the whole registry.

A test that takes ``engine_name`` runs once per registered engine, so a new
engine is tested by being registered. Engines declare what they can do
(``can_enumerate``, ``can_count``, ``max_n``); tests ask instead of guessing.
"""

from __future__ import annotations

import pytest

from cp_queens import engines

#: OEIS A000170: number of ways to place n non-attacking queens, n = 1..27 (test oracle only).
A000170 = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
    14772512, 95815104, 666090624, 4968057848, 39029188884,
]  # fmt: skip

#: OEIS A002562: solutions up to rotation and reflection, n = 1..20 (test oracle only).
A002562 = [
    1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955,
    11977939, 83263591, 621012754, 4878666808,
]  # fmt: skip


def total(n: int) -> int:
    return A000170[n - 1]


def unique(n: int) -> int:
    return A002562[n - 1]


ALL_ENGINES = engines.names()


def engines_that(*, enumerate: bool = False, count: bool = False) -> list[str]:
    """Registered engine names that can do the given tasks."""
    chosen = []
    for name in ALL_ENGINES:
        cls = engines.engine_class(name)
        if enumerate and not cls.can_enumerate:
            continue
        if count and not cls.can_count:
            continue
        chosen.append(name)
    return chosen


@pytest.fixture(params=ALL_ENGINES)
def engine_name(request: pytest.FixtureRequest) -> str:
    return request.param
