"""An independent checker: does a placement really have no two queens attacking?

It shares no code with any engine, so an engine bug cannot hide behind its own
checker. The answer names the first attacking pair (rows in order: the first
row that attacks an earlier one) and, on boards up to 26, their squares in the
chess names of ``cp_queens.problem.square_name``, e.g. ``rows 2 and 5 share
a diagonal (c6 and f3)``.

Small boards are checked with plain sets, which a student can read; large
boards (a million queens) with NumPy in a few vectorised passes. NumPy is
imported only for those, so that a command checking small boards starts light:
importing it takes longer (0.2 s) than checking 100,000 queens with sets.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

from cp_queens.errors import InvalidAnswerError, InvalidPlacementError, InvalidProblemError
from cp_queens.problem import NAMED_UP_TO, Placement, Problem, square_name

if TYPE_CHECKING:
    import numpy as np

    from cp_queens.answer import Answer

#: Above this size the NumPy path is used when NumPy is loaded already (an array was
#: given, or another part of the program imported it); both paths give the same answer.
VECTORISE_FROM = 256

#: Above this size NumPy is imported to check a plain list: below it, three Python sets
#: (0.03 s at 100,000 queens) are quicker than importing NumPy.
IMPORT_NUMPY_FROM = 200_000


@dataclass(frozen=True, slots=True)
class Verdict:
    """Result of ``verify``: truthy when the placement is a solution."""

    ok: bool
    reason: str | None = None

    def __bool__(self) -> bool:
        return self.ok


def verify(placement: Sequence[int], problem: Problem | None = None) -> Verdict:
    """Check that no two queens attack each other (and, given a problem, that it is kept).

    Examples:
        >>> verify([1, 3, 0, 2])
        Verdict(ok=True, reason=None)
        >>> verify([0, 2, 4, 1, 3, 5]).reason
        'rows 0 and 5 share a diagonal (a6 and f1)'
    """
    if problem is not None and not isinstance(problem, Problem):
        raise InvalidProblemError(f"verify: problem must be a Problem or None, got {problem!r:.60}")
    if _is_array(placement):
        cols: Sequence[int] | np.ndarray = placement
        bad_shape = _shape_problem_vectorised(placement)
    else:
        if not isinstance(placement, Iterable) or isinstance(placement, str | bytes | Mapping):
            # A wrong *kind* of argument is the caller's error, not a verdict on a board.
            raise InvalidPlacementError(
                "verify: a placement is a sequence of column numbers (one per row), "
                f"got {type(placement).__name__} {placement!r:.60}"
            )
        cols = placement.cols if isinstance(placement, Placement) else tuple(placement)
        # A Placement checked its shape when it was built; anything else is checked here.
        bad_shape = None if isinstance(placement, Placement) else _shape_problem_plain(cols)
    if bad_shape is not None:
        return Verdict(False, bad_shape)
    n = len(cols)
    # Check with Python ints (or int64): a uint8 array or NumPy scalars would wrap around
    # in ``row + col`` and call a valid n = 200 placement invalid.
    if _is_array(cols):
        if n < VECTORISE_FROM:
            cols = cols.tolist()
    elif not isinstance(placement, Placement) and not set(map(type, cols)) <= {int}:
        cols = tuple(map(int, cols))
    if n == 0:
        # No board has n = 0 (Problem refuses it): an empty list checks nothing.
        return Verdict(False, "an empty placement has no queens to check (n must be >= 1)")
    if problem is not None:
        if problem.n != n:
            return Verdict(False, f"placement has {n} rows, the problem has n={problem.n}")
        for row, col in problem.fixed.items():
            if cols[row] != col:
                return Verdict(
                    False,
                    f"row {row}: the given queen in column {col} was moved to {cols[row]}"
                    + _squares(n, (row, col), (row, cols[row]), "->"),
                )
        for row, col in sorted(problem.blocked):
            if cols[row] == col:
                return Verdict(
                    False, f"row {row}: the queen in column {col} stands on a blocked square"
                )
    if n >= IMPORT_NUMPY_FROM or (n >= VECTORISE_FROM and "numpy" in sys.modules):
        pair = _first_attack_vectorised(_as_int_array(cols))
    elif _no_attack_plain(cols):
        pair = None
    else:  # only a placement that fails pays for naming its first attacking pair
        pair = _first_attack_plain(cols)
    if pair is None:
        return Verdict(True)
    earlier, row, what = pair
    squares = _squares(n, (earlier, cols[earlier]), (row, cols[row]), "and")
    return Verdict(False, f"rows {earlier} and {row} share {what}{squares}")


def _squares(n: int, first: tuple[int, int], second: tuple[int, int], joint: str) -> str:
    """`` (a8 and b7)``: the two squares by name, or nothing on boards too big to name."""
    if n > NAMED_UP_TO:
        return ""
    return f" ({square_name(*first, n)} {joint} {square_name(*second, n)})"


def _is_array(value: Any) -> TypeGuard[np.ndarray]:
    """Whether ``value`` is a NumPy array, without importing NumPy to find out."""
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.ndarray)


def _shape_problem_plain(cols: Sequence[object]) -> str | None:
    n = len(cols)
    # Fast path for a million queens: plain ints only (``type`` excludes bools), in range.
    if set(map(type, cols)) <= {int} and (n == 0 or (min(cols) >= 0 and max(cols) < n)):  # type: ignore[type-var, operator]
        return None
    numpy = sys.modules.get("numpy")
    integers = (int,) if numpy is None else (int, numpy.integer)
    for row, col in enumerate(cols):
        if isinstance(col, bool) or not isinstance(col, integers):
            return f"row {row}: column {col!r} is not an integer"
        if not 0 <= col < n:
            return f"row {row}: column {col} is outside the board 0..{n - 1}"
    return None


def _shape_problem_vectorised(cols: np.ndarray) -> str | None:
    import numpy as np

    if cols.ndim != 1:
        return f"a placement is one column per row, got an array of shape {cols.shape}"
    if cols.dtype.kind not in "iu":
        return _shape_problem_plain(cols.tolist())  # names the first non-integer
    outside = np.flatnonzero((cols < 0) | (cols >= cols.size))
    if outside.size:
        row = int(outside[0])
        return f"row {row}: column {cols[row]} is outside the board 0..{cols.size - 1}"
    return None


def _as_int_array(cols: Sequence[int] | np.ndarray) -> np.ndarray:
    import numpy as np

    if isinstance(cols, np.ndarray):
        return cols.astype(np.int64, copy=False)
    # fromiter avoids building an intermediate object array: ~10x faster at n = 10^6.
    return np.fromiter(cols, dtype=np.int64, count=len(cols))


def _no_attack_plain(cols: Sequence[int] | np.ndarray) -> bool:
    """True when no two queens share a column or a diagonal: one set per direction."""
    n = len(cols)
    return (
        len(set(cols)) == n
        and len({row + col for row, col in enumerate(cols)}) == n
        and len({row - col for row, col in enumerate(cols)}) == n
    )


def _first_attack_plain(cols: Sequence[int] | np.ndarray) -> tuple[int, int, str] | None:
    seen_col: dict[int, int] = {}
    seen_sum: dict[int, int] = {}
    seen_diff: dict[int, int] = {}
    for row, col in enumerate(cols):
        for table, key, what in (
            (seen_col, col, "a column"),
            (seen_sum, row + col, "a diagonal"),
            (seen_diff, row - col, "a diagonal"),
        ):
            if key in table:
                return table[key], row, what
            table[key] = row
    return None


def _first_attack_vectorised(cols: np.ndarray) -> tuple[int, int, str] | None:
    """O(n) when there is no attack (one ``bincount`` per direction, the common case);
    only a placement that fails pays for sorting to name its first attacking pair."""
    import numpy as np

    n = cols.size
    rows = np.arange(n, dtype=np.int64)
    if (
        np.bincount(cols, minlength=n).max() <= 1
        and np.bincount(rows + cols, minlength=2 * n - 1).max() <= 1
        and np.bincount(rows - cols + n - 1, minlength=2 * n - 1).max() <= 1
    ):
        return None
    return _first_attack_sorted(cols, rows)


def _first_attack_sorted(cols: np.ndarray, rows: np.ndarray) -> tuple[int, int, str] | None:
    import numpy as np

    best: tuple[int, int, str] | None = None
    for key, what in ((cols, "a column"), (rows + cols, "a diagonal"), (rows - cols, "a diagonal")):
        _, first_index, inverse = np.unique(key, return_index=True, return_inverse=True)
        first_row_with_key = first_index[inverse]
        clashing = np.flatnonzero(first_row_with_key < rows)
        if clashing.size:
            row = int(clashing[0])
            if best is None or row < best[1]:
                best = (int(first_row_with_key[row]), row, what)
    return best


def verify_rows(block: np.ndarray) -> np.ndarray | None:
    """Which rows of a ``(k, n)`` block of placements are solutions, all rows at once.

    For the millions of placements of ``cp-queens verify`` on a big file: every
    row's columns, sums and differences go into one bit mask each, and a row is
    a solution when each mask has ``n`` bits (no two queens share a line).
    Returns a boolean array, or ``None`` when ``n`` is too large for 64-bit
    masks (then check the rows with ``verify``). The reason a row fails
    is ``verify``'s to give: call it on the few rows that do.

    Examples:
        >>> import numpy as np
        >>> verify_rows(np.array([[1, 3, 0, 2], [0, 1, 2, 3]])).tolist()
        [True, False]
    """
    import numpy as np

    n = block.shape[1]
    if n == 0 or n > 31:
        return None
    cols = np.asarray(block, dtype=np.int64)
    inside = ((cols >= 0) & (cols < n)).all(axis=1)
    cols = np.where(inside[:, None], cols, 0)
    rows = np.arange(n, dtype=np.int64)
    one = np.int64(1)
    ok = inside
    for lines in (cols, rows + cols, rows - cols + (n - 1)):
        mask = np.bitwise_or.reduce(np.left_shift(one, lines), axis=1)
        ok &= np.bitwise_count(mask) == n
    return ok


#: Largest board whose refused placement is written out in full in the error.
SHOWN_UP_TO = 32


def check_answer(placement: Any, problem: Problem, engine: str) -> None:
    """Refuse, with ``InvalidAnswerError``, a placement ``engine`` gave for ``problem``
    that is no solution of it (``None``, no placement, passes).

    Why every answer: a solver solves the model it is given, and a model with a
    constraint left out (the first thing a student tries) answers boards with two queens
    on one diagonal, as confidently as right ones. O(n) a placement.

    Examples:
        >>> check_answer([1, 3, 0, 2], Problem(4), "cpsat")
        >>> check_answer([0, 2, 4, 1, 3, 5], Problem(6), "cpsat")
        Traceback (most recent call last):
        ...
        cp_queens.errors.InvalidAnswerError: engine 'cpsat' answered [0, 2, 4, 1, 3, 5] for n=6, which the independent verifier refuses: rows 0 and 5 share a diagonal (a6 and f1)
    """  # noqa: E501
    if placement is None:
        return
    verdict = verify(placement, problem)
    if not verdict.ok:
        raise _refused(placement, problem, engine, str(verdict.reason))


def _refused(placement: Any, problem: Problem, engine: str, reason: str) -> InvalidAnswerError:
    cols = list(placement.cols if isinstance(placement, Placement) else placement)
    shown = f" {[int(c) for c in cols]}" if len(cols) <= SHOWN_UP_TO else " a placement"
    return InvalidAnswerError(
        f"engine '{engine}' answered{shown} for n={problem.n}, which the independent "
        f"verifier refuses: {reason}"
    )


def checked(items: Iterable[Any], problem: Problem, engine: str) -> Iterator[Any]:
    """``items`` (placements, or ``(k, n)`` arrays of them) passed on once each is checked
    by the verifier; the first one that is no solution raises ``InvalidAnswerError``
    before it is passed on. Blocks are checked all at once (``verify_rows``)."""
    for item in items:
        if isinstance(item, Placement | list | tuple):
            check_answer(item, problem, engine)
        else:
            ok = verify_rows(item) if problem.is_empty_board else None
            if ok is None:
                for row in item.tolist():
                    check_answer(row, problem, engine)
            elif not ok.all():
                row = item[int((~ok).nonzero()[0][0])].tolist()
                raise _refused(row, problem, engine, str(verify(row, problem).reason))
        yield item


#: Failures listed in the answer of ``verify_all`` (all of them are counted).
LISTED_FAILURES = 100


def verify_all(
    items: Iterable[Any],
    source: str = "<placements>",
    *,
    problem: Problem | None = None,
    distinct: bool = False,
    expect: int | None = None,
    on_failure: Callable[[int, int, str], object] | None = None,
) -> Answer:
    """Judge a stream of placements (``cp-queens verify``): lists of columns, or 2-D
    arrays of them as ``cp_queens.formats.read_blocks`` yields them.

    Args:
        source: the name of what was read, for the summary.
        problem: also require the board size (and given queens) of this problem.
        distinct: also require that no placement repeats.
        expect: also require exactly this many placements.
        on_failure: called with (placement number from 1, its size, why) for each one
            that fails, as it is found.

    Returns:
        An ``Answer`` of task ``verify``: ``value`` true when every condition holds and
        there was something to check (outcome ``negative`` otherwise), with ``checked``,
        ``invalid``, ``sizes``, the first ``LISTED_FAILURES`` ``failures`` and the
        ``summary`` line.

    Examples:
        >>> verify_all([[1, 3, 0, 2], [0, 1, 2, 3]]).details["summary"]
        'FAILED: 2 placements checked (n=4): 1 invalid'
    """
    from cp_queens.answer import ANSWER, NEGATIVE, Answer
    from cp_queens.distinct import Seen, packed_keys
    from cp_queens.wording import counted

    checked = invalid = 0
    sizes: set[int] = set()
    seen: dict[int, Seen] = {}  # per board size, with distinct
    failures: list[dict[str, object]] = []

    def fail(index: int, n: int, reason: str) -> None:
        nonlocal invalid
        invalid += 1
        if len(failures) < LISTED_FAILURES:
            failures.append({"placement": index, "n": n, "reason": reason})
        if on_failure is not None:
            on_failure(index, n, reason)

    def judge_block(block: np.ndarray, first: int) -> None:
        """Judge a block of placements (numbered from ``first``) all at once; only the
        failures go one by one, in their order."""
        import numpy as np

        n = block.shape[1]
        ok = verify_rows(block)
        if ok is None:  # boards too large for the bit masks: each row exactly
            verdicts = [verify(cols, problem) for cols in block.tolist()]
            ok = np.array([bool(v) for v in verdicts], dtype=bool)
        else:
            # The first row also goes through the exact verifier: a cross-check of the
            # bit masks against it on every block.
            if bool(verify(block[0].tolist())) != bool(ok[0]):
                raise AssertionError(f"block check disagrees with verify() on {block[0]}")
            if problem is not None and problem.n != n:
                ok[:] = False
            elif problem is not None:  # its given queens kept, its blocked squares free
                for row, col in problem.fixed.items():
                    ok &= block[:, row] == col
                for row, col in problem.blocked:
                    ok &= block[:, row] != col
        reasons: dict[int, str] = {}
        for offset in (~ok).nonzero()[0].tolist():
            reasons[offset] = str(verify(block[offset].tolist(), problem).reason)
        if distinct:
            valid = ok.nonzero()[0]
            numbers = first + valid
            repeats = seen.setdefault(n, Seen()).add(packed_keys(block[valid]), numbers)
            again = repeats > 0
            for offset, earlier in zip(valid[again].tolist(), repeats[again].tolist(), strict=True):
                reasons[offset] = f"repeats placement {earlier}"
        for offset in sorted(reasons):
            fail(first + offset, n, reasons[offset])

    for item in items:
        if isinstance(item, list):
            checked += 1
            sizes.add(len(item))
            verdict = verify(item, problem)
            if verdict.ok and distinct:
                import numpy as np

                judge_block(np.array([item], dtype=np.int64), checked)
            elif not verdict.ok:
                fail(checked, len(item), str(verdict.reason))
            continue
        first = checked + 1
        checked += len(item)
        sizes.add(item.shape[1])
        judge_block(item, first)
    size_text = ", ".join(f"n={n}" for n in sorted(sizes)) or "no placements"
    problems = []
    if invalid:
        problems.append(f"{invalid} invalid")
    if expect is not None and checked != expect:
        problems.append(f"expected {counted(expect, 'placement')}")
    valid = not problems and checked > 0
    if problems:
        summary = (
            f"FAILED: {counted(checked, 'placement')} checked ({size_text}): {', '.join(problems)}"
        )
    elif checked == 0:
        summary = f"NOTHING TO CHECK: {source} holds no placement"
    else:
        summary = f"OK: {counted(checked, 'placement')} checked ({size_text}), all valid"
    details = {
        "source": source,
        "checked": checked,
        "invalid": invalid,
        "sizes": sorted(sizes),
        "failures": failures,
        "summary": summary,
    }
    outcome = ANSWER if valid else NEGATIVE
    return Answer("verify", problem, valid, outcome=outcome, details=details)
