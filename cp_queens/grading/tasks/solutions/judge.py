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

import time
from collections.abc import Callable, Iterable, Sequence, Sized
from dataclasses import dataclass, replace
from html import escape
from typing import Any

from cp_queens.errors import CpQueensError
from cp_queens.grading.tasks.came_back import UnusableOutput, describe, is_int, shown
from cp_queens.grading.tasks.solutions.answers import as_columns, solutions_in
from cp_queens.grading.tasks.solutions.hints import Tally, explain, unique_hints
from cp_queens.problem import Problem
from cp_queens.render import text
from cp_queens.verify import verify

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


@dataclass(frozen=True, slots=True)
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
    hints: tuple[str, ...] = ()  # the pattern behind the mistakes, if any

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


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The answer of ``check_model``: truthy when every board size is complete and exact.

    ``print(report)`` gives a table of counts per ``n`` and, for each kind of
    mistake, its first occurrence; in Jupyter the report draws itself
    (``_repr_html_``), in a Rich console too (``__rich__``).
    """

    name: str
    rows: tuple[CheckRow, ...] = ()
    notes: tuple[str, ...] = ()  # about the run as a whole (graded runs)
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
    rows = []
    for n in range(n_min, n_max + 1):
        expected = reference_solutions(n)
        started = time.perf_counter()
        try:
            produced = fn(n)
        except Exception as error:  # the student's code: any exception is a finding
            row = CheckRow(n, len(expected), error=f"{label}({n}) raised {describe(error)}")
        else:
            row = judge(n, produced, expected, label)
        row = replace(row, seconds=time.perf_counter() - started)
        if not row.ok and row.error is None and row.seconds < AGAIN_UNDER:
            row = _again(fn, n, row, expected, label)
        rows.append(row)
    return CheckReport(label, tuple(rows))


#: A wrong size that took less than this (seconds) is run a second time: an answer that
#: changes between runs is a cause of its own (CP-SAT enumerating on several workers).
AGAIN_UNDER = 2.0


def _again(
    fn: Callable[[int], Iterable[Any]], n: int, row: CheckRow, expected: Any, label: str
) -> CheckRow:
    """Run ``fn(n)`` again; when the second answer differs from the first, the row says
    so first: no pattern in one answer explains an answer that is luck."""
    try:
        second = judge(n, fn(n), expected, label)
    except Exception:  # raised the second time only: the first answer stands
        return row
    counts = (row.returned, row.correct, row.duplicates, row.invalid)
    again = (second.returned, second.correct, second.duplicates, second.invalid)
    if second.error is None and again == counts:
        return row
    luck = (
        f"{label}({n}) answered differently when run again ({row.returned} boards, "
        f"{row.correct} distinct solutions the first time; {second.returned} and "
        f"{second.correct} the second): an answer that changes from run to run is luck - "
        "CP-SAT enumerating all solutions on several workers does this (OR-Tools does not "
        "support it, google/or-tools#1186, #1591): set solver.parameters.num_workers = 1"
    )
    kept = (h for h in row.hints if "symmetry" not in h and "mirror" not in h)
    return replace(row, hints=(luck, *kept))


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
    seen: dict[tuple[int, ...], int] = {}
    # One student's board (--variant) carries its Problem: given queens, blocked squares.
    problem = getattr(expected, "problem", None) or Problem(n)
    limit = None if isinstance(produced, Sized) else READ_AT_MOST
    tally = Tally()
    error: str | None = None
    returned = invalid = duplicates = correct = 0
    first_invalid: Finding | None = None
    first_duplicate: Finding | None = None
    for index, item in enumerate(produced, start=1):
        if limit is not None and index > limit:
            error = (
                f"stopped reading after {limit:,} solutions for n={n} (there are only "
                f"{len(expected)}): does the generator loop endlessly?"
            )
            break
        returned += 1
        cols, problem_text = as_columns(item, n)
        tally.note(index, cols)
        if problem_text is None:
            verdict = verify(cols, problem)
            problem_text = None if verdict.ok else verdict.reason
        if problem_text is None and cols not in truth:  # valid by verify, unknown to the oracle
            problem_text = "not a solution according to the reference engine"
        if problem_text is not None:
            invalid += 1
            tally.note_invalid(item, cols, n, truth)
            if first_invalid is None:
                shown = cols if isinstance(cols, tuple) else (cols,)
                first_invalid = Finding(
                    n, index, shown, problem_text, draw_attack(cols, n, problem_text)
                )
            continue
        tally.hits[cols] += 1
        if cols in seen:
            duplicates += 1
            if first_duplicate is None:
                first_duplicate = Finding(
                    n, index, cols, f"repeats solution {seen[cols]}", text(cols)
                )
            continue
        seen[cols] = index
        correct += 1
    missing = len(expected) - correct
    first_missing = None
    if missing and error is None:
        lost = next(cols for cols in expected if cols not in seen)
        first_missing = Finding(
            n, None, lost, f"missing ({missing} of {len(expected)} not found)", text(lost)
        )
    return CheckRow(
        n,
        len(expected),
        returned=returned,
        correct=correct,
        invalid=invalid,
        duplicates=duplicates,
        missing=missing,
        error=error,
        first_missing=first_missing,
        first_invalid=first_invalid,
        first_duplicate=first_duplicate,
        hints=tuple(explain(n, returned, invalid, duplicates, tally, expected)),
    )


def draw_attack(cols: Any, n: int, reason: str) -> str | None:
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
