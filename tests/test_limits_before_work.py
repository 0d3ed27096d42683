"""Limits before work (issue 19, items 5 and 6 and the library edges): every reproducer.

A request this machine cannot finish is refused in a second with one line naming the
estimate and what can do it; a time limit covers building the model too; the default
``complete`` proves "no" as fast as ``--count``; bad arguments to the library raise our
own errors. No test here asserts a duration: a refusal is recognised by its message
and by the work it did not do (memory, branches).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cp_queens
from cp_queens import Problem, engines, limits
from cp_queens.errors import CpQueensError, TimeLimitError, UnsupportedTaskError
from tests.helpers import ROOT, ask, run_cli

DATA = Path(__file__).parent / "data"
BLOCKED_20 = DATA / "blocked-20-no-completion.txt"


def errors_of(err: str) -> list[str]:
    """The lines of stderr that are not ``#`` notes (statistics, chosen engine)."""
    return [line for line in err.splitlines() if not line.startswith("#")]


def cli(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``cp-queens argv...`` as a user runs it: a fresh process."""
    return subprocess.run(
        [sys.executable, "-m", "cp_queens", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


# -- complete on a huge board -----------------------------------------------------------


def test_complete_of_an_empty_huge_board_is_refused_at_once(tmp_path: Path) -> None:
    """``{"n": 1000000000}`` took 10 GB and climbing; now the construct formula is chosen
    (a completion of nothing is a solve) and refused for its memory, naming both."""
    board = tmp_path / "f"
    board.write_text('{"n": 1000000000}')
    done = cli("complete", str(board), "--format", "jsonl")  # (boards: too large to draw)
    assert done.returncode == 2, done
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert "construct" in line and "n=1000000000" in line and "available" in line


def test_complete_of_a_huge_board_with_one_queen_is_refused_for_its_residue(
    capsys, monkeypatch
) -> None:
    import io

    with pytest.raises(UnsupportedTaskError, match="residue of n=1000000000"):
        Problem(10**9, {0: 0}).residue()
    monkeypatch.setattr("sys.stdin", io.StringIO('{"n": 1000000000, "queens": [[0, 0]]}'))
    code, out, err = run_cli(capsys, "complete", "-", "--format", "jsonl")
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert "999999999 rows left to fill" in line


#: An empty board of any size is a solve by the formula: n = 100,000 in the default run
#: (30 ms to write and verify), a million (half a second) in the slow run.
@pytest.mark.parametrize("n", [100_000, pytest.param(1_000_000, marks=pytest.mark.slow)])
def test_complete_of_an_empty_board_uses_the_formula_and_counts_with_the_counter(
    capsys, monkeypatch, n: int
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(f'{{"n": {n}}}'))
    code, out, err = run_cli(capsys, "complete", "-", "--format", "jsonl")
    assert code == 0 and "engine: construct" in err
    assert cp_queens.verify(json.loads(out))
    monkeypatch.setattr("sys.stdin", io.StringIO('{"n": 9}'))
    code, out, err = run_cli(capsys, "complete", "-", "--count")
    assert code == 0 and out.strip() == "352 completions" and "engine: fast" in err


# -- memory against what is free ----------------------------------------------------------


def test_cpsat_5000_is_refused_on_a_24_gb_machine(capsys, monkeypatch) -> None:
    """``solve 5000 -e cpsat`` peaked at 21.6 GB of 24: refused, naming estimate, free
    memory and the engine that can."""
    monkeypatch.setattr(limits, "available_memory", lambda: 24 * 10**9)
    code, out, err = run_cli(capsys, "solve", "5000", "-e", "cpsat", "--format", "jsonl")
    assert code == 2 and out == ""
    (line,) = errors_of(err)
    assert "21.3 GB" in line and "24.0 GB available" in line and "'construct'" in line
    # n = 2000 (3.1 GB measured) still fits such a machine: refuse only what cannot fit.
    limits.check_memory(engines.engine_class("cpsat"), 2000)


def test_the_margin_refuses_a_plan_close_to_all_that_is_free(monkeypatch) -> None:
    cpsat = engines.engine_class("cpsat")
    need = limits.memory_needed(cpsat, 1000)
    monkeypatch.setattr(limits, "available_memory", lambda: int(need * 1.1))
    with pytest.raises(UnsupportedTaskError, match="75%"):
        limits.check_memory(cpsat, 1000)
    monkeypatch.setattr(limits, "available_memory", lambda: int(need * 1.5))
    limits.check_memory(cpsat, 1000)


def test_a_completion_too_large_names_the_engines_linear_in_n(monkeypatch) -> None:
    monkeypatch.setattr(limits, "available_memory", lambda: 10**9)
    problem = Problem(3000, blocked=[(0, 0)])
    with pytest.raises(UnsupportedTaskError, match="'reference' and 'propagate'"):
        engines.get("cpsat").first(problem)


def test_every_engine_states_its_costs_on_its_class() -> None:
    for name in engines.names():
        cls = engines.engine_class(name)
        for figure in ("bytes_per_square", "seconds_per_solution", "first_reach"):
            value = getattr(cls, figure)
            assert value is None or value > 0, (name, figure)
    assert engines.engine_class("cpsat").bytes_per_square
    assert engines.engine_class("propagate").first_reach == 29


# -- reach of backtracking ----------------------------------------------------------------


def test_propagate_2000_is_refused_naming_the_engines_that_can(capsys) -> None:
    code, out, err = run_cli(capsys, "solve", "2000", "-e", "propagate", "--format", "jsonl")
    assert code == 2 and out == ""
    (line,) = errors_of(err)
    assert "n=2000" in line and "'construct'" in line and "'minconflicts'" in line


@pytest.mark.parametrize("name", ["reference", "propagate", "fast", "pyconstraint"])
def test_every_backtracking_engine_has_a_reach(name: str) -> None:
    reach = engines.engine_class(name).first_reach
    assert reach is not None
    with pytest.raises(UnsupportedTaskError, match="not expected to find a solution"):
        engines.get(name).first(Problem(reach + 1 if name != "fast" else min(62, reach + 1)))


def test_heuristics_lift_the_reach_where_they_scale() -> None:
    engine = engines.get("propagate", variable_order="first-fail", value_order="centre")
    assert engine.first_reach is None
    assert cp_queens.verify(engine.first(Problem(60)).value)
    assert engines.get("pyconstraint", solver="optimized").first_reach == 30


def test_with_a_time_limit_propagate_may_search_and_stops_at_it() -> None:
    with pytest.raises(TimeLimitError):
        # 0.1 s is some 80 branches of search: the clock stops a search under way
        ask("propagate", "first", Problem(2000), time_limit=0.1).result()


# -- time limits cover model building -----------------------------------------------------


def test_pyconstraint_stops_while_building_a_large_model() -> None:
    """n = 1500 has 1.1 million pair constraints (seconds to build): a 0.03 s limit stops
    the building, long before the search (the run spends CPU until then, no more)."""
    with pytest.raises(TimeLimitError) as cut:
        ask("pyconstraint", "first", Problem(1500), time_limit=0.03).result()
    assert cut.value.stats.branches in (None, 0)


@pytest.mark.slow
def test_pyconstraint_5000_with_a_time_limit_ends_at_it() -> None:
    """The reproducer as written: 40 s and 6 GB before, now exit 4 at the limit."""
    done = cli("solve", "5000", "-e", "pyconstraint", "--format", "jsonl", "--time-limit", "5")
    assert done.returncode == 4, done
    assert done.stdout == ""
    assert len(errors_of(done.stderr)) == 1


def test_a_model_whose_setup_exceeds_the_limit_stops_before_building(capsys) -> None:
    argv = ("solve", "2000", "-e", "cpsat", "--format", "jsonl", "--time-limit", "3")
    code, out, err = run_cli(capsys, *argv)
    assert code == 4 and out == ""
    assert "setup_seconds=" in err and len(errors_of(err)) == 1
    with pytest.raises(TimeLimitError, match="to build and load its model"):
        ask("cpsat-board", "first", Problem(1000), time_limit=1).result()


# -- input lines --------------------------------------------------------------------------


def test_a_line_over_the_cap_is_one_error_naming_it(tmp_path: Path) -> None:
    """One 50 MB line took ``verify`` to 3.5 GB; now it is refused at the cap."""
    path = tmp_path / "long.jsonl"
    with path.open("w") as out:
        out.write("[0, 2, 4, 1, 3]\n[1, 3, 0, 2]\n")
        out.write("[" + "1, " * (limits_cap() // 3 + 10) + "1]\n")
    done = cli("verify", str(path))
    assert done.returncode == 2, done
    (line,) = done.stderr.splitlines()
    assert "line 3 is longer than 16,777,216 characters" in line


def limits_cap() -> int:
    from cp_queens.formats import MAX_LINE_CHARS

    return MAX_LINE_CHARS


@pytest.mark.slow
def test_the_cap_leaves_room_for_the_largest_placement_we_write(tmp_path: Path) -> None:
    path = tmp_path / "million.jsonl"
    done = cli("solve", "1000000", "-e", "construct", "--format", "jsonl", "-o", str(path))
    assert done.returncode == 0, done
    assert 2 * path.stat().st_size <= limits_cap() + 2 * 10**6
    checked = cli("verify", str(path), "--expect", "1")
    assert checked.returncode == 0 and checked.stdout.startswith("OK: 1 placement "), checked


# -- the default proves "no" (CSPLib prob079) ---------------------------------------------


def _benchmark() -> object:
    spec = importlib.util.spec_from_file_location(
        "completion_proofs", ROOT / "benchmarks" / "completion_proofs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generator_rebuilds_the_shipped_prob079_instance() -> None:
    """``diag-20-4-3`` with its first 27 diagonals excluded is the shipped board, square
    for square: the benchmark's other instances are of the same family."""
    bench = _benchmark()
    drawn = bench.excluded_diagonals(20, 4, 3)  # type: ignore[attr-defined]
    assert bench.board(20, drawn[:27]) == BLOCKED_20.read_text()  # type: ignore[attr-defined]


def test_a_small_completion_is_searched_as_the_count_searches() -> None:
    from cp_queens.partial import parse_partial

    problem = parse_partial(BLOCKED_20.read_text())
    # its whole tree is priced at a fraction of a second: the counter proves "none"
    assert cp_queens.default_complete_engine(problem) == "fast"
    engine, budget = engines.build("cpsat", time_limit=60)
    completed = engine.first(Problem(6, blocked=[(0, 0)]), budget=budget)
    assert completed.stats and completed.stats.extra["strategy"] == "portfolio"
    # an empty board past the model's sizes (FIRST_MODEL_UP_TO) keeps the greedy search
    solved = engine.first(Problem(64), budget=budget)
    assert solved.stats and solved.stats.extra["strategy"] == "greedy"


@pytest.mark.slow
def test_the_default_complete_proves_no_completion_on_the_shipped_instance() -> None:
    done = cli("complete", str(BLOCKED_20))
    assert done.returncode == 1, done
    assert done.stdout.strip() == "no completion exists"
    assert "engine=fast" in done.stderr and "status=" not in done.stderr  # searched through


@pytest.mark.slow
def test_count_of_a_blocked_board_is_not_refused_as_if_empty(tmp_path: Path) -> None:
    """The count's reach estimate is for the empty board: ``diag-22-4-3`` was refused as
    "about 9 years" before it was proven to have no completion."""
    bench = _benchmark()
    board = tmp_path / "diag-22-4-3.txt"
    drawn = bench.excluded_diagonals(22, 4, 3)  # type: ignore[attr-defined]
    board.write_text(bench.board(22, drawn[: round(27 * 22 / 20)]))  # type: ignore[attr-defined]
    done = cli("complete", str(board), "--count")
    assert done.returncode == 1 and done.stdout.strip() == "no completion exists", done


# -- library edges ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: Problem(8, blocked={(0,)}), r"blocked: \(0,\) is not a \(row, column\) pair"),
        (lambda: Problem(8, blocked="ab"), "blocked must be an iterable"),
        (lambda: Problem(8, blocked=5), "blocked must be an iterable"),
        (lambda: Problem(8, fixed=5), "fixed must be a {row: column} mapping"),
        (lambda: Problem(8, fixed=[(0, 1), (0, 2)]), "share row 0"),
        (lambda: Problem.from_queens(8, [(1,)]), r"queens: \(1,\) is not"),
        (lambda: cp_queens.verify(None), "verify: a placement is a sequence"),
        (lambda: cp_queens.verify(5), "verify: a placement is a sequence"),
        (lambda: cp_queens.verify({0: 1}), "verify: a placement is a sequence"),
        (lambda: cp_queens.verify([0], problem=5), "problem must be a Problem"),
        (lambda: cp_queens.first(8, blocked=[(0, 1, 2)]), "is not a"),
        (lambda: cp_queens.count(8, fixed="x"), "fixed must be"),
        (lambda: cp_queens.solutions(8, blocked=[[None, 1]]), "row None is not an integer"),
    ],
)
def test_bad_arguments_raise_our_own_errors(call, message: str) -> None:
    with pytest.raises(CpQueensError, match=message):
        call()


def test_given_queens_as_pairs_are_taken_as_problem_takes_them() -> None:
    """``first(8, fixed=[(0, 1)])`` raised a raw AttributeError; ``Problem`` already took
    pairs, so the library door takes them too."""
    placement = cp_queens.first(8, fixed=[(0, 1)])
    assert placement is not None and placement[0] == 1
    assert cp_queens.count(6, fixed=[[0, 1]]) == cp_queens.count(6, fixed={0: 1})


ANYTHING = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 10)
    | st.floats(allow_nan=False)
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.sets(st.integers(0, 9))
    ),
    max_leaves=8,
)


def answer_or_our_error(n: object, fixed: object, blocked: object) -> None:
    """Whatever is passed, the library answers or raises a :class:`CpQueensError`."""
    for call in (
        lambda: cp_queens.count(n, fixed=fixed, blocked=blocked, engine="reference"),  # type: ignore[arg-type]
        lambda: Problem(n, fixed, blocked),  # type: ignore[arg-type]
        lambda: cp_queens.verify(fixed),  # type: ignore[arg-type]
        lambda: cp_queens.verify([0], problem=blocked),  # type: ignore[arg-type]
    ):
        with contextlib.suppress(CpQueensError):
            call()


FUZZED = {"n": ANYTHING | st.integers(1, 7), "fixed": ANYTHING, "blocked": ANYTHING}


# A hundred argument triples in the default run, the full 300 in the slow one.
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**FUZZED)
def test_fuzzed_arguments_give_an_answer_or_our_error(
    n: object, fixed: object, blocked: object
) -> None:
    answer_or_our_error(n, fixed, blocked)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**FUZZED)
def test_many_fuzzed_arguments_give_an_answer_or_our_error(
    n: object, fixed: object, blocked: object
) -> None:
    answer_or_our_error(n, fixed, blocked)
