"""CP-SAT symmetry breaking and the fast enumeration path, against the reference."""

from __future__ import annotations

import itertools

import pytest

from cp_queens import Answer, Budget, engines
from cp_queens.engines.cpsat import orbits as fast
from cp_queens.errors import CpQueensError, TimeLimitError, UnsupportedTaskError
from cp_queens.problem import Placement, Problem
from cp_queens.stats import COMPLETE, TIME_LIMIT
from cp_queens.symmetry import is_canonical
from cp_queens.verify import verify
from tests.helpers import reference_set, total, unique


def listed(n: int, **options: object) -> list[Placement]:
    engine, budget = engines.build("cpsat", **options)
    return list(engine.solutions(Problem(n), budget=budget))


#: n = 10 costs the plain (model-only) breaks 0.4 s of CPU each, five times n = 9 and
#: more than n = 1..9 together: it is the slow run's. The default run keeps odd and even
#: boards (n = 9 and 8) on both breaks, n = 1..9 in one item each (boards of milliseconds,
#: which cost more as items of their own).
SIZES = [range(1, 10), pytest.param((10,), marks=pytest.mark.slow)]


@pytest.mark.parametrize("sizes", SIZES, ids=str)
def test_full_break_leaves_exactly_the_canonical_solutions(sizes: range) -> None:
    for n in sizes:
        found = listed(n, symmetry="full", method="plain")
        assert len(found) == len(set(found)) == unique(n), n
        assert set(found) == {p for p in reference_set(n) if is_canonical(p)}, n


@pytest.mark.parametrize("sizes", SIZES, ids=str)
def test_mirror_break_keeps_the_first_queen_in_the_left_half(sizes: range) -> None:
    for n in sizes:
        found = listed(n, symmetry="mirror", method="plain")
        expected = {p for p in reference_set(n) if 2 * p[0] <= n - 1}
        assert len(found) == len(set(found)), n
        assert set(found) == expected, n
        if n % 2 == 0:
            assert len(found) == total(n) // 2, n


@pytest.mark.parametrize("level", ["none", "mirror", "full"])
def test_counting_agrees_with_enumerating_under_each_break(level: str) -> None:
    engine = engines.get("cpsat", symmetry=level, method="plain")
    assert engine.count(Problem(8)).value == len(listed(8, symmetry=level, method="plain"))


def test_completion_with_symmetry_breaking_is_the_intersection() -> None:
    problem = Problem(8, {0: 2})
    found = set(engines.get("cpsat", symmetry="full").solutions(problem))
    assert found == {p for p in reference_set(8) if p[0] == 2 and is_canonical(p)}


#: (sizes, processes): every board in this process (one item: boards of milliseconds);
#: in a pool of two, the boards whose paths differ: n = 1 (one subproblem, so no pool),
#: 3 (a pool, no solution), 4 (as many subproblems as processes) and 9 (more subproblems
#: than processes, so later ones are submitted as earlier ones end). Each pool costs some
#: 0.1 s of CPU to start: the other sizes in a pool are the slow run's (n = 10 in a pool
#: is also held, solution by solution, to the one-process stream by the order test below).
FAST_CASES = [
    (range(1, 11), 1),
    ((1, 3, 4, 9), 2),
    pytest.param((2, 5, 6, 7, 8, 10), 2, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("sizes", "processes"), FAST_CASES, ids=str)
def test_fast_enumeration_gives_exactly_every_solution_once(sizes: range, processes: int) -> None:
    engine = engines.get("cpsat", method="fast")
    for n in sizes:
        stream = engine.solutions(Problem(n), budget=Budget.of(workers=processes))
        found = list(stream)
        assert len(found) == total(n), n
        assert set(found) == reference_set(n), n
        assert stream.stats.solutions == total(n), n
        assert stream.stats.status == COMPLETE, n


#: n = 10 splits one row deep as 11 and 12 do (``orbits.prefix_rows``), at under half the
#: CPU of 11 (0.55 s with its pool): 11 and 12 are the slow run's.
@pytest.mark.parametrize(
    "n", [10, pytest.param(11, marks=pytest.mark.slow), pytest.param(12, marks=pytest.mark.slow)]
)
def test_fast_counts_match_oeis(n: int) -> None:
    engine = engines.get("cpsat", method="fast")
    answer = engine.count_unique(Problem(n))
    assert tuple(answer.value) == (total(n), unique(n)) and answer.stats is not None
    assert answer.stats.extra["method"] == "fast"
    assert answer.stats.extra["enumerated"] < total(n) // 4
    assert engine.count(Problem(n)).value == total(n)


def test_fast_stream_order_is_deterministic_and_grouped_by_orbit() -> None:
    first = listed(10, method="fast", workers=2)
    assert first == listed(10, method="fast", workers=2)
    assert first == listed(10, method="fast", workers=1)
    assert is_canonical(first[0])


def test_fast_stream_stops_early_and_cleanly() -> None:
    engine, two = engines.get("cpsat", method="fast"), Budget.of(workers=2)
    found = list(engine.solutions(Problem(12), limit=5, budget=two))
    assert len(found) == 5
    assert all(verify(p) for p in found)
    stream = engine.solutions(Problem(12), budget=two)
    head = list(itertools.islice(stream, 300))
    stream.close()
    assert len(set(head)) == 300
    assert stream.stats.solutions == 300


def test_fast_count_honours_the_time_limit() -> None:
    answer = engines.get("cpsat", method="fast").count(
        Problem(14), budget=Budget.of(time_limit=0.01)
    )
    with pytest.raises(TimeLimitError):
        answer.result()
    assert answer.stats is not None and answer.stats.status == TIME_LIMIT


def test_auto_takes_the_fast_path_only_where_it_pays() -> None:
    engine = engines.get("cpsat")

    def extra(answer: Answer) -> dict:
        assert answer.stats is not None
        return answer.stats.extra

    assert extra(engine.count(Problem(10))).get("method") == "fast"
    for problem in (Problem(8), Problem(10, {0: 1})):
        assert extra(engine.count(problem))["method"] == "plain"  # said, as fast is
    with engine.solutions(Problem(10), limit=3) as stream:
        list(stream)
    assert stream.stats.extra["method"] == "plain"


def test_subproblems_are_the_left_half_of_the_first_row_and_its_safe_extensions() -> None:
    assert fast.subproblems(8, depth=1) == [(0,), (1,), (2,), (3,)]
    two_rows = fast.subproblems(8, depth=2)
    assert (0, 2) in two_rows and (0, 0) not in two_rows and (0, 1) not in two_rows
    assert (2, 0) not in two_rows  # column 0 in row 1 would be closer to a corner than 2
    assert fast.subproblems(1) == [(0,)]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"method": "quick"}, "unknown method 'quick'"),
        ({"symmetry": "rotations"}, "unknown symmetry 'rotations'"),
        ({"method": "fast", "symmetry": "full"}, "cannot be combined with symmetry 'full'"),
    ],
)
def test_bad_options_are_named(options: dict[str, str], message: str) -> None:
    with pytest.raises(CpQueensError, match=message):
        engines.get("cpsat", **options)


def test_fast_path_refuses_preplaced_queens_and_broken_models_refuse_unique_counts() -> None:
    with pytest.raises(UnsupportedTaskError, match="pre-placed"):
        engines.get("cpsat", method="fast").count(Problem(8, {0: 0}))
    with pytest.raises(UnsupportedTaskError, match="symmetry 'mirror' removes some"):
        engines.get("cpsat", symmetry="mirror").count_unique(Problem(8))


def test_fast_path_is_exact_while_another_cpsat_search_runs_in_a_thread() -> None:
    """Then the pool must not fork (see cpsat.orbits._context); the answer is the same."""
    open_stream = engines.get("cpsat", method="plain").solutions(Problem(10))
    next(open_stream)  # the plain search now waits in its worker thread
    try:
        engine, two = engines.get("cpsat", method="fast"), Budget.of(workers=2)
        assert tuple(engine.count_unique(Problem(10), budget=two).value) == (total(10), unique(10))
        assert set(engine.solutions(Problem(9), budget=two)) == reference_set(9)
    finally:
        open_stream.close()


@pytest.mark.slow
def test_fast_and_plain_enumerate_the_same_set_at_11_and_count_13_exactly() -> None:
    assert set(listed(11, method="fast")) == set(listed(11, method="plain"))
    engine = engines.get("cpsat", method="fast")
    assert tuple(engine.count_unique(Problem(13)).value) == (total(13), unique(13))
