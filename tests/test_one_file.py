"""An engine is one file: what it costs, which options it takes and what it can do are
read off its class; the command line gives answers as data, with one error prefix."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import cp_queens
from cp_queens import Problem, engines, limits
from cp_queens.cli.exit_codes import ExitCode
from cp_queens.engines.base import Call, Engine, TemplateEngine
from cp_queens.errors import CpQueensWarning, EngineOptionError, UnsupportedTaskError
from cp_queens.problem import Placement
from cp_queens.stats import Progress
from tests.helpers import run_cli


class Hungry(TemplateEngine):
    """The template, with costs of its own written on its class."""

    name = "hungry"
    bytes_per_square = 1e15  # no machine has a petabyte per square
    seconds_per_solution = 1.0
    option_choices = {"flavour": ("sweet", "sour")}  # noqa: RUF012

    def __init__(self, *, flavour: str = "sweet") -> None:
        super().__init__()
        self.check_options(flavour=flavour)


def test_the_limits_read_an_engines_costs_off_its_class() -> None:
    refused = r"engine 'hungry' \(roughly 1e\+15 bytes per square\) for n=8 would need"
    with pytest.raises(UnsupportedTaskError, match=refused):
        Hungry().count(Problem(8))
    assert limits.count_seconds(Hungry, 8) == 92.0
    assert limits.memory_needed(TemplateEngine, 8) == 800  # no model: the placement only


def test_one_checker_names_the_choices_for_every_engine() -> None:
    with pytest.raises(
        EngineOptionError, match=r"hungry: unknown flavour 'salty' \(choose from sweet, sour\)"
    ):
        Hungry(flavour="salty")
    for name in ("cpsat", "propagate", "pyconstraint", "mip"):
        cls = engines.engine_class(name)
        option, choices = next(iter(cls.option_choices.items()))
        with pytest.raises(EngineOptionError, match=f"{name}: unknown {option} 'nonsense'"):
            engines.get(name, **{option: "nonsense"})
        cls.check_options(**{option: choices[0]})  # a listed value passes


def test_an_option_that_takes_a_task_away_leaves_the_class_alone() -> None:
    local = engines.get("pyconstraint", solver="min-conflicts")
    assert not local.able_to("count") and not local.able_to("enumerate")
    assert local.able_to("first")
    cls = engines.engine_class("pyconstraint")
    assert cls.can_count and cls.can_enumerate  # the class still can, with other options
    assert engines.get("pyconstraint").able_to("count")


def test_a_count_is_estimated_once_and_the_estimate_reaches_the_progress_callback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    estimates: list[int] = []
    original = limits.count_seconds

    def counted(*args: object, **kwargs: object) -> float | None:
        estimates.append(1)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(limits, "count_seconds", counted)
    seen: list[Progress] = []
    assert engines.get("reference").count(Problem(8), progress=seen.append).value == 92
    assert len(estimates) == 1
    assert seen[0].expected == pytest.approx(92 * 1e-4)


def test_the_library_warns_once_about_too_many_workers() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert cp_queens.count(8, workers=4096) == 92
    capped = [w for w in caught if issubclass(w.category, CpQueensWarning)]
    assert len(capped) == 1 and "workers capped" in str(capped[0].message)


def test_the_command_line_checks_workers_with_the_library_checker(capsys) -> None:
    code, out, err = run_cli(capsys, "count", "8", "--workers", "4096", "-q")
    assert code == ExitCode.OK and "92 solutions" in out
    assert err.count("workers capped") == 1
    code, _, err = run_cli(capsys, "count", "8", "--workers", "-1")
    assert code == ExitCode.BAD_INPUT and "expected a number >= 0, got -1" in err


def test_count_as_json_says_complete(capsys) -> None:
    code, out, _ = run_cli(capsys, "count", "12", "--format", "json", "-q")
    document = json.loads(out)
    assert code == ExitCode.OK
    assert document["complete"] is True  # the default engine counts the unique for free
    assert (document["value"], document["unique"]) == (14200, 1787)
    assert document["stats"]["engine"] == "fast" and document["stats"]["solutions"] == 14200


def test_a_count_cut_short_is_json_too_and_not_complete(capsys) -> None:
    # the search only burns CPU until the limit: any cut shows the shape (0.2 s before)
    code, out, _ = run_cli(
        capsys, "count", "16", "-e", "reference", "--time-limit", "0.05", "--format", "json"
    )
    document = json.loads(out)
    assert code == ExitCode.TIME_LIMIT
    assert document["complete"] is False and 0 <= document["partial"] < 14772512
    assert "value" not in document  # a lower bound is never where the answer goes
    assert document["stats"]["status"] == "time_limit"


def test_complete_count_as_json(capsys, tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    board.write_text("Q.......\n" + "........\n" * 7)
    code, out, _ = run_cli(
        capsys, "complete", str(board), "--count", "--format", "json", "-x", "reference", "-q"
    )
    document = json.loads(out)
    assert code == ExitCode.OK
    assert document["value"] == 4 and document["complete"] is True
    assert document["cross_check"] == {"engine": "reference", "agrees": True, "difference": None}
    code, _, err = run_cli(capsys, "complete", str(board), "--format", "svg", "--count")
    assert code == ExitCode.BAD_INPUT and "draws one completion" in err


def test_verify_as_json(capsys, tmp_path: Path) -> None:
    placements = tmp_path / "p.jsonl"
    placements.write_text("[1, 3, 0, 2]\n[0, 1, 2, 3]\n")
    code, out, _ = run_cli(capsys, "verify", str(placements), "--format", "json")
    document = json.loads(out)
    assert code == ExitCode.NEGATIVE
    assert document["value"] is False and document["complete"] is True
    assert (document["checked"], document["invalid"], document["sizes"]) == (2, 1, [4])
    assert document["failures"][0]["placement"] == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "x"],
        ["solve", "8", "--engine", "nope"],
        ["frobnicate"],
        ["count", "8", "-e", "construct"],
    ],
)
def test_every_error_line_has_one_prefix(capsys, argv: list[str]) -> None:
    code, _, err = run_cli(capsys, *argv)
    lines = [line for line in err.splitlines() if not line.startswith("#")]
    assert code == ExitCode.BAD_INPUT
    assert len(lines) == 1 and lines[0].startswith("cp-queens: error: "), err


class _Listing(Engine):
    name = "listing"

    def _solutions(self, problem: Problem, call: Call) -> Iterator[Placement]:
        yield from TemplateEngine()._solutions(problem, call)


def test_a_stream_of_blocks_is_cut_to_the_limit() -> None:
    """The one stream helper serves placements one by one and blocks (the fast engine's
    arrays) alike: the last block is cut to the limit."""
    fast = engines.get("fast")
    blocks = list(fast.solution_arrays(Problem(8), limit=50))  # type: ignore[attr-defined]
    assert sum(len(block) for block in blocks) == 50
    assert list(_Listing().solutions(Problem(6), limit=3)).__len__() == 3
