"""``cp-queens check``: a file of placements, up to millions, judged against every solution.

``cp_queens.grading.tasks.solutions.judge.compare_solutions`` holds a model's answer as
tuples; a file of all 2.3 million solutions of n = 15 needs less: each valid placement is
kept as one 64-bit key, and the true solutions stream past in blocks from the compiled kernels (the
reference engine where they are missing). Same counts and findings as
``compare_solutions``, in the memory of the keys.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from cp_queens.errors import CpQueensError
from cp_queens.grading.tasks.solutions.judge import REFERENCE_ENGINE, CheckRow, Finding, draw_attack
from cp_queens.problem import Problem
from cp_queens.render import text
from cp_queens.verify import verify, verify_rows

#: Largest board ``compare_file`` takes. A key packs a placement's columns in four bits
#: each, so 16 would fit, but a file of all 14.8 million solutions of n = 16 needs well over
#: a gigabyte to sort and compare; n = 15 (2.3 million) peaks at about 260 MB.
FILE_UP_TO = 15


def compare_file(n: int, items: Iterable[Any]) -> CheckRow:
    """``compare_solutions`` for big files: ``cp-queens check``.

    ``items`` are what ``cp_queens.formats.read_blocks`` yields: ``(k, m)``
    arrays of placements, or single lists of columns. Each placement is judged
    as it is read (the wrong ones by ``verify``, which
    names the attacking pair); the valid ones are kept as one 64-bit key each,
    not as tuples. Then the true solutions stream past in blocks, from the
    ``fast`` engine when its compiled kernels are there (the reference engine
    otherwise), and are looked up among the keys: the first one not found is
    the first missing solution, in lexicographic order, as in
    ``compare_solutions``, whose findings and counts this gives too.

    Examples:
        >>> row = compare_file(6, [[1, 3, 5, 0, 2, 4], [1, 3, 5, 0, 2, 4], [0, 1, 2, 3, 4, 5]])
        >>> row.verdict(), row.first_missing.cols
        ('3 missing, 1 invalid, 1 duplicate', (2, 5, 1, 4, 0, 3))
    """
    if not 1 <= n <= FILE_UP_TO:
        raise CpQueensError(f"compare_file: n must be 1..{FILE_UP_TO}, got {n}")
    read = _Read(n)
    all_keys, all_places = _valid_keys(read, items)
    unique, hits, duplicates, first_duplicate = _duplicates(n, all_keys, all_places)
    found = np.zeros(len(unique), dtype=bool)
    expected = 0
    lost: tuple[int, ...] | None = None  # the first true solution not found
    for solutions in reference_blocks(n):
        truth = _keys(solutions)
        at = np.minimum(np.searchsorted(unique, truth), max(len(unique) - 1, 0))
        present = unique[at] == truth if len(unique) else np.zeros(len(truth), dtype=bool)
        found[at[present]] = True
        if lost is None and not present.all():
            lost = tuple(solutions[int(np.flatnonzero(~present)[0])].tolist())
        expected += len(truth)
    first_invalid = read.first_invalid
    if not found.all():  # valid by verify(), unknown to the engine: a bug in one of them
        stray = np.isin(all_keys, unique[~found])
        position = int(all_places[stray].min())
        read.invalid += int(stray.sum())
        duplicates -= int((hits[~found] - 1).sum())
        if first_invalid is None or position < (first_invalid.index or 0):
            cols = _columns(int(all_keys[stray][np.argmin(all_places[stray])]), n)
            reason = "not a solution according to the reference engine"
            first_invalid = Finding(n, position, cols, reason, text(cols))
    correct = int(found.sum())
    missing = expected - correct
    first_missing = None
    if lost is not None:
        said = f"missing ({missing} of {expected} not found)"
        first_missing = Finding(n, None, lost, said, text(lost))
    return CheckRow(
        n,
        expected,
        returned=read.returned,
        correct=correct,
        invalid=read.invalid,
        duplicates=duplicates,
        missing=missing,
        first_missing=first_missing,
        first_invalid=first_invalid,
        first_duplicate=first_duplicate,
    )


@dataclass(slots=True)
class _Read:
    """What reading a file of size ``n`` has counted so far (made into a ``CheckRow``
    once the file is judged)."""

    n: int
    returned: int = 0  # placements read
    invalid: int = 0  # not solutions
    first_invalid: Finding | None = None  # the first of them, its attacking pair drawn


def _valid_keys(read: _Read, items: Iterable[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Judge every placement read: the invalid ones are counted in ``read`` (the first
    with its attacking pair), the valid ones come back as one 64-bit key each, with their
    1-based positions in the file."""
    n = read.n
    problem = Problem(n)
    keys: list[np.ndarray] = []  # of the valid placements, in the file's order
    places: list[np.ndarray] = []  # their 1-based positions in the file

    def invalid(first: int, count: int, cols: Any) -> None:
        read.invalid += count
        if read.first_invalid is None:
            reason = verify(cols, problem).reason or "not a solution"
            shown = tuple(cols) if isinstance(cols, list | tuple) else (cols,)
            read.first_invalid = Finding(n, first, shown, reason, draw_attack(shown, n, reason))

    for item in items:
        first = read.returned + 1
        if isinstance(item, np.ndarray) and item.ndim == 2:
            block = item
        else:
            one_row = _one_row(item, n)
            if one_row is None:
                read.returned += 1
                invalid(first, 1, item)
                continue
            block = one_row
        read.returned += len(block)
        if block.shape[1] != n:
            invalid(first, len(block), block[0].tolist())
            continue
        ok = verify_rows(block)
        assert ok is not None  # n <= FILE_UP_TO
        if not ok.all():
            wrong = np.flatnonzero(~ok)
            invalid(first + int(wrong[0]), len(wrong), block[wrong[0]].tolist())
        keys.append(_keys(block[ok]))
        places.append(np.flatnonzero(ok) + first)
    all_keys = np.concatenate(keys) if keys else np.zeros(0, np.uint64)
    all_places = np.concatenate(places) if places else np.zeros(0, np.int64)
    keys.clear()  # the blocks: not to be held next to their copy while sorting
    places.clear()
    return all_keys, all_places


def reference_blocks(n: int) -> Iterator[np.ndarray]:
    """Every solution of the empty ``n x n`` board in lexicographic order, as ``(k, n)``
    arrays: from the ``fast`` engine's compiled enumeration (tested against the reference
    engine's), or from the reference engine itself where the C kernels are missing."""
    import cp_queens
    import cp_queens.engines as engines

    if "fast" in engines.names():
        from cp_queens.engines.fast import compiled

        if compiled():
            engine = engines.get("fast")
            with engine.solution_arrays(Problem(n)) as stream:  # type: ignore[attr-defined]
                yield from stream
            return
    with cp_queens.solutions(n, engine=REFERENCE_ENGINE) as stream:
        while True:
            chunk = [p.cols for p in itertools.islice(stream, 4096)]
            if not chunk:
                return
            yield np.array(chunk, dtype=np.int64).reshape(len(chunk), n)


def _one_row(item: Any, n: int) -> np.ndarray | None:
    """A single placement as a ``(1, n)`` array, or ``None`` when it is not n integers."""
    if isinstance(item, np.ndarray):
        item = item.tolist()
    if not isinstance(item, list | tuple) or len(item) != n:
        return None
    if not all(type(c) is int and 0 <= c < n for c in item):
        return None
    return np.array([item], dtype=np.int64)


def _keys(block: np.ndarray) -> np.ndarray:
    """One 64-bit key per row: the columns, four bits each, the first row highest, so
    that keys sort as the placements do (lexicographically)."""
    n = block.shape[1]
    shifts = np.arange(4 * (n - 1), -1, -4, dtype=np.uint64)
    return np.bitwise_or.reduce(block.astype(np.uint64) << shifts, axis=1)


def _columns(key: int, n: int) -> tuple[int, ...]:
    return tuple((key >> (4 * (n - 1 - r))) & 15 for r in range(n))


def _duplicates(
    n: int, keys: np.ndarray, places: np.ndarray
) -> tuple[Any, Any, int, Finding | None]:
    """The sorted distinct keys and how often each occurs; how many placements repeat
    one before them, and the first repeat."""
    unique, first, hits = np.unique(keys, return_index=True, return_counts=True)
    duplicates = len(keys) - len(unique)
    if not duplicates:
        return unique, hits, 0, None
    repeat = np.ones(len(keys), dtype=bool)
    repeat[first] = False  # np.unique's index is each key's first occurrence
    which = int(np.argmin(np.where(repeat, places, np.iinfo(np.int64).max)))
    original = int(places[first[np.searchsorted(unique, keys[which])]])
    cols = _columns(int(keys[which]), n)
    found = Finding(n, int(places[which]), cols, f"repeats solution {original}", text(cols))
    return unique, hits, duplicates, found
