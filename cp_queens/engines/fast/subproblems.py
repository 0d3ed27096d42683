"""Splitting a count into independent subproblems, one symmetry class of subtrees each.

A count of all solutions only needs one member of every orbit under the 8
symmetries of the square (see ``cp_queens.symmetry``): the canonical one,
lexicographically smallest of its images. Which boards can be canonical is
decided mostly by the queens on the border, so it prunes near the root:

* **corner** - some queen stands in a corner. Then none of the 4 rotations
  fixes the board (a corner goes to another corner, which cannot also hold a
  queen: any two corners share a row, column or diagonal), so the orbit has 8
  members. Exactly two images keep the queen at ``(0, 0)``: the board and its
  transpose, and they differ in row 1 (``q[1]`` against the row of the queen in
  column 1 - equal would put two queens on one anti-diagonal). The canonical
  one has ``q[1]`` smaller, so the queen of column 1 sits below row ``q[1]``:
  column 1 is closed in rows ``2 .. q[1]-1``. Each leaf weighs 8.

* **edge** - no queen in a corner. Each of the four border lines holds exactly
  one queen; an image can bring any of them to row 0, read from either end, so
  the smallest ``q[0]`` of any image is the smallest distance ``b`` of a border
  queen to its nearest corner. The canonical board has ``q[0] = b``, so
  ``b < n-1-b``, the side columns are closed in rows ``1 .. b-1`` and must both
  be used by row ``n-1-b``, and the last row's queen keeps distance ``>= b``
  from the corners. What these rules cannot see (two border queens at the same
  distance) is settled at each leaf by comparing the few tying images
  (``cp_queens.engines.fast.kernels.edge_orbit``), which also finds the orbit size.

A subproblem fixes the first rows (its *prefix*) inside one kind, so
subproblems never overlap and together cover every canonical board once.
Without symmetry (pre-placed queens break it) the kind is **plain**: every
completion of every prefix, each weighing 1.

Examples:
    >>> [(s.kind, s.prefix) for s in split(5, depth=1)]
    [('corner', (0, 2)), ('corner', (0, 3)), ('edge', (1,))]
    >>> sum(count(s).total for s in split(8)), sum(count(s).unique for s in split(8))
    (92, 12)
"""

from __future__ import annotations

import array
import functools
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import cp_queens.engines.fast.kernels as kernels
import cp_queens.engines.fast.loader as loader
import cp_queens.engines.fast.stopping as stopping
from cp_queens.budget import Clock
from cp_queens.errors import CpQueensError, CpQueensWarning, UnsupportedTaskError

PLAIN = "plain"
CORNER = "corner"
EDGE = "edge"

#: Empty boards from this n are counted by meeting in the middle (``meet.py``, its own
#: pieces instead of these subproblems), smaller ones by the depth-first kernels: see
#: docs/counting.md for the crossover measured.
MITM_FROM = 14


class PartialCount(NamedTuple):
    """What one subproblem contributed: solutions, orbits (unique), search nodes."""

    total: int
    unique: int
    nodes: int


@dataclass(frozen=True)
class Subproblem:
    """A subtree of the search: ``prefix`` gives the columns of the first rows.

    Picklable and self-contained, so it can be sent to another process or to a
    Dask worker. ``fixed`` are the pre-placed queens as sorted ``(row, col)``
    pairs, ``blocked`` the squares no queen may take (plain kind only).
    """

    n: int
    kind: str
    prefix: tuple[int, ...]
    fixed: tuple[tuple[int, int], ...] = field(default=())
    blocked: tuple[tuple[int, int], ...] = field(default=())

    @property
    def weight(self) -> int:
        """How many solutions one leaf stands for: 1 (plain), 8 (corner), 0 = its orbit size."""
        if self.kind == PLAIN or self.n == 1:
            return 1
        return 8 if self.kind == CORNER else kernels.BY_ORBIT

    @property
    def key(self) -> str:
        """A stable name for checkpoint files, e.g. ``edge:3.0.5``."""
        return f"{self.kind}:{'.'.join(map(str, self.prefix))}"


def default_depth(n: int) -> int:
    """Rows fixed by a subproblem: enough subtrees to keep many workers busy, evenly.

    Grows with ``n`` so that subproblems stay small (the largest of n = 17's
    1,031 is 0.2 % of the count) while their number (300,000 at n = 21) keeps
    the scheduling overhead small. Not more than that: every subproblem is made,
    sent and collected by the parent process, which shares the cores with the
    workers (four rows at n = 16, 6,778 subproblems, cost it 0.2 s of CPU).
    """
    if n <= 8:
        return 2
    if n <= 18:
        return 3
    if n <= 20:
        return 4
    return 5


def deadline_depth(n: int) -> int:
    """Rows preset per subproblem for a count under a time limit in one process.

    Nothing stops a compiled search once it runs, so the clock is read between
    subproblems, and they must be small: with the default rows the first
    subproblem of n = 25 took 28 s of CPU (a 2 s limit ended after 75 s). One row
    more divides a subproblem by about the number of its free squares; measured
    on the first subproblems (compiled kernels): n = 22 with 5 rows 0.1-0.6 s each,
    with 6 rows 10-40 ms; n = 25 with 8 rows 10-20 ms; n = 27 with 10 rows 1-7 ms.
    So about two rows for every three queens past 12, and never fewer than
    ``default_depth``: some 10-50 ms a subproblem, against about 0.1 ms of
    overhead each. The split is streamed, so only the subproblems reached are made.

    Examples:
        >>> [deadline_depth(n) for n in (8, 16, 19, 20, 22, 25, 27)]
        [2, 3, 4, 5, 6, 8, 9]
    """
    return max(default_depth(n), (2 * n - 25) // 3)


KIND_NUMBERS = {PLAIN: kernels.PLAIN, CORNER: kernels.CORNER, EDGE: kernels.EDGE}


def base_masks(
    n: int, fixed: tuple[tuple[int, int], ...], blocked: tuple[tuple[int, int], ...] = ()
) -> list[int]:
    """Per-row open columns before any symmetry rule: all, or what given queens leave open.

    A given queen's row is closed except for its square, and the squares it
    attacks are closed in every other row from the start (a big saving in a
    completion: the search never tries them). A blocked square is closed too.
    """
    mask = (1 << n) - 1
    base = [mask] * n
    for row, col in blocked:
        base[row] &= ~(1 << col)
    for row, col in fixed:
        for r in range(n):
            if r == row:
                base[r] &= 1 << col
                continue
            distance = abs(r - row)
            attacked = 1 << col
            if col + distance < n:
                attacked |= 1 << (col + distance)
            if col - distance >= 0:
                attacked |= 1 << (col - distance)
            base[r] &= ~attacked
    return base


def allow_masks(sub: Subproblem) -> tuple[list[int], int]:
    """Per-row masks of the columns the subproblem's kind permits, and its ``side_row``.

    The rules themselves are ``cp_queens.engines.fast.kernels.kind_rules``, shared with
    the compiled search so that the split and the search can never disagree.
    """
    n = sub.n
    bits = [1 << col for col in sub.prefix] + [0] * (n - len(sub.prefix))
    allow = [0] * n
    side_row = kernels.kind_rules(
        n, KIND_NUMBERS[sub.kind], bits, base_masks(n, sub.fixed, sub.blocked), allow
    )
    return allow, side_row


class SplitExpired(Exception):
    """The call's clock ran out while the subproblems were still being listed."""


def split(
    n: int,
    *,
    depth: int | None = None,
    fixed: Mapping[int, int] | None = None,
    blocked: Iterable[tuple[int, int]] = (),
    clock: Clock | None = None,
) -> list[Subproblem]:
    """The subproblems of a count of ``n``, as a list (see ``iter_split``).

    A huge split (millions of subproblems) takes a while: once ``clock``
    (the call's ``Clock``) runs out it raises ``SplitExpired``, so a
    time limit covers the split too. A count runs ``iter_split`` instead and
    never holds the whole list; a checkpoint needs it (its header names the split).

    Called on its own (not through the engine, which checks ``n`` against its
    ``max_n``), it refuses a board the 64-bit masks cannot hold.
    """
    if n > kernels.MAX_N:
        raise UnsupportedTaskError(f"engine 'fast' handles n <= {kernels.MAX_N}, got n={n}")
    found: list[Subproblem] = []
    for index, sub in enumerate(iter_split(n, depth=depth, fixed=fixed, blocked=blocked)):
        found.append(sub)
        if clock is not None and index % 4096 == 0 and clock.expired():
            raise SplitExpired
    return found


def iter_split(
    n: int,
    *,
    depth: int | None = None,
    fixed: Mapping[int, int] | None = None,
    blocked: Iterable[tuple[int, int]] = (),
) -> Iterator[Subproblem]:
    """The subproblems of a count of ``n``, one at a time: symmetry-reduced, or plain with
    ``fixed`` queens.

    A generator, so that a count starts searching at once and holds only the
    subproblems in flight: at n = 28 the full list takes minutes and gigabytes.
    ``depth`` rows are preset in each (fewer when the board is that small);
    the order is deterministic, so a checkpoint can name subproblems by key.
    Arguments are checked on the call, not on the first ``next()``.

    Examples:
        >>> subs = iter_split(16)
        >>> next(subs).key
        'corner:0.2.4'
    """
    # n fits the 64-bit masks (n <= kernels.MAX_N): the engine's max_n, checked before
    # any call reaches here.
    depth = default_depth(n) if depth is None else depth
    if depth < 1:
        raise CpQueensError(f"split depth must be at least 1, got {depth}")
    return _split(n, min(depth, n), fixed, tuple(sorted(blocked)))


def _split(
    n: int, depth: int, fixed: Mapping[int, int] | None, closed: tuple[tuple[int, int], ...]
) -> Iterator[Subproblem]:
    if fixed or closed:
        pairs = tuple(sorted((fixed or {}).items()))
        yield from _extend(Subproblem(n, PLAIN, (), pairs, closed), depth)
        return
    if n == 1:
        yield Subproblem(1, CORNER, (0,))
        return
    for second in range(2, n - 1):
        yield from _extend(Subproblem(n, CORNER, (0, second)), max(depth, 2))
    for b in range(1, n):
        if b >= n - 1 - b:
            break
        yield from _extend(Subproblem(n, EDGE, (b,)), depth)


def _extend(sub: Subproblem, depth: int) -> Iterator[Subproblem]:
    """Every legal way of filling rows ``len(prefix) .. depth-1``, in lexicographic order."""
    n = sub.n
    allow, side_row = allow_masks(sub)
    side = 1 | (1 << (n - 1))
    mask = (1 << n) - 1
    cols = left = right = 0
    for r, col in enumerate(sub.prefix):
        bit = 1 << col
        if not bit & kernels.row_options(r, cols, left, right, allow, side_row, side):
            return
        cols, left, right = cols | bit, ((left | bit) << 1) & mask, (right | bit) >> 1

    def fill(row: int, prefix: tuple[int, ...], cols: int, left: int, right: int) -> Iterator:
        if row == depth:
            yield Subproblem(n, sub.kind, prefix, sub.fixed, sub.blocked)
            return
        free = kernels.row_options(row, cols, left, right, allow, side_row, side)
        while free:
            bit = free & -free
            free ^= bit
            yield from fill(
                row + 1,
                (*prefix, bit.bit_length() - 1),
                cols | bit,
                ((left | bit) << 1) & mask,
                (right | bit) >> 1,
            )

    yield from fill(len(sub.prefix), sub.prefix, cols, left, right)


# -- running one subproblem ---------------------------------------------------

_warned = False


def backend(force_python: bool = False, n: int | None = None) -> tuple[Any, bool]:
    """The kernels to run and whether they are compiled.

    The compiled ones (``loader.COMPILED``, the C extension built at install) whenever
    they are there: importing them costs about a millisecond, so even the smallest
    board counts compiled. Without them the interpreted kernels run, after one
    warning line that says why and how to get the compiled ones: the answer is the
    same, only some 50-100 times slower. ``n`` is accepted for callers that pass the
    board size (it no longer changes the choice).
    """
    global _warned
    if force_python:
        return loader.PYTHON, False
    if loader.COMPILED is None:
        if not _warned:
            _warned = True
            warnings.warn(
                f"engine 'fast' runs its pure-Python kernels (exact, 50-100 times slower): "
                f"{loader.MISSING}; for the compiled ones, {loader.HOW}",
                CpQueensWarning,
                stacklevel=3,
            )
        return loader.PYTHON, False
    return loader.COMPILED, True


def new_array(size: int, compiled: bool) -> Any:
    """A zeroed buffer of 8-byte integers for the compiled kernels (``array.array``: no
    NumPy needed), a list for the interpreted ones (whose masks may exceed 64 bits)."""
    if compiled:
        return array.array("q", bytes(8 * size))
    return [0] * size


def count(sub: Subproblem, *, force_python: bool = False) -> PartialCount:
    """Count one subproblem: its weighted solutions, its orbits and the nodes searched."""
    return count_many([sub], force_python=force_python)[0]


def count_many(subs: Sequence[Subproblem], *, force_python: bool = False) -> list[PartialCount]:
    """Count several subproblems of one board in a single kernel call."""
    if not subs:
        return []
    code, compiled = backend(force_python, subs[0].n)
    return count_with(code, compiled, subs)


def count_with(code: Any, compiled: bool, subs: Sequence[Subproblem]) -> list[PartialCount]:
    """``count_many`` on the given kernels (``loader.COMPILED`` or ``loader.PYTHON``)."""
    if not subs:
        return []
    n = subs[0].n
    fixed, blocked = subs[0].fixed, subs[0].blocked
    if any(s.n != n or s.fixed != fixed or s.blocked != blocked for s in subs):
        raise ValueError("count_many() needs subproblems of one board and one set of given queens")
    kinds = [KIND_NUMBERS[s.kind] for s in subs]
    depths = [len(s.prefix) for s in subs]
    prefixes = [0] * (n * len(subs))
    for i, sub in enumerate(subs):
        for r, col in enumerate(sub.prefix):
            prefixes[i * n + r] = 1 << col
    base = base_masks(n, fixed, blocked)
    if compiled:
        kinds, depths, prefixes, base = (  # type: ignore[assignment]  # lists become buffers
            array.array("q", values) for values in (kinds, depths, prefixes, base)
        )
    results = new_array(3 * len(subs), compiled)
    search = functools.partial(
        code.count_many,
        n,
        kinds,
        depths,
        prefixes,
        base,
        results,
        new_array(64, compiled),  # allow
        new_array(64, compiled),  # bits
        new_array(6 * 64, compiled),  # stack (six slots a row)
        new_array(64, compiled),  # queen_cols
        new_array(64, compiled),  # inverse
    )
    # Compiled, the search can be stopped (Ctrl-C, SIGTERM: it raises KeyboardInterrupt).
    done = stopping.run(search)[0] if compiled else search()
    if done != len(subs):
        raise KeyboardInterrupt  # stopped from another thread: this process is stopping
    values = results.tolist() if compiled else results
    return [PartialCount(*values[3 * i : 3 * i + 3]) for i in range(len(subs))]


def warm_up(force_python: bool = False, n: int | None = None) -> None:
    """Load the counting kernels now, before workers are forked or a clock starts (and say
    now, once, if only the interpreted ones are there)."""
    code, compiled = backend(force_python, n)
    count_with(code, compiled, [Subproblem(4, EDGE, (1,))])


class RecheckError(CpQueensError):
    """A record resumed from a checkpoint disagrees with the same subproblem counted
    again: the file (or the machine that wrote it) cannot be trusted."""


def check_known_total(n: int, total: int) -> None:
    """A count resumed from a checkpoint must give the known total (OEIS A000170, known up
    to n = 27): the one check that catches a record forged with a correct checksum,
    residues and plausible figures, whichever record it is (a recheck of a share finds
    it only when it draws it).

    Raises:
        RecheckError: the total differs.
    """
    from cp_queens.limits import KNOWN_TOTALS

    if n <= len(KNOWN_TOTALS) and total != KNOWN_TOTALS[n - 1]:
        raise RecheckError(
            f"recheck failed: n={n} counts {total:,} with the records resumed from the "
            f"checkpoint, but has {KNOWN_TOTALS[n - 1]:,} solutions (OEIS A000170): a "
            "resumed record is wrong; do not trust this checkpoint"
        )
