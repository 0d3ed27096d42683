"""The design card's model, as a student would write it on a board.

    q[r] in 0..n-1            the column of the queen in row r (one queen per row)
    AllDifferent(q[r])        no two queens in one column
    AllDifferent(q[r] + r)    no two on one "/" diagonal
    AllDifferent(q[r] - r)    no two on one "\\" diagonal

Pre-placed queens (the completion problem) and blocked squares shrink the
model instead of adding to it: a given queen's row gets no variable at all, and
every other row's domain holds only its *open* columns (see
``Residue``). A 5521-board with 5500 queens given is a
model of 21 variables, not 5521. Everything else in this package is about
*running* the model (enumeration parameters, callbacks, search strategies,
symmetry breaking, processes); the model itself is this one screen.

Examples:
    >>> from cp_queens import Problem
    >>> model, q = build_model(Problem(4))
    >>> len(q), len(model.proto.constraints)
    (4, 3)
    >>> model, q = build_model(Problem(8, fixed={0: 0}, blocked=[(1, 2)]))
    >>> len(q), list(q[0].proto.domain)  # row 1: columns 0, 1 (diagonal), 2 (blocked) closed
    (7, [3, 7])
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from cp_queens.problem import Problem, Residue


def build_model(problem: Problem) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The card's model on what is left of ``problem``: one ``q`` per free row.

    ``q[i]`` is the column of the queen in row ``rows[i]``, where ``rows`` are the
    free rows (``problem.residue().rows``); on an empty board ``q[r]`` is row ``r``.
    """
    residue = problem.residue()
    rows = residue.rows
    model = cp_model.CpModel()
    q = [new_queen(model, residue, i) for i in range(len(rows))]
    model.add_all_different(q)
    model.add_all_different(q[i] + r for i, r in enumerate(rows))
    model.add_all_different(q[i] - r for i, r in enumerate(rows))
    return model, q


def new_queen(model: cp_model.CpModel, residue: Residue, index: int) -> cp_model.IntVar:
    """The variable of free row ``residue.rows[index]``, over its open columns.

    A row with no open column at all cannot get a queen: CP-SAT rejects an empty
    domain as an invalid model, so the row gets a placeholder value and the
    model an empty clause, which no solution satisfies (the answer: no completion).
    """
    row = residue.rows[index]
    domain = open_domain(residue, index)
    if domain.is_empty():
        model.add_bool_or([])
        domain = cp_model.Domain(0, 0)
    return model.new_int_var_from_domain(domain, f"q{row}")


def open_domain(residue: Residue, index: int) -> cp_model.Domain:
    """The open columns of free row ``residue.rows[index]`` as a CP-SAT domain.

    Written as the values themselves when few columns are open (a nearly full
    board), as the intervals between the closed ones otherwise (a nearly empty
    board: a handful of intervals rather than n values).
    """
    n = residue.n
    closed = residue.closed[index]
    given = residue.fixed.values()  # the columns of the given queens
    if not given and not closed:
        return cp_model.Domain(0, n - 1)
    if len(residue.columns) - len(closed) <= len(given) + len(closed):
        return cp_model.Domain.from_values(residue.open_columns(index))
    intervals, start = [], 0
    for col in sorted({*given, *closed}):
        if col > start:
            intervals.append([start, col - 1])
        start = col + 1
    if start < n:
        intervals.append([start, n - 1])
    return cp_model.Domain.from_intervals(intervals)
