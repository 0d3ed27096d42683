"""Every registered engine against the reference core and against OEIS A000170.

Parametrised over the registry: a new engine is tested here by being registered.
Engines that cannot do a task must say so with UnsupportedTaskError.
"""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cp_queens import Problem, engines, verify
from cp_queens.errors import UnsupportedTaskError
from tests.conftest import engines_that, total

REFERENCE_SETS = {
    n: frozenset(engines.get("reference").solutions(Problem(n))) for n in range(1, 11)
}

#: Largest n at which each engine's full solution set is compared with the reference
#: in the default suite (bounded by how long the engine takes, not by what it can do).
SET_CHECK_UP_TO = 10


@pytest.mark.parametrize("n", range(1, 13))
def test_reference_counts_match_oeis(n: int) -> None:
    assert engines.get("reference").count(Problem(n)) == total(n)


@pytest.mark.parametrize("n", range(1, 11))
def test_reference_solutions_are_lexicographic_and_valid(n: int) -> None:
    found = [p.cols for p in engines.get("reference").solutions(Problem(n))]
    assert found == sorted(found)
    assert len(found) == len(set(found)) == total(n)
    assert all(verify(cols) for cols in found)


@pytest.mark.parametrize("name", engines_that(enumerate=True))
@pytest.mark.parametrize("n", range(1, SET_CHECK_UP_TO + 1))
def test_solution_set_equals_reference(name: str, n: int) -> None:
    found = list(engines.get(name).solutions(Problem(n)))
    assert len(found) == len(set(found)), "duplicates in the enumeration"
    assert set(found) == REFERENCE_SETS[n]


@pytest.mark.parametrize("name", engines_that(count=True))
@pytest.mark.parametrize("n", range(1, 12))
def test_count_matches_oeis(name: str, n: int) -> None:
    engine = engines.get(name)
    assert engine.count(Problem(n)) == total(n)
    assert engine.stats.solutions == total(n)
    assert engine.stats.wall_time >= 0


@pytest.mark.parametrize("n", [1, 4, 5, 8, 9, 12])
def test_first_is_a_valid_solution(engine_name: str, n: int) -> None:
    engine = engines.get(engine_name)
    placement = engine.first(Problem(n))
    assert placement is not None and placement.n == n
    assert verify(placement)
    assert engine.stats.solutions == 1


@pytest.mark.parametrize("n", [2, 3])
def test_first_reports_no_solution(engine_name: str, n: int) -> None:
    engine = engines.get(engine_name)
    assert engine.first(Problem(n)) is None
    assert engine.stats.solutions == 0


def test_unable_engines_say_so(engine_name: str) -> None:
    engine = engines.get(engine_name)
    if not engine.can_enumerate:
        with pytest.raises(UnsupportedTaskError, match=engine_name):
            engine.solutions(Problem(6))
    if not engine.can_count:
        with pytest.raises(UnsupportedTaskError, match=engine_name):
            engine.count(Problem(6))


def _worker_threads() -> int:
    return sum(1 for t in threading.enumerate() if t is not threading.main_thread())


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 9), limit=st.integers(0, 30), data=st.data())
def test_streams_are_valid_distinct_and_honour_limit(n: int, limit: int, data) -> None:
    name = data.draw(st.sampled_from(engines_that(enumerate=True)), label="engine")
    found = list(engines.get(name).solutions(Problem(n), limit=limit))
    assert len(found) == min(limit, total(n))
    assert len(set(found)) == len(found)
    assert all(verify(p) for p in found)


@settings(max_examples=15, deadline=None)
@given(n=st.integers(8, 12), take=st.integers(0, 50), data=st.data())
def test_closing_a_stream_early_leaves_no_thread_running(n: int, take: int, data) -> None:
    name = data.draw(st.sampled_from(engines_that(enumerate=True)), label="engine")
    before = _worker_threads()
    stream = engines.get(name).solutions(Problem(n))
    for _ in zip(range(take), stream, strict=False):
        pass
    stream.close()
    deadline = time.monotonic() + 5
    while _worker_threads() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _worker_threads() <= before


def test_cpsat_stream_memory_is_bounded_by_its_queue() -> None:
    """The solver thread may run ahead of the consumer by at most the queue size."""
    from cp_queens.engines.cpsat import runner as _cpsat_runner

    engine = engines.get("cpsat", method="plain")
    stream = engine.solutions(Problem(12))
    next(stream)
    time.sleep(0.5)  # give the solver time to run ahead if it could
    stream.close()
    assert engine.stats.solutions == 1
    assert engine.stats.status == "stopped"
    # 14200 solutions exist; the solver was held back once the queue was full.
    produced = engine.stats.extra["solver_found"]
    assert produced <= 1 + _cpsat_runner.QUEUE_SIZE + 1


def test_cpsat_time_limit_is_reported() -> None:
    engine = engines.get("cpsat", time_limit=0.05, method="plain")
    engine.count(Problem(13))
    assert engine.stats.status == "time_limit"


def test_reference_time_limit_is_reported() -> None:
    engine = engines.get("reference", time_limit=0.01)
    count = engine.count(Problem(14))
    assert engine.stats.status == "time_limit"
    assert count < total(14)


def test_cpsat_reports_solver_statistics() -> None:
    engine = engines.get("cpsat")
    engine.count(Problem(8))
    assert engine.stats.branches > 0
    assert engine.stats.conflicts is not None
    assert engine.stats.extra["solver_status"] == "OPTIMAL"


@pytest.mark.parametrize(("name", "options"), [("reference", {}), ("cpsat", {"method": "plain"})])
def test_count_reports_progress_as_it_goes(name: str, options: dict) -> None:
    import cp_queens.engines.cpsat.runner as runner

    seen: list[int] = []
    previous, runner.PROGRESS_EVERY = runner.PROGRESS_EVERY, 0.0
    try:
        engine = engines.get(name, **options)
        assert engine.count(Problem(11), progress=lambda p: seen.append(p.solutions)) == total(11)
    finally:
        runner.PROGRESS_EVERY = previous
    assert seen, "no progress reported"
    assert seen == sorted(seen) and seen[-1] <= total(11)


def test_registry_names_match_their_modules() -> None:
    """names() reads module names without importing; each must register that very name."""
    for name in engines.names():
        assert engines.engine_class(name).name == name


def test_unknown_engine_lists_the_known_ones() -> None:
    from cp_queens.errors import UnknownEngineError

    with pytest.raises(UnknownEngineError, match=r"unknown engine 'nope'.*reference"):
        engines.get("nope")
