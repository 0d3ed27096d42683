"""Choosing the propagate engine's options from ``solve``, ``count`` and ``enumerate``.

Two ways, as in ``trace`` and ``compare``: flags (``--consistency``,
``--variable-order``, ``--value-order``) or the engine spec
``-e propagate:consistency=alldiff``. The stats line on stderr says what ran, so the
tests check that the options reached the engine, not only that the command ran.
"""

from __future__ import annotations

import json

import pytest

from cp_queens import Problem, engines, verify
from tests.helpers import run_cli, total


def figures(err: str) -> dict[str, str]:
    """The ``key=value`` pairs of the stats line."""
    line = next(line for line in err.splitlines() if line.startswith("# engine="))
    return dict(part.split("=", 1) for part in line[2:].split())


@pytest.mark.parametrize(
    "engine_flags",
    [
        ["-e", "propagate:consistency=alldiff:variable-order=first-fail"],
        ["-e", "propagate", "--consistency", "alldiff", "--variable-order", "first-fail"],
    ],
    ids=["spec", "flags"],
)
def test_count_runs_the_chosen_consistency(capsys, engine_flags: list[str]) -> None:
    code, out, err = run_cli(capsys, "count", "8", *engine_flags)
    assert code == 0 and out.strip() == f"n=8: {total(8)} solutions"
    seen = figures(err)
    assert seen["consistency"] == "alldiff" and seen["variable_order"] == "first-fail"
    library = engines.get("propagate", consistency="alldiff", variable_order="first-fail")
    stats = library.count(Problem(8)).stats
    assert stats is not None
    assert int(seen["branches"]) == stats.branches  # the same search, not the default


@pytest.mark.parametrize("consistency", ["none", "forward", "arc", "alldiff"])
def test_nodes_fall_with_stronger_consistency_from_the_command_line(capsys, consistency) -> None:
    code, _, err = run_cli(capsys, "count", "7", "-e", f"propagate:consistency={consistency}")
    assert code == 0
    library = engines.get("propagate", consistency=consistency)
    stats = library.count(Problem(7)).stats
    assert stats is not None and int(figures(err)["branches"]) == stats.branches


def test_solve_takes_the_heuristics_and_prints_a_valid_board(capsys) -> None:
    code, out, err = run_cli(
        capsys,
        "solve",
        "40",
        "-e",
        "propagate",
        "--variable-order",
        "first-fail-centre",
        "--value-order",
        "centre",
        "--format",
        "jsonl",
    )
    assert code == 0 and verify(json.loads(out)).ok
    seen = figures(err)
    assert (seen["variable_order"], seen["value_order"]) == ("first-fail-centre", "centre")


def test_enumerate_with_a_spec_finds_every_solution_once(capsys) -> None:
    code, out, err = run_cli(
        capsys, "enumerate", "6", "-e", "propagate:consistency=forward", "--format", "jsonl"
    )
    assert code == 0
    found = [tuple(json.loads(line)) for line in out.splitlines()]
    assert len(found) == len(set(found)) == total(6)
    assert figures(err)["consistency"] == "forward"


def test_cpsat_orders_still_work_next_to_ours(capsys) -> None:
    code, out, _ = run_cli(
        capsys, "count", "8", "-e", "cpsat", "--strategy", "fixed", "--variable-order", "min-domain"
    )
    assert code == 0 and out.strip() == f"n=8: {total(8)} solutions"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-e", "propagate:consistency=full"], "unknown consistency 'full' (choose from none"),
        (["-e", "propagate", "--consistency", "full"], "invalid choice: 'full'"),
        (["-e", "propagate:consistency"], "--engine: cannot read option 'consistency'"),
        (["-e", "propagate:bogus=1"], "engine 'propagate' has no option 'bogus'"),
        (["--consistency", "alldiff"], "engine 'fast' has no option --consistency (it is for"),
        (["-e", "reference", "--value-order", "centre"], "engine 'reference' has no option"),
        (
            ["-e", "cpsat", "--variable-order", "first-fail"],
            "--variable-order first-fail: not an option of engine 'cpsat' (choose from input",
        ),
        (
            ["-e", "propagate", "--variable-order", "min-domain"],
            "not an option of engine 'propagate' (choose from input, first-fail",
        ),
        (
            ["-e", "propagate:consistency=arc", "--consistency", "forward"],
            "consistency is set twice",
        ),
        (["-e", "nosuch:consistency=arc"], "unknown engine 'nosuch'"),
    ],
)
def test_bad_choices_are_one_line_errors(capsys, argv: list[str], message: str) -> None:
    code, out, err = run_cli(capsys, "count", "6", *argv)
    assert code == 2 and out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1, err


def test_trace_takes_the_same_spec(capsys, tmp_path) -> None:
    with_spec = tmp_path / "spec.svg"
    with_flags = tmp_path / "flags.svg"
    code, _, err = run_cli(
        capsys, "trace", "6", "-e", "propagate:consistency=alldiff", "-o", str(with_spec)
    )
    assert code == 0 and figures(err)["consistency"] == "alldiff"
    code, _, _ = run_cli(
        capsys,
        "trace",
        "6",
        "--engine",
        "propagate",
        "--consistency",
        "alldiff",
        "-o",
        str(with_flags),
    )
    assert code == 0
    assert with_spec.read_text() == with_flags.read_text()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("cpsat", "trace draws propagate or reference, not 'cpsat'"),
        ("reference:consistency=arc", "engine 'reference' has no option 'consistency'"),
        ("propagate:consistency=full", "unknown consistency 'full'"),
    ],
)
def test_trace_refuses_a_bad_spec_in_one_line(capsys, tmp_path, spec: str, message: str) -> None:
    code, _, err = run_cli(capsys, "trace", "6", "-e", spec, "-o", str(tmp_path / "t.svg"))
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "t.svg").exists()
