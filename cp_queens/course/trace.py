"""The search drawn: a tree of partial boards, and the board animated step by step.

A backtracking search is easiest to understand by watching it. :func:`record`
runs the ``reference`` or ``propagate`` engine with a tracer (see
:data:`cp_queens.engines.base.Tracer`) and keeps what it did as a
:class:`Trace`:

* :meth:`Trace.tree_svg` - the search tree. Every node is the partial board
  after one queen was placed (the root is the empty board, or the given
  queens); squares crossed out by propagation are marked ``x``. Colours tell
  what became of a node: a **solution** (green), a **dead end** (red: no square
  of the next row could be tried), **pruned by propagation** (orange:
  propagation left some row without a square, so the search backtracked
  without looking further), or an inner node (blue).
* :meth:`Trace.animation_svg` - a self-contained animated SVG (SMIL, no
  script) of the board: a queen placed, squares crossed out by propagation, a
  dead end, a backtrack. :meth:`Trace.animation_html` wraps it in a page with
  play / pause / step buttons.

Both work in a browser and in Jupyter: a :class:`Trace` shows its tree
(``_repr_svg_``), ``trace.animation()`` the animation (``_repr_html_``).

Small boards only: a tree of more than :data:`MAX_TREE_NODES` nodes or an
animation of more than :data:`MAX_STEPS` steps cannot be read, and
:func:`record` refuses with a :class:`TraceTooLargeError` (``--first``, a
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
from typing import Any

from cp_queens import engines
from cp_queens.errors import CpQueensError
from cp_queens.problem import Problem
from cp_queens.stats import Stats

#: Engines that report their search steps.
TRACEABLE = ("reference", "propagate")
#: Largest board :func:`record` accepts.
MAX_N = 10
#: Largest tree drawn, and longest animation written.
MAX_TREE_NODES = 400
MAX_STEPS = 2000

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
LIGHT, DARK = "#f0d9b5", "#b58863"


class TraceTooLargeError(CpQueensError):
    """The search is too big to draw legibly."""


@dataclass
class Node:
    """One node of the search tree: the board after a queen was put on ``(row, col)``.

    Attributes:
        index: position in :attr:`Trace.nodes` (creation order, depth first).
        parent: index of the parent node, ``None`` for a child of the root.
        row, col: the queen placed here.
        queens: every queen on the board at this node, ``(row, col)`` pairs.
        crossed: squares crossed out by propagation at this node (from the root on).
        outcome: ``"inner"``, ``"solution"``, ``"dead-end"`` or ``"pruned"``.
        children: indices of the child nodes.
    """

    index: int
    parent: int | None
    row: int
    col: int
    queens: tuple[tuple[int, int], ...]
    crossed: set[tuple[int, int]] = field(default_factory=set)
    outcome: str = "inner"
    children: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Step:
    """One frame of the animation: the board and a caption."""

    queens: tuple[tuple[int, int], ...]
    crossed: frozenset[tuple[int, int]]
    mark: tuple[int, int] | None  # the square this step is about
    colour: str
    caption: str


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

    def tree_svg(self) -> str:
        """The search tree as SVG, root on the left, one partial board per node."""
        return _tree_svg(self)

    def animation_svg(self, *, seconds_per_step: float = 0.6) -> str:
        """The board step by step as a self-contained, looping animated SVG."""
        return _animation_svg(self, seconds_per_step)

    def animation_html(self, *, seconds_per_step: float = 0.6) -> str:
        """An HTML page: the animated board with play, pause and step buttons."""
        return _animation_html(self, seconds_per_step)

    def animation(self, *, seconds_per_step: float = 0.6) -> Animation:
        """The animation as an object Jupyter displays."""
        return Animation(self, seconds_per_step)

    def _repr_svg_(self) -> str:
        return self.tree_svg()

    def to_text(self) -> str:
        """One line for a terminal (a notebook draws the tree)."""
        fails = sum(node.outcome in ("dead-end", "pruned") for node in self.nodes)
        return (
            f"search tree, n = {self.n} ({self.label}): {len(self.nodes)} nodes, "
            f"{self.stats.solutions} solutions, {fails} fails - drawn in the notebook, or "
            "with cp-queens trace"
        )


@dataclass
class Animation:
    """Shows itself as the animated board in Jupyter (HTML with buttons, or plain SVG)."""

    trace: Trace
    seconds_per_step: float = 0.6

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
    Raises :class:`TraceTooLargeError` as soon as the search outgrows what can be
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
        self.solutions = 0
        self.pending_removals = 0
        self.step("the empty board" if not self.given else "the given queens", None, "inner")

    # -- what the current node is ---------------------------------------------

    def queens(self) -> tuple[tuple[int, int], ...]:
        return self.nodes[self.path[-1]].queens if self.path else self.given

    def crossed(self) -> set[tuple[int, int]]:
        return self.nodes[self.path[-1]].crossed if self.path else self.root_crossed

    def step(self, caption: str, mark: tuple[int, int] | None, outcome: str) -> None:
        if len(self.steps) >= self.max_steps:
            raise TraceTooLargeError(
                f"trace: the search takes more than {self.max_steps} steps, too many to animate "
                "(try the first solution only, a smaller n or stronger propagation)"
            )
        self.steps.append(
            Step(self.queens(), frozenset(self.crossed()), mark, COLOURS[outcome], caption)
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
            self.set_outcome("pruned")
            self.step("a row has no square left: propagation prunes this branch", None, "pruned")
        elif kind == "dead-end":
            self.set_outcome("dead-end")
            self.step(f"row {row}: every square is attacked - dead end", None, "dead-end")
        elif kind == "solution":
            self.solutions += 1
            self.set_outcome("solution")
            self.step(f"solution {self.solutions}", None, "solution")
        elif kind == "undo":
            self.path.pop()
            self.step(f"backtrack: take the queen off row {row}, column {col}", (row, col), "inner")

    def set_outcome(self, outcome: str) -> None:
        if self.path:
            self.nodes[self.path[-1]].outcome = outcome
        else:
            self.root_outcome = outcome


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
) -> list[str]:
    """SVG elements of one board: squares, crosses, queens (discs)."""
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
    arm = cell * 0.3
    crosses = []
    for r, c in sorted(crossed):
        left, top = x + (c + 0.5) * cell - arm, y + (r + 0.5) * cell - arm
        crosses.append(f"M{left:.1f},{top:.1f}l{2 * arm:.1f},{2 * arm:.1f}m0,{-2 * arm:.1f}")
        crosses.append(f"l{-2 * arm:.1f},{2 * arm:.1f}")
    if crosses:
        parts.append(
            f'<path class="crosses" d="{"".join(crosses)}" stroke="#555" '
            f'stroke-width="{max(cell / 9, 0.8):.1f}"/>'
        )
    for r, c in queens:
        colour = "#c62828" if (r, c) in given else "#111"
        parts.append(
            f'<circle cx="{x + (c + 0.5) * cell:.1f}" cy="{y + (r + 0.5) * cell:.1f}" '
            f'r="{cell * 0.36:.1f}" fill="{colour}"/>'
        )
    return parts


def _tree_svg(trace: Trace) -> str:
    n = trace.n
    cell = max(4.0, min(10.0, 60 / n))
    size = n * cell
    column = size + 36  # horizontal distance between depths
    row_height = size + 10  # vertical distance between leaves
    top = 64
    children_of_root = [node.index for node in trace.nodes if node.parent is None]

    # Leaves one below the other in depth-first order; a parent centred on its children.
    y_of: dict[int, float] = {}
    next_leaf = [0]

    def place(index: int | None, children: list[int]) -> float:
        if children:
            ys = [place(child, trace.nodes[child].children) for child in children]
            y = (ys[0] + ys[-1]) / 2
        else:
            y = top + next_leaf[0] * row_height
            next_leaf[0] += 1
        if index is not None:
            y_of[index] = y
        return y

    root_y = place(None, children_of_root)
    depth: dict[int, int] = {}
    for node in trace.nodes:
        depth[node.index] = 1 if node.parent is None else depth[node.parent] + 1
    max_depth = max(depth.values(), default=0)
    width = 20 + (max_depth + 1) * column + 10
    height = max(top + next_leaf[0] * row_height + 10, top + size + 20, 150)

    def x_of(index: int | None) -> float:
        return 20 + (0 if index is None else depth[index]) * column

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{max(width, 560):.0f}" '
        f'height="{height:.0f}" font-family="sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="10" y="16" font-size="13">Search tree, n = {n}: {_escape(trace.label)}; '
        f"{len(trace.nodes)} nodes, {trace.stats.solutions} solutions</text>",
    ]
    for i, (outcome, words) in enumerate(LEGEND.items()):
        left = 10 + (i % 2) * 280
        top_of_key = 28 + (i // 2) * 14
        parts.append(
            f'<rect x="{left}" y="{top_of_key}" width="10" height="10" fill="{COLOURS[outcome]}"/>'
        )
        parts.append(f'<text x="{left + 14}" y="{top_of_key + 9}">{_escape(words)}</text>')
    # edges first, so that boards cover them
    for node in trace.nodes:
        parent_x = x_of(node.parent) + size
        parent_y = (root_y if node.parent is None else y_of[node.parent]) + size / 2
        parts.append(
            f'<line x1="{parent_x:.1f}" y1="{parent_y:.1f}" x2="{x_of(node.index):.1f}" '
            f'y2="{y_of[node.index] + size / 2:.1f}" stroke="#999" stroke-width="1"/>'
        )
    root_colour = COLOURS[trace.root_outcome]
    parts.append(
        f'<g class="root"><title>root: {"given queens" if trace.given else "empty"}</title>'
    )
    parts.append(
        f'<rect x="{x_of(None) - 2:.1f}" y="{root_y - 2:.1f}" width="{size + 4:.1f}" '
        f'height="{size + 4:.1f}" fill="{root_colour}"/>'
    )
    parts += _board(n, x_of(None), root_y, cell, trace.given, trace.root_crossed, given=trace.given)
    parts.append("</g>")
    for node in trace.nodes:
        x, y = x_of(node.index), y_of[node.index]
        parts.append(
            f'<g class="node {node.outcome}"><title>queen on row {node.row}, column {node.col}: '
            f"{LEGEND[node.outcome]}</title>"
        )
        parts.append(
            f'<rect x="{x - 2:.1f}" y="{y - 2:.1f}" width="{size + 4:.1f}" '
            f'height="{size + 4:.1f}" fill="{COLOURS[node.outcome]}"/>'
        )
        parts += _board(n, x, y, cell, node.queens, node.crossed, given=trace.given)
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)


def _animation_svg(trace: Trace, seconds: float) -> str:
    """Frames as groups whose opacity a discrete SMIL animation switches on in turn."""
    n = trace.n
    cell = 36
    size = n * cell
    margin = 12
    width = max(size + 2 * margin, 420)
    height = size + 2 * margin + 56
    steps = trace.steps
    total = seconds * len(steps)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cp-queens-animation" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="sans-serif" data-steps="{len(steps)}" data-seconds="{seconds}">',
        '<rect width="100%" height="100%" fill="white"/>',
        *_board(n, margin, margin, cell, (), frozenset()),
    ]
    for i, step in enumerate(steps):
        start, end = i / len(steps), (i + 1) / len(steps)
        key_times = f"0;{start:.6f};{end:.6f}" if i + 1 < len(steps) else f"0;{start:.6f}"
        values = "0;1;0" if i + 1 < len(steps) else "0;1"
        visible = ' opacity="0"'
        parts.append(f'<g class="frame"{visible}>')
        parts.append(
            f'<animate attributeName="opacity" values="{values}" keyTimes="{key_times}" '
            f'dur="{total:.2f}s" calcMode="discrete" repeatCount="indefinite"/>'
        )
        if step.mark is not None:
            r, c = step.mark
            parts.append(
                f'<rect x="{margin + c * cell + 2}" y="{margin + r * cell + 2}" '
                f'width="{cell - 4}" height="{cell - 4}" fill="none" stroke="{step.colour}" '
                'stroke-width="4"/>'
            )
        parts += _board(
            n, margin, margin, cell, step.queens, step.crossed, given=trace.given, squares=False
        )
        parts.append(
            f'<rect x="{margin}" y="{size + margin + 10}" width="14" height="14" '
            f'fill="{step.colour}"/>'
        )
        parts.append(
            f'<text x="{margin + 20}" y="{size + margin + 22}" font-size="14">'
            f"{i + 1}/{len(steps)}: {_escape(step.caption)}</text>"
        )
        parts.append("</g>")
    parts.append(
        f'<text x="{margin}" y="{height - 10}" font-size="11" fill="#555">n = {n}: '
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
