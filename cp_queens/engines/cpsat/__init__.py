"""``cpsat``: the textbook constraint model, solved by OR-Tools CP-SAT.

The whole model (``cp_queens.engines.cpsat.model``, one screen), as a student would
write it on a board::

    q[r] in 0..n-1          the column of the queen in row r  (one queen per row)
    AllDifferent(q[r])          no two queens in one column
    AllDifferent(q[r] + r)      no two on one "/" diagonal
    AllDifferent(q[r] - r)      no two on one "\\" diagonal

Pre-placed queens (the completion problem) are just fixed domains.
How the model is *run* (parameters for exact enumeration, the solution
callback, streaming) lives in ``cp_queens.engines._cpsat.runner``.

Options a course can compare:

* ``symmetry="none" | "mirror" | "full"`` adds symmetry-breaking constraints
  (``cp_queens.engines.cpsat.symmetry``); the engine then finds only the
  solutions those constraints keep (``"full"``: one per orbit).
* ``method="plain" | "fast" | "auto"`` says how to enumerate and count:
  ``plain`` is this one model with ``enumerate_all_solutions``; ``fast``
  searches one solution per orbit in many small models run in parallel
  processes and expands the orbits (``cp_queens.engines.cpsat.orbits``),
  the same solutions more than ten times faster from n = 12 on.
  ``auto`` (the default) takes ``fast`` for complete searches of boards with
  10 <= n <= 27 and no pre-placed queens, ``plain`` otherwise: below n = 10 the
  whole plain search is quicker than starting processes, given queens break the
  symmetry, and a stream stopped after ``limit`` solutions is best served by
  one search that starts at once. Both stream at bounded memory; ``fast``
  yields whole orbits in a fixed order. the budget's ``workers`` (default: every
  core) sets the size of its process pool; its ``stats.extra`` reports
  ``subproblems`` and ``enumerated`` (solutions CP-SAT found before the
  canonical filter).
* ``strategy="auto" | "portfolio" | "fixed" | "greedy"`` with
  ``variable_order`` and ``value_order`` says how CP-SAT searches
  (``cp_queens.engines.cpsat.search``). ``auto`` runs this model with
  CP-SAT's own search, the solutions taken in a solution callback, for
  counting, enumeration and one solution of a board up to
  ``FIRST_MODEL_UP_TO`` rows; for one solution of a larger board, a
  randomised greedy search on the 0/1 view of this model that answers
  n = 1000 in seconds (``cp_queens.engines.cpsat.greedy``). The statistics
  say which ran (``strategy=``, ``model=integer`` or ``model="0/1 board"``).
  A strategy other than ``auto`` enumerates with the ``plain`` method, so
  that it is the strategy that is measured.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar

from cp_queens.budget import available_cores
from cp_queens.engines import register
from cp_queens.engines._cpsat.settings import SolverSettings
from cp_queens.engines.base import Call, Engine, UniqueCount
from cp_queens.engines.cpsat.search import (
    STRATEGIES,
    VALUE_ORDERS,
    VARIABLE_ORDERS,
    SearchStrategy,
)
from cp_queens.engines.cpsat.symmetry import LEVELS
from cp_queens.errors import CpQueensError, UnsupportedTaskError
from cp_queens.problem import Placement, Problem, Residue

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    import cp_queens.engines._cpsat.runner as runner

#: Values of the ``method`` option.
METHODS = ("auto", "plain", "fast")
#: More CP-SAT search threads than this gain nothing (its portfolio has fewer strategies).
#: ``method="auto"`` enumerates with the fast path from this board size on.
FAST_FROM = 10
#: A completion with at most this many free rows is searched for one solution the way
#: ``--count`` searches (the integer model, CP-SAT's default search, one worker), not
#: with the greedy strategy. Greedy is made for boards where solutions abound (an empty
#: n = 500 in a second); it cannot prove that none exists, and a completion may have
#: none: on CSPLib prob079's ``diag-20-4-3`` greedy ran out its 30 s while the count's
#: search proved "no completion" in 1.8 s (``benchmarks/completion_proofs.py`` times the
#: family from n = 16 to 24). One worker, because the second worker's strategies doubled
#: the wall time of that proof on two busy cores. Up to here the complete search also
#: finds solutions quickly (an empty n = 80 in 2 s); beyond it the greedy search is the
#: one that scales (n = 150: 1.6 s against 12 s).
PROVE_UP_TO = 64
#: ... and up to this one, the largest n ever counted: beyond it a complete search
#: cannot end, so what is wanted is a stream, and one model streams at once (the
#: split of n = 200 into 3.7 million subproblems took a minute, ignoring the time limit).
FAST_UP_TO = 27


@register
class CpSatEngine(Engine):
    """CP-SAT on the integer model; every solution arrives through a solution callback.

    OR-Tools is imported when a model is first built, not with the engine, so
    that naming or checking the engine (``--help``, option errors) stays light.
    """

    name = "cpsat"
    #: Peak RSS over n^2: 807 MB at n = 1000, 3.1 GB at n = 2000, 21.6 GB at n = 5000.
    bytes_per_square = 850
    #: Building the 0/1 view (merged as text) and CP-SAT loading it, neither looking at
    #: the clock: n = 2000 took 32 s under load 8 (15 s + 17 s), some 8 s on an idle
    #: machine, so 2 us a square.
    setup_seconds_per_square = 2e-6
    seconds_per_solution = 1e-4
    #: 0.95 s of CPU for n = 12 with one queen given (a plain tree of some 74,000 nodes);
    #: CSPLib prob079's gen-20-4-1 (67 million) ran out 120-900 s.
    seconds_per_node = 1.3e-5
    description = "OR-Tools CP-SAT on q[r] with AllDifferent on q, q+r, q-r"
    budget_keys = ("time_limit", "workers")
    option_choices: ClassVar[dict[str, tuple[str, ...]]] = {
        "method": METHODS,
        "symmetry": LEVELS,
        "strategy": STRATEGIES,
        "variable_order": tuple(VARIABLE_ORDERS),
        "value_order": tuple(VALUE_ORDERS),
    }

    def __init__(
        self,
        *,
        solver_workers: int = 0,
        log: bool = False,
        seed: int | None = None,
        parameters: dict[str, Any] | None = None,
        symmetry: str = "none",
        method: str = "auto",
        strategy: str = "auto",
        variable_order: str = "input",
        value_order: str = "min",
    ) -> None:
        """
        Args:
            solver_workers: CP-SAT's own search threads for one solution
                (0: CP-SAT's choice); exact enumeration always uses one.
            log: print CP-SAT's search log.
            seed: CP-SAT's ``random_seed``.
            parameters: any other CP-SAT parameter by name.
            symmetry: ``none``, ``mirror`` or ``full`` symmetry-breaking constraints.
            method: ``auto``, ``plain`` or ``fast`` (see the module docstring).
            strategy: ``auto``, ``portfolio``, ``fixed`` or ``greedy``.
            variable_order: with ``fixed``: ``input`` or ``min-domain``.
            value_order: with ``fixed``: ``min``, ``max``, ``median`` or ``random``.

        Raises:
            CpQueensError: an unknown value, or options that cannot go together.

        Examples:
            >>> CpSatEngine(method="plain").count(Problem(6)).value
            4
        """
        super().__init__()
        self.check_options(
            method=method,
            symmetry=symmetry,
            strategy=strategy,
            variable_order=variable_order,
            value_order=value_order,
        )
        self.symmetry = symmetry
        if method == "fast" and symmetry != "none":
            raise CpQueensError(
                f"method 'fast' yields every solution; it cannot be combined with "
                f"symmetry '{symmetry}'"
            )
        self.search = SearchStrategy(strategy, variable_order, value_order)
        if method == "fast" and strategy != "auto":
            raise CpQueensError(
                f"method 'fast' has its own search; it cannot be combined with "
                f"strategy '{strategy}'"
            )
        if strategy == "greedy" and symmetry != "none":
            raise CpQueensError(
                f"strategy 'greedy' searches the 0/1 board; it cannot be combined with "
                f"symmetry '{symmetry}'"
            )
        self.method = method
        self.settings = SolverSettings.checked(
            solver_workers=solver_workers,
            log=log,
            seed=seed,
            parameters=parameters,
        )

    def prepare(self) -> None:
        """Import OR-Tools (about half a second), which naming the engine does not, and the
        modules that build and run the model, so that a call's ``model_time`` is the
        building alone."""
        import cp_queens.engines._cpsat.runner as runner  # noqa: F401
        import cp_queens.engines.cpsat.greedy as greedy  # noqa: F401
        import cp_queens.engines.cpsat.model as model  # noqa: F401
        import cp_queens.engines.cpsat.symmetry as symmetry  # noqa: F401

    def _call(self, task: str, problem: Problem, **kwargs: Any) -> Call:
        # OR-Tools loads on the first call; its start-up (about half a second) is not
        # the search's, so it happens before the clock of the time limit starts.
        self.prepare()
        return super()._call(task, problem, **kwargs)

    def _solutions(self, problem: Problem, call: Call) -> Iterator[Placement]:
        import cp_queens.engines._cpsat.runner as runner
        from cp_queens.engines.cpsat import orbits

        if self._use_fast(problem, call):
            return orbits.stream(problem, self.settings, call, self._workers(call))
        call.stats.extra["method"] = "plain"  # said either way: ``auto`` switches at FAST_FROM
        with call.building():
            model, decode, settings = self._searched_model(problem, call)
        return runner.stream(model, decode, settings, call.stats)

    def _count(self, problem: Problem, call: Call) -> int:
        import cp_queens.engines._cpsat.runner as runner

        if self._use_fast(problem, call):
            return self._fast_count(problem, call).total
        call.stats.extra["method"] = "plain"
        with call.building():
            model, _, settings = self._searched_model(problem, call)
        return runner.count(model, settings, call.stats, call.report)

    def _count_unique(self, problem: Problem, call: Call) -> UniqueCount:
        if self.symmetry != "none":
            raise UnsupportedTaskError(
                f"unique counts need every solution; symmetry '{self.symmetry}' removes some"
            )
        if self._use_fast(problem, call):
            return self._fast_count(problem, call)
        return super()._count_unique(problem, call)

    def _fast_count(self, problem: Problem, call: Call) -> UniqueCount:
        from cp_queens.engines.cpsat import orbits

        return orbits.count_unique(problem, self.settings, call, self._workers(call))

    @staticmethod
    def _workers(call: Call) -> int:
        """Processes of the ``fast`` method: the budget's, or every core."""
        return call.budget.workers or available_cores()

    def _use_fast(self, problem: Problem, call: Call) -> bool:
        if self.method == "fast" and not problem.is_empty_board:
            raise UnsupportedTaskError(
                "method 'fast' needs a board without pre-placed queens or blocked squares "
                "(they break the symmetry)"
            )
        if self.method != "auto":
            return self.method == "fast"
        return (
            self.search.name == "auto"
            and self.symmetry == "none"
            and problem.is_empty_board
            and FAST_FROM <= problem.n <= FAST_UP_TO
            and call.limit is None  # a short stream is served best by one search at once
        )

    def _first(self, problem: Problem, call: Call) -> Placement | None:
        import cp_queens.engines._cpsat.runner as runner

        with call.building():
            model, decode, settings = self._searched_model(problem, call)
        # The limit covers the whole call: building a large model takes time too.
        if call.expired():
            call.stop_for_time()
            return None
        return runner.first(model, decode, settings, call.stats)

    def _searched_model(
        self, problem: Problem, call: Call
    ) -> tuple[cp_model.CpModel, runner.Decoder, SolverSettings]:
        """The model, its decoder and the solver settings for the call under the strategy.

        The settings carry what is left of the call's time once the model is built
        (building a large model counts against the limit): the one conversion of the
        call's deadline into CP-SAT's ``max_time_in_seconds``.
        """
        from cp_queens.engines.cpsat import greedy
        from cp_queens.engines.cpsat.model import build_model
        from cp_queens.engines.cpsat.search import add_fixed_search, fixed_parameters
        from cp_queens.engines.cpsat.symmetry import add_symmetry_breaking

        task = call.task
        # The size that picks the search of one solution: an empty board's (a completion
        # keeps its own rule, below: the count's search when it may have none).
        rows = problem.n if problem.is_empty_board else None
        strategy = self.search.resolve(task, rows)
        settings = self.settings
        if strategy == "greedy" and self.symmetry != "none":
            strategy = "portfolio"  # auto with symmetry breaking: the integer model
        elif strategy == "greedy" and self.search.name == "auto" and _may_have_none(problem):
            strategy = "portfolio"  # the count's search: proves "none" as fast as it
            settings = settings.with_defaults({"num_workers": 1})
        call.stats.extra["strategy"] = (
            self.search.describe(task, rows)
            if strategy == self.search.resolve(task, rows)
            else strategy
        )
        # Which model ran: the card's (``model.py``) or the 0/1 board of the greedy search.
        call.stats.extra["model"] = "0/1 board" if strategy == "greedy" else "integer"
        if strategy == "greedy":
            settings = settings.with_defaults(greedy.GREEDY_PARAMETERS)
            model, decode = greedy.model_and_decoder(problem)
            return model, decode, settings.within(call.remaining())
        if self.symmetry == "none":
            model, q = build_model(problem)
            residue = problem.residue()
        else:
            # Symmetry breaking speaks of the whole board, so the model keeps every row and
            # states the given queens and blocked squares as constraints: the answer is the
            # completions that are also canonical.
            model, q = build_model(Problem(problem.n))
            for row, col in problem.fixed.items():
                model.add(q[row] == col)
            for row, col in problem.blocked:
                model.add(q[row] != col)
            residue = Problem(problem.n).residue()
        add_symmetry_breaking(model, q, self.symmetry)
        decode = _columns_of(residue, q)
        if strategy == "fixed":
            add_fixed_search(model, q, self.search, self.settings.seed, n=problem.n)
            settings = settings.with_defaults(fixed_parameters(self.search))
        return model, decode, settings.within(call.remaining())


def _may_have_none(problem: Problem) -> bool:
    """A completion small enough to prove impossible (see ``PROVE_UP_TO``)."""
    return not problem.is_empty_board and problem.n - len(problem.fixed) <= PROVE_UP_TO


def _columns_of(residue: Residue, q: list[cp_model.IntVar]) -> runner.Decoder:
    """The whole board from a solution of the model: ``q`` and the given queens put back."""
    if residue.is_whole_board:

        def decode(solution: cp_model.CpSolverSolutionCallback) -> tuple[int, ...]:
            return tuple(solution.value(v) for v in q)

        return decode

    def decode_residue(solution: cp_model.CpSolverSolutionCallback) -> tuple[int, ...]:
        return residue.place([solution.value(v) for v in q]).cols

    return decode_residue
