"""The ``propagate`` engine: every option combination against the reference, and the
promises its lesson makes (stronger consistency, fewer nodes)."""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cp_queens import Problem, engines, verify
from cp_queens.compare import CompareError, compare, parse_engine_spec
from cp_queens.engines.propagate import (
    CONSISTENCIES,
    VALUE_ORDERS,
    VARIABLE_ORDERS,
    alldiff_prune,
    values_of,
)
from cp_queens.errors import CpQueensError, TimeLimitError
from cp_queens.stats import TIME_LIMIT
from tests.helpers import ask, reference_set

COMBINATIONS = list(itertools.product(CONSISTENCIES, VARIABLE_ORDERS, VALUE_ORDERS))


def engine(options: tuple[str, str, str], **more: object) -> engines.Engine:
    consistency, variable_order, value_order = options
    return engines.get(
        "propagate",
        consistency=consistency,
        variable_order=variable_order,
        value_order=value_order,
        **more,
    )


def label(options: tuple[str, str, str]) -> str:
    return "/".join(options)


# One test per consistency, every combination and n in it: the boards take milliseconds,
# and 192 test items (or 24) cost the run more in their reports than in their searches.
@pytest.mark.parametrize("consistency", CONSISTENCIES)
def test_every_combination_finds_the_reference_solutions(consistency: str) -> None:
    for options in COMBINATIONS:
        if options[0] != consistency:
            continue
        for n in range(1, 9):
            found = list(engine(options).solutions(Problem(n)))
            assert len(found) == len(set(found)), f"{label(options)}: duplicates at n={n}"
            assert set(found) == reference_set(n), f"{label(options)}: n={n}"


@pytest.mark.slow
@pytest.mark.parametrize("options", COMBINATIONS, ids=label)
def test_every_combination_finds_the_reference_solutions_at_9(options) -> None:
    stream = engine(options).solutions(Problem(9))
    found = list(stream)
    assert len(found) == len(set(found)) == stream.stats.solutions == 352
    assert set(found) == reference_set(9)


COMPLETIONS = [
    Problem(8, {0: 0}),
    Problem(8, {3: 4, 6: 0}),
    Problem(9, {4: 4}),
    Problem(6, {0: 0}),  # no completion
    Problem(7, {2: 3}, blocked=[(0, 0), (0, 1), (5, 4), (6, 6)]),
    Problem(5, blocked=[(0, c) for c in range(5)]),  # a row with no square at all
]


@cache
def reference_completions(problem: Problem) -> frozenset:
    """The reference's completions, asked once per problem (not once per combination)."""
    return frozenset(engines.get("reference").solutions(problem))


@pytest.mark.parametrize("consistency", CONSISTENCIES)
def test_completions_match_the_reference(consistency: str) -> None:
    for options in COMBINATIONS:
        if options[0] != consistency:
            continue
        for problem in COMPLETIONS:
            expected = reference_completions(problem)
            found = list(engine(options).solutions(problem))
            assert len(found) == len(set(found)), (label(options), problem)
            assert set(found) == expected, (label(options), problem)
            assert all(problem.admits(p) and verify(p) for p in found), (label(options), problem)


def test_plain_search_is_the_reference_backtracker() -> None:
    """consistency=none, rows in order, columns left to right: the same tree (up to 9 by
    default: n = 10 is 0.1 s, more than 1..9 together; the slow twin goes on to 10)."""
    for n in range(1, 10):
        plain_search_has_the_reference_tree(n)


@pytest.mark.slow
def test_plain_search_is_the_reference_backtracker_at_10() -> None:
    plain_search_has_the_reference_tree(10)


def plain_search_has_the_reference_tree(n: int) -> None:
    reference = engines.get("reference").count(Problem(n))
    plain = engines.get("propagate", consistency="none").count(Problem(n))
    assert plain.value == reference.value and plain.stats and reference.stats, n
    assert plain.stats.branches == reference.stats.branches, n
    assert plain.stats.extra["propagations"] == 0, n


def test_no_consistency_is_chronological_backtracking_and_named_so(capsys) -> None:
    """``none`` abandons a partial placement at its first attacked queen and backs up to
    the last one placed: chronological backtracking. Generate and test would build the
    whole placements first (8! = 40,320 with one queen per column at n = 8) and test
    them after; this search places 2,056 queens in all. The code, the CLI's help and the
    docs name it for what it is (issue 47)."""
    import math
    from pathlib import Path

    from tests.helpers import run_cli

    searched = engines.get("propagate", consistency="none").count(Problem(8))
    assert searched.stats is not None and searched.stats.branches == 2056
    assert searched.stats.branches < math.factorial(8) / 10
    root = Path(__file__).resolve().parent.parent
    said = {
        "help": run_cli(capsys, "count", "--help")[1],
        "engine": Path(engines.propagate.__file__).read_text(encoding="utf-8"),
        "docs": (root / "docs" / "course-propagation.md").read_text(encoding="utf-8"),
        "lesson": (root / "examples" / "08_propagation.py").read_text(encoding="utf-8"),
    }
    assert "none (chronological backtracking" in " ".join(said["help"].split())
    for where, text in said.items():
        flat = " ".join(text.split())
        assert "chronological backtracking" in flat, where
        # "generate and test" only where it is said what ``none`` is not
        assert flat.count("generate and test") == flat.count("Not *generate and test*"), where


@pytest.mark.parametrize("variable_order", ["input"])
def test_stronger_consistency_never_needs_more_nodes(variable_order: str) -> None:
    """With a fixed row order the trees are nested: nodes and fails can only fall."""
    nodes, fails = [], []
    for consistency in CONSISTENCIES:
        solver = engines.get("propagate", consistency=consistency, variable_order=variable_order)
        answer = solver.count(Problem(8))
        assert answer.value == 92 and answer.stats is not None
        nodes.append(answer.stats.branches)
        fails.append(answer.stats.conflicts)
    assert nodes == sorted(nodes, reverse=True), dict(zip(CONSISTENCIES, nodes, strict=True))
    assert fails == sorted(fails, reverse=True), dict(zip(CONSISTENCIES, fails, strict=True))
    assert nodes[0] > nodes[-1]  # and propagation does prune something


@pytest.mark.parametrize("consistency", CONSISTENCIES)
def test_value_order_does_not_change_the_all_solution_tree(consistency: str) -> None:
    """Every branch is explored anyway, so with a fixed row order only the order changes."""
    counts = set()
    for value_order in VALUE_ORDERS:
        solver = engines.get("propagate", consistency=consistency, value_order=value_order)
        stats = solver.count(Problem(7)).stats
        assert stats is not None
        counts.add((stats.branches, stats.conflicts))
    assert len(counts) == 1


def test_first_fail_centre_finds_a_large_board_without_backtracking_much() -> None:
    solver = engines.get(
        "propagate",
        consistency="forward",
        variable_order="first-fail-centre",
        value_order="centre",
    )
    answer = solver.first(Problem(60))
    assert answer.value is not None and verify(answer.value)
    assert answer.stats and answer.stats.branches is not None and answer.stats.branches < 200


def test_time_limit_stops_the_search_and_keeps_its_figures() -> None:
    answer = ask("propagate", "count", Problem(14), consistency="alldiff", time_limit=0.05)
    with pytest.raises(TimeLimitError):
        answer.result()
    assert answer.stats.status == TIME_LIMIT
    assert answer.stats.branches and answer.stats.branches > 0
    assert answer.stats.extra["propagations"] > 0


@pytest.mark.parametrize(
    ("option", "value", "choices"),
    [
        ("consistency", "full", "none, forward, arc, alldiff"),
        ("variable_order", "random", "input, first-fail, first-fail-centre"),
        ("value_order", "max", "min, centre"),
    ],
)
def test_bad_options_list_the_choices(option: str, value: str, choices: str) -> None:
    with pytest.raises(CpQueensError, match=f"unknown {option} '{value}' \\(choose from {choices}"):
        engines.get("propagate", **{option: value})


def test_compare_accepts_propagate_specs_and_reports_nodes() -> None:
    """The weakest and the strongest consistency and the reference: compare runs each in
    a process of its own (0.08 s of CPU each); all four levels in the slow twin below."""
    specs = [f"propagate:consistency={level}" for level in (CONSISTENCIES[0], CONSISTENCIES[-1])]
    runs = compare([*specs, "reference"], [6], "count", time_limit=10)
    assert [run.solutions for run in runs] == [4] * 3
    assert all(run.agrees for run in runs)
    assert runs[0].branches > runs[1].branches and runs[0].branches == runs[2].branches
    assert runs[1].extra["propagations"] > 0
    with pytest.raises(CompareError, match="unknown consistency 'full'"):
        parse_engine_spec("propagate:consistency=full")


@pytest.mark.slow
def test_compare_reports_the_nodes_of_every_consistency() -> None:
    specs = [f"propagate:consistency={level}" for level in CONSISTENCIES]
    runs = compare([*specs, "reference"], [6], "count", time_limit=10)
    assert [run.solutions for run in runs] == [4] * 5
    assert all(run.agrees for run in runs)
    nodes = [run.branches for run in runs[:4]]
    assert nodes == sorted(nodes, reverse=True) and nodes[0] == runs[4].branches
    assert runs[1].extra["propagations"] > 0


# -- Régin's filtering, against brute force ------------------------------------------------


def supported_by_brute_force(domains: list[int]) -> list[int] | None:
    """Values that appear in some all-different assignment, by trying every assignment."""
    supported = [0] * len(domains)
    found = False
    for values in itertools.product(*(values_of(d) for d in domains)):
        if len(set(values)) == len(values):
            found = True
            for x, value in enumerate(values):
                supported[x] |= 1 << value
    return supported if found else None


#: Examples per property in the default run; the slow run asks each for 400 (the
#: brute force behind them costs up to a second per hundred examples).
QUICK, THOROUGH = 50, 400


def examples(count: int):
    return settings(max_examples=count, deadline=None)


PRUNE_DOMAINS = st.lists(st.integers(min_value=1, max_value=(1 << 6) - 1), min_size=1, max_size=6)


def check_prune_keeps_exactly_the_supported_values(domains: list[int]) -> None:
    assert alldiff_prune(domains) == supported_by_brute_force(domains)


@examples(QUICK)
@given(PRUNE_DOMAINS)
def test_alldiff_prune_keeps_exactly_the_supported_values(domains: list[int]) -> None:
    check_prune_keeps_exactly_the_supported_values(domains)


@pytest.mark.slow
@examples(THOROUGH)
@given(PRUNE_DOMAINS)
def test_alldiff_prune_keeps_exactly_the_supported_values_thoroughly(domains: list[int]) -> None:
    check_prune_keeps_exactly_the_supported_values(domains)


SHIFTED_DOMAINS = st.lists(st.integers(min_value=1, max_value=(1 << 8) - 1), min_size=1, max_size=7)
SHIFTS = st.integers(min_value=0, max_value=8)


@examples(QUICK)
@given(SHIFTED_DOMAINS, SHIFTS)
def test_alldiff_prune_sees_the_same_with_values_shifted(domains: list[int], by: int) -> None:
    check_prune_sees_the_same_with_values_shifted(domains, by)


@pytest.mark.slow
@examples(THOROUGH)
@given(SHIFTED_DOMAINS, SHIFTS)
def test_alldiff_prune_sees_the_same_with_values_shifted_thoroughly(
    domains: list[int], by: int
) -> None:
    check_prune_sees_the_same_with_values_shifted(domains, by)


def check_prune_sees_the_same_with_values_shifted(domains: list[int], by: int) -> None:
    """The search hands the diagonals in shifted (values ``q + r``): only the bits move."""
    shifted = [domain << by for domain in domains]
    expected = supported_by_brute_force(domains)
    pruned = alldiff_prune(shifted)
    if expected is None:
        assert pruned is None
    else:
        assert pruned == [domain << by for domain in expected]
        if pruned is shifted:  # the quick answer "nothing goes" must be right
            assert expected == domains


@pytest.mark.parametrize(
    ("domains", "expected"),
    [
        # rows 0 and 1 share columns {0, 1} (a Hall set) while column 3 is free for row 2
        ([0b0011, 0b0011, 0b1110], [0b0011, 0b0011, 0b1100]),
        ([0b011, 0b011, 0b111], [0b011, 0b011, 0b100]),
        ([0b110, 0b011, 0b101], [0b110, 0b011, 0b101]),  # one cycle through all: keep all
        ([0b01, 0b10, 0b11], None),
    ],
)
def test_alldiff_prune_examples(domains: list[int], expected: list[int] | None) -> None:
    assert alldiff_prune(domains) == expected == supported_by_brute_force(domains)


@pytest.mark.parametrize("consistency", ["forward", "arc", "alldiff"])
def test_search_depth_is_not_bounded_by_the_recursion_limit(consistency: str) -> None:
    """One stack entry per row, not one Python frame: n = 300 under a recursion limit of 150."""
    import sys

    solver = engines.get(
        "propagate",
        consistency=consistency,
        variable_order="first-fail-centre",
        value_order="centre",
    )
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(150)
    try:
        placement = solver.first(Problem(300)).value
    finally:
        sys.setrecursionlimit(limit)
    assert placement is not None and verify(placement)


def test_tracer_sees_one_place_per_node() -> None:
    events: list[tuple[str, int, int]] = []
    solver = engines.get("propagate", consistency="arc", tracer=lambda *e: events.append(e))
    answer = solver.count(Problem(6))
    assert answer.value == 4 and answer.stats is not None
    kinds = [kind for kind, _, _ in events]
    assert kinds.count("place") == answer.stats.branches
    assert kinds.count("undo") == answer.stats.branches
    assert kinds.count("solution") == 4
    assert kinds.count("fail") + kinds.count("dead-end") == answer.stats.conflicts
    assert kinds.count("remove") == answer.stats.extra["propagations"]
