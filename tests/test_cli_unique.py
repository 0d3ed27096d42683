"""``--unique`` and ``--method`` on the command line."""

from __future__ import annotations

import json

import pytest

from cp_queens.cli import main
from tests.helpers import engines_that


@pytest.mark.parametrize("engine", engines_that(count=True))
def test_count_unique_prints_both_totals_for_every_counting_engine(
    engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["count", "8", "--unique", "--engine", engine]) == 0
    assert capsys.readouterr().out == "n=8: 92 solutions, 12 unique\n"


def test_count_10_unique_with_the_cpsat_fast_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "10", "--unique", "-e", "cpsat", "--method", "fast"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "n=10: 724 solutions, 92 unique\n"
    assert "method=fast" in captured.err


def test_engines_that_cannot_count_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    for engine in sorted(set(engines_that()) - set(engines_that(count=True))):
        assert main(["count", "8", "--unique", "-e", engine]) == 2
        err = capsys.readouterr().err
        assert f"engine '{engine}' cannot count" in err
        assert "Traceback" not in err


def test_enumerate_unique_lists_one_per_orbit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["enumerate", "8", "--unique", "--format", "jsonl"]) == 0
    rows = [tuple(json.loads(line)) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == len(set(rows)) == 12
    assert main(["enumerate", "8", "--unique", "--format", "jsonl", "--limit", "5"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 5


def test_enumerate_with_the_fast_method(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["enumerate", "10", "--method", "fast", "--format", "jsonl"]) == 0
    rows = {tuple(json.loads(line)) for line in capsys.readouterr().out.splitlines()}
    assert len(rows) == 724


def test_method_on_an_engine_without_it_is_a_clear_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["count", "6", "-e", "reference", "--method", "fast"]) == 2
    assert "engine 'reference' has no option --method" in capsys.readouterr().err


def test_enumerate_unique_with_an_engine_that_cannot_enumerate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for engine in sorted(set(engines_that()) - set(engines_that(enumerate=True))):
        assert main(["enumerate", "8", "--unique", "-e", engine]) == 2
        assert f"engine '{engine}' cannot enumerate" in capsys.readouterr().err
