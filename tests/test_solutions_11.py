"""The key of lesson 11 (optimisation), recomputed without its solvers: brute force,
the independent checker, the symmetries of the square written out here."""

from __future__ import annotations

from itertools import combinations

import pytest

from cp_queens.dominate import attacks, dominates, lp_bound, smallest_dominating_set
from tests.helpers import load_key


def test_key_35_questions_start_at_the_classic_bound_and_end_at_the_optimum() -> None:
    key = load_key("lesson11")
    for n in range(2, 7):
        k, answers = key.smallest_by_questions(n)
        assert k == len(smallest_dominating_set(n))
        assert answers[0][0] == max(1, (n - 1 + 1) // 2)
        assert [yes for _, yes in answers] == [False] * (len(answers) - 1) + [True]


def test_key_36_the_uniform_point_is_lp_feasible_and_above_the_lp_bound() -> None:
    key = load_key("lesson11")
    for n in range(2, 11):
        assert key.fewest_dominators(n) == 3 * n - 2
        board = [(r, c) for r in range(n) for c in range(n)]
        share = 1 / key.fewest_dominators(n)
        for square in board:  # every covering row holds at the uniform point
            assert sum(share for queen in board if attacks(queen, square)) >= 1 - 1e-9
        assert key.uniform_lp_value(n) == pytest.approx(n * n / (3 * n - 2))
        assert lp_bound(n) <= key.uniform_lp_value(n) + 1e-6


def test_key_37_independence_costs_a_queen_where_brute_force_says() -> None:
    key = load_key("lesson11")
    expected = [
        n
        for n in range(1, 8)
        if len(smallest_dominating_set(n, independent=True)) != len(smallest_dominating_set(n))
    ]
    assert key.where_independence_costs(7) == expected


def _images(n: int, squares: frozenset[tuple[int, int]]) -> list[tuple[tuple[int, int], ...]]:
    m = n - 1
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, m - r),
        lambda r, c: (m - r, m - c),
        lambda r, c: (m - c, r),
        lambda r, c: (r, m - c),
        lambda r, c: (m - r, c),
        lambda r, c: (c, r),
        lambda r, c: (m - c, m - r),
    ]
    return [tuple(sorted(f(r, c) for r, c in squares)) for f in maps]


def test_key_38_counts_every_smallest_set_and_every_orbit() -> None:
    key = load_key("lesson11")
    n = 5
    board = [(r, c) for r in range(n) for c in range(n)]
    every = {
        frozenset(chosen)
        for chosen in combinations(board, len(smallest_dominating_set(n)))
        if dominates(n, chosen).ok
    }
    assert key.smallest_sets(n) == every
    orbits = {min(_images(n, squares)) for squares in every}
    by_lex = key.smallest_sets(n, symmetry="lex")
    assert len(by_lex) == len(orbits)
    # 'lex' keeps the smallest image of each orbit as a row-major 0/1 word
    assert {min(_images(n, squares)) for squares in by_lex} == orbits


@pytest.mark.slow  # 1.6 s: it grades both answers (the grader's own runs)
def test_key_39_greedy_dominates_but_is_not_always_smallest_and_optimal_is() -> None:
    key = load_key("lesson11")
    for n in range(4, 7):
        smallest = len(smallest_dominating_set(n))
        greedy, optimal = key.greedy(n), key.optimal(n)
        assert dominates(n, greedy).ok and dominates(n, optimal).ok
        assert len(optimal) == smallest
        assert len(greedy) == smallest + (n == 6)  # brute force: 3 queens do at n = 6
    assert key.graded(key.greedy) == 9 and key.graded(key.optimal) == 12
