"""The teacher's key for lesson 08, checked with the toolkit by other means."""

from __future__ import annotations

from cp_queens import Problem, engines
from cp_queens.course.drawing.trace import record
from tests.helpers import load_key as load


def test_key_24_nodes_still_fall_with_first_fail_on_small_boards() -> None:
    key = load("lesson08")
    assert key.exercise_24(sizes=range(4, 9)) == {}
    # and the side remark: without propagation first-fail is a fixed order of adjacent rows
    plain = engines.get("propagate", consistency="none", variable_order="first-fail-centre")
    mine = plain.count(Problem(8)).stats
    reference = engines.get("reference").count(Problem(8)).stats
    assert mine is not None and reference is not None
    assert mine.branches == reference.branches


def test_key_25_own_forward_checking_matches_the_engine() -> None:
    key = load("lesson08")
    engine = engines.get("propagate", consistency="forward")
    for args, problem in (((), Problem(8, fixed={0: 3})), ((6, {}), Problem(6))):
        answer = engine.count(problem)
        assert answer.stats is not None
        assert key.exercise_25(*args) == (answer.value, answer.stats.branches)


def test_key_26_alldiff_costs_more_per_node_than_arc() -> None:
    per_node = load("lesson08").exercise_26(8)
    assert set(per_node) == {"none", "forward", "arc", "alldiff"}
    assert per_node["alldiff"] > per_node["arc"] > 0


def test_key_27_first_solution_with_first_fail_at_every_level() -> None:
    seconds = load("lesson08").exercise_27(60)  # the key verifies every board it finds
    assert set(seconds) == {"forward", "arc", "alldiff"}
    assert all(value > 0 for value in seconds.values())


def test_key_28_propagation_turns_dead_ends_into_pruned_nodes() -> None:
    outcomes = load("lesson08").exercise_28()
    assert outcomes["none"].get("dead-end", 0) > 0 and "pruned" not in outcomes["none"]
    assert outcomes["forward"].get("pruned", 0) > 0 and "dead-end" not in outcomes["forward"]
    assert outcomes["none"]["solution"] == outcomes["forward"]["solution"] == 4


def test_key_29_a_hall_set_that_only_alldiff_sees() -> None:
    fixed, by_arc, by_alldiff = load("lesson08").exercise_29()
    arc = record(6, engine="propagate", consistency="arc", fixed=fixed, first=True)
    gac = record(6, engine="propagate", consistency="alldiff", fixed=fixed, first=True)
    assert (len(arc.root_crossed), len(gac.root_crossed)) == (by_arc, by_alldiff)
    assert by_alldiff > by_arc
    # both still find the same completions
    count = engines.get("reference").count(Problem(6, fixed)).value
    assert engines.get("propagate", consistency="alldiff").count(Problem(6, fixed)).value == count
