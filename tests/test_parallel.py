"""Parallel counts through the one door (the ``fast`` engine): local pool, checkpoint and
resume, a killed worker; and the generic runner of :mod:`cp_queens.parallel`."""

from __future__ import annotations

import json
import os
import signal
import threading

import psutil
import pytest

from cp_queens import Problem, engines, parallel
from cp_queens.engines.fast.subproblems import split
from cp_queens.errors import CpQueensWarning
from cp_queens.parallel.checkpoint import CheckpointMismatchError
from cp_queens.stats import Progress, Stats
from tests.helpers import total, unique


def fast_count(
    n: int, fixed: dict[int, int] | None = None, progress=None, **options
) -> tuple[int, int | None, Stats]:
    """Total, unique (None with given queens) and the stats of a count by the fast engine."""
    engine, budget = engines.build("fast", **options)
    problem = Problem(n, fixed or {})
    if fixed:
        answer = engine.count(problem, progress=progress, budget=budget)
        assert answer.stats is not None
        return answer.value, None, answer.stats
    answer = engine.count_unique(problem, progress=progress, budget=budget)
    assert answer.stats is not None
    return answer.value.total, answer.value.unique, answer.stats


@pytest.mark.parametrize("n", [1, 2, 6, 11])
def test_local_pool_counts_match_oeis(n: int) -> None:
    found_total, found_unique, stats = fast_count(n, workers=2)
    assert (found_total, found_unique) == (total(n), unique(n))
    assert stats.status == "complete" and "resumed" not in stats.extra
    assert stats.extra["where"] == "2 local processes"


def test_pre_placed_queens_count_without_symmetry() -> None:
    assert fast_count(8, fixed={0: 0}, workers=2)[:2] == (4, None)


def test_chunks_deal_every_subproblem_once() -> None:
    subs = split(12)
    dealt = parallel.chunks(subs, tasks=7)
    assert len(dealt) == 7
    assert sorted(s.key for chunk in dealt for s in chunk) == sorted(s.key for s in subs)


def interrupt_after(tasks: int):
    """A progress callback that presses Ctrl-C once ``tasks`` tasks have reported."""

    def progress(info: Progress) -> None:
        if info.done is not None and info.done - info.resumed >= tasks:
            raise KeyboardInterrupt

    return progress


def test_interrupted_count_resumes_to_the_exact_total(tmp_path) -> None:
    path = tmp_path / "count11.jsonl"
    with pytest.raises(parallel.Interrupted) as stopped:
        fast_count(11, workers=2, checkpoint=str(path), progress=interrupt_after(5))
    assert stopped.value.checkpoint == path
    assert 0 < stopped.value.done < stopped.value.items
    saved = path.read_text().splitlines()
    assert json.loads(saved[0])["job"]["n"] == 11
    assert len(saved) - 1 == stopped.value.done  # everything counted is on disk

    found_total, found_unique, stats = fast_count(11, workers=2, checkpoint=str(path))
    assert (found_total, found_unique) == (total(11), unique(11))
    assert stats.extra["resumed"] == stopped.value.done
    keys = [json.loads(line)["key"] for line in path.read_text().splitlines()[1:]]
    assert len(keys) == len(set(keys)) == stats.extra["subproblems"]  # nothing counted twice

    again = fast_count(11, workers=2, checkpoint=str(path))  # all done: nothing to do
    assert (again[0], again[2].extra["resumed"]) == (total(11), stats.extra["subproblems"])


def test_a_line_cut_short_by_a_crash_is_counted_again(tmp_path) -> None:
    path = tmp_path / "count9.jsonl"
    fast_count(9, workers=1, checkpoint=str(path))
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]) + lines[-1][:10])  # the last record half written
    found_total, _, stats = fast_count(9, workers=1, checkpoint=str(path))
    assert found_total == total(9)
    assert stats.extra["resumed"] == stats.extra["subproblems"] - 1


def test_checkpoint_of_another_count_is_refused(tmp_path) -> None:
    path = str(tmp_path / "count.jsonl")
    fast_count(8, workers=1, checkpoint=path)
    with pytest.raises(CheckpointMismatchError, match=r"n=8.*n=9"):
        fast_count(9, workers=1, checkpoint=path)
    with pytest.raises(CheckpointMismatchError, match="depth"):
        fast_count(8, depth=3, workers=1, checkpoint=path)
    with pytest.raises(CheckpointMismatchError, match="fixed"):
        fast_count(8, fixed={0: 0}, workers=1, checkpoint=path)


def test_corrupt_checkpoint_record_is_named_and_computed_again(tmp_path) -> None:
    path = tmp_path / "count.jsonl"
    fast_count(8, workers=1, checkpoint=str(path))
    lines = path.read_text().splitlines(keepends=True)
    lines[2] = "{oops\n"
    path.write_text("".join(lines))
    with pytest.warns(CpQueensWarning, match="line 3"):
        found_total, _, stats = fast_count(8, workers=1, checkpoint=str(path))
    assert found_total == total(8) and stats.extra["resumed"] == len(lines) - 2


def test_a_killed_local_worker_is_replaced_and_the_total_stays_exact() -> None:
    killed = []

    def kill_one_worker(info: Progress) -> None:
        if info.done and not killed:
            me = psutil.Process()
            # Workers forked here share our command line (unlike, say, a resource
            # tracker); with other threads alive they come from a fork server instead.
            workers = [
                c
                for c in me.children(recursive=True)
                if c.ppid() != me.pid or c.cmdline() == me.cmdline()
            ]
            if workers:
                os.kill(workers[0].pid, signal.SIGKILL)
                killed.append(workers[0].pid)

    found_total, found_unique, _ = fast_count(12, workers=2, progress=kill_one_worker)
    assert killed
    assert (found_total, found_unique) == (total(12), unique(12))


def test_the_runner_takes_any_items_and_work() -> None:
    seen = []
    result = parallel.run(
        ["x", "y"],
        parallel._demo_work,
        key=str,
        workers=2,
        report=lambda fresh, done, items, resumed: seen.append((done, items)),
    )
    assert result.records == {"x": 1, "y": 1} and result.complete
    assert seen[0] == (0, 2) and seen[-1] == (2, 2)


def test_workers_must_be_a_whole_number() -> None:
    for bad in (-1, 2.5, True, "2"):
        with pytest.raises(ValueError, match="workers"):
            parallel.resolve_workers(bad)


def test_the_runner_streams_a_generator_a_batch_at_a_time() -> None:
    drawn = []

    def items():
        for name in "abcdefg":
            drawn.append(name)
            yield name

    seen = []
    result = parallel.run(
        items(),
        parallel._demo_work,
        key=str,
        workers=1,
        batch=3,
        report=lambda fresh, done, items, resumed: seen.append((done, items, len(drawn))),
    )
    assert result.records == dict.fromkeys("abcdefg", 1) and result.complete
    # A task draws one batch ahead, not the whole stream; the last report knows the total.
    assert seen == [(0, None, 0), (3, None, 6), (6, None, 7), (7, 7, 7)]


def test_workers_are_not_forked_while_another_thread_runs() -> None:
    """A fork copies only the calling thread; a lock another thread held (say on
    ``sys.stderr``) would stay locked in the worker forever, so a fork server starts them."""
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert parallel.start_method(["cp_queens.engines.fast"]).get_start_method() == "forkserver"
        found_total, found_unique, _ = fast_count(10, workers=2)
    finally:
        release.set()
        other.join()
    assert (found_total, found_unique) == (total(10), unique(10))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_swallowed_interrupt_still_stops_the_run(monkeypatch, workers: int) -> None:
    """The CLI's signal handler sets the flag too: a KeyboardInterrupt raised inside a
    callback from C (a library calling back into Python) is printed and dropped by Python."""
    flag = threading.Event()
    monkeypatch.setattr(parallel, "interrupted", flag)
    flag.set()
    with pytest.raises(parallel.Interrupted):
        parallel.run(list("abcdef"), parallel._demo_work, key=str, workers=workers)


def _slow_work(items: list[int]) -> list[tuple[str, int]]:
    """Each item takes 50 ms: a task of 8 takes 0.4 s, far past a 0.1 s deadline."""
    import time

    time.sleep(0.05 * len(items))
    return [(str(item), len(items)) for item in items]


def test_a_deadline_in_this_process_is_seen_between_items_not_only_tasks() -> None:
    import time

    from cp_queens.budget import Clock

    started = time.perf_counter()
    result = parallel.run(
        iter(range(40)),  # streamed: tasks of parallel.BATCH items
        _slow_work,
        key=str,
        workers=1,
        clock=Clock.start(0.1),
    )
    assert not result.complete
    assert set(result.records.values()) == {1}  # one item per call
    assert 1 <= len(result.records) < parallel.BATCH
    assert time.perf_counter() - started < 0.1 + 0.2  # one item past the deadline at most
    # Without a deadline a task stays one call, as in a worker process (the same work
    # without its sleep: 2 tasks of 0.4 s were waited out for nothing).
    whole = parallel.run(iter(range(16)), _work, key=str, workers=1)
    assert whole.complete and set(whole.records.values()) == {parallel.BATCH}


def _work(items: list[int]) -> list[tuple[str, int]]:
    """``_slow_work`` at once: each item's record is the size of the call it came in."""
    return [(str(item), len(items)) for item in items]


_GIVEN_UP_START = """
import multiprocessing
from cp_queens.budget import Clock
from cp_queens.parallel import local

context = multiprocessing.get_context("forkserver")
context.set_forkserver_preload(["slow_import"])  # a fork server busy for 2 s
pool, seconds = local.started_pool(2, Clock.start(0.3), context=context)
print("pool" if pool is not None else "given up")
"""


def test_a_pool_start_given_up_by_the_clock_prints_nothing_after_the_answer(tmp_path) -> None:
    """A clock that runs out while the fork server is still busy (imports on a loaded
    machine) gives the pool up; the process then exits. It waits for the start it gave up
    on to end its workers: exiting first removed the workers' barrier, and each printed a
    traceback after the answer (`count 30 --time-limit 1` at load 26, 5 runs in 6)."""
    import subprocess
    import sys

    from tests.helpers import ENV

    (tmp_path / "slow_import.py").write_text("import time\n\ntime.sleep(2)\n")
    env = {**ENV, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ENV['PYTHONPATH']}"}
    done = subprocess.run(
        [sys.executable, "-c", _GIVEN_UP_START],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "given up"
    assert "Traceback" not in done.stderr, done.stderr
