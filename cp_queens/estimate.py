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

import random
from dataclasses import dataclass

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
