"""The one answer type: made in one place from what an engine returns or raises."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from cp_queens.answer import (
    ANSWER,
    INCOMPLETE,
    NEGATIVE,
    SCHEMA,
    VERSION,
    Answer,
    cut_short,
    plain,
)
from cp_queens.budget import Budget
from cp_queens.engines.ask import ask
from cp_queens.engines.base import Engine, UniqueCount
from cp_queens.errors import TimeLimitError
from cp_queens.problem import Placement, Problem
from cp_queens.stats import STOPPED, TIME_LIMIT, Stats
from cp_queens.verify import verify


def test_each_engine_task_becomes_an_answer(make_engine: Callable[..., Engine]) -> None:
    engine = make_engine()
    if engine.able_to("count"):
        counted = ask("count", Problem(6), engine)
        assert (counted.value, counted.complete, counted.outcome) == (4, True, ANSWER)
        assert counted.stats is not None and counted.stats.solutions == 4
    found = ask("first", Problem(6), engine)
    assert found.complete and found.outcome == ANSWER and verify(found.value).ok
    if engine.able_to("enumerate"):
        seen: list[Placement] = []
        streamed = ask("solutions", Problem(6), engine, each=seen.append)
        assert streamed.value == len(seen) == 4 and len({p.cols for p in seen}) == 4


def test_a_proven_none_is_a_negative_answer_not_an_incomplete_one() -> None:
    from cp_queens import engines

    reference = engines.get("reference")
    none = ask("first", Problem(3), reference)
    assert none.complete and none.value is None and none.outcome == NEGATIVE
    assert ask("solutions", Problem(2), reference).outcome == NEGATIVE
    # a limit of 0 asks for nothing: finding nothing is no "no"
    assert ask("solutions", Problem(8), reference, limit=0).outcome == ANSWER


def test_a_time_limit_becomes_an_incomplete_answer_with_its_partial_figure() -> None:
    from cp_queens import engines

    reference = engines.get("reference")
    cut = ask("count", Problem(14), reference, budget=Budget.of(time_limit=0.01))
    assert not cut.complete and cut.value is None and cut.outcome == INCOMPLETE
    assert isinstance(cut.partial, int) and 0 <= cut.partial < 365_596
    assert cut.reason == TIME_LIMIT and cut.stats is not None
    document = cut.to_json()
    assert "value" not in document and document["partial"] == cut.partial
    assert document["complete"] is False and document["outcome"] == INCOMPLETE


def test_a_cut_stream_counts_what_reached_the_consumer() -> None:
    from cp_queens import engines

    seen: list[Placement] = []
    cut = ask(
        "solutions",
        Problem(14),
        engines.get("reference"),
        budget=Budget.of(time_limit=0.05),
        each=seen.append,
    )
    assert not cut.complete and cut.partial == len(seen)


def test_cut_short_reads_the_reason_from_the_statistics() -> None:
    stats = Stats(engine="x", task="count", n=9, status=STOPPED)
    cut = cut_short("count", Problem(9), TimeLimitError("stop", partial=7, stats=stats))
    assert (cut.partial, cut.reason, cut.stats) == (7, STOPPED, stats)
    bare = cut_short("count", Problem(9), TimeLimitError("stop", partial=7))
    assert bare.reason == TIME_LIMIT and bare.stats is None


def test_the_document_is_versioned_and_plain_json() -> None:
    problem = Problem(6, {0: 1}, blocked=[(5, 5)])
    stats = Stats(engine="reference", task="count", n=6, solutions=1)
    document = Answer(
        "count_unique", problem, UniqueCount(1, 1), stats=stats, details={"note": (1, 2)}
    ).to_json()
    assert json.loads(json.dumps(document)) == document
    assert (document["schema"], document["version"]) == (SCHEMA, VERSION)
    assert document["fixed"] == [[0, 1]] and document["blocked"] == [[5, 5]]
    assert document["value"] == {"total": 1, "unique": 1} and "partial" not in document
    assert document["note"] == [1, 2] and document["stats"]["solutions"] == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"task": "guess"}, "unknown task"),
        ({"outcome": "maybe"}, "unknown outcome"),
        ({"details": {"value": 1}}, "reserved key 'value'"),
        ({"complete": False, "value": 5}, "keeps what it found in partial"),
        ({"partial": 5}, "no partial figure"),
        ({"outcome": INCOMPLETE}, "not incomplete"),
    ],
)
def test_an_answer_that_would_mislead_cannot_be_made(fields: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Answer(**{"task": "count", "problem": Problem(4), "value": 2, **fields})


def test_an_incomplete_answer_says_so_whatever_outcome_it_was_given() -> None:
    cut = Answer("count", Problem(8), complete=False, partial=3, outcome=ANSWER)
    assert cut.outcome == INCOMPLETE and cut.reason == TIME_LIMIT and cut.found == 3


def test_plain_refuses_what_json_cannot_hold() -> None:
    assert plain(frozenset({(1, 2), (0, 1)})) == [[0, 1], [1, 2]]
    with pytest.raises(TypeError, match="cannot write object"):
        plain(object())


def test_result_gives_the_value_or_raises_what_cut_the_answer_short() -> None:
    from cp_queens import engines

    reference = engines.get("reference")
    assert ask("count", Problem(6), reference).result() == 4
    cut = ask("count", Problem(14), reference, budget=Budget.of(time_limit=0.01))
    with pytest.raises(TimeLimitError, match="stopped by the time limit") as raised:
        cut.result()
    assert raised.value.partial == cut.partial and raised.value.stats is cut.stats


def test_a_domination_says_why_it_stopped_from_its_own_record() -> None:
    """Unproven without a time limit is 'stopped' (the solver heard Ctrl-C), never a
    limit that was not set; with one, the limit it ran under words the line."""
    from cp_queens.dominate.solve import Domination
    from cp_queens.writers import stopped_line

    def cut(limit: float | None) -> Answer:
        queens = ((0, 0), (1, 2), (2, 4))
        return Domination(6, False, "cp", "none", queens, 2, False, 1.0, {}, (), limit).answer()

    unlimited, limited = cut(None), cut(5.0)
    assert (unlimited.reason, unlimited.to_json()["reason"]) == ("stopped", "stopped")
    assert stopped_line(unlimited).startswith("cp-queens: stopped: the best set found has 3")
    assert limited.reason == "time_limit" and limited.stats and limited.stats.time_limit == 5.0
    assert stopped_line(limited).startswith("cp-queens: stopped by the time limit of 5 s:")


def test_the_answer_module_is_reached_by_its_name() -> None:
    """``cp_queens.answer`` is the module (the dispatcher is ``cp_queens.ask``), so
    ``cp_queens.answer.schema()`` works as the docs write it, in a fresh interpreter."""
    import subprocess
    import sys

    code = (
        "import cp_queens\n"
        "print(cp_queens.answer.schema()['title'], cp_queens.answer.Answer.__name__,\n"
        "      cp_queens.ask.__module__)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert shown[-2:] == ["Answer", "cp_queens.engines.ask"]
    assert " ".join(shown[:-2]) == schema_title()


def schema_title() -> str:
    import json
    from pathlib import Path

    import cp_queens

    shipped = Path(cp_queens.__file__).with_name("answer.schema.json")
    return json.loads(shipped.read_text(encoding="utf-8"))["title"]
