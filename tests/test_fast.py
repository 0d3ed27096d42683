"""The ``fast`` engine: exact totals and unique counts (OEIS), order and set of its stream."""

from __future__ import annotations

import pytest

from cp_queens import engines
from cp_queens.engines.base import UniqueCount
from cp_queens.engines.construct import construct_columns
from cp_queens.engines.fast import BATCH_SIZES, loader
from cp_queens.engines.fast import subproblems as split_module
from cp_queens.errors import CpQueensWarning, TimeLimitError, UnsupportedTaskError
from cp_queens.problem import Placement, Problem
from cp_queens.stats import TIME_LIMIT, Progress
from cp_queens.verify import verify
from tests.helpers import ask, total, unique


@pytest.mark.parametrize("sizes", [range(1, 12), (12,), (13,), (14,)], ids=str)
def test_counts_and_unique_counts_match_oeis(sizes: range) -> None:
    """n = 1..11 in one item (each a few ms: items of their own cost more), then one each."""
    engine = engines.get("fast")
    for n in sizes:
        assert engine.count_unique(Problem(n)).value == UniqueCount(total(n), unique(n)), n
        counted = engine.count(Problem(n))
        assert counted.value == total(n), n
        assert counted.stats is not None and counted.stats.branches is not None, n


@pytest.mark.slow
@pytest.mark.parametrize("n", [15, 16, 17])
def test_large_counts_match_oeis(n: int) -> None:
    result = ask("fast", "count_unique", Problem(n), workers=0).value
    assert result == UniqueCount(total(n), unique(n))


def test_workers_count_in_a_process_pool_with_progress() -> None:
    seen: list[Progress] = []
    answer = ask("fast", "count_unique", Problem(11), progress=seen.append, workers=2)
    assert answer.value == (total(11), unique(11))
    solutions = [p.solutions for p in seen]
    assert solutions and solutions[-1] == total(11) and solutions == sorted(solutions)
    assert seen[-1].done == seen[-1].total == answer.stats.extra["subproblems"]
    assert answer.stats.extra["subproblems"] > 2


def test_the_streamed_split_is_counted_beside_the_search_for_the_eta() -> None:
    """Without a checkpoint the split is a generator: its size, counted through in a thread,
    gives the progress line its parts total (hence an ETA) before the count ends."""
    from cp_queens.engines.fast import SplitSize

    for problem, depth in ((Problem(10), 3), (Problem(9, fixed={0: 1}), 2)):
        with SplitSize(problem, depth=depth) as size:
            size._thread.join(timeout=60)
        assert size.total == len(split_module.split(problem.n, depth=depth, fixed=problem.fixed))


def test_one_process_presets_fewer_rows_unless_a_time_limit_needs_small_subproblems() -> None:
    from cp_queens.engines.fast import HERE_DEPTH

    n = 11  # the two splits differ in size (34 and 173 subproblems)
    here = ask("fast", "count_unique", Problem(n), workers=1)
    assert here.value == (total(n), unique(n))
    assert here.stats.extra["subproblems"] == len(split_module.split(n, depth=HERE_DEPTH))
    limited = ask("fast", "count_unique", Problem(n), workers=1, time_limit=600)
    assert limited.value == (total(n), unique(n))
    assert limited.stats.extra["subproblems"] == len(split_module.split(n))
    pool = ask("fast", "count_unique", Problem(n), workers=2)
    assert pool.value == (total(n), unique(n))
    assert pool.stats.extra["subproblems"] == len(split_module.split(n))


def test_a_time_limit_stops_a_large_count_in_this_process_on_time() -> None:
    import time

    split_module.warm_up(False, 20)  # the compiled kernels, loaded before the clock starts
    started = time.process_time()  # CPU, not wall: the test machine is shared
    # With the default split, one subproblem took 28 s.
    # 0.1 s: the test waits for the limit, and one subproblem still takes far longer
    answer = ask("fast", "count", Problem(25), workers=1, time_limit=0.1)
    assert time.process_time() - started < 0.1 + 1.5
    with pytest.raises(TimeLimitError) as cut:
        answer.result()
    assert answer.stats.status == TIME_LIMIT and cut.value.partial % 2 == 0
    assert split_module.deadline_depth(25) > split_module.default_depth(25)


@pytest.mark.parametrize("depth", [1, 2, 3, 5, 20])
def test_the_split_depth_does_not_change_the_answer(depth: int) -> None:
    assert engines.get("fast", depth=depth).count_unique(Problem(11)).value == (
        total(11),
        unique(11),
    )


def test_stream_has_the_reference_order_and_set() -> None:
    for n in range(1, 10):
        fast = list(engines.get("fast").solutions(Problem(n)))
        assert fast == list(engines.get("reference").solutions(Problem(n))), n
        assert all(isinstance(p, Placement) for p in fast), n


def test_stream_of_twelve_crosses_batch_boundaries_in_order() -> None:
    """Several full batches: still sorted, complete, distinct and valid."""
    fast = [p.cols for p in engines.get("fast").solutions(Problem(12))]
    assert len(fast) == total(12) > sum(BATCH_SIZES)
    assert fast == sorted(set(fast))
    assert all(verify(cols) for cols in fast)


@pytest.mark.parametrize(
    "fixed", [{0: 0}, {3: 4}, {0: 1, 7: 6}, {2: 2, 5: 7}, {1: 5, 4: 0, 6: 3}, {0: 0, 1: 1}]
)
def test_completion_counts_and_streams_equal_the_reference(fixed: dict[int, int]) -> None:
    try:
        problem = Problem(9, fixed)
    except ValueError:  # attacking given queens are refused by Problem itself
        return
    reference = engines.get("reference")
    fast = engines.get("fast")
    assert fast.count(problem).value == reference.count(problem).value
    assert list(fast.solutions(problem)) == list(reference.solutions(problem))


#: Up to n = 12 the interpreted kernels run (unless built); larger boards the compiled ones.
@pytest.mark.parametrize(
    ("streamed", "first"), [(12, 12), pytest.param(14, 16, marks=pytest.mark.slow)]
)
def test_limit_stops_the_stream_early(streamed: int, first: int) -> None:
    engine = engines.get("fast")
    stream = engine.solutions(Problem(streamed), limit=5)
    assert len(list(stream)) == 5
    assert stream.stats.status == "stopped"
    assert (
        engine.first(Problem(first)).value == engines.get("reference").first(Problem(first)).value
    )


#: The 64-bit masks are the compiled kernels'; the interpreted ones run over Python's
#: integers: both refuse alike.
@pytest.mark.parametrize("force_python", [True, False], ids=["interpreted", "compiled"])
def test_boards_beyond_the_masks_are_refused_clearly(force_python: bool) -> None:
    with pytest.raises(UnsupportedTaskError, match="n <= 62"):
        engines.get("fast", force_python=force_python).count(Problem(63))
    # The widest board still works: complete a known solution of n = 62 from 50 of its rows.
    known = tuple(int(c) for c in construct_columns(62))
    problem = Problem(62, dict(enumerate(known[:50])))
    assert engines.get("fast", force_python=force_python).first(problem).value == Placement(known)


def test_an_expired_time_limit_reports_a_partial_count() -> None:
    answer = ask("fast", "count", Problem(12), time_limit=1e-9)
    with pytest.raises(TimeLimitError) as cut:
        answer.result()
    assert cut.value.partial == answer.partial < total(12)
    assert answer.stats.status == TIME_LIMIT


def test_interpreted_kernels_give_the_same_answers() -> None:
    engine = engines.get("fast", force_python=True)
    for n in range(1, 9):
        assert engine.count_unique(Problem(n)).value == (total(n), unique(n))
    assert list(engine.solutions(Problem(6))) == list(engines.get("fast").solutions(Problem(6)))


def test_missing_extension_means_one_warning_with_why_and_how(monkeypatch) -> None:
    monkeypatch.setattr(loader, "COMPILED", None)
    monkeypatch.setattr(loader, "MISSING", "no C extension was built (gcc: not found)")
    monkeypatch.setattr(split_module, "_warned", False)
    with pytest.warns(CpQueensWarning) as caught:
        assert engines.get("fast").count(Problem(8)).value == 92
        assert engines.get("fast").count(Problem(9)).value == 352
    assert len(caught) == 1  # once per process
    message = str(caught[0].message)
    assert "\n" not in message
    assert "gcc: not found" in message  # why
    assert "install a C compiler" in message and "again from its source" in message  # how


def test_the_kernels_are_compiled_here() -> None:
    """The fast path really is the compiled one in this environment (the C extension,
    imported from the package, not from any cache)."""
    assert loader.COMPILED is not None, loader.MISSING
    assert loader.COMPILED.__name__ == "cp_queens.engines.fast._kernels"
    assert split_module.backend()[1] is True
    assert split_module.backend(n=4)[1] is True  # even the smallest board
