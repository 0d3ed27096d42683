"""``mip``: the 0/1 board formulation as a mixed-integer program (OR-Tools ``pywraplp``).

The same model as ``cpsat-board``, written the way an operations-research
course writes it::

    x[r][c] in {0, 1}
    sum_c x[r][c] = 1            for every row
    sum_r x[r][c] = 1            for every column
    sum_{(r,c) on d} x[r][c] <= 1  for every diagonal d (both directions)
    (no objective: any feasible point is a solution)

It is solved by a MIP solver that ships inside the ``ortools`` wheel, through
OR-Tools' own linear-solver wrapper: SCIP by default, ``backend="CBC"`` as
the alternative (HiGHS is in the wheel too but prints a banner on stdout, and
engines do not print). Branch and bound with LP relaxations
answers "is there a solution, and which": it has **no way to enumerate or
count** the solutions (a MIP solver returns one optimal point), so this engine
only implements ``first()``; ``solutions()`` and ``count()`` raise
``UnsupportedTaskError``.

Statistics are the solver's own: ``branches`` is the number of
branch-and-bound nodes and ``extra["lp_iterations"]`` the simplex iterations.
"""

from __future__ import annotations

from typing import ClassVar

from ortools.linear_solver import pywraplp

from cp_queens.engines import register
from cp_queens.engines.base import Call, Engine
from cp_queens.errors import CpQueensError
from cp_queens.problem import Placement, Problem, diagonals
from cp_queens.stats import COMPLETE, TIME_LIMIT

#: MIP solvers in the ortools wheel that this engine accepts.
BACKENDS = ("SCIP", "CBC")


def build_model(
    problem: Problem, backend: str = "SCIP"
) -> tuple[pywraplp.Solver, list[list[pywraplp.Variable]]]:
    """The 0/1 program; fixed queens get the lower bound 1, blocked squares the upper bound 0."""
    solver = pywraplp.Solver.CreateSolver(backend)
    if solver is None:
        raise CpQueensError(f"mip: solver backend '{backend}' is not available in this ortools")
    n = problem.n
    x = [[solver.BoolVar(f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for i in range(n):
        solver.Add(sum(x[i][c] for c in range(n)) == 1, f"row{i}")
        solver.Add(sum(x[r][i] for r in range(n)) == 1, f"col{i}")
    for squares in diagonals(n):
        solver.Add(sum(x[r][c] for r, c in squares) <= 1)
    for row, col in problem.fixed.items():
        x[row][col].SetLb(1)
    for row, col in problem.blocked:
        x[row][col].SetUb(0)
    return solver, x


@register
class MipEngine(Engine):
    """A MIP solver on the 0/1 board model: one solution, never a count.

    Examples:
        >>> from cp_queens import Problem, engines, verify
        >>> engine = engines.get("mip")
        >>> verify(engine.first(Problem(10)).value).ok, engine.first(Problem(3)).outcome
        (True, 'negative')
    """

    name = "mip"
    #: Peak RSS over n^2: 70 MB at n = 60.
    bytes_per_square = 20_000
    description = (
        "0/1 board model as a MIP (OR-Tools pywraplp, SCIP): first solution only; "
        "a MIP solver returns one point and cannot enumerate or count"
    )
    can_enumerate = False
    can_count = False
    option_choices: ClassVar[dict[str, tuple[str, ...]]] = {"backend": BACKENDS}

    def __init__(self, *, backend: str = "SCIP") -> None:
        super().__init__()
        self.check_options(backend=backend)
        self.backend = backend

    def _first(self, problem: Problem, call: Call) -> Placement | None:
        with call.building():
            solver, x = build_model(problem, self.backend)
        remaining = call.remaining()
        if remaining is not None:
            solver.SetTimeLimit(max(1, int(remaining * 1000)))
        status = solver.Solve()
        stats = call.stats
        stats.branches = solver.nodes()
        stats.extra["lp_iterations"] = solver.iterations()
        stats.extra["backend"] = self.backend
        stats.extra["solver_status"] = _STATUS_NAMES.get(status, str(status))
        if status in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            stats.status = COMPLETE
            return Placement(
                tuple(next(c for c, v in enumerate(row) if v.solution_value() > 0.5) for row in x)
            )
        stats.status = COMPLETE if status == pywraplp.Solver.INFEASIBLE else TIME_LIMIT
        return None


_STATUS_NAMES = {
    pywraplp.Solver.OPTIMAL: "OPTIMAL",
    pywraplp.Solver.FEASIBLE: "FEASIBLE",
    pywraplp.Solver.INFEASIBLE: "INFEASIBLE",
    pywraplp.Solver.UNBOUNDED: "UNBOUNDED",
    pywraplp.Solver.ABNORMAL: "ABNORMAL",
    pywraplp.Solver.NOT_SOLVED: "NOT_SOLVED",
}
