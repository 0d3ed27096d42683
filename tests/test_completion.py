"""Completion: every engine that takes pre-placed queens agrees with a brute-force oracle.

The oracle shares no code with any engine: it tries all n! permutations and
keeps those :func:`verify` accepts, then keeps the ones that hold the given
queens. (A permutation with two queens on a diagonal is thrown out before
:func:`verify` is asked: two set sizes, ten times faster than asking it.)
Partial boards are drawn at random (Hypothesis), half of them from a
real solution (always solvable), half from random non-attacking queens (often
unsolvable), so both answers are exercised.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cp_queens import Placement, Problem, engines, verify
from cp_queens.completion import (
    WrongCompletionError,
    checked,
    completions,
    cross_check,
    first_completion,
)
from cp_queens.errors import UnsupportedTaskError
from cp_queens.problem import attack_reason
from tests.completion_engines import (
    FIXED_ENGINES,
    PER_CALL,
    all_solutions,
    completion_engines,
    engine,
    oracle,
)


@st.composite
def partial_boards(draw: st.DrawFn) -> Problem:
    n = draw(st.integers(4, 8))
    if draw(st.booleans()):
        solution = draw(st.sampled_from(sorted(all_solutions(n))))
        rows = draw(st.sets(st.integers(0, n - 1), max_size=n))
        return Problem(n, {r: solution[r] for r in rows})
    fixed: dict[int, int] = {}
    for r, c in draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=4)):
        if all(
            attack_reason(r, c, r2, c2) is None and (r, c) != (r2, c2) for r2, c2 in fixed.items()
        ):
            fixed[r] = c
    return Problem(n, fixed)


def test_the_oracle_knows_the_classic_counts() -> None:
    assert [len(all_solutions(n)) for n in range(1, 9)] == [1, 0, 0, 2, 10, 4, 40, 92]


def test_eight_queens_with_a_queen_in_a_corner() -> None:
    # a1 is the bottom-left corner: row 7, column 0. Counted, not trusted.
    problem = Problem(8, {7: 0})
    expected = len(oracle(problem))
    for name in completion_engines(problem.n, "count"):
        assert engine(name).count(problem).value == expected, name
    # By symmetry every corner has the same number of completions.
    assert {len(oracle(Problem(8, {r: c}))) for r in (0, 7) for c in (0, 7)} == {expected}


def _boards(examples: int):
    """Hypothesis settings for ``examples`` partial boards: a few in the default run, many
    in the slow one (each board runs every engine)."""
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


def enumerating_engines_find_exactly_the_oracle_completions(
    problem: Problem, *, skip: frozenset[str] = frozenset()
) -> None:
    expected = oracle(problem)
    for name in completion_engines(problem.n, "enumerate", skip=skip):
        found = [p.cols for p in completions(problem, engine(name))]
        assert len(found) == len(set(found)), f"{name} repeats a completion"
        assert set(found) == expected, f"{name} on {problem}"


def first_completions_agree_with_the_oracle(
    problem: Problem, *, skip: frozenset[str] = frozenset()
) -> None:
    expected = oracle(problem)
    for name in completion_engines(problem.n, skip=skip):
        found = first_completion(problem, engine(name))
        if expected:
            assert found is not None and found.cols in expected, name
        else:
            assert found is None, name


def counts_and_first_completions_agree_with_the_oracle(
    problem: Problem, *, skip: frozenset[str] = frozenset()
) -> None:
    expected = oracle(problem)
    for name in completion_engines(problem.n, "count", skip=skip):
        assert engine(name).count(problem).value == len(expected), name
    first_completions_agree_with_the_oracle(problem, skip=skip)


def test_every_engine_enumerates_and_completes_the_corner_board_as_the_oracle() -> None:
    """The fixed twin of the random boards below for the engines they leave to the slow
    run (``PER_CALL``); every engine counts this board in the test above."""
    problem = Problem(8, {7: 0})
    assert oracle(problem)  # there is something to find
    enumerating_engines_find_exactly_the_oracle_completions(problem)
    first_completions_agree_with_the_oracle(problem)


# Two boards each by default, every engine but those of ``PER_CALL`` (MiniZinc, a process
# per call, was 0.1 s of every engine call on a board): the 200 of each in the slow run
# below, every engine on every board, are where boards are many.
@_boards(2)
@given(partial_boards())
def test_enumerating_engines_find_exactly_the_oracle_completions(problem: Problem) -> None:
    enumerating_engines_find_exactly_the_oracle_completions(problem, skip=PER_CALL)


@_boards(2)
@given(partial_boards())
def test_counts_and_first_completions_agree_with_the_oracle(problem: Problem) -> None:
    counts_and_first_completions_agree_with_the_oracle(problem, skip=PER_CALL)


@pytest.mark.slow
@_boards(200)
@given(partial_boards())
def test_enumerating_engines_on_many_boards(problem: Problem) -> None:
    enumerating_engines_find_exactly_the_oracle_completions(problem)


@pytest.mark.slow
@_boards(200)
@given(partial_boards())
def test_counts_and_first_completions_on_many_boards(problem: Problem) -> None:
    counts_and_first_completions_agree_with_the_oracle(problem)


@pytest.mark.parametrize("name", completion_engines(10))
def test_every_completion_keeps_the_given_queens(name: str) -> None:
    problem = Problem(10, {0: 2, 4: 7, 9: 4})
    found = first_completion(problem, engine(name))
    assert found is not None and problem.admits(found) and verify(found, problem).ok


@pytest.mark.parametrize("name", sorted(set(engines.names()) - set(FIXED_ENGINES)))
def test_engines_without_completion_say_so(name: str) -> None:
    with pytest.raises(UnsupportedTaskError, match="pre-placed queens"):
        engines.get(name).first(Problem(8, {0: 0}))


def test_cross_check_reports_agreement_and_disagreement() -> None:
    problem = Problem(8, {0: 0})
    assert cross_check(problem, "reference", exists=True) is None
    assert cross_check(problem, "reference", count=4) is None
    assert cross_check(problem, "reference", count=5) == "reference counts 4 completions, not 5"
    assert cross_check(problem, "reference", exists=False) == "reference finds a completion"
    found = {Placement(s) for s in oracle(problem)}
    assert cross_check(problem, "cpsat", found=found) is None
    assert "3 of them in common" in cross_check(problem, "cpsat", found=set(list(found)[:3]))
    with pytest.raises(ValueError, match="needs one of"):
        cross_check(problem, "reference")


def test_a_wrong_completion_is_caught_as_an_engine_bug() -> None:
    problem = Problem(4, {0: 1})
    with pytest.raises(WrongCompletionError, match="given queen in column 1 was moved"):
        checked(problem, Placement((2, 0, 3, 1)), "buggy")


@pytest.mark.parametrize(
    "problem",
    [
        Problem(4, {0: 0}),  # neither 4-queens solution has a corner queen
        # a corner queen again, on 6 (as 4 above, every engine asked once more): slow run
        pytest.param(Problem(6, {0: 0}), marks=pytest.mark.slow),
        # the board of lesson 06, past the oracle's reach: every engine (MiniZinc and CPMpy
        # a process or a model each, 0.5 s in all) asked again the question the corner
        # of n = 4 asks them: slow run
        pytest.param(Problem(10, {0: 2, 3: 7, 9: 4}), marks=pytest.mark.slow),
    ],
)
def test_known_dead_ends_have_no_completion_in_any_engine(problem: Problem) -> None:
    if problem.n <= 8:
        assert not oracle(problem)
    for name in completion_engines(problem.n):
        assert first_completion(problem, engine(name)) is None, name
    for name in completion_engines(problem.n, "count"):
        assert engine(name).count(problem).value == 0, name


def test_the_engine_list_reads_each_engines_max_n() -> None:
    """One list for the completion and blocked-square tests, within each engine's
    ``max_n``: an engine is asked only about the boards it takes."""
    for n in (8, 62, 63, 5000):
        for task in ("first", "count", "enumerate"):
            chosen = completion_engines(n, task)
            for name in FIXED_ENGINES:
                cls = engines.engine_class(name)
                able = {"first": True, "count": cls.can_count, "enumerate": cls.can_enumerate}
                fits = cls.max_n is None or n <= cls.max_n
                assert (name in chosen) == (able[task] and fits), (n, task, name)
    if "fast" in FIXED_ENGINES:  # the compiled kernels stop at 62
        assert "fast" in completion_engines(62, "count")
        assert "fast" not in completion_engines(63, "count")
    assert "reference" not in completion_engines(8, skip={"reference"})
