"""Blocked squares and the residue: every completion engine agrees with two oracles.

The brute-force oracle tries every permutation and keeps those that the
independent :func:`verify` accepts, hold the given queens and avoid the
blocked squares; the reference backtracker is the second oracle on boards too
large for brute force. Boards are drawn at random (Hypothesis): given queens
from a real solution or at random, blocked squares anywhere else.
"""

from __future__ import annotations

import time
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cp_queens
from cp_queens import Budget, Problem, engines, verify
from cp_queens.cli import main
from cp_queens.completion import completions, first_completion, generate
from cp_queens.errors import InvalidProblemError, UnsupportedTaskError
from cp_queens.partial import format_partial
from cp_queens.problem import attack_reason
from tests.completion_engines import (
    FIXED_ENGINES,
    PER_CALL,
    all_solutions,
    completion_engines,
    engine,
    oracle,
)
from tests.helpers import run_cli


@cache
def reference_solutions(n: int) -> frozenset[tuple[int, ...]]:
    return frozenset(p.cols for p in engines.get("reference").solutions(Problem(n)))


@st.composite
def blocked_boards(draw: st.DrawFn, sizes: tuple[int, int] = (4, 8)) -> Problem:
    n = draw(st.integers(*sizes))
    fixed: dict[int, int] = {}
    if draw(st.booleans()):
        # Only the drawing: boards above 8 would cost seconds of brute force (9! boards).
        pool = all_solutions(n) if n <= 8 else reference_solutions(n)
        solution = draw(st.sampled_from(sorted(pool)))
        rows = draw(st.sets(st.integers(0, n - 1), max_size=n // 2))
        fixed = {r: solution[r] for r in rows}
    else:
        for r, c in draw(
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3)
        ):
            if all(
                attack_reason(r, c, r2, c2) is None and (r, c) != (r2, c2)
                for r2, c2 in fixed.items()
            ):
                fixed[r] = c
    squares = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    blocked = {sq for sq in draw(st.sets(squares, max_size=2 * n)) if fixed.get(sq[0]) != sq[1]}
    return Problem(n, fixed, frozenset(blocked))


#: Engines that start a process or build a solver's model per call (MiniZinc 0.1 s of
#: CPU a call, CPMpy 0.04 s; the others a few ms): the default run's random boards leave
#: them to the slow run's, and every engine counts the fixed board of the test below.
def test_every_engine_counts_a_board_with_given_queens_and_blocked_squares() -> None:
    """The fixed twin of the random boards below for the engines of ``PER_CALL``."""
    # 16 completions of the given queen, 11 once four squares are blocked
    problem = Problem(8, {2: 0}, blocked={(1, 4), (3, 7), (6, 3), (7, 0)})
    expected = oracle(problem)
    assert 1 <= len(expected) < len(oracle(Problem(8, {2: 0})))
    for name in completion_engines(problem.n, "count"):
        assert engine(name).count(problem).value == len(expected), name


# Two boards by default (every counting engine on each but those of ``PER_CALL``):
# the slow test below counts, enumerates and completes 150 with every engine.
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocked_boards())
def test_counts_match_brute_force(problem: Problem) -> None:
    expected = oracle(problem)
    for name in completion_engines(problem.n, "count", skip=PER_CALL):
        assert engine(name).count(problem).value == len(expected), name


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocked_boards())
def test_counts_enumerations_and_first_completions_match_brute_force(problem: Problem) -> None:
    expected = oracle(problem)
    for name in completion_engines(problem.n, "count"):
        assert engine(name).count(problem).value == len(expected), name
    for name in completion_engines(problem.n, "enumerate"):
        assert {p.cols for p in completions(problem, engine(name))} == expected, name
    for name in completion_engines(problem.n):
        found = first_completion(problem, engine(name))
        assert (found is not None and found.cols in expected) or (found is None and not expected), (
            name
        )


def _counts_agree_on_a_generated_board(
    n: int, seed: int, data: st.DataObject, most_missing: int, skip: frozenset[str] = frozenset()
) -> None:
    missing = data.draw(st.integers(1, min(n - 1, most_missing)))
    # Squares that may be blocked: the residue's open squares off the hidden solution.
    blockable = generate(n, missing, seed=seed).residue().open_squares() - missing
    blocked = data.draw(st.integers(0, min(missing, blockable)))
    problem = generate(n, missing, blocked=blocked, seed=seed)
    expected = engines.get("reference").count(problem).value
    assert expected >= 1  # the hidden solution survives
    for name in completion_engines(problem.n, "count", skip=skip):
        assert engine(name).count(problem).value == expected, name


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(9, 12), st.integers(0, 10_000), st.data())
def test_counts_on_larger_generated_boards_match_the_reference(
    n: int, seed: int, data: st.DataObject
) -> None:
    # At most half the rows free: with 13 of 14 free, CP-SAT enumerates ~30,000
    # completions (one such draw cost 150 s of the default suite). The slow test goes on.
    # Two boards by default, every engine but those of ``PER_CALL``; the slow twin below
    # draws twenty of the same family for every engine.
    _counts_agree_on_a_generated_board(n, seed, data, most_missing=n // 2, skip=PER_CALL)


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(9, 12), st.integers(0, 10_000), st.data())
def test_counts_on_many_larger_generated_boards_match_the_reference(
    n: int, seed: int, data: st.DataObject
) -> None:
    """The default run's two boards of 9..12 with half the rows free, twenty here."""
    _counts_agree_on_a_generated_board(n, seed, data, most_missing=n // 2)


#: n = 13 and 14: every counting engine, CP-SAT's enumeration included, seconds a board.
@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(13, 14), st.integers(0, 10_000), st.data())
def test_counts_on_the_largest_generated_boards_match_the_reference(
    n: int, seed: int, data: st.DataObject
) -> None:
    _counts_agree_on_a_generated_board(n, seed, data, most_missing=n // 2)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(9, 12), st.integers(0, 10_000), st.data())
def test_counts_on_larger_boards_with_most_rows_open_match_the_reference(
    n: int, seed: int, data: st.DataObject
) -> None:
    _counts_agree_on_a_generated_board(n, seed, data, most_missing=n - 1)


def test_the_residue_lists_exactly_the_squares_a_queen_may_take() -> None:
    problem = Problem(9, {0: 4, 5: 0}, blocked={(2, 2), (3, 3), (0, 0)})
    residue = problem.residue()
    assert residue.rows == (1, 2, 3, 4, 6, 7, 8)
    assert residue.columns == (1, 2, 3, 5, 6, 7, 8)
    for index, row in enumerate(residue.rows):
        by_brute_force = tuple(
            c
            for c in range(9)
            if (row, c) not in problem.blocked
            and all(attack_reason(row, c, r, q) is None for r, q in problem.fixed.items())
        )
        assert residue.open_columns(index) == by_brute_force, row


def test_a_row_with_no_open_square_has_no_completion_in_any_engine() -> None:
    problem = Problem(
        6, {0: 1}, blocked={(3, c) for c in (0, 2, 3, 5)}
    )  # row 3: 1 taken, 4 diagonal
    assert problem.residue().dead_row == 3
    for name in completion_engines(problem.n, "count"):
        assert engine(name).count(problem).value == 0, name
    for name in completion_engines(problem.n):
        assert first_completion(problem, engine(name)) is None, name


def test_a_fully_given_board_is_its_own_only_completion() -> None:
    problem = Problem(6, dict(enumerate((1, 3, 5, 0, 2, 4))))
    for name in completion_engines(problem.n, "count"):
        assert engine(name).count(problem).value == 1, name


@pytest.mark.parametrize("name", sorted(set(engines.names()) - set(FIXED_ENGINES)))
def test_engines_without_completion_refuse_blocked_squares(name: str) -> None:
    with pytest.raises(UnsupportedTaskError, match="blocked squares"):
        engines.get(name).first(Problem(8, blocked={(0, 0)}))


def test_bad_blocked_squares_are_named() -> None:
    with pytest.raises(InvalidProblemError, match=r"blocked square at \(row 8, col 0\)"):
        Problem(8, blocked={(8, 0)})
    with pytest.raises(InvalidProblemError, match=r"queen at \(row 1, col 2\) stands on a blocked"):
        Problem(8, {1: 2}, blocked={(1, 2)})


def test_verify_rejects_a_queen_on_a_blocked_square() -> None:
    problem = Problem(4, blocked={(0, 1)})
    assert (
        verify((1, 3, 0, 2), problem).reason
        == "row 0: the queen in column 1 stands on a blocked square"
    )
    assert verify((2, 0, 3, 1), problem).ok


@pytest.mark.parametrize("name", ["reference", "cpsat", "pyconstraint"])
def test_a_nearly_full_board_of_1000_is_a_one_row_search(name: str) -> None:
    problem = generate(1000, 1, seed=3)
    started = time.process_time()  # CPU of every thread: a busy machine does not add to it
    answer = engines.get(name).count(problem)
    assert answer.value == 1
    assert time.process_time() - started < 2  # a search of the whole board: minutes


@pytest.mark.parametrize("name", ["reference", "cpsat", "pyconstraint"])
def test_5521_with_5500_given_is_solved_on_its_residue(name: str) -> None:
    problem = generate(5521, 21, seed=0)
    expected = engines.get("reference").count(problem).value
    started = time.process_time()
    answer = engines.get(name).count(problem)
    assert answer.value == expected >= 1
    assert time.process_time() - started < 5
    assert problem.admits(first_completion(problem, name))


def test_the_reference_needs_no_recursion_at_any_size() -> None:
    # Python's recursion limit is about 1000: a recursive backtracker failed here.
    problem = generate(3000, 5, seed=1)
    assert engines.get("reference").count(problem).value >= 1


@pytest.mark.parametrize("seed", range(3))
def test_cli_count_of_a_board_with_x_marks_equals_the_reference(
    tmp_path, seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    problem = generate(11, 8, blocked=6, seed=seed)
    path = tmp_path / "blocked.txt"
    path.write_text(format_partial(problem) + "\n", encoding="utf-8")
    assert "x" in path.read_text(encoding="utf-8")
    expected = engines.get("reference").count(problem).value
    assert main(["complete", str(path), "--count", "--cross-check", "reference"]) == 0
    out = capsys.readouterr().out
    assert out.split()[0] == str(expected)


def _cli_count_equals_the_reference(
    tmp_path, capsys: pytest.CaptureFixture[str], problem: Problem, name: str
) -> None:
    path = tmp_path / "board.txt"
    path.write_text(format_partial(problem) + "\n", encoding="utf-8")
    expected = engines.get("reference").count(problem).value
    code, out, _ = run_cli(capsys, "complete", str(path), "--count", "-e", name, "-q")
    assert code == (0 if expected else 1)
    assert out.split()[0] == (str(expected) if expected else "no")


#: capsys is read after every example, so sharing it between examples is safe
CLI_CHECKS = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


# The engines of ``PER_CALL`` (which draws took here at random: up to 0.5 s a run) count
# blocked boards in the engine tests above; through the CLI, in the slow twin below.
@settings(max_examples=6, deadline=None, suppress_health_check=CLI_CHECKS)
@given(blocked_boards(sizes=(6, 9)), st.sampled_from(completion_engines(9, "count", skip=PER_CALL)))
def test_cli_count_with_any_engine_equals_the_reference_on_random_blocked_boards(
    tmp_path, capsys: pytest.CaptureFixture[str], problem: Problem, name: str
) -> None:
    _cli_count_equals_the_reference(tmp_path, capsys, problem, name)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=CLI_CHECKS)
@given(blocked_boards(sizes=(6, 9)), st.sampled_from(completion_engines(9, "count")))
def test_cli_count_with_every_engine_on_many_random_blocked_boards(
    tmp_path, capsys: pytest.CaptureFixture[str], problem: Problem, name: str
) -> None:
    """The default run's six draws, thirty here, MiniZinc and CPMpy among the engines."""
    _cli_count_equals_the_reference(tmp_path, capsys, problem, name)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocked_boards())
def test_the_api_helpers_take_given_queens_and_blocked_squares(problem: Problem) -> None:
    expected = oracle(problem)
    fixed, blocked = problem.fixed, sorted(problem.blocked)
    assert cp_queens.count(problem.n, fixed=fixed, blocked=blocked) == len(expected)
    assert cp_queens.count(problem, engine="reference") == len(expected)
    with cp_queens.solutions(problem.n, fixed=fixed, blocked=blocked, engine="reference") as found:
        assert {p.cols for p in found} == expected
    first = cp_queens.first(problem.n, fixed=fixed, blocked=blocked, engine="reference")
    assert (first is None and not expected) or (first is not None and first.cols in expected)


def test_count_unique_takes_blocked_squares_only_to_refuse_them() -> None:
    with pytest.raises(UnsupportedTaskError, match="blocked squares"):
        cp_queens.count_unique(8, blocked=[(0, 0)])
    with pytest.raises(InvalidProblemError, match="a Problem holds its own"):
        cp_queens.count(Problem(8), blocked=[(0, 0)])


def test_the_reference_keeps_its_time_limit_on_a_large_board() -> None:
    # At n = 3000 thousands of squares are rejected per queen placed: the clock must be
    # read between rejections too, not only between placements.
    # (0.1 s is some thousand placements already; the run spends CPU until its limit)
    started = time.process_time()
    answer = engines.get("reference").first(Problem(3000), budget=Budget.of(time_limit=0.1))
    assert not answer.complete and answer.stats is not None
    assert answer.stats.status == "time_limit"
    assert time.process_time() - started < 2  # the CPU of 0.1 s of wall, and its stop
