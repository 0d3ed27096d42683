"""The meet-in-the-middle counter: its statement (``mitm.py``), its compiled paths (scalar,
AVX2, AVX-512: every one this CPU has), the depth-first kernels on the same classes, the
engine's pieces, checkpoints and stops."""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cp_queens import Problem, engines, limits, parallel
from cp_queens.engines.fast import loader, meet, mitm, subproblems
from cp_queens.errors import UnsupportedTaskError
from cp_queens.stats import Progress
from tests.group_cpu import GroupCpu
from tests.helpers import total, unique

C = loader.mitm()
needs_c = pytest.mark.skipif(C is None, reason="the C extension _mitm was not built")
PATHS = list(C.PATHS) if C is not None else []


def test_the_statement_counts_every_solution_and_orbit() -> None:
    for n in range(4, 11):  # one item: boards of milliseconds
        assert (mitm.count(n), mitm.unique(n)) == (total(n), unique(n)), n


def dfs_class(n: int, middle: int, top: int) -> int:
    """The depth-first kernel's count of the solutions whose top rows use ``top``: a
    plain subproblem whose rows allow those columns only (and the middle queen)."""
    k = n // 2
    bottom = mitm.board_columns(n, middle) ^ top
    blocked = []
    for row in range(n):
        allowed = top if row < k else bottom
        if middle >= 0 and row == k:
            allowed = 1 << middle
        blocked += [(row, col) for col in range(n) if not allowed >> col & 1]
    sub = subproblems.Subproblem(n, subproblems.PLAIN, (), (), tuple(sorted(blocked)))
    return subproblems.count(sub).total


def random_tops(n: int, middle: int, how_many: int, seed: int) -> list[int]:
    pick = random.Random(seed)
    places = [c for c in range(n) if c != middle]
    return [sum(1 << c for c in pick.sample(places, n // 2)) for _ in range(how_many)]


@needs_c
@pytest.mark.parametrize(("n", "middle"), [(10, -1), (11, 2), (11, 5), (12, -1)])
def test_each_path_counts_a_class_as_the_statement_and_the_dfs_kernel(n: int, middle: int) -> None:
    for top in random_tops(n, middle, 6, seed=n * 100 + middle):
        expected = dfs_class(n, middle, top)
        assert mitm.count_class(n, middle, top) == expected
        assert {C.count_class(n, middle, top, path)[0] for path in PATHS} == {expected}


@needs_c
def test_large_classes_split_and_slice_alike_on_every_path() -> None:
    # n = 16's largest classes (2,000-3,000 halves a side) take the split on a shared bit
    # and more than one bit-sliced block: every path must give the statement's pairs.
    n = 16
    for top in (0x3333, 0x6666, 0x0F0F, 0x5A5A):
        tops = mitm.halves(n, -1, top)
        bottoms = mitm.halves(n, -1, ((1 << n) - 1) ^ top, as_bottom=True)
        expected = mitm.join(tops, bottoms)
        assert {C.count_class(n, -1, top, path)[0] for path in PATHS} == {expected}


@needs_c
@pytest.mark.parametrize("n", [8, 9, 12, pytest.param(13, marks=pytest.mark.slow)])
def test_each_path_counts_each_piece_as_the_statement(n: int) -> None:
    for piece in meet.pieces(n, size=-(-mitm.classes(n) // 3))[1:]:
        expected = mitm.count_range(n, piece.middle, piece.lo, piece.hi)
        for path in PATHS:
            found = C.count_range(n, piece.middle, piece.lo, piece.hi, path)
            assert found[:2] == expected[:2] and found[4] is False


@needs_c
@pytest.mark.parametrize(("n", "middle"), [(12, -1), (13, 3)])
def test_every_split_counts_a_class_as_the_statement(n: int, middle: int) -> None:
    # The split on a shared bit (a partition of both sides) starts at 2^24 pairs, which
    # boards this small never reach: forced from 2^4 .. 2^12 pairs, every path must still
    # give the statement's pairs (small splits recurse deep, down to a handful of keys).
    for top in random_tops(n, middle, 4, seed=n * 7 + middle):
        expected = mitm.count_class(n, middle, top)
        found = {
            C.count_class(n, middle, top, path, split)[0] for path in PATHS for split in (4, 8, 12)
        }
        assert found == {expected}, hex(top)


def test_the_statement_of_the_split_counts_as_the_plain_join() -> None:
    n = 14
    for top in random_tops(n, -1, 3, seed=5):
        tops = mitm.halves(n, -1, top)
        bottoms = mitm.halves(n, -1, ((1 << n) - 1) ^ top, as_bottom=True)
        expected = mitm.join(tops, bottoms)
        assert {mitm.split_join(tops, bottoms, 1 << s) for s in (4, 10)} == {expected}


@needs_c
def test_the_timed_count_counts_as_the_plain_one() -> None:
    # benchmarks/mitm_phases.py reads the phases: the count must be the same, the
    # phases' seconds within the join's
    for middle in mitm.middles(13):
        ranks = mitm.classes(13)
        found = C.phases(13, middle, 0, ranks, -1, 8)
        assert found[0] == C.count_range(13, middle, 0, ranks, -1, 8)[0]
        halves, join, partition, scan = found[2:6]
        assert min(halves, partition, scan) >= 0 and partition + scan <= join * 1.01 + 1e-4
        assert found[6] is False


@needs_c
@pytest.mark.parametrize(("n", "middle"), [(12, -1), (13, 4)])
def test_every_cut_into_quarters_counts_a_class_as_the_statement(n: int, middle: int) -> None:
    # A half is a pair of quarters cut after `rows` rows (meet.QUARTER_ROWS chooses per
    # n): every cut, 1 .. k - 1 rows, on every path, makes the same halves.
    for top in random_tops(n, middle, 3, seed=n * 11 + middle):
        expected = mitm.count_class(n, middle, top)
        found = {
            C.count_class(n, middle, top, path, 0, rows)[0]
            for path in PATHS
            for rows in range(1, n // 2)
        }
        assert found == {expected}, hex(top)


@needs_c
def test_every_cut_into_quarters_counts_a_piece_alike() -> None:
    n = 11
    expected = mitm.count_range(n, 1, 0, mitm.classes(n)).solutions
    for rows in range(1, n // 2):
        assert C.count_range(n, 1, 0, mitm.classes(n), -1, 0, rows)[0] == expected, rows


@needs_c
def test_a_bad_split_is_refused() -> None:
    with pytest.raises(ValueError, match="split"):
        C.count_range(8, -1, 0, 1, -1, 63)


@needs_c
@pytest.mark.parametrize("rows", [-1, 4, 9])
def test_a_bad_cut_into_quarters_is_refused(rows: int) -> None:
    with pytest.raises(ValueError, match=r"rows must be 1\.\.3"):
        C.count_range(8, -1, 0, 1, -1, 0, rows)
    with pytest.raises(ValueError, match=r"rows must be 1\.\.3"):
        C.count_class(8, -1, 0x0F, -1, 0, rows)


def test_pieces_are_sized_per_n_and_per_worker() -> None:
    # one core: a piece takes about PIECE_SECONDS at most; many workers: enough pieces
    assert len(meet.pieces(16)) == 2  # the symmetric piece and one range
    for n in (19, 21, 22):
        size = meet.piece_size(n, 1)
        per_piece = meet.seconds(n) * size / mitm.classes(n) / len(mitm.middles(n))
        assert per_piece <= meet.PIECE_SECONDS * 1.05  # (sizes round up)
    assert len(meet.pieces(27)) <= meet.MAX_PIECES + len(mitm.middles(27)) + 1
    big = meet.pieces(21, meet.piece_size(21, 1000))
    assert len(big) - 1 >= meet.PIECES_PER_WORKER * 1000
    ranks = [(p.middle, p.lo, p.hi) for p in big[1:]]
    for middle in mitm.middles(21):  # the ranges of a middle cover its classes once
        spans = sorted((lo, hi) for m, lo, hi in ranks if m == middle)
        assert spans[0][0] == 0 and spans[-1][1] == mitm.classes(21)
        assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))


def test_a_small_count_starts_no_pool() -> None:
    from cp_queens.budget import Budget
    from cp_queens.engines.call import Call
    from cp_queens.stats import Stats

    def asks(n: int, **settings: object) -> int | None:
        call = Call("count", Problem(n), Stats(), Budget.of(**settings))
        return meet.default_workers(Problem(n), call)

    assert asks(16) == 1 and asks(16, workers=2) == 2
    assert asks(19) is None  # every core


@needs_c
def test_symmetric_boards_as_the_statement() -> None:
    for n in range(4, 13):  # one item: boards of milliseconds
        for quarter in (False, True):
            assert C.symmetric(n, quarter)[0] == mitm.symmetric(n, quarter), (n, quarter)


@needs_c
def test_every_path_counts_n14_as_the_dfs_kernel() -> None:
    n = 14
    expected = sum(part.total for part in subproblems.count_many(subproblems.split(n)))
    for path in PATHS:
        assert C.count_range(n, -1, 0, mitm.classes(n), path)[0] == expected


@needs_c
@pytest.mark.parametrize("n", [15, pytest.param(16, marks=pytest.mark.slow)])
def test_the_engine_meets_in_the_middle_from_the_crossover(n: int) -> None:
    engine, budget = engines.build("fast", workers=1)
    answer = engine.count_unique(Problem(n), budget=budget)
    assert tuple(answer.value) == (total(n), unique(n))
    assert answer.stats is not None
    assert answer.stats.extra["method"] == "meet in the middle"
    assert answer.stats.extra["subproblems"] == len(meet.pieces(n))


def test_given_queens_and_small_boards_stay_depth_first() -> None:
    assert not meet.applies(Problem(subproblems.MITM_FROM - 1), force_python=False)
    assert not meet.applies(Problem(16, {0: 3}), force_python=False)
    assert not meet.applies(Problem(16), force_python=True)


@needs_c
def test_a_stop_request_ends_a_running_count_at_once() -> None:
    # n = 18 in one piece would take many seconds; asked to stop, it returns partial.
    found: list[tuple[int, ...]] = []
    runner = threading.Thread(
        target=lambda: found.append(C.count_range(18, -1, 0, mitm.classes(18)))
    )
    try:
        runner.start()
        # Into the count (a stop asked before it starts ends it at once too: the flag is
        # only cleared by clear_stop, so a late start under load cannot make this hang).
        time.sleep(0.05)
        C.request_stop()
        runner.join(timeout=30)
        assert not runner.is_alive()
        assert found[0][4] is True  # stopped, not finished
    finally:
        C.clear_stop()
    assert C.count_range(8, -1, 0, mitm.classes(8))[0] == total(8)


@needs_c
def test_the_depth_first_kernels_stop_too() -> None:
    kernels = loader.COMPILED
    assert kernels is not None
    subs = subproblems.split(17, depth=2)
    kernels.request_stop()
    try:
        with pytest.raises(KeyboardInterrupt):
            subproblems.count_many(subs)
    finally:
        kernels.clear_stop()
    assert sum(part.total for part in subproblems.count_many(subproblems.split(9))) == total(9)


@needs_c
def test_a_time_limit_stops_within_a_piece() -> None:
    # a piece of n = 20 takes seconds: 0.05 s (as 0.1 and 0.3 s did) ends inside the first
    engine, budget = engines.build("fast", workers=1, time_limit=0.05)
    answer = engine.count_unique(Problem(20), budget=budget)
    assert not answer.complete
    partial = answer.partial
    assert partial.total < total(20) and partial.unique >= partial.total / 8


def interrupt_after(tasks: int):
    def progress(info: Progress) -> None:
        if info.done is not None and info.done - info.resumed >= tasks:
            raise KeyboardInterrupt

    return progress


@needs_c
def test_an_interrupted_count_resumes_exactly(tmp_path) -> None:
    path = tmp_path / "n15.jsonl"
    engine, budget = engines.build("fast", workers=1, checkpoint=str(path))
    with pytest.raises(parallel.Interrupted) as stopped:
        engine.count_unique(Problem(15), progress=interrupt_after(3), budget=budget)
    saved = path.read_text().splitlines()
    assert json.loads(saved[0])["job"]["method"] == "mitm"
    assert len(saved) - 1 == stopped.value.done > 0
    # resumed on 2 workers, whose own pieces would be smaller: the file's are kept
    assert meet.piece_size(15, 2) != meet.piece_size(15, 1)
    again, budget = engines.build("fast", workers=2, checkpoint=str(path))
    answer = again.count_unique(Problem(15), budget=budget)
    assert tuple(answer.value) == (total(15), unique(15))
    assert answer.stats is not None and answer.stats.extra["resumed"] == stopped.value.done
    keys = [json.loads(line)["key"] for line in path.read_text().splitlines()[1:]]
    assert len(keys) == len(set(keys)) == len(meet.pieces(15))
    assert path.read_text().splitlines()[0] == saved[0]


def test_impossible_piece_records_are_named() -> None:
    why = meet._sane(14)
    assert why("mitm:-1:0-5", meet.MeetPart(6, 0, 0, 9)) is None
    assert "orbits" in (why("mitm:-1:0-5", meet.MeetPart(7, 0, 0, 9)) or "")
    assert "orbits" in (why("mitm:-1:0-5", meet.MeetPart(6, 2, 0, 9)) or "")
    assert "symmetric" in (why("mitm:symmetric", meet.MeetPart(0, 1, 2, 9)) or "")
    assert "more solutions" in (why("mitm:-1:0-5", meet.MeetPart(10**9, 0, 0, 9)) or "")


def test_a_count_that_cannot_fit_in_memory_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(limits, "available_memory", lambda: 10**6)
    with pytest.raises(UnsupportedTaskError, match="meeting in the middle on 2 worker"):
        meet.check_memory(20, 2)
    assert meet.bytes_per_worker(22) > meet.bytes_per_worker(20) > meet.bytes_per_worker(16)


def _cli_count(n: int, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cp_queens", "count", str(n), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # Ctrl-C reaches the group, as from a terminal
    )


def _records(path: Path) -> int:
    return path.read_text().count("\n") - 1 if path.exists() else 0


@needs_c
@pytest.mark.slow
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_a_signal_stops_a_count_in_this_process_at_once(tmp_path: Path, how: str) -> None:
    # Issue 38: `count 19 --workers 1` took 35 s to obey Ctrl-C (the kernel did not look).
    path = tmp_path / "n19.jsonl"
    process = _cli_count(19, "--workers", "1", "--checkpoint", str(path))
    deadline = time.monotonic() + 120
    while _records(path) < 3 and time.monotonic() < deadline:
        time.sleep(0.1)
    after = GroupCpu(process.pid)
    os.killpg(process.pid, getattr(signal, how))
    _, err = process.communicate(timeout=120)
    spent = after.spent()
    assert process.returncode == 130 and "Traceback" not in err, err
    # CPU, not wall time: the bug counted on, 35-44 s of CPU, however loaded the machine
    assert spent < 2, f"{spent:.2f} CPU-s spent after {how}"


@needs_c
@pytest.mark.slow
def test_a_count_killed_halfway_resumes_exactly(tmp_path: Path) -> None:
    path = tmp_path / "n17.jsonl"
    process = _cli_count(17, "--workers", "2", "--checkpoint", str(path))
    pieces = len(meet.pieces(17, meet.piece_size(17, 2)))  # as sized for its two workers
    deadline = time.monotonic() + 300
    while _records(path) < pieces // 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.kill()  # kill -9: no handler runs; the workers die with their parent
    process.communicate(timeout=60)
    saved = _records(path)
    assert 0 < saved < pieces
    resumed = subprocess.run(
        [sys.executable, "-m", "cp_queens", "count", "17", "--checkpoint", str(path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == f"n=17: {total(17)} solutions, {unique(17)} unique\n"
    keys = [json.loads(line)["key"] for line in path.read_text().splitlines()[1:]]
    assert len(keys) == len(set(keys)) == pieces
