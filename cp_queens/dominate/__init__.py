"""Queens domination: the fewest queens that occupy or attack every square.

The satisfaction problems of the other modules ask "is there a board?"; this
one asks "how few queens will do?", an optimisation problem with an objective,
bounds and a gap (OEIS A075458; with non-attacking queens, the independent
domination number, OEIS A075324). One job a module:

* ``cp_queens.dominate.check`` - the independent checker and a brute force,
  plain Python, no solver;
* ``cp_queens.dominate.construct`` - a dominating set written down without a
  solver (greedy set cover), the incumbent every run starts from;
* ``cp_queens.dominate.models`` - the 0/1 model, written once for CP-SAT and
  for SCIP (a set cover), with symmetry breaking (``symmetric``: the image of a
  set those rows accept);
* ``cp_queens.dominate.solve`` - running a model: best set, proven bound, gap.

Not an engine of the N-Queens registry: an engine places n non-attacking queens,
one per row; a dominating set has fewer queens and no such shape.
"""

from __future__ import annotations

from cp_queens.dominate.check import (
    attacks,
    classic_lower_bound,
    dominates,
    smallest_dominating_set,
)
from cp_queens.dominate.construct import full_row, greedy
from cp_queens.dominate.solve import Domination, Step, dominate, largest_n, lp_bound

__all__ = [
    "Domination",
    "Step",
    "attacks",
    "classic_lower_bound",
    "dominate",
    "dominates",
    "full_row",
    "greedy",
    "largest_n",
    "lp_bound",
    "smallest_dominating_set",
]
