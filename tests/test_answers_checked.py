"""Every answer ``solve`` and ``enumerate`` print is checked by the independent verifier.

A solver solves the model it is given: with the card's ``q - r`` AllDifferent left out,
``cpsat`` answers boards with two queens on one diagonal. The commands must refuse such
a board loudly (one line, exit 3: the engine and the verifier disagree), not print it
with exit 0.
"""

from __future__ import annotations

import json

import pytest
from ortools.sat.python import cp_model

import cp_queens.engines.cpsat.model as card
from cp_queens import verify
from cp_queens.cli.exit_codes import ExitCode
from cp_queens.problem import Problem
from tests.helpers import run_cli


def _without_one_diagonal(problem: Problem) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The card's model with the ``q - r`` AllDifferent commented out, as a student might."""
    residue = problem.residue()
    model = cp_model.CpModel()
    q = [card.new_queen(model, residue, i) for i in range(len(residue.rows))]
    model.add_all_different(q)
    model.add_all_different(q[i] + r for i, r in enumerate(residue.rows))
    return model, q


@pytest.fixture
def broken_model(monkeypatch: pytest.MonkeyPatch) -> None:
    import cp_queens.engines.cpsat as cpsat_engine  # noqa: F401  (binds build_model lazily)

    monkeypatch.setattr(card, "build_model", _without_one_diagonal)


def test_solve_refuses_a_board_the_verifier_refuses(broken_model: None, capsys) -> None:
    """One search thread: with CP-SAT's default several, which thread's board comes first
    is a race the machine's load decides, and now and then the winner happens to keep the
    missing diagonal too (a right answer, rightly printed with exit 0)."""
    code, out, err = run_cli(capsys, "solve", "8", "--engine", "cpsat:solver_workers=1", "--quiet")
    assert code == ExitCode.DISAGREE
    assert "Q" not in out  # no board printed as if it were an answer
    (line,) = [line for line in err.splitlines() if line.startswith("cp-queens: error:")]
    assert "engine 'cpsat' answered [" in line
    assert "independent verifier refuses: rows" in line and "share a diagonal" in line


def test_enumerate_stops_at_the_first_placement_the_verifier_refuses(
    broken_model: None, capsys
) -> None:
    code, out, err = run_cli(
        capsys, "enumerate", "6", "--engine", "cpsat:method=plain", "--format", "jsonl"
    )
    assert code == ExitCode.DISAGREE
    assert "independent verifier refuses" in err
    written = [json.loads(line) for line in out.splitlines() if line]
    assert all(verify(cols) for cols in written)  # only checked ones went out


def test_a_right_model_still_answers(capsys) -> None:
    code, out, _ = run_cli(capsys, "enumerate", "6", "--engine", "fast", "--format", "jsonl")
    assert code == ExitCode.OK and len(out.splitlines()) == 4
