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

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from cp_queens import engines
from cp_queens.errors import CpQueensError
from cp_queens.problem import Problem
from cp_queens.stats import Stats

#: Engines that report their search steps.
TRACEABLE = ("reference", "propagate")
#: Largest board ``record`` accepts.
MAX_N = 10
#: Largest tree drawn, and longest animation written.
MAX_TREE_NODES = 400
MAX_STEPS = 2000
#: The default pace of an animation: the whole search in about this many seconds, each
#: step shown between FASTEST_STEP and SLOWEST_STEP seconds.
ANIMATION_SECONDS = 25.0
FASTEST_STEP, SLOWEST_STEP = 0.15, 0.6
#: What marks the rows that ended a branch.
EMPTIED = "#e00000"

#: Node outcome -> colour (and the legend's words).
COLOURS = {
    "inner": "#4c78a8",
    "solution": "#2ca02c",
    "dead-end": "#d62728",
    "pruned": "#f58518",
}
LEGEND = {
    "inner": "search goes on below",
    "solution": "solution",
    "dead-end": "dead end (no square of the next row can be tried)",
    "pruned": "pruned by propagation (a row has no square left)",
}
#: The legend's words for slides: short enough for one line at 20 px.
SHORT_LEGEND = {
    "inner": "search goes on",
    "solution": "solution",
    "dead-end": "dead end",
    "pruned": "pruned by propagation",
}
LIGHT, DARK = "#f0d9b5", "#b58863"


class TraceTooLargeError(CpQueensError):
    """The search is too big to draw legibly."""


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
class Trace:
    """A recorded search: its tree, its steps, and the engine's statistics."""

    n: int
    label: str
    given: tuple[tuple[int, int], ...]
    root_crossed: set[tuple[int, int]]
    root_outcome: str
    nodes: list[Node]
    steps: list[Step]
    stats: Stats
    root_emptied: tuple[int, ...] = ()  # when the given queens alone leave a row empty

    def tree_svg(self) -> str:
        """The search tree as SVG, root at the top, one partial board per node."""
        return _tree_svg(self)

    def seconds_per_step(self, seconds: float | None = None) -> float:
        """``seconds``, or by default a pace that plays the whole animation in about
        ``ANIMATION_SECONDS`` (never faster than ``FASTEST_STEP`` a step: a lecture
        needs time to see each queen)."""
        if seconds is not None:
            return seconds
        return round(min(SLOWEST_STEP, max(FASTEST_STEP, ANIMATION_SECONDS / len(self.steps))), 2)

    def animation_svg(self, *, seconds_per_step: float | None = None) -> str:
        """The board step by step as a self-contained, looping animated SVG."""
        return _animation_svg(self, self.seconds_per_step(seconds_per_step))

    def animation_html(self, *, seconds_per_step: float | None = None) -> str:
        """An HTML page: the animated board with play, pause and step buttons."""
        return _animation_html(self, self.seconds_per_step(seconds_per_step))

    def animation(self, *, seconds_per_step: float | None = None) -> Animation:
        """The animation as an object Jupyter displays."""
        return Animation(self, self.seconds_per_step(seconds_per_step))

    def _repr_svg_(self) -> str:
        return self.tree_svg()

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


@dataclass
class Animation:
    """Shows itself as the animated board in Jupyter (HTML with buttons, or plain SVG)."""

    trace: Trace
    seconds_per_step: float = SLOWEST_STEP

    def _repr_html_(self) -> str:
        return _animation_fragment(self.trace, self.seconds_per_step)

    def _repr_svg_(self) -> str:
        return self.trace.animation_svg(seconds_per_step=self.seconds_per_step)


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
    solver = engines.get(engine, tracer=recorder, **options)
    if first:
        solver.first(problem)
    else:
        solver.count(problem)
    return Trace(
        n=n,
        label=recorder.label,
        given=tuple(problem.fixed.items()),
        root_crossed=recorder.root_crossed,
        root_outcome=recorder.root_outcome,
        nodes=recorder.nodes,
        steps=recorder.steps,
        stats=solver.stats,
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
            self.step(f"queen on row {row}, column {col}", (row, col), "inner")
        elif kind == "remove":
            self.crossed().add((row, col))
            self.pending_removals += 1
        elif kind == "reject":
            pass  # the test of generate and test: visible as the dead end it may lead to
        elif kind == "fail":
            rows, why = emptied_rows(self.n, self.queens(), self.crossed())
            self.set_outcome("pruned", rows, why)
            self.step(f"{why}: propagation prunes this branch", None, "pruned", rows)
        elif kind == "dead-end":
            why = f"row {row}: every square is attacked"
            self.set_outcome("dead-end", (row,), why)
            self.step(f"{why} - dead end", None, "dead-end", (row,))
        elif kind == "solution":
            self.solutions += 1
            self.set_outcome("solution")
            self.step(f"solution {self.solutions}", None, "solution")
        elif kind == "undo":
            self.path.pop()
            self.step(f"backtrack: take the queen off row {row}, column {col}", (row, col), "inner")

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
        if len(empty) == 1:
            return empty, f"row {empty[0]} has no square left"
        return empty, f"rows {', '.join(map(str, empty))} have no square left"
    singles = [(row, cols[0]) for row, cols in left.items() if len(cols) == 1]
    for i, (a, x) in enumerate(singles):
        for b, y in singles[i + 1 :]:
            if x == y or abs(x - y) == abs(a - b):
                return (a, b), f"the last squares of rows {a} and {b} attack each other"
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
                    words = ", ".join(map(str, rows))
                    return rows, f"rows {words} have only {len(free)} {name} left"
    return (), "propagation found no way on"


# -- drawing ----------------------------------------------------------------------------


def _board(
    n: int,
    x: float,
    y: float,
    cell: float,
    queens: tuple[tuple[int, int], ...],
    crossed: set[tuple[int, int]] | frozenset[tuple[int, int]],
    *,
    given: tuple[tuple[int, int], ...] = (),
    squares: bool = True,
    emptied: tuple[int, ...] = (),
) -> list[str]:
    """SVG elements of one board: squares, the ``emptied`` rows in red, crosses, queens."""
    parts = []
    if squares:  # a light board with the dark squares as one path: small files
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{n * cell:.1f}" height="{n * cell:.1f}" '
            f'fill="{LIGHT}"/>'
        )
        dark = "".join(
            f"M{x + c * cell:.1f},{y + r * cell:.1f}h{cell:.1f}v{cell:.1f}h{-cell:.1f}z"
            for r in range(n)
            for c in range(n)
            if (r + c) % 2
        )
        parts.append(f'<path d="{dark}" fill="{DARK}"/>')
    for row in emptied:
        parts.append(
            f'<rect class="emptied" x="{x:.1f}" y="{y + row * cell:.1f}" '
            f'width="{n * cell:.1f}" height="{cell:.1f}" fill="{EMPTIED}" opacity="0.7"/>'
        )
    arm = cell * 0.3
    crosses = []
    for r, c in sorted(crossed):
        left, top = x + (c + 0.5) * cell - arm, y + (r + 0.5) * cell - arm
        crosses.append(f"M{left:.1f},{top:.1f}l{2 * arm:.1f},{2 * arm:.1f}m0,{-2 * arm:.1f}")
        crosses.append(f"l{-2 * arm:.1f},{2 * arm:.1f}")
    if crosses:
        parts.append(
            f'<path class="crosses" d="{"".join(crosses)}" stroke="#444" '
            f'stroke-width="{max(cell / 9, 0.8):.1f}"/>'
        )
    for r, c in queens:
        colour = "#c62828" if (r, c) in given else "#111"
        parts.append(
            f'<circle cx="{x + (c + 0.5) * cell:.1f}" cy="{y + (r + 0.5) * cell:.1f}" '
            f'r="{cell * 0.36:.1f}" fill="{colour}"/>'
        )
    return parts


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


def layout(trace: Trace) -> Layout:
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


def level_label(trace: Trace, shape: Layout, depth: int) -> str:
    """``"row 3"`` for a level when the rows were taken in order, else ``"3 queens"``."""
    if depth == 0:
        return "given" if trace.given else "start"
    if shape.rows_in_order:
        free_rows = [row for row in range(trace.n) if row not in {r for r, _ in trace.given}]
        return f"row {free_rows[depth - 1]}"
    return f"{depth} queen{'s' if depth > 1 else ''}"


#: The widest a tree of boards may become before its boards shrink (px).
TREE_WIDTH = 1840


def _tree_svg(trace: Trace) -> str:
    """Boards as nodes, root at the top, leaves side by side: wide and shallow like a slide."""
    n = trace.n
    shape = layout(trace)
    gap = 12.0
    cell = max(3.0, min(14.0, (TREE_WIDTH / shape.leaves - gap) / n))
    size = n * cell
    spacing = size + gap
    level_height = size + 46
    axis = 78  # the levels' labels
    left = 20 + axis
    top = 150
    label_size = 16
    width = max(left + shape.leaves * spacing + 20, 1000)
    start = left + (width - 20 - left - shape.leaves * spacing) / 2  # a narrow tree centred
    height = top + shape.depth * level_height + size + 20 + (label_size + 6)

    def at(index: int | None) -> tuple[float, float]:
        """The top-left corner of a node's board."""
        x = shape.root_x if index is None else shape.x[index]
        depth = 0 if index is None else shape.level[index]
        return start + x * spacing - size / 2, top + depth * level_height

    solutions = trace.stats.solutions
    fails = sum(node.outcome in ("dead-end", "pruned") for node in trace.nodes)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif" font-size="18">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="20" y="34" font-size="26" font-weight="bold">Search tree, n = {n}: '
        f"{len(trace.nodes)} nodes, {solutions} solution{'s' if solutions != 1 else ''}, "
        f"{fails} fails</text>",
        f'<text x="20" y="60" font-size="18" fill="#444">{_escape(trace.label)}</text>',
        *_legend(20, 92),
    ]
    for depth in range(shape.depth + 1):
        parts.append(
            f'<text x="20" y="{top + depth * level_height + size / 2 + 6:.1f}" fill="#555">'
            f"{level_label(trace, shape, depth)}</text>"
        )
    # edges first, so that boards cover them
    edges = []
    for node in trace.nodes:
        x1, y1 = at(node.parent)
        x2, y2 = at(node.index)
        edges.append(f"M{x1 + size / 2:.1f},{y1 + size:.1f}L{x2 + size / 2:.1f},{y2:.1f}")
    if edges:
        parts.append(f'<path d="{"".join(edges)}" stroke="#999" stroke-width="1.5" fill="none"/>')
    x, y = at(None)
    parts.append(
        f'<g class="root"><title>root: {"given queens" if trace.given else "empty board"}</title>'
    )
    parts.append(
        f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="{size + 6:.1f}" height="{size + 6:.1f}" '
        f'fill="{COLOURS[trace.root_outcome]}"/>'
    )
    parts += _board(
        n,
        x,
        y,
        cell,
        trace.given,
        trace.root_crossed,
        given=trace.given,
        emptied=trace.root_emptied,
    )
    parts.append("</g>")
    for node in trace.nodes:
        x, y = at(node.index)
        why = f" ({_escape(node.why)})" if node.why else ""
        parts.append(
            f'<g class="node {node.outcome}"><title>queen on row {node.row}, column {node.col}: '
            f"{LEGEND[node.outcome]}{why}</title>"
        )
        parts.append(
            f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="{size + 6:.1f}" '
            f'height="{size + 6:.1f}" fill="{COLOURS[node.outcome]}"/>'
        )
        parts += _board(
            n, x, y, cell, node.queens, node.crossed, given=trace.given, emptied=node.emptied
        )
        if node.emptied:
            words = ",".join(map(str, node.emptied))
            if spacing >= 9 * len(words) + 50:
                text = f"row{'s' if len(node.emptied) > 1 else ''} {words}"
            else:
                text = f"r{words}"
            parts.append(
                f'<text class="emptied-label" x="{x + size / 2:.1f}" y="{y + size + 20:.1f}" '
                f'text-anchor="middle" font-size="{label_size}" fill="{EMPTIED}">{text}</text>'
            )
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)


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


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken between words only."""
    import textwrap

    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]


#: The animation's caption: font size (px) and characters a line holds at that size.
CAPTION_PX = 20
CAPTION_CHAR_PX = 10.5  # an average sans-serif character at 20 px, with room to spare


def _animation_svg(trace: Trace, seconds: float) -> str:
    """Frames as groups whose opacity a discrete SMIL animation switches on in turn.

    Captions are wrapped between words to the picture's width (the longest decides
    how much room is kept under the board), so none is ever cut.
    """
    n = trace.n
    cell = max(30, min(56, 360 // n))
    size = n * cell
    margin = 16
    width = max(size + 2 * margin, 520)
    steps = trace.steps
    total = seconds * len(steps)
    board_x = (width - size) // 2  # the board centred, the caption under it
    chars = int((width - 2 * margin - 26) // CAPTION_CHAR_PX)
    captions = [
        wrap(f"{i + 1}/{len(steps)}: {step.caption}", chars) for i, step in enumerate(steps)
    ]
    lines = max(len(caption) for caption in captions)
    line_height = CAPTION_PX + 6
    footer = 18 + 8
    height = size + 2 * margin + lines * line_height + 8 + footer
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cp-queens-animation" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="sans-serif" data-steps="{len(steps)}" data-seconds="{seconds}">',
        '<rect width="100%" height="100%" fill="white"/>',
        *_board(n, board_x, margin, cell, (), frozenset()),
    ]
    for i, (step, caption) in enumerate(zip(steps, captions, strict=True)):
        start, end = i / len(steps), (i + 1) / len(steps)
        key_times = f"0;{start:.6f};{end:.6f}" if i + 1 < len(steps) else f"0;{start:.6f}"
        values = "0;1;0" if i + 1 < len(steps) else "0;1"
        parts.append('<g class="frame" opacity="0">')
        parts.append(
            f'<animate attributeName="opacity" values="{values}" keyTimes="{key_times}" '
            f'dur="{total:.2f}s" calcMode="discrete" repeatCount="indefinite"/>'
        )
        parts += _board(
            n,
            board_x,
            margin,
            cell,
            step.queens,
            step.crossed,
            given=trace.given,
            squares=False,
            emptied=step.rows,
        )
        if step.mark is not None:
            r, c = step.mark
            parts.append(
                f'<rect x="{board_x + c * cell + 2}" y="{margin + r * cell + 2}" '
                f'width="{cell - 4}" height="{cell - 4}" fill="none" stroke="{step.colour}" '
                'stroke-width="5"/>'
            )
        below = size + 2 * margin
        parts.append(
            f'<rect x="{margin}" y="{below + 3}" width="18" height="18" fill="{step.colour}"/>'
        )
        parts.append(f'<text class="caption" x="{margin + 26}" font-size="{CAPTION_PX}">')
        for j, line in enumerate(caption):
            parts.append(
                f'<tspan x="{margin + 26}" y="{below + 18 + j * line_height}">'
                f"{_escape(line)}</tspan>"
            )
        parts.append("</text>")
        parts.append("</g>")
    parts.append(
        f'<text x="{margin}" y="{height - 10}" font-size="16" fill="#555">n = {n}: '
        f"{_escape(trace.label)}</text>"
    )
    parts.append("</svg>")
    return "\n".join(parts)


_PLAYER = """<div class="cp-queens-player" id="{id}">
{svg}
<div style="font-family: sans-serif; margin-top: 6px">
<button data-do="back">&#9664; step</button>
<button data-do="play">pause</button>
<button data-do="next">step &#9654;</button>
<input type="range" min="1" max="{steps}" value="1" style="width: 240px" data-do="seek">
<span data-show="step">1</span> / {steps}
</div>
<script>
(function () {{
  const box = document.getElementById("{id}");
  const svg = box.querySelector("svg");
  const seconds = {seconds}, steps = {steps};
  const slider = box.querySelector("[data-do=seek]");
  const label = box.querySelector("[data-show=step]");
  const play = box.querySelector("[data-do=play]");
  function current() {{
    return Math.floor((svg.getCurrentTime() % (seconds * steps)) / seconds) + 1;
  }}
  function show(step) {{
    step = Math.min(Math.max(step, 1), steps);
    svg.setCurrentTime((step - 1) * seconds + seconds / 2);
    label.textContent = step; slider.value = step;
  }}
  function pause() {{ svg.pauseAnimations(); play.textContent = "play"; }}
  play.onclick = function () {{
    if (svg.animationsPaused()) {{ svg.unpauseAnimations(); play.textContent = "pause"; }}
    else pause();
  }};
  box.querySelector("[data-do=back]").onclick = function () {{ pause(); show(current() - 1); }};
  box.querySelector("[data-do=next]").onclick = function () {{ pause(); show(current() + 1); }};
  slider.oninput = function () {{ pause(); show(Number(slider.value)); }};
  setInterval(function () {{
    if (!svg.animationsPaused()) {{ const s = current(); label.textContent = s; slider.value = s; }}
  }}, 100);
}})();
</script>
</div>"""


def _animation_fragment(trace: Trace, seconds: float) -> str:
    import uuid

    return _PLAYER.format(
        id=f"cpq-{uuid.uuid4().hex[:8]}",
        svg=_animation_svg(trace, seconds),
        steps=len(trace.steps),
        seconds=seconds,
    )


def _animation_html(trace: Trace, seconds: float) -> str:
    title = _escape(f"cp-queens: the search for n = {trace.n} step by step")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<title>{title}</title>\n</head>\n<body>\n<h1 style="font-family: sans-serif; '
        f'font-size: 18px">{title}</h1>\n{_animation_fragment(trace, seconds)}\n</body>\n</html>\n'
    )


def tree_html(trace: Trace) -> str:
    """The tree in an HTML page (scrolls when the tree is tall)."""
    title = _escape(f"cp-queens: the search tree for n = {trace.n}")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n</head>\n<body>\n{trace.tree_svg()}\n</body>\n</html>\n"
    )


def _escape(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(text)
