"""Placements an outside solver reports, checked before they are counted or written.

``minizinc`` runs whatever ``minizinc`` is first on PATH, and ``cpmpy`` hands the model
to any backend: neither is our code, and their word is not proof. A board that is not a
completion of the problem, the same board twice, or output that is not a board at all is
a failure of that solver (``SolverFailedError``, one line naming the board), never a
solution counted: a ``minizinc`` printing one attacking board 500 times gave
"n=8: 500 solutions", exit 0 (issue 38).

The check is the independent verifier's (``cp_queens.verify``), O(n) a board. Repeats
are caught by a set of the boards seen, up to ``DISTINCT_CHECKED`` of them (about
100 MB), so that memory stays bounded however many a count finds; past that, each board
is still verified.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cp_queens.errors import SolverFailedError
from cp_queens.problem import Placement, Problem, Residue
from cp_queens.verify import verify

#: Boards remembered to catch a repeat (about 100 bytes each).
DISTINCT_CHECKED = 1_000_000


class Reported:
    """The checker of one call's stream of boards from solver ``solver``."""

    def __init__(self, problem: Problem, solver: str) -> None:
        self.problem = problem
        self.residue: Residue | None = None
        self.solver = solver
        self.seen: set[tuple[int, ...]] = set()

    def residue_row(self, values: Any) -> Placement:
        """The whole board of a solution given as the residue's free columns, checked."""
        if self.residue is None:
            self.residue = self.problem.residue()
        rows = len(self.residue.rows)
        if (
            not isinstance(values, Sequence)
            or isinstance(values, str | bytes)
            or len(values) != rows
            or not all(type(v) is int for v in values)
        ):
            raise SolverFailedError(
                f"{self.solver} reported {_short(values)} as a solution; expected "
                f"{rows} column numbers (one per free row)"
            )
        return self.board(self.residue.place(values))

    def board(self, placement: Placement) -> Placement:
        """``placement`` if it is a new completion of the problem; else the solver failed."""
        verdict = verify(placement, self.problem)
        if not verdict.ok:
            raise SolverFailedError(
                f"{self.solver} reported a board that is not a solution: "
                f"{_short(list(placement.cols))}: {verdict.reason}"
            )
        cols = placement.cols
        if cols in self.seen:
            raise SolverFailedError(
                f"{self.solver} reported the same solution twice: {_short(list(cols))}"
            )
        if len(self.seen) < DISTINCT_CHECKED:
            self.seen.add(cols)
        return placement


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
