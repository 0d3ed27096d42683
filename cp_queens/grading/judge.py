"""Is a student's model right? Compare everything it finds with the reference engine.

``cp_queens.verify.verify`` judges one placement. A model can pass that
test on every placement it returns and still be wrong: it may miss
solutions (a constraint too many), return the same one twice (a search that
revisits), or return attacking boards (a constraint missing). So
``check_model`` asks the student's function for *all* solutions of every
board up to ``n_max`` and compares the set with the reference backtracker's,
then says exactly what differs: counts per ``n``, the first missing solution
drawn as a board, the first invalid one with its attacking pair, the first
duplicate.

The student's function may return a list or yield solutions one at a time; a
solution may be a list or tuple of columns (``q[r]`` = column of row ``r``),
a ``Placement``, a NumPy vector of columns, a
``{row: column}`` dict (python-constraint's solutions), or the
0/1 board (an ``n x n`` nested list or array with one 1 per row), so models
written with CP-SAT, python-constraint, a MIP or plain Python can all be
checked without conversion.

Examples:
    >>> from itertools import permutations
    >>> def rooks(n):  # columns all different, diagonals forgotten
    ...     return list(permutations(range(n)))
    >>> report = check_model(rooks, n_max=4)
    >>> report.ok
    False
    >>> print(report.first_invalid)
    n=2, placement 1 [0, 1]: rows 0 and 1 share a diagonal (a2 and b1)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from dataclasses import dataclass, field
from html import escape
from typing import Any

import numpy as np

from cp_queens.errors import CpQueensError
from cp_queens.grading.answers import (
    UnusableOutput,
    as_columns,
    describe,
    is_int,
    shown,
    solutions_in,
)
from cp_queens.grading.hints import Tally, explain, unique_hints
from cp_queens.problem import Problem
from cp_queens.render import text
from cp_queens.verify import verify, verify_rows

#: The engine whose solutions are the truth. It is the readable backtracker, the oracle
#: every other engine is tested against.
REFERENCE_ENGINE = "reference"

#: A *generator* that yields more than this is stopped, so an endless one cannot hang a
#: notebook. Returned lists are read whole: a model missing a constraint may well return
#: every permutation (9! = 362,880 for n = 9).
READ_AT_MOST = 2_000_000


@dataclass(frozen=True, slots=True)
class Finding:
    """One concrete difference: where it is (``n``, position in the student's output) and why."""

    n: int
    index: int | None  # 1-based position in what fn(n) returned; None for a missing solution
    cols: tuple[Any, ...] | None
    reason: str
    board: str | None = None  # the placement drawn, when it can be drawn

    def __str__(self) -> str:
        where = f"n={self.n}" if self.index is None else f"n={self.n}, placement {self.index}"
        shown = "" if self.cols is None else f" {list(self.cols)}"
        return f"{where}{shown}: {self.reason}"

    def describe(self) -> str:
        """The one-line finding followed by the board, if there is one."""
        if self.board is None:
            return str(self)
        return f"{self}\n{_indent(self.board)}"


@dataclass(slots=True)
class CheckRow:
    """What ``fn(n)`` returned for one board size, against the reference."""

    n: int
    expected: int  # how many solutions exist (reference)
    returned: int = 0  # how many items fn(n) gave
    correct: int = 0  # distinct valid solutions among them
    invalid: int = 0  # not solutions: attacking queens, wrong shape, junk
    duplicates: int = 0  # repeats of a solution already returned
    missing: int = 0  # true solutions never returned
    seconds: float = 0.0
    error: str | None = None  # fn(n) raised or returned something unusable
    came_back: str = ""  # what fn(n) returned, shown, when it was not solutions at all
    first_missing: Finding | None = None
    first_invalid: Finding | None = None
    first_duplicate: Finding | None = None
    hints: list[str] = field(default_factory=list)  # the pattern behind the mistakes, if any

    @property
    def ok(self) -> bool:
        return (
            self.error is None
            and self.missing == 0
            and self.invalid == 0
            and self.duplicates == 0
            and self.correct == self.expected
        )

    def verdict(self) -> str:
        """A few words on this row: ``ok``, or what is wrong in counts."""
        if self.error is not None:
            return "error"
        if self.ok:
            return "ok"
        parts = []
        for count, word in (
            (self.missing, "missing"),
            (self.invalid, "invalid"),
            (self.duplicates, "duplicate" if self.duplicates == 1 else "duplicates"),
        ):
            if count:
                parts.append(f"{count} {word}")
        return ", ".join(parts)


@dataclass(slots=True)
class CheckReport:
    """The answer of ``check_model``: truthy when every board size is complete and exact.

    ``print(report)`` gives a table of counts per ``n`` and, for each kind of
    mistake, its first occurrence; in Jupyter the report draws itself
    (``_repr_html_``), in a Rich console too (``__rich__``).
    """

    name: str
    rows: list[CheckRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # about the run as a whole (graded runs)
    marks: str = ""  # "13 of 13 points": the grader's mark, when it ran as graded

    @property
    def ok(self) -> bool:
        return all(row.ok for row in self.rows)

    def __bool__(self) -> bool:
        return self.ok

    def _first(self, attribute: str) -> Finding | None:
        return next((getattr(row, attribute) for row in self.rows if getattr(row, attribute)), None)

    @property
    def first_missing(self) -> Finding | None:
        """The first true solution the model did not return (smallest n, lexicographic)."""
        return self._first("first_missing")

    @property
    def first_invalid(self) -> Finding | None:
        """The first returned placement that is not a solution, with the reason."""
        return self._first("first_invalid")

    @property
    def first_duplicate(self) -> Finding | None:
        """The first placement returned a second time."""
        return self._first("first_duplicate")

    @property
    def errors(self) -> list[str]:
        return [row.error for row in self.rows if row.error is not None]

    def summary(self) -> str:
        """One line: OK, or how many board sizes are wrong."""
        sizes = f"n={self.rows[0].n}..{self.rows[-1].n}" if self.rows else "no board sizes"
        if self.ok:
            total = sum(row.expected for row in self.rows)
            ok = f"OK: {self.name} finds every solution exactly once ({sizes}, {total} in all)"
            return ok + (f"; {self.marks}" if self.marks else "")
        wrong = [str(row.n) for row in self.rows if not row.ok]
        why = f"differs from the reference for n = {', '.join(wrong)}" if wrong else "not run"
        return f"WRONG: {self.name} {why}" + (f"; {self.marks}" if self.marks else "")

    def details(self) -> list[str]:
        """Each kind of mistake once, at its first occurrence, boards drawn."""
        lines = [f"note: {note}" for note in self.notes]
        errors = self.errors
        if errors:
            more = len(errors) - 1
            also = f" (and {more} more board size{'s' if more > 1 else ''} failed)" if more else ""
            lines.append(f"error: {errors[0]}{also}")
        lines.extend(unique_hints((row.n, row.hints) for row in self.rows))
        for label, finding in (
            ("first missing solution", self.first_missing),
            ("first invalid solution", self.first_invalid),
            ("first duplicate", self.first_duplicate),
        ):
            if finding is not None:
                lines.append(f"{label}: {finding.describe()}")
        return lines

    def table(self) -> list[list[str]]:
        header = ["n", "expected", "returned", "correct", "verdict"]
        body = [
            [str(row.n), str(row.expected), str(row.returned), str(row.correct), row.verdict()]
            for row in self.rows
        ]
        return [header, *body]

    def __str__(self) -> str:
        rows = self.table()
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = [self.summary(), ""]
        for row in rows:
            cells = [cell.rjust(width) for cell, width in zip(row[:-1], widths, strict=False)]
            lines.append("  ".join([*cells, row[-1]]).rstrip())
        details = self.details()
        if details:
            lines.append("")
            lines.extend(details)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<CheckReport {self.summary()}>"

    def __rich__(self) -> Any:
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        table = Table(title=self.summary(), title_justify="left")
        header, *body = self.table()
        for name in header:
            table.add_column(name, justify="left" if name == "verdict" else "right")
        for row, cells in zip(self.rows, body, strict=True):
            table.add_row(*cells, style=None if row.ok else "red")
        return Group(table, *(Text(line) for line in self.details()))

    def _repr_html_(self) -> str:
        """A table, then each first mistake in words and as a board (attacking pair in red)."""
        from cp_queens.render import svg

        header, *body = self.table()
        colour = "#2e7d32" if self.ok else "#c62828"
        cell = "padding:2px 10px;text-align:right"
        parts = [f'<p style="color:{colour};font-weight:bold">{escape(self.summary())}</p>']
        parts.append(
            "<table><tr>"
            + "".join(f'<th style="{cell}">{escape(h)}</th>' for h in header)
            + "</tr>"
        )
        for row, cells in zip(self.rows, body, strict=True):
            style = "" if row.ok else f' style="color:{colour}"'
            parts.append(
                f"<tr{style}>" + "".join(f'<td style="{cell}">{escape(c)}</td>' for c in cells)
            )
        parts.append("</table>")
        for message in self.errors[:1]:
            parts.append(f"<p><b>error:</b> {escape(message)}</p>")
        for hint in unique_hints((row.n, row.hints) for row in self.rows):
            parts.append(f"<p>{escape(hint)}</p>")
        for label, finding in (
            ("first missing solution", self.first_missing),
            ("first invalid solution", self.first_invalid),
            ("first duplicate", self.first_duplicate),
        ):
            if finding is None:
                continue
            parts.append(f"<p><b>{label}:</b> {escape(str(finding))}</p>")
            if finding.board is not None and finding.cols is not None:
                marked = {
                    r: finding.cols[r]
                    for r, line in enumerate(finding.board.splitlines())
                    if "X" in line
                }
                parts.append(svg(finding.cols, given=marked, size=min(40 * finding.n, 200)))
        return "".join(parts)


def check_model(
    fn: Callable[[int], Iterable[Any]],
    n_max: int = 9,
    *,
    n_min: int = 1,
    name: str | None = None,
) -> CheckReport:
    """Run ``fn(n)`` for ``n = n_min..n_max`` and compare its solutions with the reference.

    ``fn`` returns or yields every solution of the ``n``-queens problem, each
    as columns (list, tuple, Placement, NumPy vector) or as a 0/1 board. A
    call that raises, or returns something that is not a collection of
    solutions, becomes an error row with the reason; the other sizes are
    still checked, so one report shows every mistake.

    Args:
        fn: the student's model, ``fn(n) -> iterable of solutions``.
        n_max: largest board checked (the reference enumerates it; n = 12 takes about a
            second, 14 half a minute).
        n_min: smallest board checked.
        name: how the report names the model (default: the function's name).
    """
    if isinstance(n_min, bool) or not isinstance(n_min, int) or n_min < 1:
        raise CpQueensError(f"check_model: n_min must be a whole number >= 1, got {n_min!r}")
    if isinstance(n_max, bool) or not isinstance(n_max, int) or n_max < n_min:
        raise CpQueensError(f"check_model: n_max must be a whole number >= {n_min}, got {n_max!r}")
    if not callable(fn):
        raise CpQueensError(
            f"check_model: expected a function n -> solutions, got {type(fn).__name__}"
        )
    label = name or getattr(fn, "__name__", None) or repr(fn)
    report = CheckReport(label)
    for n in range(n_min, n_max + 1):
        expected = reference_solutions(n)
        started = time.perf_counter()
        try:
            produced = fn(n)
        except Exception as error:  # the student's code: any exception is a finding
            row = CheckRow(n, len(expected), error=f"{label}({n}) raised {describe(error)}")
        else:
            row = judge(n, produced, expected, label)
        row.seconds = time.perf_counter() - started
        report.rows.append(row)
    return report


def judge(n: int, produced: Any, expected: Sequence[tuple[int, ...]], label: str) -> CheckRow:
    """What ``label(n)`` returned, judged: ``compare_solutions``, or an error row when it
    is not a collection of solutions at all (``None``, one placement, a dict), or when
    reading it failed (a generator that raised, an object no check can take): never an
    exception, whatever came back."""
    try:
        return compare_solutions(n, solutions_in(produced, n, label), expected)
    except UnusableOutput as error:
        return CheckRow(n, len(expected), error=str(error), came_back=shown(produced, 24))
    except Exception as error:  # raised by the student's generator, or by an odd object
        return CheckRow(
            n,
            len(expected),
            error=f"{label}({n}) returned {shown(produced)}, which could not be read as "
            f"solutions: {describe(error)}",
            came_back=shown(produced, 24),
        )


def reference_solutions(n: int) -> list[tuple[int, ...]]:
    """Every solution of the empty ``n x n`` board, in lexicographic order, from the oracle."""
    import cp_queens

    return [tuple(p) for p in cp_queens.solutions(n, engine=REFERENCE_ENGINE)]


def compare_solutions(
    n: int, produced: Iterable[Any], expected: Sequence[tuple[int, ...]] | None = None
) -> CheckRow:
    """Compare solutions of the ``n``-board (any accepted shape) with the true ones.

    The core of ``check_model`` and of ``cp-queens check``. ``expected``
    defaults to the reference engine's solutions.
    """
    if expected is None:
        expected = reference_solutions(n)
    truth = set(expected)
    row = CheckRow(n, len(expected))
    seen: dict[tuple[int, ...], int] = {}
    problem = Problem(n)
    limit = None if isinstance(produced, Sized) else READ_AT_MOST
    tally = Tally()
    for index, item in enumerate(produced, start=1):
        if limit is not None and index > limit:
            row.error = (
                f"stopped reading after {limit:,} solutions for n={n} (there are only "
                f"{len(expected)}): does the generator loop endlessly?"
            )
            break
        row.returned += 1
        cols, problem_text = as_columns(item, n)
        tally.note(index, cols)
        if problem_text is None:
            verdict = verify(cols, problem)
            problem_text = None if verdict.ok else verdict.reason
        if problem_text is None and cols not in truth:  # valid by verify, unknown to the oracle
            problem_text = "not a solution according to the reference engine"
        if problem_text is not None:
            row.invalid += 1
            tally.note_invalid(item, cols, n, truth)
            if row.first_invalid is None:
                shown = cols if isinstance(cols, tuple) else (cols,)
                row.first_invalid = Finding(
                    n, index, shown, problem_text, _draw(cols, n, problem_text)
                )
            continue
        tally.hits[cols] += 1
        if cols in seen:
            row.duplicates += 1
            if row.first_duplicate is None:
                row.first_duplicate = Finding(
                    n, index, cols, f"repeats solution {seen[cols]}", text(cols)
                )
            continue
        seen[cols] = index
        row.correct += 1
    row.missing = len(expected) - row.correct
    row.hints = explain(n, row.returned, row.invalid, row.duplicates, tally, expected)
    if row.missing and row.error is None:
        missing = next(cols for cols in expected if cols not in seen)
        row.first_missing = Finding(
            n, None, missing, f"missing ({row.missing} of {len(expected)} not found)", text(missing)
        )
    return row


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
    row = CheckRow(n, 0)
    all_keys, all_places = _valid_keys(row, n, items)
    unique, hits = _duplicates(row, all_keys, all_places)
    found = np.zeros(len(unique), dtype=bool)
    for solutions in reference_blocks(n):
        truth = _keys(solutions)
        at = np.minimum(np.searchsorted(unique, truth), max(len(unique) - 1, 0))
        present = unique[at] == truth if len(unique) else np.zeros(len(truth), dtype=bool)
        found[at[present]] = True
        if row.first_missing is None and not present.all():
            missing = tuple(solutions[int(np.flatnonzero(~present)[0])].tolist())
            row.first_missing = Finding(n, None, missing, "missing", text(missing))
        row.expected += len(truth)
    if not found.all():  # valid by verify(), unknown to the engine: a bug in one of them
        stray = np.isin(all_keys, unique[~found])
        position = int(all_places[stray].min())
        row.invalid += int(stray.sum())
        row.duplicates -= int((hits[~found] - 1).sum())
        if row.first_invalid is None or position < (row.first_invalid.index or 0):
            cols = _columns(int(all_keys[stray][np.argmin(all_places[stray])]), n)
            reason = "not a solution according to the reference engine"
            row.first_invalid = Finding(n, position, cols, reason, text(cols))
    row.correct = int(found.sum())
    row.missing = row.expected - row.correct
    if row.first_missing is not None:
        missing_cols = row.first_missing.cols
        row.first_missing = Finding(
            n,
            None,
            missing_cols,
            f"missing ({row.missing} of {row.expected} not found)",
            row.first_missing.board,
        )
    return row


def _valid_keys(row: CheckRow, n: int, items: Iterable[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Judge every placement read: the invalid ones go into ``row`` (the first with its
    attacking pair), the valid ones come back as one 64-bit key each, with their 1-based
    positions in the file."""
    problem = Problem(n)
    keys: list[np.ndarray] = []  # of the valid placements, in the file's order
    places: list[np.ndarray] = []  # their 1-based positions in the file

    def invalid(first: int, count: int, cols: Any) -> None:
        row.invalid += count
        if row.first_invalid is None:
            reason = verify(cols, problem).reason or "not a solution"
            shown = tuple(cols) if isinstance(cols, list | tuple) else (cols,)
            row.first_invalid = Finding(n, first, shown, reason, _draw(shown, n, reason))

    for item in items:
        first = row.returned + 1
        if isinstance(item, np.ndarray) and item.ndim == 2:
            block = item
        else:
            one_row = _one_row(item, n)
            if one_row is None:
                row.returned += 1
                invalid(first, 1, item)
                continue
            block = one_row
        row.returned += len(block)
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


def _duplicates(row: CheckRow, keys: np.ndarray, places: np.ndarray) -> tuple[Any, Any]:
    """Count repeated placements, note the first repeat; the sorted distinct keys and
    how often each occurs."""
    unique, first, hits = np.unique(keys, return_index=True, return_counts=True)
    row.duplicates = len(keys) - len(unique)
    if row.duplicates:
        repeat = np.ones(len(keys), dtype=bool)
        repeat[first] = False  # np.unique's index is each key's first occurrence
        which = int(np.argmin(np.where(repeat, places, np.iinfo(np.int64).max)))
        original = int(places[first[np.searchsorted(unique, keys[which])]])
        cols = _columns(int(keys[which]), row.n)
        row.first_duplicate = Finding(
            row.n, int(places[which]), cols, f"repeats solution {original}", text(cols)
        )
    return unique, hits


def _draw(cols: Any, n: int, reason: str) -> str | None:
    """The placement as a board, the attacking pair marked ``X``; None when it cannot be drawn."""
    if not isinstance(cols, tuple) or len(cols) != n:
        return None
    if not all(is_int(c) and 0 <= c < n for c in cols):
        return None
    pair: set[int] = set()
    if reason.startswith("rows "):
        words = reason.split()
        try:
            pair = {int(words[1]), int(words[3])}
        except (IndexError, ValueError):
            pair = set()
    lines = []
    for r, col in enumerate(cols):
        mark = "X" if r in pair else "Q"
        lines.append(" ".join(mark if c == col else "." for c in range(n)))
    return "\n".join(lines)


def _indent(board: str) -> str:
    return "\n".join("    " + line for line in board.splitlines())
