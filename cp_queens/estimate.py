"""How big a search is, estimated before it starts: Knuth's random probes.

A count of an empty board is priced from the known totals (``limits``); a count of a
given board (a completion) has no table to read. Its search tree is sized instead by
Knuth's estimator ("Estimating the efficiency of backtrack programs", *Mathematics of
Computation* 29, 1975): walk from the root to a leaf, at each row choosing one open
column at random; the products of the branching factors met on the way are an
unbiased estimate of the nodes on each level, and the last one of the solutions. The
mean over a few hundred such walks is right within a small factor on these trees,
which is all a check needs: it guards against requests off by factors of millions
(``complete --count`` of n = 40 with one queen given: some 10^40 nodes).

The tree is the plain one, rows of the residue in order (``Problem.residue``), as
the ``fast`` and ``reference`` engines search it; an engine that propagates searches a
smaller tree, but pays more a node, which its ``seconds_per_node`` says.

Examples:
    >>> from cp_queens.problem import Problem
    >>> tree = search_tree(Problem(8))
    >>> 40 < tree.solutions < 200 and 1000 < tree.nodes < 4000   # 92 and 1965
    True
    >>> huge = search_tree(Problem(40, {0: 0}))
    >>> huge.nodes > 1e24, huge.at_least
    (True, True)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cp_queens.limits as limits
from cp_queens.errors import UnsupportedTaskError
from cp_queens.problem import Problem

#: Walks per estimate at most; fewer on a tall residue (``STEPS`` rows walked in all).
PROBES = 1000
#: Rows walked over all probes at most, so that an estimate costs well under a second.
STEPS = 200_000
#: A walk whose running product passes this stops there, and so do the walks once
#: their mean has: the tree is beyond any reach (10^25 nodes at a nanosecond each on a
#: thousand cores is 300,000 years), and the estimate says "at least".
HUGE = 1e25


@dataclass(frozen=True)
class Tree:
    """Estimated size of the search tree of a problem's residue."""

    #: Nodes (queens placed, at every depth), the root excluded.
    nodes: float
    #: Leaves at full depth: the completions.
    solutions: float
    #: Walks made.
    probes: int
    #: The walks stopped at ``HUGE``: the figures are lower bounds, the tree larger.
    at_least: bool = False


def search_tree(problem: Problem, *, probes: int | None = None, seed: int = 0) -> Tree:
    """Knuth's estimate of the search tree of ``problem``'s residue (see the module).

    Repeatable: the walks are drawn from ``random.Random(seed)``.
    """
    residue = problem.residue()
    n, rows = problem.n, residue.rows
    if not rows:
        return Tree(0.0, 1.0, 0)
    # Open columns of each free row as a bit mask (bit c: column c): the free columns
    # less the few closed in that row (a row of a huge board costs its closed squares).
    free = sum(1 << col for col in residue.columns)
    opens = [free & ~sum(1 << col for col in closed) for closed in residue.closed]
    count = probes if probes is not None else max(20, min(PROBES, STEPS // len(rows)))
    chance = random.Random(seed)
    nodes = solutions = 0.0
    for walks in range(1, count + 1):
        walked, done = _walk(n, rows, opens, chance)
        nodes += walked
        solutions += done
        if nodes > HUGE * count:  # the mean is past HUGE whatever the other walks find
            return Tree(nodes / count, solutions / count, walks, at_least=True)
    return Tree(nodes / count, solutions / count, count)


def _walk(
    n: int, rows: tuple[int, ...], opens: list[int], chance: random.Random
) -> tuple[float, float]:
    """One random walk: (estimated nodes, estimated leaves at full depth)."""
    columns = sums = differences = 0  # bit c, bit r + c, bit c - r + n - 1
    product = 1.0
    nodes = 0.0
    for row, allowed in zip(rows, opens, strict=True):
        free = allowed & ~columns & ~(sums >> row) & ~(differences >> (n - 1 - row))
        choices = free.bit_count()
        if choices == 0:
            return nodes, 0.0
        product *= choices
        nodes += product
        if product > HUGE:
            return nodes, product  # beyond reach already: stop walking
        col = _pick(free, choices, n, chance)
        bit = 1 << col
        columns |= bit
        sums |= 1 << (row + col)
        differences |= 1 << (col - row + n - 1)
    return nodes, product


def _pick(free: int, choices: int, n: int, chance: random.Random) -> int:
    """A column drawn uniformly from the set bits of ``free`` (``choices`` of them).

    On a wide row most columns are open: draw columns until one is (a few draws);
    on a sparse one, walk to the chosen bit (a few steps).
    """
    if choices * 8 >= n:
        while True:
            col = chance.randrange(n)
            if free >> col & 1:
                return col
    pick = chance.randrange(choices)
    while pick:  # drop the lowest set bits until the chosen one is lowest
        free &= free - 1
        pick -= 1
    return (free & -free).bit_length() - 1


def tree_seconds(engine: limits.Costs, tree: Tree, cores: int = 1) -> float | None:
    """Rough wall seconds to count the completions of a search tree sized by
    ``search_tree`` (``None``: the engine has no figure for either).

    The larger of its nodes at ``seconds_per_node`` and its leaves at
    ``seconds_per_solution``: a tree with no solution at all (a proof of "none") still
    costs its nodes, and an engine without a node figure (a solver that reports only
    solutions) is priced by what it reports.
    """
    per_node = getattr(engine, "seconds_per_node", None)
    per_solution = engine.seconds_per_solution
    costs = [
        figure * float(per)
        for figure, per in ((tree.nodes, per_node), (tree.solutions, per_solution))
        if per is not None
    ]
    if not costs:
        return None
    if not engine.counts_on_every_core:
        cores = 1
    return max(costs) / max(1, cores)


def check_tree_reach(
    engine: limits.Costs, problem: Problem, tree: Tree, cores: int
) -> float | None:
    """Refuse a count of a given board (a completion) that would run for more than a
    year, as ``limits.check_count_reach`` does for an empty board: its duration is priced
    from its search tree, sized by random probes before any work (``search_tree``).

    The caller checks this only without a time limit (with one, a partial count is
    accepted). Returns the estimated wall seconds (``None``: unknown).
    """
    seconds = tree_seconds(engine, tree, cores)
    if seconds is None or seconds <= limits.BEYOND_REACH:
        return seconds
    duration = limits.format_duration(seconds)
    if tree.at_least and duration.startswith("about "):
        duration = "more than " + duration.removeprefix("about ")
    if tree.at_least:
        size = f"a search tree of more than {_magnitude(tree.nodes)} nodes"
    else:
        size = (
            f"about {_magnitude(tree.solutions)} completions in a search tree of about "
            f"{_magnitude(tree.nodes)} nodes"
        )
    given = len(problem.fixed)
    what = f"{given} given queen{'s' * (given != 1)}"
    if problem.blocked:
        what += f", {len(problem.blocked)} blocked squares"
    raise UnsupportedTaskError(
        f"counting the completions of n={problem.n} ({what}) with engine '{engine.name}' "
        f"would take {duration} on this machine ({cores} "
        f"core{'s' * (cores != 1)}): {size} ({tree.probes} random probes). "
        "Give a time limit of S seconds to count for that long anyway"
    )


def _magnitude(figure: float) -> str:
    """``3e+41``-style for huge figures, ``1,234`` for countable ones."""
    if not math.isfinite(figure):
        return "infinitely many"
    return f"{figure:,.0f}" if figure < 1e9 else f"{figure:.0e}"
