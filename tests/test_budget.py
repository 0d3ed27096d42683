"""Run settings per call: a ``Budget`` checked however it is made, passed with each call
through the library, the engines, the CLI and ``compare``, and read through one
``Clock`` per call."""

from __future__ import annotations

import ast
import json
import math
import pickle
from pathlib import Path

import pytest

import cp_queens
from cp_queens import Budget, Problem, engines
from cp_queens.budget import Clock
from cp_queens.engines.base import Engine
from cp_queens.errors import CpQueensError, EngineOptionError, TimeLimitError
from tests.helpers import total

PACKAGE = Path(__file__).parent.parent / "cp_queens"


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"time_limit": -3}, "time_limit must be a finite number of seconds > 0, got -3"),
        ({"time_limit": math.nan}, "time_limit must be a finite number of seconds > 0, got nan"),
        ({"time_limit": math.inf}, r"time_limit must be at most \S+ seconds \(a year\), got inf"),
        ({"time_limit": 0}, "time_limit must be a finite number"),
        ({"time_limit": "soon"}, "time_limit must be a number of seconds, got 'soon'"),
        ({"time_limit": 10**400}, "time_limit must be at most"),
        ({"workers": -1}, "workers must be a whole number >= 0, got -1"),
        ({"workers": 1.5}, "workers must be a whole number >= 0"),
        ({"workers": True}, "workers must be a whole number >= 0"),
        ({"where": "http://localhost:8787"}, "web address"),
        ({"where": 42}, "where must be a Dask address"),
        ({"checkpoint": ""}, "checkpoint must name a file"),
        ({"recheck": 2}, "recheck must be a fraction from 0 to 1"),
        ({"recheck": 0.5}, "recheck needs a checkpoint"),
        ({"where": "local:2", "workers": 1}, "workers is for local processes"),
    ],
)
def test_a_budget_is_checked_however_it_is_made(fields: dict[str, object], says: str) -> None:
    with pytest.raises(CpQueensError, match=says) as made:
        Budget(**fields)  # type: ignore[arg-type]
    assert len(str(made.value).splitlines()) == 1 and len(str(made.value)) < 200
    # The friendly door says the same.
    with pytest.raises(CpQueensError, match=says):
        Budget.of(**fields)


def test_a_budget_made_directly_holds_checked_values() -> None:
    assert Budget(time_limit=5) == Budget.of(time_limit=5)
    assert Budget(time_limit=5).time_limit == 5.0 and isinstance(Budget(5).time_limit, float)
    assert Budget(workers=0).workers == Budget.of(workers=0).workers >= 1  # every core


def test_the_library_takes_a_budget_per_call() -> None:
    assert cp_queens.count(8, budget=cp_queens.Budget.of(time_limit=30)) == 92
    assert cp_queens.count_unique(8, budget=Budget.of(workers=1)) == (92, 12)
    assert cp_queens.first(6, engine="reference", budget=Budget(time_limit=30)) is not None
    with cp_queens.solutions(6, engine="reference", budget=Budget(time_limit=30)) as stream:
        assert len(list(stream)) == total(6)


def test_a_budget_per_call_is_obeyed() -> None:
    """Not just accepted: a limit too short for the count stops it."""
    with pytest.raises(TimeLimitError) as cut:
        cp_queens.count(14, engine="reference", budget=Budget.of(time_limit=0.01))
    assert cut.value.stats.status == "time_limit"
    assert isinstance(cut.value.partial, int) and cut.value.partial < total(14)


def test_run_settings_come_by_budget_or_keyword_not_both() -> None:
    with pytest.raises(EngineOptionError, match=r"count\(\): give the run settings in budget="):
        cp_queens.count(8, time_limit=5, budget=Budget.of(time_limit=5))


@pytest.mark.parametrize(
    "call",
    [
        lambda: cp_queens.count(8, budget="soon"),
        lambda: engines.get("fast").count(Problem(12), budget="soon"),  # type: ignore[arg-type]
        lambda: engines.get("reference").first(Problem(6), budget=5),  # type: ignore[arg-type]
        lambda: engines.get("reference").solutions(Problem(6), budget={}),  # type: ignore[arg-type]
    ],
)
def test_a_budget_that_is_not_one_is_our_error(call) -> None:
    with pytest.raises(CpQueensError, match=r"budget must be a cp_queens\.Budget"):
        call()


def test_a_huge_time_limit_is_our_error_not_an_overflow() -> None:
    with pytest.raises(CpQueensError, match="time_limit must be at most") as refused:
        cp_queens.count(8, time_limit=10**400)
    assert len(str(refused.value)) < 200


def test_a_typo_in_a_keyword_is_named_as_the_functions() -> None:
    with pytest.raises(EngineOptionError) as typo:
        cp_queens.solutions(8, enigne="reference")
    message = str(typo.value)
    assert message.startswith("solutions() got an unknown keyword 'enigne'")
    assert "did you mean engine=?" in message
    # An option of another engine is still named as the engine's.
    with pytest.raises(EngineOptionError, match="engine 'reference' has no option 'workers'"):
        cp_queens.count(8, engine="reference", workers=2)


def test_the_clock_runs_out_and_travels() -> None:
    unlimited = Clock.start(None)
    assert not unlimited.limited and not unlimited.expired() and unlimited.remaining() is None
    gone = Clock.start(1e-9)
    assert gone.limited and gone.remaining() is not None
    while not gone.expired():
        pass
    assert gone.remaining() == 0.0
    hour = Clock.start(3600)
    assert hour.within(1).remaining() <= 1 < hour.remaining()  # type: ignore[operator]
    assert hour.extended(5).remaining() > hour.remaining()  # type: ignore[operator]
    assert pickle.loads(pickle.dumps(hour)) == hour  # local worker processes get it whole


def test_a_call_makes_one_clock_from_its_budget() -> None:
    seen: list[Clock] = []

    class Spy(Engine):
        name = "spy"

        def _count(self, problem, call):  # type: ignore[no-untyped-def]
            seen.append(call.clock)
            return 0

    Spy().count(Problem(4), budget=Budget.of(time_limit=60))
    Spy().count(Problem(4))
    assert seen[0].limited and 59 < seen[0].remaining() <= 60  # type: ignore[operator]
    assert not seen[1].limited


def _polls_raw_deadlines(path: Path) -> list[str]:
    """Lines comparing ``time.monotonic()`` with something: a deadline of one's own."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Compare | ast.BinOp):
            text = ast.unparse(node)
            if "time.monotonic()" in text and ("deadline" in text or "-" in text):
                found.append(f"{path.name}:{node.lineno}: {text}")
    return found


@pytest.mark.parametrize(
    "module",
    [
        "engines/cpsat/orbits.py",
        "engines/pyconstraint.py",
        "engines/fast/subproblems.py",
        "parallel/__init__.py",
        "parallel/dask.py",
        "compare/__init__.py",
        "compare/process.py",
    ],
)
def test_the_pollers_read_the_clock_they_are_handed(module: str) -> None:
    path = PACKAGE / module
    assert not _polls_raw_deadlines(path)
    assert "deadline:" not in path.read_text()  # no parameter of that name is left


def test_the_deadline_finder_finds_one(tmp_path: Path) -> None:
    raw = tmp_path / "raw.py"
    raw.write_text("import time\ndef f(deadline):\n    return time.monotonic() > deadline\n")
    assert _polls_raw_deadlines(raw)


def test_the_cli_passes_one_budget_per_call_not_one_stored_on_the_engine(monkeypatch) -> None:
    from cp_queens.cli import main

    budgets: list[object] = []
    real = Engine.count

    def count(self, problem, *, progress=None, budget=None):  # type: ignore[no-untyped-def]
        budgets.append(budget)
        assert not hasattr(self, "budget")  # nothing stored on the engine
        return real(self, problem, progress=progress, budget=budget)

    monkeypatch.setattr(Engine, "count", count)
    assert main(["count", "8", "-e", "reference", "--time-limit", "30"]) == 0
    assert budgets == [Budget.of(time_limit=30)]


def test_compare_gives_every_run_its_budget_with_the_specs_run_settings() -> None:
    from cp_queens.compare import parse_engine_spec

    spec = parse_engine_spec("fast:workers=1")
    engine, budget = spec.build(Budget.of(time_limit=7))
    assert engine.name == "fast" and budget == Budget.of(time_limit=7, workers=1)
    assert not hasattr(engine, "budget")


def test_a_time_limit_is_checked_once_where_its_budget_is_made(monkeypatch) -> None:
    """One check per budget made: the library's keyword, ``Budget.of`` and the engine's
    call add none of their own (a call without a budget makes none either)."""
    from cp_queens import budget as module

    checked: list[object] = []
    real = module.check_time_limit

    def spy(seconds: object) -> float | None:
        checked.append(seconds)
        return real(seconds)

    monkeypatch.setattr(module, "check_time_limit", spy)
    assert cp_queens.count(8, engine="reference", time_limit=5) == 92
    assert checked == [5]
    checked.clear()
    assert engines.get("reference").count(Problem(6)).value == 4
    assert checked == []
    checked.clear()
    Budget.of(time_limit=2.5)
    assert checked == [2.5]


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("0", "expected a finite number of seconds > 0, got '0'"),
        ("nan", "expected a finite number of seconds > 0, got 'nan'"),
        ("4e7", "expected at most 3.1536e+07 seconds (a year), got '4e7'"),
        ("soon", "expected seconds, got 'soon'"),
    ],
)
def test_the_command_line_words_the_budgets_rule_for_its_flag(capsys, given, says) -> None:
    from tests.helpers import run_cli

    code, _, err = run_cli(capsys, "count", "8", "--time-limit", given)
    assert code == 2 and f"argument --time-limit: {says}" in err
    assert len(err.strip().splitlines()) == 1


def test_a_cut_short_answer_carries_the_limit_it_ran_under(capsys) -> None:
    """The output side words the stop from the answer's own record, not from a number
    handed beside it: its statistics keep the limit, the JSON says it."""
    from cp_queens.cli import main
    from cp_queens.writers import stopped_line

    cut = engines.get("reference").count(Problem(14), budget=Budget.of(time_limit=0.01))
    assert not cut.complete and cut.stats is not None and cut.stats.time_limit == 0.01
    assert stopped_line(cut).startswith("cp-queens: stopped by the time limit of 0.01 s: n=14")
    assert engines.get("reference").count(Problem(6)).stats.time_limit is None
    assert main(["count", "14", "-e", "reference", "--time-limit", "0.01", "--format", "json"]) == 4
    out, err = capsys.readouterr()
    assert json.loads(out)["stats"]["time_limit"] == 0.01
    assert "stopped by the time limit of 0.01 s" in err
