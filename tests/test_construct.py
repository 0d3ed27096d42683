"""The ``construct`` engine: a valid placement for every n, checked by the independent verifier."""

from __future__ import annotations

import pytest

from cp_queens import Problem, engines, verify
from cp_queens.engines.construct import construct_columns
from cp_queens.errors import UnsupportedTaskError


#: Every n below 400, one test per residue class of n mod 6 (the construction's rules
#: follow it): 399 items cost more in pytest's own bookkeeping than in the engine.
@pytest.mark.parametrize("residue", range(6))
def test_every_small_board_gets_a_valid_placement(residue: int) -> None:
    engine = engines.get("construct")
    for n in range(residue or 6, 400, 6):
        answer = engine.first(Problem(n))
        placement = answer.value
        if n in (2, 3):
            assert placement is None and answer.outcome == "negative", n
        else:
            assert placement is not None and placement.n == n, n
            assert verify(placement).ok, (n, verify(placement).reason)


@pytest.mark.parametrize("n", [1000, 1002, 1004, 1005, 10_001, 123_456, 200_000])
def test_large_boards_in_every_residue_class(n: int) -> None:
    # n mod 6 covers 4, 0, 2, 3, 5, 0, 2: both even rules and the odd corner rule.
    cols = construct_columns(n)
    assert cols is not None and sorted(cols.tolist()) == list(range(n))
    assert verify(cols).ok


def test_first_answers_with_its_stats() -> None:
    stats = engines.get("construct").first(Problem(10)).stats
    assert stats is not None and (stats.engine, stats.solutions) == ("construct", 1)


@pytest.mark.parametrize("task", ["count", "solutions"])
def test_says_it_cannot_count_or_enumerate(task: str) -> None:
    engine = engines.get("construct")
    with pytest.raises(UnsupportedTaskError, match="cannot"):
        result = getattr(engine, task)(Problem(8))
        list(result)


def test_refuses_pre_placed_queens() -> None:
    with pytest.raises(UnsupportedTaskError, match="pre-placed"):
        engines.get("construct").first(Problem(8, fixed={0: 0}))
