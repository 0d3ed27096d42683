"""Parallel counts: local pool, checkpoint and resume, a killed worker."""

from __future__ import annotations

import json
import os
import signal

import psutil
import pytest

from cp_queens import parallel
from cp_queens.engines.fast.subproblems import split
from cp_queens.errors import ParseError
from cp_queens.parallel.checkpoint import CheckpointMismatchError
from tests.conftest import total, unique


@pytest.mark.parametrize("n", [1, 2, 6, 11])
def test_local_pool_counts_match_oeis(n: int) -> None:
    result = parallel.count_board(n, workers=2)
    assert (result.total, result.unique) == (total(n), unique(n))
    assert result.complete and result.resumed == 0


def test_pre_placed_queens_count_without_symmetry() -> None:
    result = parallel.count_board(8, fixed={0: 0}, workers=2)
    assert (result.total, result.unique) == (4, None)


def test_chunks_deal_every_subproblem_once() -> None:
    subs = split(12)
    dealt = parallel.chunks(subs, tasks=7)
    assert len(dealt) == 7
    assert sorted(s.key for chunk in dealt for s in chunk) == sorted(s.key for s in subs)


def interrupt_after(tasks: int) -> parallel.ProgressCallback:
    """A progress callback that presses Ctrl-C once ``tasks`` tasks have reported."""

    def progress(info: parallel.Progress) -> None:
        if info.done_this_run >= tasks:
            raise KeyboardInterrupt

    return progress


def test_interrupted_count_resumes_to_the_exact_total(tmp_path) -> None:
    path = tmp_path / "count11.jsonl"
    progress = interrupt_after(5)
    with pytest.raises(parallel.Interrupted) as stopped:
        parallel.count_board(11, workers=2, checkpoint=path, progress=progress)
    assert stopped.value.checkpoint == path
    assert 0 < stopped.value.done < stopped.value.subproblems
    saved = path.read_text().splitlines()
    assert json.loads(saved[0])["n"] == 11
    assert len(saved) - 1 == stopped.value.done  # everything counted is on disk

    result = parallel.count_board(11, workers=2, checkpoint=path)
    assert (result.total, result.unique) == (total(11), unique(11))
    assert result.resumed == stopped.value.done
    keys = [json.loads(line)["key"] for line in path.read_text().splitlines()[1:]]
    assert len(keys) == len(set(keys)) == result.subproblems  # nothing counted twice

    again = parallel.count_board(11, workers=2, checkpoint=path)  # all done: nothing to do
    assert (again.total, again.resumed) == (total(11), result.subproblems)


def test_a_line_cut_short_by_a_crash_is_counted_again(tmp_path) -> None:
    path = tmp_path / "count9.jsonl"
    parallel.count_board(9, workers=1, checkpoint=path)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]) + lines[-1][:10])  # the last record half written
    result = parallel.count_board(9, workers=1, checkpoint=path)
    assert result.total == total(9)
    assert result.resumed == result.subproblems - 1


def test_checkpoint_of_another_count_is_refused(tmp_path) -> None:
    path = tmp_path / "count.jsonl"
    parallel.count_board(8, workers=1, checkpoint=path)
    with pytest.raises(CheckpointMismatchError, match=r"n=8.*n=9"):
        parallel.count_board(9, workers=1, checkpoint=path)
    with pytest.raises(CheckpointMismatchError, match="depth"):
        parallel.count_board(8, depth=3, workers=1, checkpoint=path)
    with pytest.raises(CheckpointMismatchError, match="fixed"):
        parallel.count_board(8, fixed={0: 0}, workers=1, checkpoint=path)


def test_corrupt_checkpoint_names_the_line(tmp_path) -> None:
    path = tmp_path / "count.jsonl"
    parallel.count_board(8, workers=1, checkpoint=path)
    lines = path.read_text().splitlines(keepends=True)
    lines[2] = "{oops\n"
    path.write_text("".join(lines))
    with pytest.raises(ParseError, match="line 3"):
        parallel.count_board(8, workers=1, checkpoint=path)


def test_a_killed_local_worker_is_replaced_and_the_total_stays_exact() -> None:
    killed = []

    def kill_one_worker(info: parallel.Progress) -> None:
        if info.done_this_run and not killed:
            me = psutil.Process()
            # Forked pool workers share our command line (unlike, say, a resource tracker).
            workers = [c for c in me.children() if c.cmdline() == me.cmdline()]
            if workers:
                os.kill(workers[0].pid, signal.SIGKILL)
                killed.append(workers[0].pid)

    result = parallel.count_board(12, workers=2, progress=kill_one_worker)
    assert killed and result.restarts >= 1
    assert (result.total, result.unique) == (total(12), unique(12))
