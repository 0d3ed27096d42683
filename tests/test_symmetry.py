"""The symmetry group, canonical forms and unique counts, against OEIS A002562."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cp_queens import engines, symmetry
from cp_queens.errors import CpQueensError, InvalidPlacementError, UnsupportedTaskError
from cp_queens.problem import Placement, Problem
from cp_queens.verify import verify
from tests.helpers import engines_that, reference_set, total, unique


def queens_of(placement: Placement) -> set[tuple[int, int]]:
    return set(placement.queens())


permutations = st.integers(1, 9).flatmap(lambda n: st.permutations(range(n)))


def test_the_group_has_eight_distinct_elements_by_name() -> None:
    names = [s.name for s in symmetry.SYMMETRIES]
    assert names[0] == "identity"
    assert len(set(names)) == 8
    p = Placement((2, 0, 3, 1, 4))  # no symmetry of its own
    assert len({symmetry.apply(name, p) for name in names}) == 8


def test_each_symmetry_moves_queens_as_its_geometry_says() -> None:
    n = 5
    last = n - 1
    p = Placement((1, 3, 0, 4, 2))
    where = {
        "identity": lambda r, c: (r, c),
        "rot90": lambda r, c: (c, last - r),
        "rot180": lambda r, c: (last - r, last - c),
        "rot270": lambda r, c: (last - c, r),
        "flip_lr": lambda r, c: (r, last - c),
        "flip_ud": lambda r, c: (last - r, c),
        "transpose": lambda r, c: (c, r),
        "anti_transpose": lambda r, c: (last - c, last - r),
    }
    for name, move in where.items():
        expected = {move(r, c) for r, c in p.queens()}
        assert queens_of(symmetry.apply(name, p)) == expected, name
        assert queens_of(getattr(symmetry, name)(p)) == expected, name


@given(permutations)
def test_group_laws(cols: list[int]) -> None:
    p = Placement(tuple(cols))
    r = symmetry.rot90
    assert r(r(p)) == symmetry.rot180(p)
    assert r(r(r(p))) == symmetry.rot270(p)
    assert r(r(r(r(p)))) == p
    for reflection in ("flip_lr", "flip_ud", "transpose", "anti_transpose"):
        image = symmetry.apply(reflection, p)
        assert symmetry.apply(reflection, image) == p
    assert symmetry.transpose(symmetry.flip_lr(p)) == symmetry.rot270(p)


@given(permutations)
def test_orbit_and_canonical_form_are_invariants_of_the_orbit(cols: list[int]) -> None:
    p = Placement(tuple(cols))
    orbit = symmetry.orbit(p)
    assert p in orbit
    assert symmetry.canonical(p) == min(orbit, key=lambda x: x.cols)
    assert len(orbit) == symmetry.orbit_size(p) == 8 // len(symmetry.stabiliser(p))
    for image in orbit:
        assert symmetry.orbit(image) == orbit
        assert symmetry.canonical(image) == symmetry.canonical(p)
        assert symmetry.is_canonical(image) == (image == symmetry.canonical(p))


def test_orbit_sizes_of_solutions_follow_the_rotations() -> None:
    """The module's claim: reflections fix no solution for n > 1, so the orbit
    size is decided by the rotations alone. (Every n up to 10 in one item: boards of
    milliseconds, which cost more as items of their own.)"""
    for n in range(1, 11):
        seen_sizes = set()
        for p in reference_set(n):
            fixed_by = set(symmetry.stabiliser(p))
            size = symmetry.orbit_size(p)
            seen_sizes.add(size)
            if n > 1:
                assert fixed_by <= {"identity", "rot90", "rot180", "rot270"}, p
            if "rot90" in fixed_by:
                assert size == (1 if n == 1 else 2), p
            elif "rot180" in fixed_by:
                assert size == 4, p
            else:
                assert size == 8, p
            for image in symmetry.orbit(p):
                assert verify(image), image
        assert seen_sizes <= set(symmetry.ORBIT_SIZES), n
        if n == 1:
            assert seen_sizes == {1}


def test_all_orbit_sizes_2_4_8_occur() -> None:
    assert {symmetry.orbit_size(p) for p in reference_set(4)} == {2}
    assert {symmetry.orbit_size(p) for p in reference_set(6)} == {4}
    assert {symmetry.orbit_size(p) for p in reference_set(5)} == {2, 8}


def test_the_reference_counts_unique_solutions_like_oeis_on_small_boards() -> None:
    """The default run's twin of ``count_unique`` at n = 11 (0.4 s: the slow run's), below."""
    for n in range(1, 10):
        assert tuple(engines.get("reference").count_unique(Problem(n)).value) == (
            total(n),
            unique(n),
        )


def test_unique_counts_match_oeis_with_the_reference() -> None:
    """Every n up to 10 in one item, from the reference's solutions; 11 and 12 counted by
    the reference in the slow twin below."""
    for n in range(1, 11):
        solutions = reference_set(n)
        result = (len(solutions), sum(symmetry.is_canonical(p) for p in solutions))
        assert result == (total(n), unique(n)), n


@pytest.mark.slow
@pytest.mark.parametrize("n", [11, 12])
def test_unique_counts_of_larger_boards_match_oeis_with_the_reference(n: int) -> None:
    result = engines.get("reference").count_unique(Problem(n)).value
    assert tuple(result) == (total(n), unique(n))


def test_expanding_the_canonical_solutions_gives_back_every_solution() -> None:
    for n in range(1, 11):
        solutions = reference_set(n)
        representatives = [p for p in solutions if symmetry.is_canonical(p)]
        expanded = list(symmetry.expand(iter(representatives)))
        assert len(expanded) == len(solutions), n  # no solution twice
        assert set(expanded) == solutions, n


def test_is_canonical_agrees_with_brute_force_on_all_permutations() -> None:
    for n in range(1, 7):
        for cols in itertools.permutations(range(n)):
            p = Placement(cols)
            assert symmetry.is_canonical(p) == (p == symmetry.canonical(p))


def test_two_queens_in_one_column_have_no_diagonal_image() -> None:
    with pytest.raises(InvalidPlacementError, match="row 2: column 0 already holds a queen"):
        symmetry.canonical(Placement((0, 1, 0)))


def test_unknown_symmetry_names_the_known_ones() -> None:
    with pytest.raises(CpQueensError, match=r"unknown symmetry 'spin'.*rot90"):
        symmetry.apply("spin", Placement((0,)))


def test_unique_counts_refuse_preplaced_queens() -> None:
    with pytest.raises(UnsupportedTaskError, match="pre-placed"):
        engines.get("reference").count_unique(Problem(6, {0: 1}))


def test_engines_that_cannot_count_say_so() -> None:
    for name in set(engines.names()) - set(engines_that(count=True)):
        with pytest.raises(UnsupportedTaskError, match=name):
            engines.get(name).count_unique(Problem(6))


def test_unique_only_filters_stops_and_closes_the_stream() -> None:
    closed = []

    def stream():
        try:
            yield from sorted(reference_set(8), key=lambda p: p.cols)
        finally:
            closed.append(True)

    assert len(list(symmetry.unique_only(stream()))) == unique(8)
    first_three = list(symmetry.unique_only(stream(), limit=3))
    assert len(first_three) == 3 and all(map(symmetry.is_canonical, first_three))
    assert closed == [True, True]
    assert list(symmetry.unique_only(stream(), limit=0)) == []
