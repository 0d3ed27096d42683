"""The reference core against OEIS A000170, engine-specific behaviour, and the registry.

What every engine promises is checked once, for all of them, in ``test_contract.py``.
"""

from __future__ import annotations

import time

import pytest

from cp_queens import Problem, engines, verify
from tests.helpers import total


#: n = 12 takes seconds: in the slow run (n = 11 already needs every branch of the search).
@pytest.mark.parametrize("n", [*range(1, 12), pytest.param(12, marks=pytest.mark.slow)])
def test_reference_counts_match_oeis(n: int) -> None:
    assert engines.get("reference").count(Problem(n)) == total(n)


@pytest.mark.parametrize("n", range(1, 11))
def test_reference_solutions_are_lexicographic_and_valid(n: int) -> None:
    found = [p.cols for p in engines.get("reference").solutions(Problem(n))]
    assert found == sorted(found)
    assert len(found) == len(set(found)) == total(n)
    assert all(verify(cols) for cols in found)


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


#: n = 10 for CP-SAT: each solution reports (PROGRESS_EVERY = 0), a few seconds at n = 11.
@pytest.mark.parametrize(
    ("name", "options", "n"), [("reference", {}, 11), ("cpsat", {"method": "plain"}, 10)]
)
def test_count_reports_progress_as_it_goes(name: str, options: dict, n: int) -> None:
    import cp_queens.engines.cpsat.runner as runner

    seen: list[int] = []
    previous, runner.PROGRESS_EVERY = runner.PROGRESS_EVERY, 0.0
    try:
        engine = engines.get(name, **options)
        assert engine.count(Problem(n), progress=lambda p: seen.append(p.solutions)) == total(n)
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
