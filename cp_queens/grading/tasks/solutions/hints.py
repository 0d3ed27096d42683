"""Why a model is wrong: the pattern behind its mistakes, in words a student can act on.

Counts say *that* a model is wrong ("92 missing, 92 invalid"); the first
missing or invalid board shows *one* mistake. Many wrong models make one
mistake over and over, and the pattern is what tells the student where to
look: every board returned is the same one (a list reused, a dict's keys
taken for its values), every missing solution is the mirror of one returned
(a symmetry-breaking constraint such as ``q[0] < n/2`` used while listing
*all* solutions), every invalid board becomes a solution with 1 subtracted
from each column (columns counted from 1), each queen given as a
``(row, column)`` pair, or with rows and columns swapped, every permutation
of the columns returned (no diagonal checked), or every invalid board
attacking along one kind of diagonal only (one diagonal constraint forgotten), one
board for every size (a ``return`` inside the loop, or a solver that finds one
solution), boards drawn as text (``["..Q.", ...]``), boards one row short (a loop
that stops at ``n - 1``), or the boards of earlier calls coming back (a list kept
between calls: a mutable default argument).

``Tally`` is filled while ``cp_queens.grading.tasks.solutions.judge.compare_solutions``
reads the model's output (in constant memory beyond the solutions found);
``explain`` turns it into sentences.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cp_queens.symmetry import orbit_columns


@dataclass(slots=True)
class Tally:
    """What the checker notes, item by item, for ``explain``."""

    first_board: Any = None  # the first item returned, as read
    all_same: bool = True  # every item so far equals the first
    shifted: int = 0  # invalid boards that are solutions once each column is lowered by 1
    pairs: int = 0  # items that are n (row, column) pairs
    pairs_swapped: int = 0  # ... whose *second* entries run 0..n-1: (column, row)
    hits: Counter[tuple[int, ...]] = field(default_factory=Counter)  # valid boards, how often
    permutations: int = 0  # invalid boards whose columns are all different (0..n-1)
    only_down: int = 0  # ... attacking along a diagonal q[r] - r only (going down-right)
    only_up: int = 0  # ... along a diagonal q[r] + r only (going down-left)
    text_boards: int = 0  # invalid items that are rows of text ("..Q.")
    short: int = 0  # invalid boards of n - 1 whole numbers (n = 1: the empty placement)
    smaller: int = 0  # invalid boards that are solutions of a smaller board (k >= 1)
    lengths: Counter[int] = field(default_factory=Counter)  # invalid boards' lengths

    def note(self, index: int, cols: Any) -> None:
        """Any returned item (``index`` counts from 1), valid or not."""
        key = _hashable(cols)
        if index == 1:
            self.first_board = key
        elif self.all_same and key != self.first_board:
            self.all_same = False

    def note_invalid(self, raw: Any, cols: Any, n: int, truth: set[tuple[int, ...]]) -> None:
        """An item that is not a solution: is it one in disguise?"""
        integers = isinstance(cols, tuple) and all(type(c) is int for c in cols)
        if integers and len(cols) == n and tuple(c - 1 for c in cols) in truth:
            self.shifted += 1
        if integers and sorted(cols) == list(range(n)):
            self.permutations += 1
            down = len({c - r for r, c in enumerate(cols)}) < n
            up = len({c + r for r, c in enumerate(cols)}) < n
            self.only_down += down and not up
            self.only_up += up and not down
        if _text_rows(raw):
            self.text_boards += 1
        if integers:
            self.lengths[len(cols)] += 1
            self.short += len(cols) == n - 1
            self.smaller += 0 < len(cols) < n and _solves(cols)
        pairs = _as_pairs(raw, n)
        if pairs is not None:
            self.pairs += 1
            if [b for _, b in pairs] == list(range(n)) and [a for a, _ in pairs] != list(range(n)):
                self.pairs_swapped += 1


def explain(
    n: int,
    returned: int,
    invalid: int,
    duplicates: int,
    tally: Tally,
    expected: Sequence[tuple[int, ...]],
) -> list[str]:
    """The patterns found in one board size's output, each as one sentence."""
    hints: list[str] = []
    board = tally.first_board
    hints += _shape_hints(n, returned, invalid, tally, expected)
    # One board many times is a pattern only where more than one board was expected.
    if returned >= 2 and tally.all_same and (len(expected) > 1 or board not in expected):
        shown = list(board) if isinstance(board, tuple) else board
        hint = f"all {returned} returned boards are the same board {_short(shown)}"
        if board == tuple(range(n)):
            hint += (
                f": 0..{n - 1} are the row numbers - iterating a dict {{row: column}} gives "
                "its keys; take its values (q[r] for r in range(n))"
            )
        else:
            hint += (
                ": is one list appended again and again (append a copy, list(q)) "
                "instead of the current columns?"
            )
        hints.append(hint)
    # Not at n = 1: one board says little, and "they run 0..0" says less.
    if invalid and tally.shifted == invalid and n > 1:
        hints.append(
            f"every invalid board becomes a solution when 1 is subtracted from each column: "
            f"columns seem to count from 1 (they run 0..{n - 1})"
        )
    # (Not when one board is returned again and again: that pattern is told above.)
    if invalid and tally.permutations == invalid and n >= 3 and not tally.all_same:
        if returned == math.factorial(n) and not duplicates:
            hints.append(
                f"you returned all {returned} permutations of the columns: no diagonal is "
                "checked (queens in rows i and j share a diagonal when "
                "|q[i] - q[j]| == |i - j|)"
            )
        elif tally.only_down == invalid:
            hints.append(
                "every invalid board has two queens on one diagonal going down to the right "
                "(q[i] - i == q[j] - j), never on the other kind: that constraint seems missing"
            )
        elif tally.only_up == invalid:
            hints.append(
                "every invalid board has two queens on one diagonal going down to the left "
                "(q[i] + i == q[j] + j), never on the other kind: that constraint seems missing"
            )
    if invalid and tally.pairs == invalid:
        if tally.pairs_swapped == tally.pairs:
            hints.append(
                "each board is a list of (column, row) pairs: rows and columns are swapped, "
                "and a board is the list of columns, q[r] = column of the queen in row r"
            )
        else:
            hints.append(
                "each board is a list of (row, column) pairs: return the columns only, "
                "q[r] = column of the queen in row r"
            )
    if duplicates and tally.hits:
        times = set(tally.hits.values())
        if len(times) == 1 and (k := times.pop()) > 1:
            hints.append(f"every solution you found is returned {k} times")
    found = set(tally.hits)
    missing = [cols for cols in expected if cols not in found]
    # Symmetry breaking removes solutions and repeats none: with repeats, the evidence is
    # something else (CP-SAT on several workers: cp_queens.grading.tasks.solutions.causes).
    if missing and found and not duplicates and returned > 1:
        mirror = [tuple(n - 1 - c for c in cols) for cols in missing]
        # The signature of symmetry breaking: one board of each pair (or orbit) returned,
        # never two; a model that merely misses a few keeps both boards of other pairs.
        # (No solution of n > 1 is its own left-right mirror: its queens would share a column.)
        one_of_each_pair = all(tuple(n - 1 - c for c in cols) not in found for cols in found)
        one_of_each_orbit = all(len(orbit_columns(cols) & found) == 1 for cols in found)
        if one_of_each_pair and all(image in found for image in mirror):
            hints.append(
                f"every missing solution ({len(missing)}) is the mirror image (left-right) of "
                "one you returned: a symmetry-breaking constraint such as q[0] < n/2 keeps "
                "one board of each mirror pair - add the mirror images, or drop it, "
                "to list all solutions"
            )
        elif one_of_each_orbit and all(orbit_columns(cols) & found for cols in missing):
            hints.append(
                f"every missing solution ({len(missing)}) is a rotation or reflection of one "
                "you returned: symmetry breaking removed solutions - expand each board "
                "with its 8 symmetries (cp_queens.symmetry) to list all solutions"
            )
    return hints


def _shape_hints(
    n: int, returned: int, invalid: int, tally: Tally, expected: Sequence[tuple[int, ...]]
) -> list[str]:
    """Mistakes in what a size returned as a whole: one board where there are more, boards
    drawn as text, boards a row short, the boards of earlier calls."""
    hints = []
    if returned == 1 and len(tally.hits) == 1 and len(expected) > 1:
        hints.append(
            f"model({n}) returned one board; the {n}-board has {len(expected)} solutions: "
            "a return inside the loop ends model(n) at its first solution (collect every "
            "board, return after the loop), or the solver finds one solution only "
            "(MinConflictsSolver, a CP-SAT solve without enumerate_all_solutions)"
        )
    if invalid and tally.text_boards == invalid:
        hints.append(
            'each board is drawn as text (["..Q.", ...]): a board is its columns, q[r] = '
            "the column of the queen in row r; return [row.index('Q') for row in board]"
        )
    if not invalid:
        return hints
    if tally.smaller == invalid and (tally.hits or len(tally.lengths) > 1):
        hints.append(
            f"boards of smaller sizes came back with model({n})'s own ({invalid} of them): "
            "model keeps boards between calls - a mutable default "
            "argument (def model(n, found=[])) or a list outside the function is the same "
            "list at every call; make a new list inside model"
        )
    elif tally.short == invalid and (tally.smaller < invalid or n == 1):
        hints.append(
            f"every board is one row short ({n - 1} columns for the {n}-board): does the "
            "search stop at row n - 1 (range(n - 1), row == n - 1) instead of n?"
        )
    return hints


def _text_rows(item: Any) -> bool:
    """A board drawn as text: a list of strings (``["..Q.", ".Q.."]``)."""
    if isinstance(item, str | bytes) or not isinstance(item, Sequence) or not item:
        return False
    return all(isinstance(row, str) for row in item)


def _solves(cols: tuple[int, ...]) -> bool:
    """Is ``cols`` a solution of its own (smaller) board?"""
    k = len(cols)
    if sorted(cols) != list(range(k)):
        return False
    return len({c - r for r, c in enumerate(cols)}) == k == len({c + r for r, c in enumerate(cols)})


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _as_pairs(item: Any, n: int) -> list[tuple[int, int]] | None:
    """``item`` as n pairs of whole numbers in 0..n-1 sorted by their first entry, or None."""
    if not isinstance(item, Sequence) or isinstance(item, str | bytes) or len(item) != n:
        return None
    pairs = []
    for pair in item:
        if not isinstance(pair, Sequence) or len(pair) != 2:
            return None
        a, b = pair
        if not (_small_int(a, n) and _small_int(b, n)):
            return None
        pairs.append((int(a), int(b)))
    return pairs if n > 1 else None  # one pair of n = 1 is [(0, 0)]: nothing to tell


def _small_int(value: Any, n: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n


def _short(value: Any, width: int = 40) -> str:
    shown = repr(value)
    return shown if len(shown) <= width else shown[: width - 3] + "..."


def unique_hints(per_size: Iterable[tuple[int, Sequence[str]]]) -> list[str]:
    """Each hint once, at the first board size it appeared, prefixed with ``n=``."""
    shown: set[str] = set()
    lines = []
    for n, hints in per_size:
        for hint in hints:
            # The same pattern at another size differs only in its numbers and boards.
            key = "".join(ch for ch in hint if ch.isalpha())
            if key not in shown:
                shown.add(key)
                lines.append(f"hint (n={n}): {hint}")
    return lines
