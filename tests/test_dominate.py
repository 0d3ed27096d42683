"""Queens domination: the models against a brute force, the published values and the checker.

The brute force (every set of 1, 2, 3, ... squares) and the checker use only the
rules of chess; the models are CP-SAT and SCIP on rows built elsewhere. They must
agree on the optimum, and every set a model returns must pass the checker.
"""

from __future__ import annotations

import itertools

import pytest

from cp_queens.dominate import (
    MAX_N,
    attacks,
    classic_lower_bound,
    dominate,
    dominates,
    lp_bound,
    smallest_dominating_set,
)
from cp_queens.errors import CpQueensError

#: OEIS A075458, domination number of the n x n queens graph, n = 1..25 (test oracle only).
A075458 = [1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11, 11, 12, 12, 13, 13]
#: Independent domination number of the n x n queens graph (OEIS A075324), n = 1..14,
#: read from the square boards of OEIS A299029 (Bozoki et al.) (test oracle only).
A075324 = [1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7, 7, 8]

VARIANTS = [False, True]
COMBINATIONS = [
    (model, symmetry) for model in ("cp", "mip") for symmetry in ("none", "halves", "lex")
]


def published(n: int, independent: bool) -> int:
    return (A075324 if independent else A075458)[n - 1]


@pytest.mark.parametrize("independent", VARIANTS, ids=["dominating", "independent"])
def test_brute_force_agrees_with_the_published_values_up_to_7(independent: bool) -> None:
    for n in range(1, 8):
        best = smallest_dominating_set(n, independent=independent)
        assert dominates(n, best, independent=independent).ok
        assert len(best) == published(n, independent), n


@pytest.mark.parametrize(("model", "symmetry"), COMBINATIONS)
@pytest.mark.parametrize("independent", VARIANTS, ids=["dominating", "independent"])
def test_models_agree_with_brute_force_up_to_5(
    model: str, symmetry: str, independent: bool
) -> None:
    for n in range(1, 6) if symmetry == "none" else (4, 5):
        result = dominate(n, independent=independent, model=model, symmetry=symmetry)
        assert result.optimal and result.bound == result.size
        assert result.size == len(smallest_dominating_set(n, independent=independent))
        assert dominates(n, result.queens, independent=independent).ok


@pytest.mark.slow
@pytest.mark.parametrize(("model", "symmetry"), COMBINATIONS)
@pytest.mark.parametrize("independent", VARIANTS, ids=["dominating", "independent"])
def test_models_agree_with_brute_force_at_6_and_7(
    model: str, symmetry: str, independent: bool
) -> None:
    for n in (6, 7):
        result = dominate(n, independent=independent, model=model, symmetry=symmetry)
        assert result.optimal
        assert result.size == len(smallest_dominating_set(n, independent=independent))
        assert dominates(n, result.queens, independent=independent).ok


#: How far each model proves the optimum within a 60 s budget on the development machine
#: (benchmarks/dominate.py, docs/domination.md), with the symmetry breaking that got
#: furthest: the slow tests solve these boards without a time limit and compare with OEIS.
REACHED = {
    ("cp", "lex", False): 9,
    ("cp", "lex", True): 11,
    ("mip", "none", False): 10,
    ("mip", "none", True): 11,
}


@pytest.mark.slow
@pytest.mark.parametrize(("model", "symmetry", "independent"), list(REACHED))
def test_models_reach_the_published_values(model: str, symmetry: str, independent: bool) -> None:
    for n in range(8, REACHED[model, symmetry, independent] + 1):
        result = dominate(n, independent=independent, model=model, symmetry=symmetry)
        assert result.optimal, n
        assert result.size == published(n, independent), n
        assert dominates(n, result.queens, independent=independent).ok


def test_the_checker_names_what_is_wrong() -> None:
    assert dominates(3, [(1, 1)]).ok
    assert "square (1, 2)" in dominates(4, [(0, 0), (3, 3)]).reason
    assert "attack each other" in dominates(4, [(1, 1), (2, 2)], independent=True).reason
    assert dominates(4, [(0, 0), (2, 2)]).ok
    assert "off the 4 x 4 board" in dominates(4, [(4, 0)]).reason
    assert "two queens on" in dominates(4, [(1, 1), (1, 1)]).reason
    assert not dominates(2, []).ok


def test_what_one_queen_covers_is_its_row_column_and_diagonals() -> None:
    # Every square a queen on (2, 1) of a 5 x 5 board covers, written out by hand.
    covered = {(2, c) for c in range(5)} | {(r, 1) for r in range(5)}
    covered |= {(1, 0), (3, 0), (1, 2), (0, 3), (3, 2), (4, 3)}
    board = [(r, c) for r in range(5) for c in range(5)]
    assert {square for square in board if attacks((2, 1), square)} == covered
    first_missed = min(set(board) - covered)
    assert f"square {first_missed}" in dominates(5, [(2, 1)]).reason


def test_bounds_stay_below_the_optimum() -> None:
    for n in range(1, 10):
        assert classic_lower_bound(n) <= A075458[n - 1]
    for n in range(1, 8):
        assert lp_bound(n) <= classic_lower_bound(n) + 1e-6 or n <= 2
        assert lp_bound(n) <= A075458[n - 1] + 1e-6


def test_a_time_limit_returns_a_checked_set_and_a_bound() -> None:
    steps = []
    result = dominate(12, time_limit=0.2, on_step=steps.append)
    assert result.bound <= 6 <= (result.size or 99)
    if result.queens:
        assert dominates(12, result.queens).ok
    assert all(a.seconds <= b.seconds for a, b in itertools.pairwise(steps))
    assert all(s.bound <= (s.best or 99) for s in steps)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": 0}, "N must be"),
        ({"n": MAX_N + 1}, "too large"),
        ({"n": 5, "model": "gurobi"}, "unknown model"),
        ({"n": 5, "symmetry": "all"}, "unknown symmetry"),
        ({"n": 5, "time_limit": 0}, "time limit"),
        ({"n": 5, "workers": 0}, "workers"),
    ],
)
def test_bad_requests_are_one_clear_error(kwargs: dict, message: str) -> None:
    n = kwargs.pop("n")
    with pytest.raises(CpQueensError, match=message):
        dominate(n, **kwargs)
