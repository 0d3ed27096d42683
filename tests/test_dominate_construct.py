"""The constructed dominating sets every domination run starts from, held to the
independent checker, and the model's row tables held to the rules of chess."""

from __future__ import annotations

import pytest

from cp_queens.dominate import classic_lower_bound, dominates, full_row, greedy
from cp_queens.dominate.models import dominators, literals
from cp_queens.dominate.symmetric import canonical, orbit

#: Boards 1..40 (each a few ms, looped in one item: 40 items cost more in pytest's own
#: bookkeeping than the greedy does), then 57, 100, 131 one item each.
SIZES = [range(1, 41), (57,), (100,), (131,)]
SIZE_IDS = ["1-40", "57", "100", "131"]


@pytest.mark.parametrize("sizes", SIZES, ids=SIZE_IDS)
def test_the_greedy_set_dominates_and_beats_a_full_row(sizes: range) -> None:
    for n in sizes:
        queens = greedy(n)
        assert dominates(n, queens).ok, n
        assert classic_lower_bound(n) <= len(queens) <= n, n
        assert len(set(queens)) == len(queens), n


@pytest.mark.parametrize("sizes", SIZES[:2], ids=SIZE_IDS[:2])
def test_the_independent_greedy_set_dominates_with_no_two_queens_attacking(sizes: range) -> None:
    for n in sizes:
        queens = greedy(n, independent=True)
        assert dominates(n, queens, independent=True).ok, n


def test_the_greedy_set_is_well_below_a_full_row_on_large_boards() -> None:
    # Measured 0.62 n for n = 50..200 (docs/domination.md); a loose ceiling that a
    # broken gain formula (which would drift towards a row, n queens) would not meet.
    for n in (50, 100):
        assert len(greedy(n)) <= 0.66 * n


def test_a_full_row_dominates() -> None:
    for n in (1, 2, 5, 8, 13):
        assert dominates(n, full_row(n)).ok and len(full_row(n)) == n, n


def test_the_rows_list_every_square_a_queen_covers_from_and_nothing_else() -> None:
    for n in range(1, 10):
        total = 0
        for row in range(n):
            for col in range(n):
                found = dominators(n, row, col)
                expected = [
                    (r, c)
                    for r in range(n)
                    for c in range(n)
                    if r == row or c == col or abs(r - row) == abs(c - col)
                ]
                assert sorted(found) == expected, (n, row, col)
                total += len(found)
        assert literals(n) == total, n


def test_the_orbit_keeps_a_set_dominating_and_the_canonical_image_is_in_it() -> None:
    queens = greedy(11)
    images = orbit(11, queens)
    assert len(images) == 8 and all(dominates(11, image).ok for image in images)
    for symmetry in ("none", "halves", "lex"):
        assert canonical(11, queens, symmetry) in images
