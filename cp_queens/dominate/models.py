"""Queens domination as an optimisation model: CP-SAT and a MIP set cover, side by side.

One 0/1 variable per square, ``x[r][c] = 1`` when a queen stands there::

    minimise   sum x[r][c]
    subject to sum of x over the row, the column and both diagonals of (r, c) >= 1
                                                        for every square (r, c)
    independent variant: sum of x over each row, column, diagonal <= 1

The covering rows are a *set cover*: each square must be covered by one of the
sets "squares a queen here dominates". The same rows go to CP-SAT (as linear
constraints over Booleans) and to SCIP through OR-Tools' linear solver, so the
two solvers answer one model and their statistics can be compared.

Symmetry breaking (the board's 8 symmetries map a dominating set to one of the
same size, so an optimum has up to 8 images the search may visit):

* ``halves``: at least as many queens in the top half as in the bottom half, and
  in the left half as in the right. Two linear rows; every set can be turned or
  mirrored to satisfy them, so no optimum is lost.
* ``lex``: the board, read row by row as a 0/1 word, is lexicographically no
  larger than each of its 7 images. Exactly one member of an orbit satisfies all
  7 (its smallest), so the search sees one set per orbit; it costs two helper
  Booleans per square and image, all linear, so the MIP takes it too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cp_queens.errors import CpQueensError

#: The ways of breaking the board's symmetry that the models know.
SYMMETRIES = ("none", "halves", "lex")
#: The solvers: CP-SAT, and a MIP solver on the same rows.
MODELS = ("cp", "mip")

Square = tuple[int, int]


def lines(n: int) -> list[list[Square]]:
    """Every row, column and diagonal (both directions) of the board, as squares."""
    found: list[list[Square]] = []
    found.extend([(r, c) for c in range(n)] for r in range(n))
    found.extend([(r, c) for r in range(n)] for c in range(n))
    for d in range(-(n - 1), n):  # r - c = d
        found.append([(r, r - d) for r in range(n) if 0 <= r - d < n])
    for s in range(2 * n - 1):  # r + c = s
        found.append([(r, s - r) for r in range(n) if 0 <= s - r < n])
    return found


def dominators(n: int, row: int, col: int) -> list[Square]:
    """The squares from which a queen covers (row, col): its row, column and diagonals.

    Walked line by line (O(n) a square, not O(n^2)), so the n^2 covering rows of a
    100 x 100 board cost a million steps, not a hundred million.
    """
    found = [(row, c) for c in range(n)]
    found.extend((r, col) for r in range(n) if r != row)
    found.extend((r, r - row + col) for r in range(n) if r != row and 0 <= r - row + col < n)
    found.extend((r, row + col - r) for r in range(n) if r != row and 0 <= row + col - r < n)
    return found


def literals(n: int) -> int:
    """Terms in the n^2 covering rows together, the size that decides the model's memory.

    Each square's row lists its row, its column and its two diagonals, the square
    itself once: about (10/3) n^3 terms in all (3.3 million for n = 100).
    """
    # Ordered pairs of squares on one diagonal, summed over the 2n - 1 diagonals of one
    # direction (lengths 1, 2, ..., n, ..., 2, 1), in closed form: the size check runs
    # before anything else, on any N the user types (a list of 2n - 1 lengths for
    # N = 10**30 took all the memory there is).
    per_line = 2 * ((n - 2) * (n - 1) * n // 3) + n * (n - 1)
    return n * n * (2 * n - 1) + 2 * per_line


def images(n: int) -> list[Callable[[int, int], Square]]:
    """The 7 symmetries of the square other than the identity, as maps of squares."""
    m = n - 1
    return [
        lambda r, c: (c, m - r),  # quarter turn
        lambda r, c: (m - r, m - c),  # half turn
        lambda r, c: (m - c, r),  # three quarters
        lambda r, c: (r, m - c),  # mirror left-right
        lambda r, c: (m - r, c),  # mirror top-bottom
        lambda r, c: (c, r),  # main diagonal
        lambda r, c: (m - c, m - r),  # anti-diagonal
    ]


#: The model ``dominate`` picks by itself (``cp_queens.dominate.models.default_model``).
AUTO = "auto"


#: Plain domination up to this n goes to SCIP by default (``default_model``).
MIP_UP_TO = 20


def default_model(n: int, independent: bool) -> str:
    """The model that proves the optimum fastest, as measured (docs/domination.md, "Which
    model for which n"; ``benchmarks/dominate.py --per-n``): SCIP (``mip``) for plain
    domination, CP-SAT (``cp``) for the independent variant and for large boards.

    Plain domination, 45 s a board, load 19 (29 November 2026): SCIP proved n = 8, 9 and
    10 in 0.9, 1.8 and 5.3 CPU s; CP-SAT without symmetry breaking had not proved n = 8
    after 7 CPU s (9.1 CPU s for ``dominate 8`` in issue 47). The independent variant:
    CP-SAT proved n = 6 to 11 in 3.0 CPU s in all, SCIP in 11.6. Beyond n = 11 neither
    proves an optimum in minutes, and with 10 s both kept the constructed set (n = 12 to
    50); CP-SAT builds a large board's model in a tenth of SCIP's time (n = 100: 2 s,
    19 s), so SCIP stops at ``MIP_UP_TO``.

    Examples:
        >>> default_model(8, False), default_model(8, True), default_model(100, False)
        ('mip', 'cp', 'cp')
    """
    return "mip" if not independent and n <= MIP_UP_TO else "cp"


def check_options(model: str, symmetry: str) -> None:
    """One clear error for a model or symmetry the module does not know."""
    if model not in (AUTO, *MODELS):
        raise CpQueensError(f"unknown model '{model}' (choose from {', '.join((AUTO, *MODELS))})")
    if symmetry not in SYMMETRIES:
        raise CpQueensError(
            f"unknown symmetry breaking '{symmetry}' (choose from {', '.join(SYMMETRIES)})"
        )


class Rows:
    """Adds the model's linear rows to one solver; the two back ends differ only here."""

    def boolean(self, name: str) -> Any:
        raise NotImplementedError

    def at_least(self, terms: Sequence[Any], bound: int) -> None:
        raise NotImplementedError

    def at_most(self, terms: Sequence[Any], bound: int) -> None:
        raise NotImplementedError

    def not_less(self, big: Sequence[Any], small: Sequence[Any]) -> None:
        """sum(big) >= sum(small)."""
        raise NotImplementedError

    def clause(self, positive: Sequence[Any], negative: Sequence[Any]) -> None:
        """At least one of ``positive`` is 1 or one of ``negative`` is 0."""
        self.at_least([*positive, *(self.negate(v) for v in negative)], 1)

    def negate(self, var: Any) -> Any:
        raise NotImplementedError


def add_rows(
    rows: Rows,
    n: int,
    *,
    independent: bool,
    symmetry: str,
    at_least: int = 0,
    tick: Callable[[], None] | None = None,
) -> list[list[Any]]:
    """The variables and every row of the model, written once for both solvers;
    ``at_least`` is a known lower bound on the number of queens, given as one more row.

    ``tick`` is called once per board row of covering rows (and per symmetry image):
    building the model of a large board takes seconds of Python, and a time limit
    must be able to stop it there (``tick`` raises to do so).
    """
    tick = tick or (lambda: None)
    x = [[rows.boolean(f"x{r}_{c}") for c in range(n)] for r in range(n)]
    if at_least > 0:
        rows.at_least([v for line in x for v in line], at_least)
    for r in range(n):
        tick()
        for c in range(n):
            rows.at_least([x[a][b] for a, b in dominators(n, r, c)], 1)
    if independent:
        for line in lines(n):
            if len(line) > 1:
                rows.at_most([x[a][b] for a, b in line], 1)
    if symmetry == "halves":
        half = n // 2
        top = [x[r][c] for r in range(half) for c in range(n)]
        bottom = [x[r][c] for r in range(n - half, n) for c in range(n)]
        left = [x[r][c] for r in range(n) for c in range(half)]
        right = [x[r][c] for r in range(n) for c in range(n - half, n)]
        rows.not_less(top, bottom)
        rows.not_less(left, right)
    elif symmetry == "lex":
        word = [(r, c) for r in range(n) for c in range(n)]
        for k, image in enumerate(images(n)):
            tick()
            _lex_no_larger(
                rows,
                [x[r][c] for r, c in word],
                [x[a][b] for a, b in (image(r, c) for r, c in word)],
                f"s{k}",
            )
    return x


def _lex_no_larger(rows: Rows, word: list[Any], other: list[Any], name: str) -> None:
    """``word <=lex other`` for 0/1 words, with ``equal[i]`` = "the first i letters agree".

    equal[0] holds; equal[i] forces word[i] <= other[i]; equal[i + 1] is exactly
    "equal[i] and the words agree at i", so the helpers are a function of the board.
    """
    equal = rows.boolean(f"{name}_eq0")
    rows.at_least([equal], 1)
    for i, (a, b) in enumerate(zip(word, other, strict=True)):
        if a is b:  # a square the symmetry fixes: always agrees
            continue
        rows.clause([b], [equal, a])  # equal -> (a <= b)
        following = rows.boolean(f"{name}_eq{i + 1}")
        rows.clause([b, following], [equal])  # equal and a = b = 0 -> following
        rows.clause([following], [equal, a])  # equal and a = b = 1 -> following
        rows.clause([equal], [following])  # and back: following means all agreed so far,
        rows.clause([a], [following, b])  # so one board has one value of the helpers
        rows.clause([b], [following, a])  # (an enumeration then counts boards)
        equal = following


class CpRows(Rows):
    """The rows as a CP-SAT model."""

    def __init__(self) -> None:
        from ortools.sat.python import cp_model

        self.model = cp_model.CpModel()

    def boolean(self, name: str) -> Any:
        return self.model.new_bool_var(name)

    def at_least(self, terms: Sequence[Any], bound: int) -> None:
        if bound == 1:
            self.model.add_bool_or(terms)
        else:
            self.model.add(sum(terms) >= bound)

    def at_most(self, terms: Sequence[Any], bound: int) -> None:
        if bound == 1:
            self.model.add_at_most_one(terms)
        else:
            self.model.add(sum(terms) <= bound)

    def not_less(self, big: Sequence[Any], small: Sequence[Any]) -> None:
        self.model.add(sum(big) >= sum(small))

    def negate(self, var: Any) -> Any:
        return var.Not()


class MipRows(Rows):
    """The rows as a MIP for OR-Tools' linear solver (SCIP), 0/1 or relaxed to [0, 1]."""

    def __init__(self, backend: str = "SCIP", *, relaxed: bool = False) -> None:
        from ortools.linear_solver import pywraplp

        solver = pywraplp.Solver.CreateSolver("GLOP" if relaxed else backend)
        if solver is None:
            raise CpQueensError(f"dominate: solver '{backend}' is not available in this ortools")
        self.solver = solver
        self.relaxed = relaxed

    def boolean(self, name: str) -> Any:
        if self.relaxed:
            return self.solver.NumVar(0, 1, name)
        return self.solver.BoolVar(name)

    # Rows are written coefficient by coefficient: ``solver.Add(sum(terms) >= 1)`` builds
    # a Python expression first, 17 times slower (32 s against under 2 s at n = 100).

    def _row(self, low: float, high: float, terms: Sequence[Any], sign: float = 1.0) -> None:
        negated = [term for term in terms if isinstance(term, _Not)]
        row = self.solver.RowConstraint(low - sign * len(negated), high - sign * len(negated))
        for term in terms:
            if isinstance(term, _Not):  # 1 - v: the constant moved to the bounds
                row.SetCoefficient(term.var, -sign)
            else:
                row.SetCoefficient(term, sign)

    def at_least(self, terms: Sequence[Any], bound: int) -> None:
        self._row(bound, self.solver.infinity(), terms)

    def at_most(self, terms: Sequence[Any], bound: int) -> None:
        self._row(-self.solver.infinity(), bound, terms)

    def not_less(self, big: Sequence[Any], small: Sequence[Any]) -> None:
        row = self.solver.RowConstraint(0, self.solver.infinity())
        for var in big:  # a square in both halves (the middle line) cancels out
            row.SetCoefficient(var, row.GetCoefficient(var) + 1)
        for var in small:
            row.SetCoefficient(var, row.GetCoefficient(var) - 1)

    def negate(self, var: Any) -> Any:
        return _Not(var)


class _Not:
    """``1 - var`` in a MIP row, kept apart so that the row is written coefficient-wise."""

    __slots__ = ("var",)

    def __init__(self, var: Any) -> None:
        self.var = var


def build_cp(
    n: int,
    *,
    independent: bool = False,
    symmetry: str = "none",
    at_least: int = 0,
    tick: Callable[[], None] | None = None,
) -> tuple[Any, Any]:
    """The CP-SAT model and its ``x[r][c]``, with the objective ``minimise sum x``."""
    check_options("cp", symmetry)
    rows = CpRows()
    x = add_rows(rows, n, independent=independent, symmetry=symmetry, at_least=at_least, tick=tick)
    rows.model.minimize(sum(v for line in x for v in line))
    return rows.model, x


def build_mip(
    n: int,
    *,
    independent: bool = False,
    symmetry: str = "none",
    relaxed: bool = False,
    at_least: int = 0,
    tick: Callable[[], None] | None = None,
) -> tuple[Any, Any]:
    """The MIP (SCIP, or with ``relaxed`` its LP relaxation on GLOP) and its ``x[r][c]``."""
    check_options("mip", symmetry)
    rows = MipRows(relaxed=relaxed)
    x = add_rows(rows, n, independent=independent, symmetry=symmetry, at_least=at_least, tick=tick)
    objective = rows.solver.Objective()
    for line in x:
        for var in line:
            objective.SetCoefficient(var, 1)
    objective.SetMinimization()
    return rows.solver, x
