"""The ``greedy`` search of the ``cpsat`` engine: one solution of a large board, fast.

The model is the same set of constraints as ``cp_queens.engines.cpsat``,
seen through its 0/1 channel ``x[r][c] <=> (q[r] == c)``:

    q[r] takes exactly one value       exactly one x per row
    AllDifferent(q)                    exactly one x per column
    AllDifferent(q[r] + r), (q[r] - r) at most one x per diagonal

and ``q[r]`` is read back as the column of the one ``x[r][c]`` that is 1.
(The ``cpsat-board`` engine is this formulation written for reading; this
module builds it for speed and pairs it with a search.)

Why, measured on this 2-core machine (OR-Tools 9.15): with default settings
the integer model found no solution for n = 500 in two minutes. Four things
make n = 1000 take seconds, and each was needed:

1. **Decisions place queens on random free squares.** ``random_branches_ratio
   = 1`` makes every decision pick a random unassigned literal and
   ``initial_polarity = POLARITY_TRUE`` sets it to true, i.e. "put a queen
   there"; propagation removes the attacked squares. This randomised greedy
   placement fills almost the whole board, and clause learning repairs the
   rest: n = 1000 needed about 1 000 branches and under 10 conflicts. With
   CP-SAT's default decisions (variables in index order, value false first)
   the same model needed a million branches; with decisions on the integer
   model (see ``cp_queens.engines.cpsat.search``) it found nothing at
   n = 500 within 30 s. No solution, hint or construction is given: the
   solver searches, and ``seed`` changes the solution it finds.
2. **No SAT inprocessing** (``use_sat_inprocessing = False``): vivification
   and friends spent seconds re-deciding clauses over a million literals.
3. **No presolve, probing, symmetry detection or LP**
   (``cp_model_presolve``, ``cp_model_probing_level``, ``symmetry_level``,
   ``linearization_level``): on a million Booleans each pass costs seconds
   and none of them helps a search that hardly backtracks. (The integer
   model with presolve expands its AllDifferents into this very board, but
   the expansion and the presolve loops took over 10 s at n = 500.)
4. **The model is handed to CP-SAT as text.** A million ``new_bool_var``
   calls take about 8 s in Python at n = 1000; the same model written in
   protobuf text format and parsed by OR-Tools' C++ takes about 1.5 s.

One worker: a second one would load a second copy of the million literals
on a machine with two cores and nothing to win.

Counting and enumeration work too (the search is complete; the tests compare
every solution with the reference for small n), but for them the integer
model is the faster choice.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

import cp_queens.engines._cpsat.runner as runner
from cp_queens.problem import Problem, Residue

#: Solver parameters of the greedy search (a user's own parameters win).
GREEDY_PARAMETERS: dict[str, Any] = {
    "num_workers": 1,
    "random_branches_ratio": 1.0,
    "initial_polarity": "POLARITY_TRUE",
    "use_sat_inprocessing": False,
    "cp_model_presolve": False,
    "cp_model_probing_level": 0,
    "symmetry_level": 0,
    "linearization_level": 0,
}


def build_model(problem: Problem) -> cp_model.CpModel:
    """The 0/1 channel model; variable ``r * n + c`` is ``x[r][c]``.

    Every line of the board (row, column, diagonal) is an arithmetic
    progression of variable indices, so its text is a slice of one list of
    names: Python does no per-square work beyond naming the squares once.

    Examples:
        >>> model = build_model(Problem(4))
        >>> len(model.proto.variables), len(model.proto.constraints)
        (16, 18)
    """
    n = problem.n
    names = list(map(str, range(n * n)))

    def line(kind: str, start: int, stop: int, step: int) -> str:
        return f"constraints{{{kind}{{literals:[{','.join(names[start:stop:step])}]}}}}"

    parts = [line("exactly_one", r * n, (r + 1) * n, 1) for r in range(n)]
    parts += [line("exactly_one", c, n * n, n) for c in range(n)]
    for length in range(2, n + 1):  # diagonals with at least two squares
        top, bottom = n - length, n * (n - length)  # r - c == -top and r - c == +bottom/n
        parts.append(line("at_most_one", top, top + length * (n + 1), n + 1))
        if top:
            parts.append(line("at_most_one", bottom, bottom + length * (n + 1), n + 1))
        left = length - 1  # r + c == length - 1, starting in row 0
        right = (n - length) * n + n - 1  # r + c == 2n - 1 - length, ending in row n-1
        parts.append(line("at_most_one", left, left + length * (n - 1), n - 1))
        if top:
            parts.append(line("at_most_one", right, right + length * (n - 1), n - 1))
    parts += [line("bool_and", r * n + c, r * n + c + 1, 1) for r, c in problem.fixed.items()]
    model = cp_model.CpModel()
    _add_booleans(model, n * n)
    model.proto.merge_text_format("".join(parts))
    return model


def _add_booleans(model: cp_model.CpModel, count: int) -> None:
    """Append ``count`` 0/1 variables to the proto by doubling blocks of them.

    Parsing a million ``variables{domain:[0,1]}`` took 2 s; merging blocks of
    1, 2, 4, ... variables (one per bit of ``count``) does it in C++ copies.
    """
    block = cp_model.CpModel().proto
    block.parse_text_format("variables{domain:[0,1]}")
    twice = cp_model.CpModel().proto
    while count:
        if count & 1:
            model.proto.merge_from(block)
        count >>= 1
        if count:
            twice.copy_from(block)
            block.merge_from(twice)


def decoder(n: int) -> runner.Decoder:
    """Reads ``q`` from a solution of ``build_model``: the column of each row's 1."""

    def decode(solution: Any) -> tuple[int, ...]:
        # list() of the repeated field was the quickest way out of OR-Tools' wrapper here
        # (0.3 s per million values; np.fromiter 0.45 s).
        values = np.array(list(solution.response_proto.solution)[: n * n], dtype=np.int8)
        return tuple(int(c) for c in values.reshape(n, n).argmax(axis=1))

    return decode


def model_and_decoder(problem: Problem) -> tuple[cp_model.CpModel, runner.Decoder]:
    """The 0/1 model of what is left of ``problem``, and how to read the whole board back.

    The whole board takes the fast text path of ``build_model``; a
    completion or a board with blocked squares gets one Boolean per *open*
    square of its residue (``residue_model``), so given queens cost nothing.
    """
    residue = problem.residue()
    if residue.is_whole_board:
        return build_model(problem), decoder(problem.n)
    return residue_model(residue)


def residue_model(residue: Residue) -> tuple[cp_model.CpModel, runner.Decoder]:
    """One Boolean per open square: exactly one per free row and per free column, at most
    one per diagonal. Variables are numbered row by row, so a row is a slice of names.

    Examples:
        >>> model, decode = residue_model(Problem(4, fixed={0: 1}).residue())
        >>> len(model.proto.variables)  # row 1: col 3; row 2: cols 0, 2; row 3: cols 0, 2, 3
        6
    """
    n = residue.n
    square_cols: list[int] = []
    parts: list[str] = []
    in_column: dict[int, list[int]] = {c: [] for c in residue.columns}
    in_sum: dict[int, list[int]] = {}
    in_difference: dict[int, list[int]] = {}
    for index, row in enumerate(residue.rows):
        first = len(square_cols)
        for col in residue.open_columns(index):
            square = len(square_cols)
            square_cols.append(col)
            in_column[col].append(square)
            in_sum.setdefault(row + col, []).append(square)
            in_difference.setdefault(row - col + n - 1, []).append(square)
        parts.append(_constraint("exactly_one", range(first, len(square_cols))))
    parts += [_constraint("exactly_one", squares) for squares in in_column.values()]
    for lines in (in_sum, in_difference):
        parts += [_constraint("at_most_one", sq) for sq in lines.values() if len(sq) > 1]
    model = cp_model.CpModel()
    _add_booleans(model, len(square_cols))
    model.proto.merge_text_format("".join(parts))
    cols = np.array(square_cols, dtype=np.int64)
    count = len(square_cols)

    def decode(solution: Any) -> tuple[int, ...]:
        values = np.array(list(solution.response_proto.solution)[:count], dtype=np.int8)
        return residue.place(cols[np.flatnonzero(values)].tolist()).cols

    return model, decode


def _constraint(kind: str, squares: Iterable[int]) -> str:
    return f"constraints{{{kind}{{literals:[{','.join(map(str, squares))}]}}}}"
