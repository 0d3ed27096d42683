"""The teacher's key for lesson 10, checked with the toolkit by other means."""

from __future__ import annotations

import pytest

from cp_queens import Placement, Problem, engines, verify
from tests.helpers import build_or_skip, total
from tests.helpers import load_key as load


@pytest.mark.slow  # 2 s: two solvers, one of them a JVM
def test_key_32_both_routes_count_right_and_blocking_starts_a_search_per_solution() -> None:
    build_or_skip("cpmpy", solver="pumpkin")
    found = load("lesson10").exercise_32(6)
    assert {name: count for name, (count, _, _) in found.items()} == dict.fromkeys(found, 4)
    assert found["pumpkin"][2] == total(6) + 1  # one search per solution, one to prove none
    assert found["choco"][2] is None  # Choco's own loop: one search


def test_key_33_the_hand_made_cnf_has_every_solution() -> None:
    pytest.importorskip("pysat")
    key = load("lesson10")
    reference = engines.get("reference")
    for n in range(1, 8):
        count, _, boards = key.exercise_33(n)
        assert count == total(n)
        assert {Placement(tuple(b)) for b in boards} == set(reference.solutions(Problem(n)))
        assert all(verify(Placement(tuple(b))).ok for b in boards)


def test_key_34_an_annotation_never_changes_the_count() -> None:
    build_or_skip("minizinc")
    # The counts are the claim; the first solutions' nodes (nothing to compare them with,
    # two MiniZinc processes more) are run by the slow run's run of the key as a script.
    result = load("lesson10").exercise_34(count_n=7, first_sizes=())
    assert result["count"] == {"plain": total(7), "first-fail": total(7)}
    assert all(nodes > 0 for nodes in result["count nodes"].values())
