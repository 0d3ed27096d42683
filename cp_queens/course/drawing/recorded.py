"""What a recorded search is: its nodes, its animation steps, and the engine's statistics.

The data every drawing reads (``tree``, ``animation``, ``slides``), kept apart from the
recorder (``trace.record``) and from the drawings, so that each drawing module depends
on the data and not on the others: ``trace.Trace`` is a ``Recording`` that can draw itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cp_queens.stats import Stats


@dataclass
class Node:
    """One node of the search tree: the board after a queen was put on ``(row, col)``.

    Attributes:
        index: position in ``Trace.nodes`` (creation order, depth first).
        parent: index of the parent node, ``None`` for a child of the root.
        row, col: the queen placed here.
        queens: every queen on the board at this node, ``(row, col)`` pairs.
        crossed: squares crossed out by propagation at this node (from the root on).
        outcome: ``"inner"``, ``"solution"``, ``"dead-end"`` or ``"pruned"``.
        children: indices of the child nodes.
        emptied: at a dead end or a pruned node, the rows that ended the branch (the row
            left without a square, or the rows whose last squares clash); empty otherwise.
        why: those rows in words, for captions and tooltips.
    """

    index: int
    parent: int | None
    row: int
    col: int
    queens: tuple[tuple[int, int], ...]
    crossed: set[tuple[int, int]] = field(default_factory=set)
    outcome: str = "inner"
    children: list[int] = field(default_factory=list)
    emptied: tuple[int, ...] = ()
    why: str = ""


@dataclass(frozen=True)
class Step:
    """One frame of the animation: the board and a caption."""

    queens: tuple[tuple[int, int], ...]
    crossed: frozenset[tuple[int, int]]
    mark: tuple[int, int] | None  # the square this step is about
    colour: str
    caption: str
    rows: tuple[int, ...] = ()  # rows drawn in red: the ones that ended a branch


@dataclass
class Recording:
    """A recorded search: its tree, its steps, and the engine's statistics (the data every
    drawing reads; ``Trace`` adds the drawings themselves)."""

    n: int
    label: str
    given: tuple[tuple[int, int], ...]
    root_crossed: set[tuple[int, int]]
    root_outcome: str
    nodes: list[Node]
    steps: list[Step]
    stats: Stats
    root_emptied: tuple[int, ...] = ()  # when the given queens alone leave a row empty

    def to_text(self) -> str:
        """A few lines within 80 columns for a terminal (a notebook draws the tree)."""
        import textwrap

        fails = sum(node.outcome in ("dead-end", "pruned") for node in self.nodes)
        words = (
            f"search tree, n = {self.n} ({self.label}): {len(self.nodes)} nodes, "
            f"{self.stats.solutions} solutions, {fails} fails - drawn in the notebook, or by "
            "cp-queens trace"
        )
        return "\n".join(textwrap.wrap(words, 78, subsequent_indent="  "))
