"""A count of a given board is priced before it starts, and goes to the fastest engine
(issue 38: ``complete --count`` of n = 40 with one queen ran silently until killed;
CSPLib prob079's gen-20-4-1..3 ran 120-900 s on the default engine, seconds on ``fast``).

No test asserts a duration: a refusal is recognised by its message and by the work it
did not do (no statistics line: nothing was searched).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cp_queens
from cp_queens import Problem, default_complete_engine, engines, limits
from cp_queens.errors import UnsupportedTaskError
from cp_queens.estimate import search_tree, tree_seconds
from cp_queens.partial import read_partial
from tests.helpers import run_cli

DATA = Path(__file__).parent / "data"
GEN_20 = [DATA / f"gen-20-4-{seed}.json" for seed in (1, 2, 3)]


def board(path: Path) -> Problem:
    with path.open(encoding="utf-8") as source:
        return read_partial(source, path.name)


# -- the estimate -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [6, 8, 10])
def test_the_estimate_is_within_a_small_factor_of_the_truth(n: int) -> None:
    """Knuth's probes against the reference's count and nodes."""
    tree = search_tree(Problem(n))
    reference = engines.get("reference")
    counted = reference.count(Problem(n))
    total, nodes = counted.value, counted.stats.branches
    assert nodes is not None
    assert total / 3 <= tree.solutions <= total * 3
    assert nodes / 3 <= tree.nodes <= nodes * 3


@pytest.mark.parametrize("n", [14, 18, 22, 26])
def test_the_estimate_of_larger_boards_meets_the_known_totals(n: int) -> None:
    """OEIS A000170, counted by others: within a factor of 3 at every size."""
    total = limits.KNOWN_TOTALS[n - 1]
    assert total / 3 <= search_tree(Problem(n)).solutions <= total * 3


def test_the_estimate_of_a_given_board_follows_its_residue() -> None:
    problem = Problem(10, {0: 0, 5: 7}, blocked=[(1, 2)])
    tree = search_tree(problem)
    total = engines.get("reference").count(problem).value
    assert total / 3 <= tree.solutions <= total * 3 + 1


def test_the_estimate_is_repeatable_and_zero_where_nothing_fits() -> None:
    problem = Problem(14, {0: 3})
    assert search_tree(problem) == search_tree(problem)
    assert search_tree(Problem(3)).solutions == 0
    assert search_tree(Problem(5, dict(enumerate([0, 2, 4, 1, 3])))).solutions == 1


def test_a_huge_tree_stops_its_walks_early() -> None:
    """A residue of thousands of rows is sized in a bounded number of steps."""
    tree = search_tree(Problem(3000, {0: 0}))
    assert tree.nodes > 1e25 and tree.at_least


# -- the refusal --------------------------------------------------------------------------

HOPELESS = [
    ('{"n": 40, "queens": [[0, 0]]}', ()),
    ('{"n": 40, "queens": [[0, 0]]}', ("-e", "fast")),
    ('{"n": 33, "queens": [[0, 0], [1, 2]]}', ()),
    ('{"n": 33, "queens": [[0, 0], [1, 2]]}', ("-e", "cpsat")),
]


@pytest.mark.parametrize(("text", "extra"), HOPELESS)
def test_a_hopeless_completion_count_is_refused_at_once(
    capsys, monkeypatch, text: str, extra: tuple[str, ...]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code, out, err = run_cli(capsys, "complete", "-", "--count", *extra)
    assert code == 2, err
    assert out == ""
    (line,) = err.splitlines()
    assert "counting the completions of n=" in line and "would take" in line
    assert "time limit" in line


@pytest.mark.parametrize("engine", ["fast", "reference", "pyconstraint", "cpsat", "propagate"])
def test_every_engine_that_counts_given_boards_refuses_the_hopeless_one(engine: str) -> None:
    with pytest.raises(UnsupportedTaskError, match="completions of n=40"):
        cp_queens.count(40, fixed={0: 0}, engine=engine)


def test_with_a_time_limit_the_hopeless_count_runs_and_is_cut_short() -> None:
    from cp_queens.budget import Budget
    from cp_queens.engines.ask import ask

    result = ask(
        "count",
        Problem(40, {0: 0}),
        engines.get("reference"),
        budget=Budget.of(time_limit=0.1),
    )
    assert not result.complete
    assert result.partial is not None and result.stats.branches  # searched, then cut


def test_a_countable_completion_is_priced_not_refused() -> None:
    problem = board(GEN_20[0])
    fast = engines.get("fast")
    seconds = tree_seconds(fast, search_tree(problem), cores=1)
    assert seconds is not None and seconds < limits.BEYOND_REACH
    # cpsat pays some thousand times more per node: still priced, still under a year
    slow = tree_seconds(engines.get("cpsat"), search_tree(problem), cores=1)
    assert slow is not None and seconds < slow < limits.BEYOND_REACH


def test_a_long_completion_count_is_announced(capsys, tmp_path: Path, monkeypatch) -> None:
    """Priced over a minute: said up front, from the estimate made before any work. The
    engine's figure is raised so that a count of milliseconds is priced at minutes."""
    from cp_queens.engines.fast import FastEngine

    monkeypatch.setattr(FastEngine, "seconds_per_node", 1.0)
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"n": 10, "queens": [[0, 0]]}))
    code, _, err = run_cli(capsys, "complete", str(path), "--count", "-e", "fast")
    assert code == 0, err
    assert "# this count may take about" in err
    code, _, err = run_cli(capsys, "complete", str(path), "--count", "--time-limit", "60")
    assert code == 0, err
    assert "may take" not in err  # under a limit the user has said how long is enough


# -- the default engine -------------------------------------------------------------------


@pytest.mark.parametrize("path", GEN_20, ids=lambda p: p.stem)
def test_a_count_of_a_given_board_defaults_to_the_counting_engine(path: Path) -> None:
    assert default_complete_engine(board(path), "count") == cp_queens.default_count_engine()


def test_one_completion_still_goes_by_the_residue() -> None:
    """The counting engine's lexicographic search is lost on a large board with few
    queens (benchmarks/completion_engines.py: gen-40-2-1 over 60 s)."""
    assert default_complete_engine(Problem(40, {8: 36, 4: 16}), "first") == "cpsat"
    assert default_complete_engine(Problem(8, {0: 0, 1: 4, 2: 7}), "first") == "pyconstraint"


def test_a_count_beyond_the_counters_masks_goes_by_the_residue() -> None:
    fixed = {row: (2 * row) % 97 for row in range(90)}  # a few rows left open
    problem = Problem(97, {row: col for row, col in fixed.items() if row % 2 == 0})
    assert default_complete_engine(problem, "count") != "fast"


def test_the_help_names_the_default_of_a_count(capsys) -> None:
    code, out, _ = run_cli(capsys, "complete", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "--count uses the counting engine (fast)" in text and "pyconstraint" in text
    assert "benchmarks/completion_engines.py" in text


def test_complete_count_says_its_engine(capsys, tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"n": 11, "queens": [[0, 0]]}))
    code, out, err = run_cli(capsys, "complete", str(path), "--count")
    assert code == 0
    assert out.split()[0] == str(cp_queens.count(11, fixed={0: 0}, engine="reference"))
    assert "engine: fast (default for a count" in err


def test_a_small_residue_goes_to_the_engine_that_starts_fastest() -> None:
    assert default_complete_engine(Problem(8, {0: 0}), "count") == "pyconstraint"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("path", "expected"),
    # prob079's published generator, counted by fast and by an independent backtracker
    # (issue 38); here the default must give them, whole.
    list(zip(GEN_20, [706_604, 542_506, 387_461], strict=True)),
    ids=lambda value: getattr(value, "stem", str(value)),
)
def test_the_default_counts_the_prob079_instances(capsys, path: Path, expected: int) -> None:
    code, out, err = run_cli(capsys, "complete", str(path), "--count")
    assert code == 0, err
    assert out.split()[0] == str(expected)
