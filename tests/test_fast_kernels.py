"""The C extension of engine ``fast`` against the interpreted kernels it was ported from.

The kernels exist twice (``cp_queens/engines/fast/_kernels.c`` + ``_kernels_impl.h``,
and the Python of ``kernels.py``/``dynamic.py``/``parse.py``); these tests make the two
agree subtree by subtree, enumerate the same solutions batch by batch, parse the same
files, and check that the extension refuses arguments that would make it read or
write outside its buffers (a ``ValueError``, never a crash). They skip, saying why,
where the install found no C compiler.
"""

from __future__ import annotations

import array
import threading

import numpy as np
import pytest

from cp_queens.engines.fast import loader
from cp_queens.engines.fast import subproblems as s
from tests.helpers import total, unique

pytestmark = pytest.mark.skipif(
    loader.COMPILED is None, reason=f"no compiled kernels here: {loader.MISSING}"
)


def both(subs: list[s.Subproblem]) -> tuple[list[s.PartialCount], list[s.PartialCount]]:
    return s.count_with(loader.COMPILED, True, subs), s.count_with(loader.PYTHON, False, subs)


# n = 1..10 in one item (0.1 s in all; items of their own cost more). 11 costs 0.4 s (the
# interpreted kernel), more than 1..10 together, through the same depths and searches:
# 11 and 12 (2.3 s) are the slow run's.
@pytest.mark.parametrize(
    "sizes",
    [range(1, 11), *(pytest.param((n,), marks=pytest.mark.slow) for n in (11, 12))],
    ids=str,
)
def test_every_subtree_counts_the_same_and_the_totals_are_known(sizes: range) -> None:
    """Corner and edge subtrees, the dynamic and top-down searches (depth), nearly full
    prefixes: the same (total, unique, nodes) for every subtree."""
    for n in sizes:
        for depth in sorted({1, 2, 3, max(1, n - 3), max(1, n - 2), n}):
            compiled, python = both(s.split(n, depth=depth))
            assert compiled == python, (n, depth)
            assert sum(p.total for p in compiled) == total(n), (n, depth)
            assert sum(p.unique for p in compiled) == unique(n), (n, depth)


def test_given_queens_and_blocked_squares_count_the_same() -> None:
    cases = [
        s.split(9, depth=2, fixed={1: 3}),
        s.split(10, depth=3, fixed={4: 0, 9: 5}),
        s.split(8, depth=2, blocked=((0, 0), (5, 5), (7, 1), (3, 6))),
        s.split(11, depth=1, fixed={10: 10}, blocked=((2, 2),)),
    ]
    for subs in cases:
        compiled, python = both(subs)
        assert compiled == python


def deep_subtrees(n: int, left: int) -> list[s.Subproblem]:
    """Corner and edge subtrees of ``n`` with ``left`` rows to search: the first rows of
    the images of a constructed solution (those that break a kind's rules count 0)."""
    from cp_queens.engines.construct import construct_columns
    from cp_queens.symmetry import orbit_columns

    found = []
    for cols in sorted(orbit_columns(tuple(int(c) for c in construct_columns(n)))):
        prefix = cols[: n - left]
        found.append(s.Subproblem(n, s.CORNER if cols[0] == 0 else s.EDGE, prefix))
        found.append(s.Subproblem(n, s.EDGE, prefix))
    return found


@pytest.mark.parametrize("n", [33, 34, 40])
def test_boards_beyond_the_dynamic_search_take_the_top_down_loops(n: int) -> None:
    """n > 32 counts with count_corner / count_edge (the 64-bit top-down loops): deep
    subtrees, with 3 to 12 rows left to search, count the same; some find solutions."""
    subs = [sub for left in (3, 5, 8, 12) for sub in deep_subtrees(n, left)]
    compiled, python = both(subs)
    assert compiled == python
    assert sum(p.total for p in compiled) > 0


def test_enumeration_gives_the_same_batches() -> None:
    n = 9
    allow = [(1 << n) - 1] * n
    runs = []
    for compiled in (True, False):
        code = loader.COMPILED if compiled else loader.PYTHON

        def new(size: int, compiled: bool = compiled) -> object:
            return np.zeros(size, dtype=np.int64) if compiled else [0] * size

        buffers = [new(n), new(1)] + [new(n + 1) for _ in range(4)] + [new(n), new(7 * n)]
        for row, mask in enumerate(allow):
            buffers[0][row] = mask
        buffers[2][0] = allow[0]
        batches = []
        while buffers[1][0] >= 0:
            found, nodes = code.enumerate_batch(n, *buffers, 7, 50)
            batches.append((int(found), int(nodes), [int(c) for c in buffers[-1][: found * n]]))
        runs.append(batches)
    assert runs[0] == runs[1]
    assert sum(found for found, _, _ in runs[0]) == total(n)


@pytest.mark.parametrize(
    ("text", "brackets"),
    [
        (b"[1, 3, 0, 2]\n[2,0,3,1]\n", 1),
        (b"1,3,0,2\n2,0,3,1\n", 0),
        (b"[01, 3]\n", 1),  # a leading zero: JSON has none
        (b"[1, 3, 0, 2]\n[2, 0]\n", 1),  # two lengths
        (b"1,2\n3,4", 0),  # no final newline
        (b"123456789,1\n", 0),  # nine digits
        (b"[1,  3]\n", 1),  # two spaces
        (b"", 0),
    ],
)
def test_parse_rows_agrees(text: bytes, brackets: int) -> None:
    out_c = np.zeros(len(text) // 2 + 1, dtype=np.int64)
    out_p = np.zeros(len(text) // 2 + 1, dtype=np.int64)
    shape_c = np.zeros(1, dtype=np.int64)
    shape_p = np.zeros(1, dtype=np.int64)
    rows = loader.COMPILED.parse_rows(np.frombuffer(text, dtype=np.uint8), brackets, out_c, shape_c)
    assert rows == loader.PYTHON.parse_rows(text, brackets, out_p, shape_p)
    if rows >= 0:
        assert out_c[: rows * shape_c[0]].tolist() == out_p[: rows * shape_p[0]].tolist()


def test_parse_rows_never_writes_past_its_output() -> None:
    out = np.zeros(2, dtype=np.int64)
    assert loader.COMPILED.parse_rows(b"1,2,3\n", 0, out, np.zeros(1, dtype=np.int64)) == -1


def scratch(m: int, n: int) -> list[array.array]:
    def q(size: int) -> array.array:
        return array.array("q", bytes(8 * size))

    return [q(m), q(m), q(m * n), q(n), q(3 * m), q(64), q(64), q(6 * 64), q(64), q(64)]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: b.__setitem__(0, array.array("q", [7])), "kind"),
        (lambda b: b.__setitem__(1, array.array("q", [9])), "depth"),
        (lambda b: b[2].__setitem__(0, 3), "one column"),  # two bits
        (lambda b: b[2].__setitem__(0, 1 << 40), "one column"),  # outside the board
        (lambda b: b.__setitem__(7, array.array("q", [0] * 10)), "stack"),
        (lambda b: b.__setitem__(4, b"\0" * 24), "results"),  # read-only
        (lambda b: b.__setitem__(3, array.array("i", [0] * 8)), "base"),  # 4-byte items
    ],
)
def test_bad_arguments_are_refused_not_run(change, message: str) -> None:
    buffers = scratch(1, 8)
    buffers[0][0], buffers[1][0], buffers[2][0] = 2, 1, 1 << 1
    change(buffers)
    with pytest.raises(ValueError, match=message):
        loader.COMPILED.count_many(8, *buffers)


def test_n_outside_the_masks_is_refused() -> None:
    for n in (0, 63):
        with pytest.raises(ValueError, match="n must be"):
            loader.COMPILED.count_many(n, *scratch(0, 1))


def test_threads_count_together() -> None:
    """The kernels release the GIL; two threads counting at once both get exact answers
    (the Dask local cluster counts so, in threads)."""
    subs = s.split(12, depth=3)
    halves = [subs[::2], subs[1::2]]
    results: list[list[s.PartialCount]] = [[], []]

    def work(i: int) -> None:
        results[i] = s.count_with(loader.COMPILED, True, halves[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(p.total for part in results for p in part) == total(12)
