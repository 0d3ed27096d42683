"""Search strategies of the ``cpsat`` engine: how CP-SAT picks its next decision.

Three strategies a course can compare (``strategy=`` on the ``cpsat`` engine,
``--strategy`` on the command line):

* ``"portfolio"`` - CP-SAT's own default: with several workers, a portfolio
  of differently configured searches racing each other (``workers``).
* ``"fixed"`` - ``search_branching = FIXED_SEARCH`` with a decision strategy
  on ``q``: a *variable order* (``"input"``: rows in order, CP-SAT's
  ``CHOOSE_FIRST``; ``"min-domain"``: ``CHOOSE_MIN_DOMAIN_SIZE``) and a
  *value order* (``"min"``, ``"max"``, ``"median"``: ``SELECT_MIN_VALUE``,
  ``SELECT_MAX_VALUE``, ``SELECT_MEDIAN_VALUE``; ``"random"``: see below).
* ``"greedy"`` - the large-board setting (details in
  ``cp_queens.engines.cpsat.greedy``): the 0/1 view of the same model,
  and every decision puts a queen on a random free square; clause learning
  repairs the few dead ends. The default of ``first()`` on large boards.

``"auto"`` (the default) means ``portfolio`` - the design card's integer model
itself - for counting and enumeration, and for one solution of a board up to
``FIRST_MODEL_UP_TO`` (so that ``cp-queens solve 8`` runs the model the README
shows, and a student who edits it sees the edit run); beyond that size, where
it was measured to win (``benchmarks/first_default.py``), ``greedy`` for one
solution. One exception, made by the engine: one solution of a completion with
few free rows is searched as the count searches (``PROVE_UP_TO`` in
``engines/cpsat``), since the greedy search cannot prove that none exists.

Two honest caveats, both found by measuring:

* CP-SAT's ``CHOOSE_MIN_DOMAIN_SIZE`` measures a domain by its *bounds*,
  ``ub - lb + 1`` (the OR-Tools source says so), not by the values left in
  it. A queen removes columns from the *middle* of other rows' domains, which
  bounds do not see, so this is not the textbook first-fail rule that solves
  large boards with almost no backtracking.
* CP-SAT has no random value order. ``"random"`` is a random permutation of
  each row's columns, stated in the model: a rank ``p[r]`` with
  ``q[r] == perm_r[p[r]]`` (an ``Element`` constraint) and the decisions
  ``p[r] = smallest rank left``. The permutation comes from ``seed``. The
  channel costs an ``n x n`` encoding, fine for the boards a lesson compares.
  Presolve is switched off for it: presolve removes an ``Element`` whose
  index appears nowhere else, and the ranks with it, and the search then ran
  in plain ``min`` order whatever the seed (seen here).

Whatever the strategy, counting and enumeration stay exact: a strategy only
orders the search, and the extra ranks are fixed by ``q`` (one-to-one), so no
solution is lost or reported twice. The tests check every strategy against
the reference backtracker.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cp_queens.errors import CpQueensError

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

#: ``strategy="auto"`` finds one solution of an empty board up to this size with the
#: integer model and CP-SAT's own search (``portfolio``), beyond it with ``greedy``:
#: from n = 40 on, every ``cp-queens solve N`` with greedy took less CPU than the cheapest
#: with the model (0.50-0.54 s against 0.56-0.59 s at n = 40; 0.47-0.59 against 0.96-1.16
#: at n = 96), while up to n = 32 the two ranges overlap: ``benchmarks/first_default.py``,
#: docs/benchmarks.md ("The default first solution").
FIRST_MODEL_UP_TO = 32

#: Values of the ``strategy`` option.
STRATEGIES = ("auto", "portfolio", "fixed", "greedy")
#: Variable orders of ``strategy="fixed"``, with CP-SAT's names.
VARIABLE_ORDERS = dict(
    zip(("input", "min-domain"), ("CHOOSE_FIRST", "CHOOSE_MIN_DOMAIN_SIZE"), strict=True)
)
#: Value orders of ``strategy="fixed"``; ``random`` is built in the model (see above).
VALUE_ORDERS = dict(
    zip(
        ("min", "max", "median", "random"),
        ("SELECT_MIN_VALUE", "SELECT_MAX_VALUE", "SELECT_MEDIAN_VALUE", "SELECT_MIN_VALUE"),
        strict=True,
    )
)

#: Parameters of the fixed search. With more than one worker the others would
#: run CP-SAT's own portfolio and the race would hide the strategy; SAT
#: inprocessing (vivification) was measured to multiply a fixed search's time
#: by 20 at n = 100 for no gain.
FIXED_PARAMETERS: dict[str, Any] = {
    "search_branching": "FIXED_SEARCH",
    "num_workers": 1,
    "use_sat_inprocessing": False,
}


def fixed_parameters(strategy: SearchStrategy) -> dict[str, Any]:
    """Solver parameters for ``strategy="fixed"`` (see ``FIXED_PARAMETERS``)."""
    if strategy.value_order == "random":
        return {**FIXED_PARAMETERS, "cp_model_presolve": False}
    return dict(FIXED_PARAMETERS)


@dataclass(frozen=True)
class SearchStrategy:
    """Which search the ``cpsat`` engine asks CP-SAT for (see the module docstring).

    Examples:
        >>> SearchStrategy("fixed", "min-domain", "median").describe()
        'fixed(min-domain,median)'
        >>> SearchStrategy().resolve("first", 8), SearchStrategy().resolve("first", 1000)
        ('portfolio', 'greedy')
    """

    name: str = "auto"
    variable_order: str = "input"
    value_order: str = "min"

    def __post_init__(self) -> None:
        _check("search strategy", self.name, STRATEGIES)
        _check("variable order", self.variable_order, VARIABLE_ORDERS)
        _check("value order", self.value_order, VALUE_ORDERS)

    def resolve(self, task: str, rows: int | None = None) -> str:
        """The concrete strategy for ``task`` (``"first"``, ``"count"``, ``"solutions"``)
        on a board of ``rows`` free rows (``None``: a large one)."""
        if self.name != "auto":
            return self.name
        if task == "first" and (rows is None or rows > FIRST_MODEL_UP_TO):
            return "greedy"
        return "portfolio"

    def describe(self, task: str = "first", rows: int | None = None) -> str:
        name = self.resolve(task, rows)
        if name == "fixed":
            return f"fixed({self.variable_order},{self.value_order})"
        return name


def _check(what: str, value: str, allowed: Sequence[str] | dict[str, Any]) -> None:
    if value not in allowed:
        raise CpQueensError(f"unknown {what} '{value}' (choose one of: {', '.join(allowed)})")


def add_fixed_search(
    model: cp_model.CpModel,
    q: Sequence[cp_model.IntVar],
    strategy: SearchStrategy,
    seed: int | None = None,
    *,
    n: int | None = None,
) -> None:
    """Add the decision strategy of ``strategy="fixed"`` to the integer model on ``q``.

    ``n`` is the board size when ``q`` holds only some rows (a completion).
    """
    from ortools.sat.python import cp_model

    choose = getattr(cp_model, VARIABLE_ORDERS[strategy.variable_order])
    select = getattr(cp_model, VALUE_ORDERS[strategy.value_order])
    if strategy.value_order != "random":
        model.add_decision_strategy(q, choose, select)
        return
    n = len(q) if n is None else n
    shuffle = random.Random(0 if seed is None else seed)
    ranks = []
    for r, column in enumerate(q):
        order = list(range(n))
        shuffle.shuffle(order)
        rank = model.new_int_var(0, n - 1, f"rank{r}")
        model.add_element(rank, order, column)  # column == order[rank]
        ranks.append(rank)
    model.add_decision_strategy(ranks, choose, select)
