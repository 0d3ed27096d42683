"""``--strategy`` and friends on the command line (cpsat engine)."""

from __future__ import annotations

import json

import pytest

from cp_queens import verify
from cp_queens.cli import main


#: Past the CP-SAT model's sizes (FIRST_MODEL_UP_TO = 32) the greedy search solves: n = 100
#: shows it in the default run (0.07 s of solving), 300 (0.2 s) in the slow run.
@pytest.mark.parametrize("n", [100, pytest.param(300, marks=pytest.mark.slow)])
def test_solve_with_the_cpsat_engine_on_a_large_board_prints_a_verified_solution(
    capsys: pytest.CaptureFixture[str], n: int
) -> None:
    assert main(["solve", str(n), "--engine", "cpsat", "--format", "jsonl"]) == 0
    out, err = capsys.readouterr()
    assert verify(json.loads(out)).ok
    assert "strategy=greedy" in err


@pytest.mark.parametrize(
    "flags",
    [
        ["--strategy", "fixed", "--variable-order", "min-domain", "--value-order", "median"],
        ["--strategy", "fixed", "--value-order", "random", "--seed", "4"],
        ["--strategy", "portfolio", "--solver-workers", "2"],
        ["--strategy", "greedy", "--solver-workers", "1"],
    ],
)
def test_solve_accepts_every_strategy(flags: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "16", "--engine", "cpsat", "--format", "jsonl", *flags]) == 0
    out, err = capsys.readouterr()
    assert verify(json.loads(out)).ok
    assert f"strategy={flags[1]}" in err


def test_count_and_enumerate_take_a_strategy_and_stay_exact(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["count", "8", "--engine", "cpsat", "--strategy", "greedy"]) == 0
    assert "n=8: 92 solutions" in capsys.readouterr().out
    flags = ["--strategy", "fixed", "--value-order", "max", "--format", "jsonl"]
    assert main(["enumerate", "6", *flags]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sorted(json.loads(line) for line in lines) == [
        [1, 3, 5, 0, 2, 4],
        [2, 5, 1, 4, 0, 3],
        [3, 0, 4, 1, 5, 2],
        [4, 2, 0, 5, 3, 1],
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "8", "--engine", "reference", "--strategy", "fixed"], "has no option"),
        (["count", "8", "--engine", "fast", "--strategy", "greedy"], "has no option --strategy"),
        (["solve", "8", "--engine", "cpsat", "--strategy", "dfs"], "invalid choice"),
    ],
)
def test_strategy_mistakes_are_one_line_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        code = main(argv)
        raise SystemExit(code)
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
