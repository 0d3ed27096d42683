"""Several searches side by side on one 16:9 slide: how much each level of propagation saves.

The picture that teaches propagation best is the same board searched with
``none``, ``forward``, ``arc`` and ``alldiff`` next to each other: the trees
shrink, and the pruned branches end higher up. ``compare_svg`` draws it as
one 1920 x 1080 SVG meant to be projected: every text at least 18 px, node
counts in each panel's title, a legend, and all panels on one scale (a leaf is
as wide and a level as tall in every panel, so a smaller tree *looks* smaller).

A node is a mark coloured by what became of it (as in
``cp_queens.course.drawing.trace.Trace.tree_svg``), and shaped by it too: a dot where the search
goes on, a star for a solution, a cross for a dead end, a triangle for a node pruned by
propagation. A projector, a grey-scale print or a colour-blind reader may lose the
colours; the shapes still tell the four apart (the colours are the Okabe-Ito palette,
``COLOURS``, which most colour-blind readers tell apart as well). One level of the tree is one row
of the board when the rows are taken in order, so a red line from a dead end or
a pruned node down to a row's level shows *which* row was left without a square:
the longer the line, the further ahead propagation looked.

Examples:
    >>> from cp_queens.course.drawing.trace import record
    >>> traces = [record(5, engine="propagate", consistency=c) for c in ("none", "alldiff")]
    >>> svg = compare_svg(traces, ["none", "alldiff"])
    >>> svg.count('<g class="panel"'), 'width="1920" height="1080"' in svg
    (2, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cp_queens.course.drawing.board import COLOURS, EMPTIED, SHORT_LEGEND, escape, square
from cp_queens.course.drawing.recorded import Recording
from cp_queens.course.drawing.tree import Layout, layout, level_label

#: The slide, in px: 16:9 at the size a projector shows.
WIDTH, HEIGHT = 1920, 1080
#: The smallest text on the slide (px); a projected 1080p slide stays readable at this.
SMALL_TEXT = 24
#: The legend's text (px): what a viewer at the back must read to read the picture.
LEGEND_TEXT = 28


def compare_svg(traces: Sequence[Recording], names: list[str], *, title: str | None = None) -> str:
    """The search trees of ``traces`` (one per name) side by side on one 16:9 slide."""
    if not traces or len(traces) != len(names):
        raise ValueError("compare_svg: one name per trace, at least one trace")
    count = len(traces)
    columns = count if count <= 3 else math.ceil(count / 2)
    rows = 1 if count <= 3 else 2
    margin, header, footer, axis = 24, 70, 96, 92  # footer: the legend's two lines
    panel_width = (WIDTH - 2 * margin - axis) / columns
    panel_height = (HEIGHT - header - footer) / rows
    panel_title = 64  # two lines: the name and its counts
    shapes = [layout(trace) for trace in traces]
    inner_width = panel_width - 24
    inner_height = panel_height - panel_title - 22 - 40
    # one scale for every panel, so that a smaller tree looks smaller
    spacing = min(inner_width / max(shape.leaves for shape in shapes), 64.0)
    deepest = max(max(shape.depth for shape in shapes), 1)
    level_height = min(inner_height / deepest, 150.0)
    radius = max(2.5, min(spacing * 0.4, level_height * 0.2, 12.0))

    n = traces[0].n
    kind = "all solutions" if "all solutions" in traces[0].label else "first solution"
    heading = (
        title or f"The same search, n = {n} ({kind}): how much each level of propagation saves"
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="{SMALL_TEXT}">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{margin}" y="48" font-size="34" font-weight="bold">{escape(heading)}</text>',
    ]
    for i, (trace, shape, name) in enumerate(zip(traces, shapes, names, strict=True)):
        column, row = i % columns, i // columns
        left = margin + axis + column * panel_width
        top = header + row * panel_height
        tree_top = top + panel_title + 22
        if column == 0:  # the levels, once per row of panels
            for depth in range(shape.depth + 1):
                parts.append(
                    f'<text x="{margin}" y="{tree_top + depth * level_height + 7:.1f}" '
                    f'fill="#555">{level_label(trace, shape, depth)}</text>'
                )
        parts += _panel(
            trace,
            shape,
            name,
            left,
            top,
            panel_width,
            panel_height,
            tree_top,
            spacing,
            level_height,
            radius,
        )
    parts += _legend(margin, HEIGHT - 58)
    parts.append("</svg>")
    return "\n".join(parts)


def _panel(
    trace: Recording,
    shape: Layout,
    name: str,
    left: float,
    top: float,
    width: float,
    height: float,
    tree_top: float,
    spacing: float,
    level_height: float,
    radius: float,
) -> list[str]:
    """One tree: a framed panel with its title, edges, dots and red lines."""
    nodes = trace.nodes
    fails = sum(node.outcome in ("dead-end", "pruned") for node in nodes)
    pruned = sum(node.outcome == "pruned" for node in nodes)
    solutions = trace.stats.solutions
    fail_words = f"{pruned} pruned" if pruned else f"{fails} dead ends"
    offset = left + (width - shape.leaves * spacing) / 2  # centre the tree in its panel

    def at(index: int | None) -> tuple[float, float]:
        x = shape.root_x if index is None else shape.x[index]
        depth = 0 if index is None else shape.level[index]
        return offset + x * spacing, tree_top + depth * level_height

    def level_of_row(row: int) -> float:
        given = {r for r, _ in trace.given}
        free = [r for r in range(trace.n) if r not in given]
        return tree_top + (free.index(row) + 1) * level_height

    parts = [
        f'<g class="panel" data-name="{escape(name)}" data-nodes="{len(nodes)}">',
        f'<rect x="{left + 6:.1f}" y="{top + 4:.1f}" width="{width - 12:.1f}" '
        f'height="{height - 8:.1f}" fill="none" stroke="#ccc" stroke-width="2" rx="8"/>',
        f'<text x="{left + 20:.1f}" y="{top + 36:.1f}" font-size="30" font-weight="bold">'
        f"{escape(name)}: {len(nodes)} nodes</text>",
        f'<text x="{left + 20:.1f}" y="{top + 64:.1f}" fill="#333">{fail_words}, '
        f"{solutions} solution{'s' if solutions != 1 else ''}</text>",
    ]
    edges = []
    for node in nodes:
        x1, y1 = at(node.parent)
        x2, y2 = at(node.index)
        edges.append(f"M{x1:.1f},{y1:.1f}L{x2:.1f},{y2:.1f}")
    if edges:
        parts.append(f'<path d="{"".join(edges)}" stroke="#aaa" stroke-width="1.5" fill="none"/>')
    if shape.rows_in_order:  # the red lines: down to the row left without a square
        lines = []
        for node in nodes:
            if node.emptied:
                x, y = at(node.index)
                bottom = max(level_of_row(row) for row in node.emptied)
                lines.append(f"M{x:.1f},{y:.1f}V{bottom:.1f}")
                bar = max(radius * 1.6, 5)
                for row in node.emptied:
                    lines.append(f"M{x - bar / 2:.1f},{level_of_row(row):.1f}h{bar:.1f}")
        if lines:
            parts.append(
                f'<path class="emptied" d="{"".join(lines)}" stroke="{EMPTIED}" '
                f'stroke-width="{max(2.0, radius * 0.45):.1f}" fill="none"/>'
            )
    x, y = at(None)
    parts.append(mark("inner", x, y, radius))
    for node in nodes:
        x, y = at(node.index)
        why = f": {escape(node.why)}" if node.why else ""
        parts.append(
            f'<g class="node {node.outcome}" data-x="{x:.1f}" data-y="{y:.1f}">'
            f"{mark(node.outcome, x, y, radius)}<title>queen on "
            f"{square(node.row, node.col, trace.n)}{why}</title></g>"
        )
    parts.append("</g>")
    return parts


def mark(outcome: str, x: float, y: float, size: float) -> str:
    """The mark of one node at (x, y), about ``2 * size`` across: its shape says what
    became of the node as its colour does (dot, star, cross, triangle).

    Examples:
        >>> [mark(o, 0, 0, 10).split()[0] for o in ("inner", "solution", "dead-end", "pruned")]
        ['<circle', '<polygon', '<path', '<polygon']
    """
    colour = COLOURS[outcome]
    if outcome == "solution":  # a five-pointed star, a little larger: the goal
        points = []
        for k in range(10):
            reach = size * (1.55 if k % 2 == 0 else 0.65)
            angle = math.pi * k / 5 - math.pi / 2
            points.append(f"{x + reach * math.cos(angle):.1f},{y + reach * math.sin(angle):.1f}")
        return f'<polygon points="{" ".join(points)}" fill="{colour}"/>'
    if outcome == "dead-end":  # a cross: the search hit a wall here
        arm = size * 0.95
        return (
            f'<path d="M{x - arm:.1f},{y - arm:.1f}L{x + arm:.1f},{y + arm:.1f}'
            f'M{x - arm:.1f},{y + arm:.1f}L{x + arm:.1f},{y - arm:.1f}" stroke="{colour}" '
            f'stroke-width="{max(size * 0.6, 2.5):.1f}" stroke-linecap="round" fill="none"/>'
        )
    if outcome == "pruned":  # a triangle pointing down: cut off before going down
        half, top, tip = size * 1.2, y - size * 0.85, y + size * 1.2
        return (
            f'<polygon points="{x - half:.1f},{top:.1f} {x + half:.1f},{top:.1f} '
            f'{x:.1f},{tip:.1f}" fill="{colour}"/>'
        )
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size:.1f}" fill="{colour}"/>'


def _legend(x: float, y: float) -> list[str]:
    """Two lines at ``LEGEND_TEXT`` px: the four marks, then what a red line means."""
    parts = [f'<g class="legend" font-size="{LEGEND_TEXT}">']
    left = x
    for outcome in ("inner", "solution", "dead-end", "pruned"):
        parts.append(mark(outcome, x + 14, y - 9, 11))
        words = SHORT_LEGEND[outcome]
        parts.append(f'<text x="{x + 36:.0f}" y="{y:.0f}">{words}</text>')
        x += 36 + 15 * len(words) + 48
    x, y = left, y + 40
    parts.append(
        f'<path d="M{x + 14:.0f},{y - 26:.0f}V{y + 2:.0f}M{x + 4:.0f},{y + 2:.0f}h20" '
        f'stroke="{EMPTIED}" stroke-width="5"/>'
    )
    parts.append(
        f'<text x="{x + 36:.0f}" y="{y:.0f}">red line: down to the row left without a '
        "square (or to the rows that cannot all take a queen)</text>"
    )
    parts.append("</g>")
    return parts
