"""The ``fast`` engine's count of an empty board by meeting in the middle.

The method is ``cp_queens.engines.fast.mitm`` (its statement) and ``_mitm.c`` (its
compiled counter). This module makes a count of it: the work is cut into *pieces*
(ranges of class ranks for one middle column, each a run of class orbits, and one piece
for the symmetric boards of the unique count), the unit of work of the local pool, a
Dask cluster and the checkpoint, as the subproblems of the depth-first count are.
A piece is counted whole or not at all: a count stopped by Ctrl-C, a time limit or
``kill -9`` resumes from its checkpoint and never counts a piece twice.

Used from ``MITM_FROM`` queens on, where it was measured to beat the depth-first
kernels (``docs/counting.md``), on empty boards with the compiled counter; given queens,
blocked squares and small boards stay with the depth-first search.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import cp_queens.engines.fast.loader as loader
import cp_queens.engines.fast.mitm as mitm
import cp_queens.engines.fast.stopping as stopping
import cp_queens.engines.fast.where as where_module
import cp_queens.limits as limits
import cp_queens.parallel as parallel
from cp_queens.budget import Clock
from cp_queens.engines.base import Call, UniqueCount
from cp_queens.engines.fast.subproblems import MITM_FROM, RecheckError, check_known_total

if TYPE_CHECKING:
    from cp_queens.problem import Problem

#: Seconds of one core a piece should take at most (a kill loses at most this much a
#: worker, and a stop or time limit is seen between pieces by the pool), from the
#: measured cost per solution below.
PIECE_SECONDS = 2.0
#: Pieces per worker, at least: enough for a pool or cluster to balance its workers.
PIECES_PER_WORKER = 8
#: No more pieces than this: the coordinator makes and holds them all before the first
#: is counted (65,536 take 0.08 s; a million 1.6 s, which a time limit of 0.1 s waited
#: for). Pieces then grow past PIECE_SECONDS from n = 24 on (~30 s of a core there).
MAX_PIECES = 1 << 16
#: CPU seconds a solution costs the counter on one core (AVX-512 path, this machine's
#: EPYC), measured per n by benchmarks/mitm_phases.py; beyond, the last one and rising.
SECONDS_PER_SOLUTION = {
    14: 3.0e-8, 15: 1.5e-8, 16: 7.5e-9, 17: 9.0e-9, 18: 4.8e-9, 19: 5.0e-9, 20: 4.5e-9,
}  # fmt: skip
#: Below this many CPU seconds (estimated) a count runs in this process by default: a
#: pool's start (~0.2 CPU-s for two workers) and its slices of work cost more than a
#: second worker saves.
POOL_FROM_SECONDS = 2.0
#: Where the join splits on a shared bit first, per n: log2 of the pairs of a join from
#: which it does (``split`` of the C counter), measured (benchmarks/mitm_phases.py
#: --splits): a lower split looks at fewer pairs, a higher one at longer lists.
SPLIT = {16: 24, 17: 24, 18: 24, 19: 24, 20: 24}
#: Where a half is cut into its two quarters, per n: the rows of the first quarter
#: (``rows`` of the C counter; elsewhere ``n // 4``, half a half). Fewer rows in the first
#: quarter make the second's groups longer, so the pairing runs in fuller vectors and
#: its loop over the first quarter's placements is shorter, for more memory: measured
#: whole counts on one core (2026-11-29), n = 16 0.93x and n = 17 ~0.75x the even cut;
#: n = 18 the same either way (so the even cut, 21 MB a process instead of 52).
QUARTER_ROWS = {15: 2, 16: 3, 17: 2}
#: The piece size of checkpoints written before pieces were sized per n and worker
#: count (a fixed 512 pieces), so that they still resume.
LEGACY_PIECES = 512
#: The middle value of the piece that counts the symmetric boards.
SYMMETRIC = -2
#: The largest class measured per n (halves of one column set, the biggest list a join
#: holds); beyond, about 6 times more every two queens.
LARGEST_CLASS = {
    12: 132, 13: 88, 14: 570, 15: 374, 16: 2956, 17: 1969, 18: 17506, 19: 10924, 20: 114142,
}  # fmt: skip
#: The quarters of a board, MB (``Quarters`` in _mitm.c: 16 bytes a placement and 8 a set
#: of columns, cut as ``QUARTER_ROWS`` says), counted; beyond, about 1.4 times more a queen.
QUARTERS_MB = {
    14: 0.2, 15: 1.5, 16: 2.3, 17: 23.3, 18: 5.8, 19: 8.3, 20: 21.2, 21: 29.2, 22: 230.7,
    23: 329.7,
}  # fmt: skip


@dataclass(frozen=True)
class Piece:
    """Class orbits of ranks ``lo .. hi - 1`` with the middle queen in ``middle`` (-1: an
    even board), or (``middle == SYMMETRIC``) the boards a rotation maps to themselves."""

    n: int
    middle: int
    lo: int = 0
    hi: int = 0

    @property
    def key(self) -> str:
        """A stable name for checkpoint files, e.g. ``mitm:3:1200-1300``."""
        if self.middle == SYMMETRIC:
            return "mitm:symmetric"
        return f"mitm:{self.middle}:{self.lo}-{self.hi}"


class MeetPart(NamedTuple):
    """What one piece contributed: solutions, boards fixed by a half turn and by a
    quarter turn (the symmetric piece only), search nodes."""

    total: int
    half_turn: int
    quarter_turn: int
    nodes: int


def available() -> bool:
    """Whether the compiled counter is there (the method runs compiled only)."""
    return loader.mitm() is not None


def applies(problem: Problem, force_python: bool) -> bool:
    """Whether a count of ``problem`` meets in the middle."""
    return (
        available()
        and not force_python
        and problem.is_empty_board
        and MITM_FROM <= problem.n <= mitm.MAX_N
        # Past what one worker can hold, the depth-first count (which a time limit stops)
        # is the only one that can start at all.
        and bytes_per_worker(problem.n) <= limits.MEMORY_SHARE * limits.available_memory()
    )


def seconds(n: int) -> float:
    """Estimated CPU seconds of a whole count of ``n`` on one core."""
    known = max(SECONDS_PER_SOLUTION)
    each = SECONDS_PER_SOLUTION.get(n) or SECONDS_PER_SOLUTION[known] * 1.2 ** max(0, n - known)
    return limits.known_or_estimated_total(n) * each


def piece_size(n: int, workers: int) -> int:
    """Classes a piece takes (per middle column): each piece about ``PIECE_SECONDS`` of
    one core at most, and at least ``PIECES_PER_WORKER`` pieces a worker.

    Examples:
        >>> piece_size(16, 1) == mitm.classes(16)   # a tenth of a second: one piece
        True
        >>> mitm.classes(21) // piece_size(21, 1) * len(mitm.middles(21)) >= 700
        True
    """
    ranks = mitm.classes(n)
    middles = len(mitm.middles(n))
    wanted = max(
        math.ceil(seconds(n) / PIECE_SECONDS), PIECES_PER_WORKER * workers if workers > 1 else 1
    )
    per_middle = max(1, min(ranks, math.ceil(min(wanted, MAX_PIECES) / middles)))
    return max(1, math.ceil(ranks / per_middle))


def legacy_size(n: int) -> int:
    """The piece size of a checkpoint written with a fixed ``LEGACY_PIECES`` pieces."""
    ranks = mitm.classes(n)
    return max(1, math.ceil(ranks / max(1, LEGACY_PIECES // len(mitm.middles(n)))))


def pieces(n: int, size: int | None = None) -> list[Piece]:
    """The pieces of a count of ``n``, ``size`` classes each (default: for one worker):
    the symmetric one first, then rank ranges.

    Examples:
        >>> [p.key for p in pieces(8, size=18)]
        ['mitm:symmetric', 'mitm:-1:0-18', 'mitm:-1:18-35']
    """
    found = [Piece(n, SYMMETRIC)]
    ranks = mitm.classes(n)
    size = size or piece_size(n, 1)
    for middle in mitm.middles(n):
        for lo in range(0, ranks, size):
            found.append(Piece(n, middle, lo, min(ranks, lo + size)))
    return found


def count_piece(code: Any, piece: Piece) -> MeetPart | None:
    """Count one piece with the compiled counter ``code`` (``None``: it was told to stop)."""
    if piece.middle == SYMMETRIC:
        half = code.symmetric(piece.n, False)
        quarter = code.symmetric(piece.n, True)
        if half[2] or quarter[2]:
            return None
        return MeetPart(0, half[0], quarter[0], half[1] + quarter[1])
    split = SPLIT.get(piece.n, 0)
    rows = QUARTER_ROWS.get(piece.n, 0)
    solutions, _, nodes, _, stopped = code.count_range(
        piece.n, piece.middle, piece.lo, piece.hi, -1, split, rows
    )
    return None if stopped else MeetPart(solutions, 0, 0, nodes)


def count_pieces(chunk: Sequence[Piece], clock: Clock | None = None) -> list[tuple[str, MeetPart]]:
    """The task a worker runs: count a few pieces (module-level, so it pickles). The whole
    chunk is one stoppable search (``stopping.run``); a piece that the stop (or ``clock``)
    cut short is left out: it is counted again on resuming."""
    code = loader.mitm()
    assert code is not None

    def search() -> list[tuple[str, MeetPart]]:
        done = []
        for piece in chunk:
            part = count_piece(code, piece)
            if part is None:
                break
            done.append((piece.key, part))
        return done

    done, _ = stopping.run(search, clock)
    return done or []


def bytes_per_worker(n: int) -> float:
    """Rough peak bytes a worker's counter holds: the board's quarters, two lists of keys
    and their compressed copies (8 bytes a key, grown by doubling) for the largest class,
    and the bit-sliced tables (about 0.6 MB)."""
    known = max(LARGEST_CLASS)
    largest = LARGEST_CLASS.get(n) or LARGEST_CLASS[known - (n - known) % 2] * 6.0 ** (
        (n - known + 1) // 2
    )
    last = max(QUARTERS_MB)
    quarters = QUARTERS_MB.get(n) or QUARTERS_MB[last] * 1.4 ** max(0, n - last)
    return quarters * 1e6 + 4 * 2 * 8 * largest + 600e3


def check_memory(n: int, workers: int) -> None:
    """Refuse up front a count whose workers cannot all hold their largest class."""
    need = workers * bytes_per_worker(n)
    limits.check_bytes(
        need,
        f"counting n={n} by meeting in the middle on {workers} worker(s)",
        "use fewer workers or a machine with more memory",
    )


def count(problem: Problem, call: Call, *, lost_timeout: float) -> UniqueCount:
    """Count ``problem`` (an empty board) by meeting in the middle, where the call's
    budget says (this process, local processes, Dask), resumably; ``lost_timeout``:
    seconds a Dask cluster may have no worker at all (the engine's option)."""
    import contextlib

    n = problem.n
    stats = call.stats
    budget = call.budget
    workers = default_workers(problem, call)
    here = not budget.elsewhere and workers == 1
    local = parallel.resolve_workers(workers) if not budget.elsewhere else 1
    check_memory(n, local)
    stats.extra["memory per worker"] = f"{bytes_per_worker(n) / 1e6:.0f} MB"
    running = {"solutions": 0}

    def report(fresh: list[MeetPart], done: int, total: int | None, resumed: int) -> None:
        running["solutions"] += sum(part.total for part in fresh)
        call.report(running["solutions"], done=done, total=total, resumed=resumed)

    with contextlib.ExitStack() as stack:
        executor, where, alive = where_module.executor(stack, call, n, False)
        reach = max(1, alive()) if alive is not None else local
        size = piece_size(n, reach)
        checkpoint = None
        if budget.checkpoint is not None:
            from cp_queens.parallel.checkpoint import Checkpoint

            size = _resumed_size(budget.checkpoint, n) or size
            job = {"engine": "fast", "method": "mitm", "n": n, "fixed": [], "blocked": []}
            items = pieces(n, size)
            job["subproblems"] = len(items)
            if size != legacy_size(n):
                job["piece_size"] = size
            checkpoint = stack.enter_context(
                Checkpoint.open(
                    budget.checkpoint, job, [p.key for p in items], MeetPart, sane=_sane(n)
                )
            )
            if budget.recheck:
                checked = _recheck(items, checkpoint.done, budget.recheck)
                resumed = sum(p.key in checkpoint.done for p in items)
                stats.extra["rechecked"] = f"{checked} of {resumed} resumed: ok"
        else:
            items = pieces(n, size)
        result = parallel.run(
            items,
            functools.partial(count_pieces, clock=call.clock if here else None),
            key=_key,
            executor=executor,
            where=where,
            workers_alive=alive,
            lost_timeout=lost_timeout,
            workers=workers,
            checkpoint=checkpoint,
            report=report,
            clock=call.clock,
            prepare=warm_up,
        )
    parts = result.records
    stats.extra["method"] = "meet in the middle"
    stats.extra["subproblems"] = len(parts)
    stats.branches = sum(part.nodes for part in parts.values())
    stats.extra["where"] = result.where
    stats.pool_start = result.pool_start
    if result.resumed:
        stats.extra["resumed"] = result.resumed
    total = sum(part.total for part in parts.values())
    symmetric = parts.get(Piece(n, SYMMETRIC).key)
    if not result.complete or symmetric is None or len(parts) < len(items):
        call.stop_for_time()
        # What is known of the unique count: the solutions found fill at least an
        # eighth as many orbits.
        return UniqueCount(total, -(-total // 8))
    if result.resumed:
        check_known_total(n, total)
    return UniqueCount(total, _unique(n, total, symmetric, bool(result.resumed)))


def default_workers(problem: Problem, call: Call) -> int | None:
    """The workers a count asks for: the budget's; else this process alone while a pool
    would not pay for its start (``POOL_FROM_SECONDS``); else every core."""
    budget = call.budget
    if budget.workers is not None:
        return budget.workers
    if budget.checkpoint is None and seconds(problem.n) < POOL_FROM_SECONDS:
        return 1
    return where_module.workers(problem, call)


def _resumed_size(path: str | os.PathLike[str], n: int) -> int | None:
    """The piece size of an existing checkpoint of this count (its header says it, or
    it was written with the fixed legacy pieces), so a resume cuts the work as the
    first run did whatever its worker count; ``None`` when there is none to follow
    (``Checkpoint.open`` then judges the file)."""
    import json

    try:
        with open(path, encoding="utf-8") as file:
            header = json.loads(file.readline())
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    job = header.get("job") if isinstance(header, dict) else None
    if not isinstance(job, dict) or job.get("method") != "mitm" or job.get("n") != n:
        return None
    size = job.get("piece_size")
    if isinstance(size, int) and not isinstance(size, bool) and 1 <= size <= mitm.classes(n):
        return size
    return legacy_size(n) if "piece_size" not in job else None


def warm_up() -> None:
    """Load the compiled counter before workers are forked."""
    assert loader.mitm() is not None


def _key(piece: Piece) -> str:
    return piece.key


def _sane(n: int) -> Callable[[str, MeetPart], str | None]:
    """Why a piece's figures read back from a checkpoint cannot be true (or ``None``):
    negatives; more solutions than the whole board has (known up to n = 27); a range
    piece with symmetric boards, an odd total (every orbit has 2 or 4 classes) or the
    symmetric piece with solutions; and for the symmetric piece, every figure it carries:
    more quarter-turn boards than half-turn ones, boards that fill no whole orbit (one a
    quarter turn maps to itself has an orbit of 2 such boards; one only a half turn maps
    to itself, an orbit of 4), and, where A002562 and A000170 are known, a unique count
    other than the known one (``8 * unique = solutions + half_turn + 2 * quarter_turn``)."""
    bound = limits.known_or_estimated_total(n)
    known = n <= len(limits.KNOWN_UNIQUE) and n <= len(limits.KNOWN_TOTALS)

    def why(key: str, part: MeetPart) -> str | None:
        if min(part) < 0:
            return "negative"
        if part.total > bound or part.half_turn > bound:
            return f"more solutions than n={n} has"
        if key != "mitm:symmetric":
            if part.half_turn or part.quarter_turn or part.total % 2:
                return "not a count of class orbits"
            return None
        if part.total or part.quarter_turn > part.half_turn:
            return "symmetric boards that cannot be"
        if part.quarter_turn % 2 or (part.half_turn - part.quarter_turn) % 4:
            return "symmetric boards that fill no whole orbit"
        if known:
            turns = 8 * limits.KNOWN_UNIQUE[n - 1] - limits.KNOWN_TOTALS[n - 1]
            if part.half_turn + 2 * part.quarter_turn != turns:
                return f"symmetric boards that give another unique count than n={n} has"
        return None

    return why


def _unique(n: int, total: int, symmetric: MeetPart, resumed: bool) -> int:
    """The unique count from the pieces' figures. Where no known count could check the
    symmetric piece's record (n > 27), figures that make no whole number of orbits drop
    it, with one warning, and count it again; counted here, they are a bug."""
    try:
        return mitm.unique_from(n, total, symmetric.half_turn, symmetric.quarter_turn)
    except ValueError as error:
        if not resumed:
            raise
        import warnings

        from cp_queens.errors import CpQueensWarning

        warnings.warn(
            f"checkpoint: the record of mitm:symmetric dropped and counted again ({error})",
            CpQueensWarning,
            stacklevel=3,
        )
    [(_, again)] = count_pieces([Piece(n, SYMMETRIC)])
    return mitm.unique_from(n, total, again.half_turn, again.quarter_turn)


def _recheck(items: Sequence[Piece], done: dict[str, MeetPart], fraction: float) -> int:
    """Count a random share of the resumed pieces again; how many were checked.

    Raises:
        RecheckError: a recounted piece differs from its record (the engine's).
    """
    import random

    resumed = [piece for piece in items if piece.key in done]
    if not resumed:
        return 0
    chosen = random.sample(resumed, max(1, math.ceil(fraction * len(resumed))))
    for key, part in count_pieces(chosen):
        stored = done[key]
        if stored[:3] != part[:3]:
            raise RecheckError(
                f"recheck failed: piece {key} is recorded with {stored.total} solutions "
                f"but counts {part.total}; do not trust this checkpoint"
            )
    return len(chosen)
