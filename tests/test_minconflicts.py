"""The ``minconflicts`` local search: valid, reproducible with a seed, honest about its limits."""

from __future__ import annotations

import pytest

from cp_queens import Budget, Problem, engines, verify
from cp_queens.errors import CpQueensError, TimeLimitError, UnsupportedTaskError
from cp_queens.stats import TIME_LIMIT


@pytest.mark.parametrize("n", range(4, 41))
def test_finds_a_valid_placement(n: int) -> None:
    for seed in range(3):
        placement = engines.get("minconflicts", seed=seed).first(Problem(n)).value
        assert placement is not None and verify(placement).ok


@pytest.mark.parametrize(("n", "expected"), [(1, [0]), (2, None), (3, None)])
def test_tiny_boards(n: int, expected: list[int] | None) -> None:
    placement = engines.get("minconflicts", seed=0).first(Problem(n)).value
    assert (None if placement is None else list(placement)) == expected


def test_same_seed_same_placement_and_seed_is_reported() -> None:
    a = engines.get("minconflicts", seed=42).first(Problem(300))
    b = engines.get("minconflicts", seed=42).first(Problem(300))
    assert a.value == b.value and a.stats is not None
    assert a.stats.extra["seed"] == 42
    unseeded = engines.get("minconflicts").first(Problem(30)).stats
    assert unseeded is not None and isinstance(unseeded.extra["seed"], int)


def test_different_seeds_explore_different_starts() -> None:
    found = {engines.get("minconflicts", seed=s).first(Problem(12)).value for s in range(20)}
    assert len(found) > 1


def test_restarts_still_end_in_a_solution() -> None:
    # A budget of one move per start forces many random restarts.
    answer = engines.get("minconflicts", seed=7, restart_after=1).first(Problem(10))
    assert answer.value is not None and verify(answer.value).ok
    assert answer.stats is not None and answer.stats.extra["restarts"] >= 1


def test_large_board() -> None:
    engine = engines.get("minconflicts", seed=5)
    placement = engine.first(Problem(20_000)).value
    assert placement is not None and verify(placement).ok


def test_limits_are_clear_errors() -> None:
    engine = engines.get("minconflicts")
    with pytest.raises(UnsupportedTaskError, match="cannot count"):
        engine.count(Problem(8))
    with pytest.raises(UnsupportedTaskError, match="pre-placed"):
        engine.first(Problem(8, fixed={0: 0}))
    for bad in (0, -5, 2.5, True, "often"):
        with pytest.raises(CpQueensError, match="restart_after must be a whole number >= 1"):
            engines.get("minconflicts", restart_after=bad)


def test_a_bad_restart_after_on_the_command_line_is_a_usage_error(capsys) -> None:
    from cp_queens.cli import main

    assert main(["solve", "8", "-e", "minconflicts:restart_after=0"]) == 2
    err = capsys.readouterr().err
    assert "restart_after must be a whole number >= 1, got 0" in err
    assert "internal error" not in err and len(err.strip().splitlines()) == 1


def test_time_limit_gives_none_and_says_why() -> None:
    # One move per kernel call (restart_after=1), so the clock is read after every move.
    engine = engines.get("minconflicts", seed=0, restart_after=1)
    answer = engine.first(Problem(200), budget=Budget.of(time_limit=1e-6))
    assert answer.value is None and answer.outcome == "incomplete"
    with pytest.raises(TimeLimitError):
        answer.result()
    assert answer.stats is not None and answer.stats.status == TIME_LIMIT


def without_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if cp-queens had been installed without a C compiler: ``_kernel`` cannot be
    imported (and the one-time warning has not been given yet)."""
    import sys

    from cp_queens.engines import minconflicts

    monkeypatch.setitem(sys.modules, "cp_queens.engines.minconflicts._kernel", None)
    monkeypatch.delattr(minconflicts, "_kernel", raising=False)  # else `from` finds it
    monkeypatch.setattr(minconflicts, "_warned", False)


@pytest.mark.parametrize("n", [8, 25, 64])
def test_compiled_and_interpreted_kernels_give_the_same_board(monkeypatch, n: int) -> None:
    """The C kernel is a port of kernel.py with the same random draws: one seed, one board."""
    from cp_queens.engines import minconflicts

    if not minconflicts.kernels()[1]:
        pytest.skip("no compiled minconflicts kernel here")
    compiled = engines.get("minconflicts", seed=n).first(Problem(n)).value
    without_extension(monkeypatch)
    with pytest.warns(UserWarning, match="pure-Python"):
        interpreted = engines.get("minconflicts", seed=n).first(Problem(n)).value
    assert compiled == interpreted


def test_without_the_extension_the_cli_says_so_in_one_line(monkeypatch, capsys) -> None:
    from tests.helpers import run_cli

    without_extension(monkeypatch)
    code, out, err = run_cli(capsys, "solve", "12", "-e", "minconflicts", "--seed", "1", "-q")
    assert code == 0 and out.strip()
    lines = [line for line in err.splitlines() if "pure-Python" in line]
    assert len(lines) == 1 and lines[0].startswith("cp-queens: warning: ")
    assert "C compiler" in lines[0]  # how to get the compiled one
