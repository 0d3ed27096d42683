"""The search tree of a ``Trace`` as SVG: one partial board per node, root at the top.

Laid out wide and shallow, like a slide: the leaves side by side in search order,
each parent centred over its children, one level per queen placed. The slides
(``cp_queens.course.drawing.slides``) reuse the layout to draw several trees side by side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cp_queens.course.drawing.board import (
    COLOURS,
    EMPTIED,
    LEGEND,
    SHORT_LEGEND,
    board_svg,
    escape,
    ranks,
    square,
)

if TYPE_CHECKING:
    from cp_queens.course.drawing.recorded import Node, Recording


@dataclass
class Layout:
    """Where each node of a tree goes: leaves side by side in search order, each parent
    centred over its children, one level per queen placed (root at level 0).

    Coordinates are in units: a leaf is 1 wide, a level 1 tall; the drawing scales them.
    ``rows_in_order`` says whether level ``d`` is row ``d - 1`` for every node (the rows
    were taken in order), so that a level can be labelled with its row.
    """

    x: dict[int, float]
    level: dict[int, int]
    root_x: float
    leaves: int
    depth: int
    rows_in_order: bool


def layout(trace: Recording) -> Layout:
    """Lay a tree out wide and shallow: as many columns as leaves, as many levels as rows."""
    x: dict[int, float] = {}
    level: dict[int, int] = {}
    for node in trace.nodes:
        level[node.index] = 1 if node.parent is None else level[node.parent] + 1
    leaves = 0

    def place(index: int | None, children: list[int]) -> float:
        nonlocal leaves
        if children:
            xs = [place(child, trace.nodes[child].children) for child in children]
            here = (xs[0] + xs[-1]) / 2
        else:
            here = leaves + 0.5
            leaves += 1
        if index is not None:
            x[index] = here
        return here

    root_x = place(None, [node.index for node in trace.nodes if node.parent is None])
    given_rows = {row for row, _ in trace.given}
    free_rows = [row for row in range(trace.n) if row not in given_rows]
    in_order = all(
        level[node.index] - 1 < len(free_rows) and node.row == free_rows[level[node.index] - 1]
        for node in trace.nodes
    )
    return Layout(x, level, root_x, max(leaves, 1), max(level.values(), default=0), in_order)


def level_label(trace: Recording, shape: Layout, depth: int) -> str:
    """``"rank 3"`` for a level when the rows were taken in order, else ``"3 queens"``."""
    if depth == 0:
        return "given" if trace.given else "start"
    if shape.rows_in_order:
        free_rows = [row for row in range(trace.n) if row not in {r for r, _ in trace.given}]
        return ranks((free_rows[depth - 1],), trace.n)
    return f"{depth} queen{'s' if depth > 1 else ''}"


#: The widest a tree of boards may become before its boards shrink (px).
TREE_WIDTH = 1840


@dataclass(frozen=True)
class _Drawing:
    """Where a tree's boards go in px: sizes fitted to the widest level, a narrow tree
    centred. One value shared by the parts of ``tree_svg``, so that each draws in the
    same places."""

    shape: Layout
    cell: float  # one square
    size: float  # one board
    spacing: float  # from one leaf to the next
    level_height: float
    top: float  # of the root's board
    start: float  # of the leaves' first column
    width: float
    height: float
    label_size: int = 16  # the rows named under a failed node

    def at(self, index: int | None) -> tuple[float, float]:
        """The top-left corner of a node's board (``None``: the root)."""
        x = self.shape.root_x if index is None else self.shape.x[index]
        depth = 0 if index is None else self.shape.level[index]
        return self.start + x * self.spacing - self.size / 2, self.top + depth * self.level_height


def _drawing(trace: Recording) -> _Drawing:
    """Boards as large as fit ``TREE_WIDTH`` (3 to 14 px a square), wide and shallow."""
    shape = layout(trace)
    gap = 12.0
    cell = max(3.0, min(14.0, (TREE_WIDTH / shape.leaves - gap) / trace.n))
    size = trace.n * cell
    spacing = size + gap
    level_height = size + 46
    axis = 78  # the levels' labels
    left = 20 + axis
    top = 150
    label_size = 16
    width = max(left + shape.leaves * spacing + 20, 1000)
    start = left + (width - 20 - left - shape.leaves * spacing) / 2  # a narrow tree centred
    height = top + shape.depth * level_height + size + 20 + (label_size + 6)
    return _Drawing(shape, cell, size, spacing, level_height, top, start, width, height, label_size)


def tree_svg(trace: Recording) -> str:
    """Boards as nodes, root at the top, leaves side by side: wide and shallow like a slide."""
    drawing = _drawing(trace)
    parts = [*_heading(trace, drawing), *_level_labels(trace, drawing)]
    parts += _edges(trace, drawing)  # edges first, so that boards cover them
    parts += _root(trace, drawing)
    for node in trace.nodes:
        parts += _node(trace, node, drawing)
    parts.append("</svg>")
    return "\n".join(parts)


def _heading(trace: Recording, drawing: _Drawing) -> list[str]:
    """The SVG's opening tag, its title (how many nodes, solutions, fails) and legend."""
    width, height = drawing.width, drawing.height
    solutions = trace.stats.solutions
    fails = sum(node.outcome in ("dead-end", "pruned") for node in trace.nodes)
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="18">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="20" y="34" font-size="26" font-weight="bold">Search tree, n = {trace.n}: '
        f"{len(trace.nodes)} nodes, {solutions} solution{'s' if solutions != 1 else ''}, "
        f"{fails} fails</text>",
        f'<text x="20" y="60" font-size="18" fill="#444">{escape(trace.label)}</text>',
        *_legend(20, 92),
    ]


def _level_labels(trace: Recording, drawing: _Drawing) -> list[str]:
    """Each level named on the left, level with its boards."""
    return [
        f'<text x="20" y="{drawing.top + depth * drawing.level_height + drawing.size / 2 + 6:.1f}"'
        f' fill="#555">{level_label(trace, drawing.shape, depth)}</text>'
        for depth in range(drawing.shape.depth + 1)
    ]


def _edges(trace: Recording, drawing: _Drawing) -> list[str]:
    """Every edge, parent's bottom to child's top, as one path."""
    size = drawing.size
    edges = []
    for node in trace.nodes:
        x1, y1 = drawing.at(node.parent)
        x2, y2 = drawing.at(node.index)
        edges.append(f"M{x1 + size / 2:.1f},{y1 + size:.1f}L{x2 + size / 2:.1f},{y2:.1f}")
    if not edges:
        return []
    return [f'<path d="{"".join(edges)}" stroke="#999" stroke-width="1.5" fill="none"/>']


def _root(trace: Recording, drawing: _Drawing) -> list[str]:
    """The root's board (the given queens, or the empty board) framed in its colour."""
    x, y = drawing.at(None)
    size = drawing.size
    return [
        f'<g class="root"><title>root: {"given queens" if trace.given else "empty board"}</title>',
        f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="{size + 6:.1f}" height="{size + 6:.1f}" '
        f'fill="{COLOURS[trace.root_outcome]}"/>',
        *board_svg(
            trace.n,
            x,
            y,
            drawing.cell,
            trace.given,
            trace.root_crossed,
            given=trace.given,
            emptied=trace.root_emptied,
        ),
        "</g>",
    ]


def _node(trace: Recording, node: Node, drawing: _Drawing) -> list[str]:
    """One node's board framed in its outcome's colour, with a tooltip saying what
    became of it, and under a failed node the rows that ended it."""
    x, y = drawing.at(node.index)
    size = drawing.size
    why = f" ({escape(node.why)})" if node.why else ""
    parts = [
        f'<g class="node {node.outcome}"><title>queen on {square(node.row, node.col, trace.n)}: '
        f"{LEGEND[node.outcome]}{why}</title>",
        f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="{size + 6:.1f}" '
        f'height="{size + 6:.1f}" fill="{COLOURS[node.outcome]}"/>',
        *board_svg(
            trace.n,
            x,
            y,
            drawing.cell,
            node.queens,
            node.crossed,
            given=trace.given,
            emptied=node.emptied,
        ),
    ]
    if node.emptied:
        words = ",".join(str(trace.n - row) for row in node.emptied)
        if drawing.spacing >= 9 * len(words) + 50:
            text = ranks(node.emptied, trace.n).replace(", ", ",")
        else:
            text = f"r{words}"
        parts.append(
            f'<text class="emptied-label" x="{x + size / 2:.1f}" y="{y + size + 20:.1f}" '
            f'text-anchor="middle" font-size="{drawing.label_size}" fill="{EMPTIED}">{text}</text>'
        )
    parts.append("</g>")
    return parts


def _legend(x: float, y: float) -> list[str]:
    """The colours on one line at 18 px, what the red rows mean on the next."""
    parts = []
    for outcome in ("inner", "solution", "dead-end", "pruned"):
        parts.append(
            f'<rect x="{x:.0f}" y="{y - 14:.0f}" width="16" height="16" fill="{COLOURS[outcome]}"/>'
        )
        words = SHORT_LEGEND[outcome]
        parts.append(f'<text x="{x + 22:.0f}" y="{y:.0f}">{words}</text>')
        x += 22 + 10 * len(words) + 30
    x, y = 20, y + 26
    parts.append(f'<rect x="{x}" y="{y - 14:.0f}" width="16" height="16" fill="{EMPTIED}"/>')
    parts.append(
        f'<text x="{x + 22}" y="{y:.0f}">red rows: what ended the branch - a row with no '
        "square left, or rows whose squares cannot all take a queen</text>"
    )
    return parts


def tree_html(trace: Recording) -> str:
    """The tree in an HTML page (scrolls when the tree is tall)."""
    title = escape(f"cp-queens: the search tree for n = {trace.n}")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n</head>\n<body>\n{tree_svg(trace)}\n</body>\n</html>\n"
    )
