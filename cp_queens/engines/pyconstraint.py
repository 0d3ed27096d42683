"""``pyconstraint``: the integer model in python-constraint2 (``import constraint``).

The model is the one of ``cpsat``: ``q[r]`` in ``0..n-1`` is the column of the
queen in row ``r``. What python-constraint can say *globally* is limited by
its constraint catalogue, and that decides the shape of the model:

* **columns - global.** ``AllDifferentConstraint`` over all ``q[r]`` is one
  constraint. With forward checking, placing a queen hides its column from
  every other row in one call.
* **diagonals - pairwise.** ``AllDifferent(q[r] + r)`` is not expressible:
  python-constraint's constraints take *variables*, not expressions such as
  ``q[r] + r``, and it has no offset or element constraint to channel them
  into auxiliary variables. So each pair of rows ``i < j`` gets its own
  ``FunctionConstraint``: ``|q[i] - q[j]| != j - i``, which is n(n-1)/2
  constraints instead of two.

``columns="pairwise"`` states the columns pairwise as well (folded into the
same per-pair function), for comparison; ``benchmarks/pyconstraint_models.py``
measures both. With backtracking they search the *same* tree (equal node
counts: python-constraint's ``AllDifferent`` only hides the values already
taken, exactly what the pairwise checks hide - no matching or Hall-set
reasoning), and the global form was even a little slower here (counting
n = 11: 0.77 s global vs 0.71 s pairwise, about 8 % at every n measured),
because each call scans all n rows.
So "global" buys readability here, not pruning. For min-conflicts the
difference is decisive: a global ``AllDifferent`` is violated as soon as *any*
two queens share a column, so it cannot tell which queen to move, and
min-conflicts gave up at n = 20 after 100 sweeps (10 000 sweeps: 22 s, nothing
found), while with pairwise constraints it solves n = 100 in 0.5-1.2 s
here. The engine therefore always states columns pairwise for
min-conflicts.

Solvers (the ``solver`` option):

* ``"backtracking"`` (default): ``BacktrackingSolver``. It re-sorts the
  unassigned variables at *every* node by (degree, current domain size), so
  with forward checking it always branches on the row with the fewest
  columns left (dynamic minimum-remaining-values). First solution at n = 50
  in about 0.1-0.2 s, n = 100 in 0.2-0.5 s here.
* ``"recursive"``: ``RecursiveBacktrackingSolver``, the same heuristic
  written recursively (depth n on the Python stack).
* ``"optimized"``: python-constraint2's own default,
  ``OptimizedBacktrackingSolver``. **Why it is slow for a first solution:**
  it sorts the variables *once*, before the search, by degree and initial
  domain size. In this model every row has the same degree and domain, so the
  order is simply row 0, 1, 2, ... - a static-order backtracker, which needs
  exponentially many nodes before its first solution (with the natural column
  order about 145 000 value tries and 3-5 s at n = 20 here, nothing in 5
  minutes at n = 50; with the centre-first order n = 20 happens to be quick,
  n = 50 still takes more than 10 s). Version 1.4's
  default was ``BacktrackingSolver`` with the dynamic order, which is why it
  answered in 0.1 s. For *all* solutions the order matters little and this
  solver is fine.
* ``"min-conflicts"``: ``MinConflictsSolver``, local search from a random
  placement, moving conflicted queens to their least-attacked column. It
  finds **one** solution quickly on large boards but **cannot enumerate,
  count, or prove that no solution exists**: when it gives up after
  ``steps`` sweeps, ``first()`` raises ``TimeLimitError``
  ("gave up"; ``stats.extra["gave_up_after_steps"]``) - no answer, and not a proof.

Value order (the ``values`` option): python-constraint tries a row's columns
in the order of its domain list, and the plain ``0..n-1`` makes every row try
an edge column first (``"natural"``). ``"centre"`` (default) lays the domain
out so that central columns are tried first. Combined with the dynamic row
order this found a first solution at n = 200 in about 1.5 s with 200 branches
(no backtracking at all), where the natural order needed more than 10 s from
n = 128 on (``benchmarks/pyconstraint_models.py``, table 3). Counts and
solution sets do not depend on it; only the order solutions arrive in does.

Statistics: python-constraint reports none, so two counting constraints
are added around the model (first and last on every variable's list, which
the backtracking solvers check in order): ``branches`` counts values that
passed every constraint (search nodes), ``conflicts`` values rejected. They
also give the engine its time limit, by raising once the call's clock has run out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import constraint

from cp_queens.budget import Clock
from cp_queens.engines import register
from cp_queens.engines.base import NO_BUDGET, Budget, Call, Engine
from cp_queens.errors import UnsupportedTaskError
from cp_queens.problem import Placement, Problem

SOLVERS = ("backtracking", "recursive", "optimized", "min-conflicts")
COLUMNS = ("global", "pairwise")
VALUE_ORDERS = ("centre", "natural")

#: Value tries between two looks at the clock.
CHECK_EVERY = 1 << 8


class _TimeUp(Exception):
    pass


class _Tally(constraint.Constraint):
    """A constraint that is always true and counts how often it is asked.

    Placed first on every variable it sees every value tried; placed last it
    sees only the values every real constraint accepted.
    """

    def __init__(self, clock: Clock | None = None, n: int = 1) -> None:
        self.calls = 0
        self._clock = clock
        # Between two calls forward checking may test every pair of rows (n^2 checks):
        # on a large board look at the clock on every call, or a 2 s limit takes 40 s.
        self._every = max(1, CHECK_EVERY * 256 // (n * n))

    def __call__(
        self,
        variables: Any,
        domains: Any,
        assignments: Any,
        forwardcheck: Any = False,
    ) -> bool:
        self.calls += 1
        if self._clock is not None and self.calls % self._every == 0 and self._clock.expired():
            raise _TimeUp
        return True

    def preProcess(self, variables: Any, domains: Any, constraints: Any, vconstraints: Any) -> None:
        """Keep the tally even on a one-variable board (the default would fold it away)."""


class _Clocked(constraint.FunctionConstraint):
    """A pair constraint that also looks at the clock, placed every ``CLOCK_STRIDE``
    rows apart, so that a large board stops near its time limit at every stage.

    python-constraint gives no hook between its own steps, and on a large board each
    step is long: preprocessing walks all n(n-1)/2 pair constraints (7 s at n = 2000),
    and forward checking after one queen calls every pair of the row it placed (2.5 s a
    node at n = 2000). The tallies only see the value tried next; these see the inner
    loops too.
    """

    def __init__(self, function: Callable[[int, int], bool], clock: Clock) -> None:
        super().__init__(function)
        self._clock = clock

    def __call__(self, *args: Any, **kwargs: Any) -> bool:
        if self._clock.expired():
            raise _TimeUp
        return bool(super().__call__(*args, **kwargs))

    def preProcess(self, *args: Any) -> None:
        if self._clock.expired():
            raise _TimeUp
        super().preProcess(*args)


#: Every pair of rows this far apart gets a ``_Clocked`` constraint (on boards larger
#: than this; smaller ones answer between two looks of the tallies).
CLOCK_STRIDE = 64


def _diagonals_ok(distance: int) -> Callable[[int, int], bool]:
    def ok(a: int, b: int) -> bool:
        return a - b != distance and b - a != distance

    return ok


def _columns_and_diagonals_ok(distance: int) -> Callable[[int, int], bool]:
    def ok(a: int, b: int) -> bool:
        return a != b and a - b != distance and b - a != distance

    return ok


def column_order(n: int, values: str, *, taken_from_end: bool = True) -> list[int]:
    """A row's domain, laid out so that the solver tries the columns in the chosen order.

    ``"natural"`` is ``0..n-1`` as it stands. ``"centre"`` makes the solver try
    the central columns first and the edges last: the iterative solvers
    (``backtracking``, ``optimized``) take values from the *end* of the list
    (``taken_from_end``), the recursive one from the front.

    Examples:
        >>> column_order(5, "centre")
        [4, 0, 3, 1, 2]
        >>> column_order(5, "centre", taken_from_end=False)
        [2, 1, 3, 0, 4]
        >>> column_order(5, "natural")
        [0, 1, 2, 3, 4]
    """
    if values == "natural":
        return list(range(n))
    middle = (n - 1) / 2
    centre_first = sorted(range(n), key=lambda col: (abs(col - middle), col))
    return centre_first[::-1] if taken_from_end else centre_first


def build_problem(
    problem: Problem,
    solver: Any,
    *,
    columns: str = "global",
    values: str = "centre",
    around: tuple[constraint.Constraint, constraint.Constraint] | None = None,
    clock: Clock | None = None,
) -> constraint.Problem:
    """The python-constraint model: variables are rows, values are columns.

    Only the residue is modelled (``Residue``): a row
    with a given queen has no variable, and every other row's domain holds only
    its open columns, so the given queens, their diagonals and blocked squares
    never enter the search. ``values`` orders the columns each row tries (see
    ``column_order``). ``around`` is a pair of constraints put before and
    after the model on every variable (the tallies). With a ``clock``
    (the call's), building stops with ``_TimeUp`` once it runs out: n = 5000
    has 12.5 million pairs, a minute and gigabytes to build.
    """
    residue = problem.residue()
    rows = list(residue.rows)
    recursive = isinstance(solver, constraint.RecursiveBacktrackingSolver)
    columns_to_try = column_order(problem.n, values, taken_from_end=not recursive)
    csp = constraint.Problem(solver)
    for index, row in enumerate(rows):
        closed = residue.closed[index]
        if len(rows) == problem.n and not closed:
            csp.addVariable(row, columns_to_try)
        else:
            open_columns = set(residue.columns) - closed
            csp.addVariable(row, [col for col in columns_to_try if col in open_columns])
    if around is not None:
        csp.addConstraint(around[0], rows)
    if columns == "global":
        csp.addConstraint(constraint.AllDifferentConstraint(), rows)
        pair_constraint = _diagonals_ok
    else:
        pair_constraint = _columns_and_diagonals_ok
    for i, row_i in enumerate(rows):
        if clock is not None and clock.expired():
            raise _TimeUp
        for row_j in rows[i + 1 :]:
            distance = row_j - row_i
            if clock is not None and clock.limited and distance % CLOCK_STRIDE == 0:
                pair = _Clocked(pair_constraint(distance), clock)
            else:
                pair = constraint.FunctionConstraint(pair_constraint(distance))
            csp.addConstraint(pair, (row_i, row_j))
    if around is not None:
        csp.addConstraint(around[1], rows)
    return csp


@register
class PyConstraintEngine(Engine):
    """python-constraint2 with a chosen solver; see the module docstring for which and why.

    Examples:
        >>> from cp_queens import Problem, engines
        >>> engines.get("pyconstraint").count(Problem(8)).value
        92
        >>> engine = engines.get("pyconstraint", solver="min-conflicts", seed=1)
        >>> engine.first(Problem(30)).value is not None
        True
        >>> engine.count(Problem(8))
        Traceback (most recent call last):
        ...
        cp_queens.errors.UnsupportedTaskError: engine 'pyconstraint' with solver 'min-conflicts' \
cannot count: local search finds one solution at most and cannot enumerate, count or prove \
infeasibility
    """

    name = "pyconstraint"
    description = (
        "python-constraint2: AllDifferent on columns, pairwise diagonal constraints, "
        "dynamic-order backtracking by default"
    )
    solvers: ClassVar[tuple[str, ...]] = SOLVERS
    option_choices: ClassVar[dict[str, tuple[str, ...]]] = {
        "solver": SOLVERS,
        "columns": COLUMNS,
        "values": VALUE_ORDERS,
    }
    #: Peak RSS over n^2: 66 MB at n = 400, 1.5 GB at n = 2000 (n(n-1)/2 pair constraints).
    bytes_per_square = 400
    seconds_per_solution = 4e-4
    #: 0.36 s of CPU for n = 12 with one queen given (a plain tree of some 74,000 nodes).
    seconds_per_node = 5e-6
    #: The default dynamic-order backtracking: first solution at n = 300 in 11 s, n = 600
    #: in 147 s (each node forward-checks O(n^2) pairs); see ``__init__`` for the others.
    first_reach: ClassVar[int | None] = 500

    def __init__(
        self,
        *,
        solver: str = "backtracking",
        columns: str = "global",
        values: str = "centre",
        forwardcheck: bool = True,
        steps: int = 1000,
        seed: int | None = None,
    ) -> None:
        super().__init__()
        self.check_options(solver=solver, columns=columns, values=values)
        self.solver = solver
        # A global AllDifferent cannot guide min-conflicts (see the module docstring).
        self.columns = "pairwise" if solver == "min-conflicts" else columns
        self.values = values
        self.forwardcheck = forwardcheck
        self.steps = steps
        self.seed = seed
        if solver == "min-conflicts":
            self.first_reach = None  # type: ignore[misc]  # local search: no search tree
        elif solver == "optimized":
            # A static row order: nothing in 5 minutes at n = 50 (see the module docstring).
            self.first_reach = 30  # type: ignore[misc]

    def able_to(self, task: str) -> bool:
        """Local search (``min-conflicts``) finds one solution at most: it cannot
        enumerate, count or prove that none exists."""
        local_search = self.solver == "min-conflicts"
        return not (local_search and task in ("enumerate", "count")) and super().able_to(task)

    def _check(
        self, problem: Problem, task: str, supported: bool, budget: Budget = NO_BUDGET
    ) -> float | None:
        if not supported and self.solver == "min-conflicts":
            raise UnsupportedTaskError(
                f"engine 'pyconstraint' with solver 'min-conflicts' cannot {task}: local search "
                "finds one solution at most and cannot enumerate, count or prove infeasibility"
            )
        return super()._check(problem, task, supported, budget)

    # -- tasks --------------------------------------------------------------

    def _solutions(self, problem: Problem, call: Call) -> Iterator[Placement]:
        residue = problem.residue()
        if not residue.rows:  # every queen is given: python-constraint has no variables
            yield residue.place([])
            return
        if residue.dead_row is not None:  # python-constraint refuses an empty domain
            return
        built = self._instrumented(problem, call)
        if built is None:
            return
        csp, tried, passed = built
        try:
            for solution in csp.getSolutionIter():
                self._record(call, tried, passed)
                yield residue.place([solution[r] for r in residue.rows])
        except _TimeUp:
            call.stop_for_time()
        finally:
            self._record(call, tried, passed)

    def _count(self, problem: Problem, call: Call) -> int:
        residue = problem.residue()
        if not residue.rows or residue.dead_row is not None:  # see _solutions
            return int(not residue.rows)
        built = self._instrumented(problem, call)
        if built is None:
            return 0
        csp, tried, passed = built
        total = 0
        try:
            for total, _ in enumerate(csp.getSolutionIter(), start=1):
                if total % 4096 == 0:
                    call.report(total)
        except _TimeUp:
            call.stop_for_time()
        self._record(call, tried, passed)
        return total

    def _first(self, problem: Problem, call: Call) -> Placement | None:
        if self.solver == "min-conflicts":
            return self._first_by_local_search(problem, call)
        return super()._first(problem, call)

    # -- helpers ------------------------------------------------------------

    def _solver(self) -> Any:
        if self.solver == "backtracking":
            return constraint.BacktrackingSolver(forwardcheck=self.forwardcheck)
        if self.solver == "recursive":
            return constraint.RecursiveBacktrackingSolver(forwardcheck=self.forwardcheck)
        if self.solver == "optimized":
            return constraint.OptimizedBacktrackingSolver(forwardcheck=self.forwardcheck)
        return constraint.MinConflictsSolver(steps=self.steps, rand=random.Random(self.seed))

    def _instrumented(
        self, problem: Problem, call: Call
    ) -> tuple[constraint.Problem, _Tally, _Tally] | None:
        """The model between two tallies (see the module docstring), or ``None`` when the
        time limit ran out while building it (the call is then marked as cut short)."""
        tried, passed = _Tally(call.clock, problem.n), _Tally()
        try:
            with call.building():
                csp = build_problem(
                    problem,
                    self._solver(),
                    columns=self.columns,
                    values=self.values,
                    around=(tried, passed),
                    clock=call.clock,
                )
        except _TimeUp:
            call.stop_for_time()
            return None
        return csp, tried, passed

    def _record(self, call: Call, tried: _Tally, passed: _Tally) -> None:
        stats = call.stats
        stats.branches = passed.calls
        stats.conflicts = tried.calls - passed.calls
        stats.extra["solver"] = self.solver
        stats.extra["columns"] = self.columns
        stats.extra["values"] = self.values

    def _first_by_local_search(self, problem: Problem, call: Call) -> Placement | None:
        residue = problem.residue()
        if not residue.rows or residue.dead_row is not None:  # see _solutions
            return residue.place([]) if not residue.rows else None
        with call.building():
            csp = build_problem(problem, self._solver(), columns="pairwise")
        call.stats.extra["solver"] = self.solver
        solution = csp.getSolution()
        if solution is None:
            # Not a proof of infeasibility: local search gave up.
            call.stop_for_time()
            call.stats.extra["gave_up_after_steps"] = self.steps
            return None
        return residue.place([solution[r] for r in residue.rows])
