"""The reference core against OEIS A000170, engine-specific behaviour, and the registry.

What every engine promises is checked once, for all of them, in ``test_contract.py``.
"""

from __future__ import annotations

import queue
import threading
import time

import pytest

import cp_queens
from cp_queens import Budget, Problem, engines, verify
from cp_queens.errors import CpQueensError, CpQueensWarning, TimeLimitError
from tests.helpers import ask, total


#: n = 12 takes seconds: in the slow run (n = 11 already needs every branch of the search).
#: n = 11 (0.4 s) too: the default run counts n = 11 with this engine once, in
#: ``test_count_reports_progress_as_it_goes``, which asserts the same total.
@pytest.mark.parametrize(
    "n", [*range(1, 11), *(pytest.param(n, marks=pytest.mark.slow) for n in (11, 12))]
)
def test_reference_counts_match_oeis(n: int) -> None:
    assert engines.get("reference").count(Problem(n)).value == total(n)


@pytest.mark.parametrize("n", range(1, 11))
def test_reference_solutions_are_lexicographic_and_valid(n: int) -> None:
    found = [p.cols for p in engines.get("reference").solutions(Problem(n))]
    assert found == sorted(found)
    assert len(found) == len(set(found)) == total(n)
    assert all(verify(cols) for cols in found)


def test_cpsat_stream_memory_is_bounded_by_its_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver thread may run ahead of the consumer by at most the queue size."""
    from cp_queens.engines._cpsat import runner as _cpsat_runner

    full = threading.Event()
    hand_over = _cpsat_runner.put_unless_stopped

    def put(out: queue.Queue, item: object, stop: threading.Event) -> bool:
        if out.full():
            full.set()  # the solver now waits for the consumer
        return hand_over(out, item, stop)

    monkeypatch.setattr(_cpsat_runner, "put_unless_stopped", put)
    engine = engines.get("cpsat", method="plain")
    stream = engine.solutions(Problem(12))
    next(stream)
    # Give the solver time to run ahead if it could: until it meets a full queue (0.1 s),
    # then 50 ms more (a hundred solutions, had it not waited there); or 0.5 s if the
    # queue never fills (unbounded: then it ran ahead, and is caught below).
    full.wait(0.5)
    time.sleep(0.05)
    stream.close()
    assert stream.stats.solutions == 1
    assert stream.stats.status == "stopped"
    # 14200 solutions exist; the solver was held back once the queue was full.
    produced = stream.stats.extra["solver_found"]
    assert produced <= 1 + _cpsat_runner.QUEUE_SIZE + 1


def test_cpsat_time_limit_is_reported() -> None:
    answer = ask("cpsat", "count", Problem(13), time_limit=0.05, method="plain")
    with pytest.raises(TimeLimitError):
        answer.result()
    assert answer.stats.status == answer.reason == "time_limit"


def test_reference_time_limit_is_reported() -> None:
    answer = ask("reference", "count", Problem(14), time_limit=0.01)
    with pytest.raises(TimeLimitError, match="a lower bound") as cut:
        answer.result()
    assert answer.stats.status == "time_limit" and cut.value.stats is answer.stats
    assert isinstance(cut.value.partial, int) and cut.value.partial < total(14)


def test_the_library_never_returns_a_partial_count_as_a_count() -> None:
    """Issue 19's reproducer: ``count(14, engine='reference', time_limit=0.5)`` printed 1269."""
    with pytest.raises(TimeLimitError, match=r"at least [0-9,]+ solutions") as cut:
        cp_queens.count(14, engine="reference", time_limit=0.01)
    assert not isinstance(cut.value, CpQueensError)  # not bad input: the CLI's exit 4
    assert isinstance(cut.value, cp_queens.IncompleteError)
    with pytest.raises(TimeLimitError):
        cp_queens.count_unique(14, engine="reference", time_limit=0.01)
    with pytest.raises(TimeLimitError):
        list(cp_queens.solutions(14, engine="reference", time_limit=0.01))


def test_too_many_workers_warn_once(monkeypatch) -> None:
    """Capped in one place (Budget.of), so ``count(10, workers=64)`` warns once, not twice."""
    import warnings

    from cp_queens import budget

    monkeypatch.setattr(budget, "available_cores", lambda: 2)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert cp_queens.count(10, engine="fast", workers=64) == total(10)
    capped = [w for w in seen if "workers capped" in str(w.message)]
    assert len(capped) == 1 and issubclass(capped[0].category, CpQueensWarning)


def test_budget_is_checked_once_for_every_door() -> None:
    assert Budget.of(time_limit=2, workers=1) == Budget(2.0, 1, None, None)
    with pytest.raises(CpQueensError, match="time_limit"):
        engines.build("reference", time_limit=-1)
    with pytest.raises(CpQueensError, match="give one of scheduler and cluster"):
        Budget.of(scheduler="tcp://127.0.0.1:8786", cluster="local:2")
    with pytest.raises(CpQueensError, match="workers is for local processes"):
        Budget.of(cluster="local:2", workers=2)
    assert Budget.of(cluster="local:2").where == "local:2"
    with pytest.raises(CpQueensError, match="'reference' does not take workers"):
        engines.get("reference").count(Problem(6), budget=Budget.of(workers=1))
    budget_keys = {"time_limit", "workers", "where", "scheduler", "cluster", "checkpoint"}
    assert budget_keys <= set(engines.options("fast"))
    assert "workers" in engines.options("cpsat") and "workers" not in engines.options("mip")


def test_cpsat_reports_solver_statistics() -> None:
    stats = engines.get("cpsat").count(Problem(8)).stats
    assert stats is not None and stats.branches and stats.branches > 0
    assert stats.conflicts is not None
    assert stats.extra["solver_status"] == "OPTIMAL"


#: CP-SAT: each solution reports (PROGRESS_EVERY = 0), so n = 8's 92 reports exercise it
#: as n = 10's 724 do (0.45 s of CPU: the slow run's); a few seconds at n = 11.
@pytest.mark.parametrize(
    ("name", "options", "n"),
    [
        ("reference", {}, 11),
        ("cpsat", {"method": "plain"}, 8),
        pytest.param("cpsat", {"method": "plain"}, 10, marks=pytest.mark.slow),
    ],
)
def test_count_reports_progress_as_it_goes(name: str, options: dict, n: int) -> None:
    import cp_queens.engines._cpsat.runner as runner

    seen: list[int] = []
    previous, runner.PROGRESS_EVERY = runner.PROGRESS_EVERY, 0.0
    try:
        engine = engines.get(name, **options)
        answer = engine.count(Problem(n), progress=lambda p: seen.append(p.solutions))
        assert answer.value == total(n)
    finally:
        runner.PROGRESS_EVERY = previous
    assert seen, "no progress reported"
    assert seen == sorted(seen) and seen[-1] <= total(n)


def test_registry_names_match_their_modules() -> None:
    """names() reads module names without importing; each must register that very name."""
    for name in engines.names():
        assert engines.engine_class(name).name == name


def test_unknown_engine_lists_the_known_ones() -> None:
    from cp_queens.errors import UnknownEngineError

    with pytest.raises(UnknownEngineError, match=r"unknown engine 'nope'.*reference"):
        engines.get("nope")
