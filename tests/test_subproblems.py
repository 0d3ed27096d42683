"""The split into subproblems: every canonical solution in exactly one, weights that add up."""

from __future__ import annotations

import itertools
from collections import defaultdict
from functools import cache

import pytest

from cp_queens import engines, symmetry
from cp_queens.engines.fast import subproblems as split_module
from cp_queens.errors import CpQueensError, UnsupportedTaskError
from cp_queens.problem import Problem, attack_reason
from tests.helpers import total, unique


@cache
def canonical_solutions(n: int) -> dict[tuple[int, ...], int]:
    """Canonical member of every orbit -> orbit size, from the reference engine."""
    found = {}
    for p in engines.get("reference").solutions(Problem(n)):
        if symmetry.is_canonical(p):
            found[p.cols] = symmetry.orbit_size(p)
    return found


def owner(sub_list: list[split_module.Subproblem], cols: tuple[int, ...]) -> list[str]:
    kind = split_module.CORNER if cols[0] == 0 else split_module.EDGE
    return [s.key for s in sub_list if s.kind == kind and cols[: len(s.prefix)] == s.prefix]


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_each_subproblem_counts_exactly_its_canonical_solutions(depth: int) -> None:
    """Per subproblem: leaves = canonical solutions with its prefix, weight = their orbits.
    Every n up to 10 in one item per depth (most boards take a millisecond)."""
    for n in range(1, 11):
        subproblems_count_exactly_their_canonical_solutions(n, depth)


def subproblems_count_exactly_their_canonical_solutions(n: int, depth: int) -> None:
    subs = split_module.split(n, depth=depth)
    expected: dict[str, list[int]] = defaultdict(list)
    for cols, orbit in canonical_solutions(n).items():
        owners = owner(subs, cols)
        assert len(owners) == 1, (n, cols, owners)  # every orbit is searched exactly once
        expected[owners[0]].append(orbit)
    for sub in subs:
        part = split_module.count(sub)
        orbits = expected.get(sub.key, [])
        assert (part.total, part.unique) == (sum(orbits), len(orbits)), (n, sub.key)
        if sub.weight:  # a fixed weight (corner: 8) is the orbit size of every leaf
            assert set(orbits) <= {sub.weight}, (n, sub.key)
    assert sum(sum(v) for v in expected.values()) == total(n), n
    assert sum(len(v) for v in expected.values()) == unique(n), n


def test_split_shape_for_every_n() -> None:
    """Every n up to 32 in one item (each split takes well under a millisecond)."""
    for n in range(1, 33):
        split_has_its_shape(n)


def split_has_its_shape(n: int) -> None:
    subs = split_module.split(n, depth=2)
    assert len({s.key for s in subs}) == len(subs), n
    for sub in subs:
        assert sub.n == n, (n, sub.key)
        assert not any(
            attack_reason(r1, c1, r2, c2)
            for (r1, c1), (r2, c2) in itertools.combinations(enumerate(sub.prefix), 2)
        ), (n, sub.key)
        if sub.kind == split_module.CORNER:
            assert sub.prefix[0] == 0, (n, sub.key)
            assert sub.weight == (1 if n == 1 else 8), (n, sub.key)
        else:
            assert sub.kind == split_module.EDGE, (n, sub.key)
            assert 1 <= sub.prefix[0] < n - 1 - sub.prefix[0], (n, sub.key)
            assert sub.weight == split_module.kernels.BY_ORBIT, (n, sub.key)
    # Corners (n = 1, or n >= 4: a corner queen needs room), and every edge distance
    # strictly left of the middle, start some subproblem.
    corner = {0} if n == 1 or n >= 4 else set()
    assert {s.prefix[0] for s in subs} == corner | {b for b in range(1, n) if 2 * b < n - 1}, n


@pytest.mark.parametrize("n", range(4, 10))
def test_plain_split_covers_every_solution_once_with_weight_one(n: int) -> None:
    fixed = {n - 1: 1}
    subs = split_module.split(n, depth=3, fixed=fixed)
    assert all(s.kind == split_module.PLAIN and s.weight == 1 for s in subs)
    problem = Problem(n, fixed)
    solutions = list(engines.get("reference").solutions(problem))
    per_sub = {s.key: split_module.count(s).total for s in subs}
    for p in solutions:
        assert len([s for s in subs if p.cols[: len(s.prefix)] == s.prefix]) == 1
    assert sum(per_sub.values()) == len(solutions)


def test_unsolvable_prefix_counts_nothing_and_bad_arguments_are_refused() -> None:
    attacking = split_module.Subproblem(8, split_module.EDGE, (1, 2))
    assert split_module.count(attacking) == (0, 0, 0)
    with pytest.raises(CpQueensError, match="depth"):
        split_module.split(8, depth=0)
    with pytest.raises(UnsupportedTaskError, match="n <= 62"):
        split_module.split(70)


def test_the_interpreted_kernel_agrees_subproblem_by_subproblem() -> None:
    for sub in split_module.split(9, depth=2):
        assert split_module.count(sub, force_python=True) == split_module.count(sub)


def test_keys_name_kind_and_prefix() -> None:
    sub = split_module.Subproblem(9, split_module.EDGE, (3, 0, 2))
    assert sub.key == "edge:3.0.2"


#: n = 11 takes the interpreted kernels 0.28 s of CPU, four times n = 1..10 together:
#: the slow run's. Both kinds of subproblem (corner, edge) occur from n = 4 on.
@pytest.mark.parametrize(
    "sizes", [range(1, 11), pytest.param(range(11, 12), marks=pytest.mark.slow)], ids=str
)
def test_compiled_kernels_on_small_boards_agree_with_the_interpreted_ones(sizes: range) -> None:
    """The compiled kernels are exact on small boards too (every kind, depths that leave
    0..3 rows to search), subtree by subtree the same figures as the interpreted ones."""
    if split_module.loader.COMPILED is None:
        pytest.skip(f"no compiled kernels here: {split_module.loader.MISSING}")
    for n in sizes:
        for depth in (1, 2, n - 3, n - 2, n):
            if depth < 1:
                continue
            subs = split_module.split(n, depth=depth)
            compiled = split_module.count_with(split_module.loader.COMPILED, True, subs)
            python = split_module.count_with(split_module.loader.PYTHON, False, subs)
            assert compiled == python, (n, depth)
            assert sum(p.total for p in compiled) == total(n)
            assert sum(p.unique for p in compiled) == unique(n)


def test_the_split_is_lazy_and_the_same_as_the_list() -> None:
    # n = 40 has billions of subproblems: only a generator can hand out the first few.
    first = list(itertools.islice(split_module.iter_split(40), 3))
    assert [s.prefix[:2] for s in first] == [(0, 2)] * 3 and len(first[0].prefix) == 5
    assert list(split_module.iter_split(11)) == split_module.split(11)
    with pytest.raises(CpQueensError, match="depth"):
        split_module.iter_split(8, depth=0)  # checked on the call, not on the first item
