"""The search drawn: a tree of partial boards, and the board animated step by step.

A backtracking search is easiest to understand by watching it. ``record``
runs the ``reference`` or ``propagate`` engine with a tracer (see
``cp_queens.engines.base.Tracer``) and keeps what it did as a
``Trace``:

* ``Trace.tree_svg`` - the search tree. Every node is the partial board
  after one queen was placed (the root is the empty board, or the given
  queens); squares crossed out by propagation are marked ``x``. Colours tell
  what became of a node: a **solution** (green), a **dead end** (red: no square
  of the next row could be tried), **pruned by propagation** (orange:
  propagation left some row without a square, so the search backtracked
  without looking further), or an inner node (blue).
* ``Trace.animation_svg`` - a self-contained animated SVG (SMIL, no
  script) of the board: a queen placed, squares crossed out by propagation, a
  dead end, a backtrack. ``Trace.animation_html`` wraps it in a page with
  play / pause / step buttons.

Both work in a browser and in Jupyter: a ``Trace`` shows its tree
(``_repr_svg_``), ``trace.animation()`` the animation (``_repr_html_``).

This module records the search (``record``, ``Trace``); the drawing is done by
``cp_queens.course.drawing.tree`` (the tree), ``cp_queens.course.drawing.animation``
(the animation) and ``cp_queens.course.drawing.board`` (one board, the colours).

Small boards only: a tree of more than ``MAX_TREE_NODES`` nodes or an
animation of more than ``MAX_STEPS`` steps cannot be read, and
``record`` refuses with a ``TraceTooLargeError`` (``--first``, a
smaller n or stronger propagation make it smaller).

Examples:
    >>> trace = record(4, engine="propagate", consistency="forward")
    >>> len(trace.nodes) == trace.stats.branches
    True
    >>> [node.outcome for node in trace.nodes if node.outcome != "inner"]
    ['pruned', 'pruned', 'solution', 'solution', 'pruned', 'pruned']
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

import cp_queens.engines as engines
from cp_queens.course.drawing.animation import (
    ANIMATION_SECONDS,
    FASTEST_STEP,
    SLOWEST_STEP,
    Animation,
    animation_html,
    animation_svg,
    wrap,
)
from cp_queens.course.drawing.board import COLOURS, ranks, square
from cp_queens.course.drawing.recorded import Node, Recording, Step
from cp_queens.course.drawing.tree import tree_html, tree_svg
from cp_queens.errors import CpQueensError
from cp_queens.problem import Problem
from cp_queens.stats import Stats

#: Names drawn elsewhere, kept importable from here (where callers and docs look).
__all__ = [
    "Animation",
    "Node",
    "Step",
    "Trace",
    "TraceTooLargeError",
    "emptied_rows",
    "record",
    "tree_html",
    "wrap",
]

#: Engines that report their search steps.
TRACEABLE = ("reference", "propagate")
#: Largest board ``record`` accepts.
MAX_N = 10
#: Largest tree drawn, and longest animation written.
MAX_TREE_NODES = 400
MAX_STEPS = 2000


class TraceTooLargeError(CpQueensError):
    """The search is too big to draw legibly."""


@dataclass
class Trace(Recording):
    """A recorded search that draws itself: its tree (``tree_svg``, and in Jupyter
    ``_repr_svg_``) and its board step by step (``animation_svg``, ``animation``)."""

    def tree_svg(self) -> str:
        """The search tree as SVG, root at the top, one partial board per node."""
        return tree_svg(self)

    def seconds_per_step(self, seconds: float | None = None) -> float:
        """``seconds``, or by default a pace that plays the whole animation in about
        ``ANIMATION_SECONDS`` (never faster than ``FASTEST_STEP`` a step: a lecture
        needs time to see each queen)."""
        if seconds is not None:
            return seconds
        return round(min(SLOWEST_STEP, max(FASTEST_STEP, ANIMATION_SECONDS / len(self.steps))), 2)

    def animation_svg(self, *, seconds_per_step: float | None = None) -> str:
        """The board step by step as a self-contained, looping animated SVG."""
        return animation_svg(self, self.seconds_per_step(seconds_per_step))

    def animation_html(self, *, seconds_per_step: float | None = None) -> str:
        """An HTML page: the animated board with play, pause and step buttons."""
        return animation_html(self, self.seconds_per_step(seconds_per_step))

    def animation(self, *, seconds_per_step: float | None = None) -> Animation:
        """The animation as an object Jupyter displays."""
        return Animation(self, self.seconds_per_step(seconds_per_step))

    def _repr_svg_(self) -> str:
        return self.tree_svg()


def record(
    n: int,
    *,
    engine: str = "reference",
    first: bool = False,
    fixed: dict[int, int] | None = None,
    max_nodes: int = MAX_TREE_NODES,
    max_steps: int = MAX_STEPS,
    **options: Any,
) -> Trace:
    """Run ``engine`` on an ``n`` board (all solutions, or only the ``first``) and record it.

    ``options`` go to the engine (``consistency=``, ``variable_order=``, ...).
    Raises ``TraceTooLargeError`` as soon as the search outgrows what can be
    drawn (``max_nodes`` nodes, ``max_steps`` animation steps).
    """
    if engine not in TRACEABLE:
        raise CpQueensError(
            f"trace: engine '{engine}' does not report its search steps "
            f"(choose from {', '.join(TRACEABLE)})"
        )
    if n > MAX_N:
        raise TraceTooLargeError(
            f"trace: n={n} is too large to draw legibly (n <= {MAX_N}; the tree grows "
            "exponentially)"
        )
    problem = Problem(n, fixed or {})
    recorder = _Recorder(problem, max_nodes, max_steps, _describe(engine, first, options))
    solver, budget = engines.build(engine, tracer=recorder, **options)
    task = solver.first if first else solver.count
    answer = task(problem, budget=budget)
    return Trace(
        n=n,
        label=recorder.label,
        given=tuple(problem.fixed.items()),
        root_crossed=recorder.root_crossed,
        root_outcome=recorder.root_outcome,
        nodes=recorder.nodes,
        steps=recorder.steps,
        stats=answer.stats or Stats(engine=engine, n=n),
        root_emptied=recorder.root_emptied,
    )


def _describe(engine: str, first: bool, options: dict[str, Any]) -> str:
    words = [engine, *(f"{key}={value}" for key, value in options.items())]
    words.append("first solution" if first else "all solutions")
    return ", ".join(words)


class _Recorder:
    """The tracer: turns the engine's events into tree nodes and animation steps."""

    def __init__(self, problem: Problem, max_nodes: int, max_steps: int, label: str) -> None:
        self.n = problem.n
        self.max_nodes = max_nodes
        self.max_steps = max_steps
        self.label = label
        self.given = tuple(problem.fixed.items())
        self.nodes: list[Node] = []
        self.steps: list[Step] = []
        self.path: list[int] = []  # the nodes from the root down to the current one
        self.root_crossed: set[tuple[int, int]] = set()
        self.root_outcome = "inner"
        self.root_emptied: tuple[int, ...] = ()
        self.solutions = 0
        self.pending_removals = 0
        self.step("the empty board" if not self.given else "the given queens", None, "inner")

    # -- what the current node is ---------------------------------------------

    def queens(self) -> tuple[tuple[int, int], ...]:
        return self.nodes[self.path[-1]].queens if self.path else self.given

    def crossed(self) -> set[tuple[int, int]]:
        return self.nodes[self.path[-1]].crossed if self.path else self.root_crossed

    def step(
        self,
        caption: str,
        mark: tuple[int, int] | None,
        outcome: str,
        rows: tuple[int, ...] = (),
    ) -> None:
        if len(self.steps) >= self.max_steps:
            raise TraceTooLargeError(
                f"trace: the search takes more than {self.max_steps} steps, too many to animate "
                "(try the first solution only, a smaller n or stronger propagation)"
            )
        self.steps.append(
            Step(self.queens(), frozenset(self.crossed()), mark, COLOURS[outcome], caption, rows)
        )

    def flush_removals(self) -> None:
        """Show the squares crossed out since the last step as one step."""
        if self.pending_removals:
            count, self.pending_removals = self.pending_removals, 0
            squares = "square" if count == 1 else "squares"
            self.step(f"propagation crosses out {count} {squares}", None, "inner")

    # -- the tracer -------------------------------------------------------------

    def __call__(self, kind: str, row: int, col: int) -> None:
        if kind != "remove":
            self.flush_removals()
        if kind == "place":
            if len(self.nodes) >= self.max_nodes:
                raise TraceTooLargeError(
                    f"trace: the search tree has more than {self.max_nodes} nodes, too many to "
                    "draw legibly (try the first solution only, a smaller n or stronger "
                    "propagation)"
                )
            parent = self.path[-1] if self.path else None
            node = Node(
                len(self.nodes),
                parent,
                row,
                col,
                (*self.queens(), (row, col)),
                set(self.crossed()),
            )
            if parent is not None:
                self.nodes[parent].children.append(node.index)
            self.nodes.append(node)
            self.path.append(node.index)
            self.step(f"queen on {square(row, col, self.n)}", (row, col), "inner")
        elif kind == "remove":
            self.crossed().add((row, col))
            self.pending_removals += 1
        elif kind == "reject":
            pass  # a square tested and refused: visible as the dead end it may lead to
        elif kind == "fail":
            rows, why = emptied_rows(self.n, self.queens(), self.crossed())
            self.set_outcome("pruned", rows, why)
            self.step(f"{why}: propagation prunes this branch", None, "pruned", rows)
        elif kind == "dead-end":
            why = f"{ranks((row,), self.n)}: every square is attacked"
            self.set_outcome("dead-end", (row,), why)
            self.step(f"{why} - dead end", None, "dead-end", (row,))
        elif kind == "solution":
            self.solutions += 1
            self.set_outcome("solution")
            self.step(f"solution {self.solutions}", None, "solution")
        elif kind == "undo":
            self.path.pop()
            self.step(
                f"backtrack: take the queen off {square(row, col, self.n)}", (row, col), "inner"
            )

    def set_outcome(self, outcome: str, emptied: tuple[int, ...] = (), why: str = "") -> None:
        if self.path:
            node = self.nodes[self.path[-1]]
            node.outcome, node.emptied, node.why = outcome, emptied, why
        else:
            self.root_outcome = outcome
            self.root_emptied = emptied


def emptied_rows(
    n: int, queens: tuple[tuple[int, int], ...], crossed: set[tuple[int, int]]
) -> tuple[tuple[int, ...], str]:
    """Why propagation gave up on a board: the rows to blame, and the reason in words.

    The engine only says *that* propagation failed; the board says why. Most often a
    row is left without a square (forward checking, arc consistency). Otherwise two
    rows are down to one square each and those attack each other (arc consistency),
    or a few rows have fewer columns or diagonals left than they need queens (the
    ``alldiff`` level's Hall sets): the smallest such set is named.
    """
    taken = {row for row, _ in queens}
    left = {
        row: [col for col in range(n) if (row, col) not in crossed]
        for row in range(n)
        if row not in taken
    }
    empty = tuple(row for row, cols in left.items() if not cols)
    if empty:
        verb = "has" if len(empty) == 1 else "have"
        return empty, f"{ranks(empty, n)} {verb} no square left"
    singles = [(row, cols[0]) for row, cols in left.items() if len(cols) == 1]
    for i, (a, x) in enumerate(singles):
        for b, y in singles[i + 1 :]:
            if x == y or abs(x - y) == abs(a - b):
                return (a, b), f"the last squares of ranks {n - a} and {n - b} attack each other"
    lines = (
        ("columns", lambda r, c: c),
        ("diagonals", lambda r, c: r + c),
        ("diagonals", lambda r, c: c - r),
    )
    for size in range(2, len(left) + 1):
        for rows in combinations(sorted(left), size):
            for name, line in lines:
                free = {line(r, c) for r in rows for c in left[r]}
                if len(free) < size:
                    return rows, f"{ranks(rows, n)} have only {len(free)} {name} left"
    return (), "propagation found no way on"
