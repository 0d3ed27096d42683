"""Each engine's colour and marker, the same in every plot the project draws.

Why fixed: colours that follow the order of the engines in a plot gave ``cpsat`` green in
one figure of the benchmarks page and orange in the next, and a reader comparing the two
compared the wrong lines. Here the engines of the registry have a colour and a marker of
their own, and so have the variants the docs and lessons draw side by side (``cpsat``'s
two methods, ``propagate``'s four consistencies, lighter for less work per node, CPMpy's
five solvers: shades of the engine's colour, each with a marker of its own); any other
engine named with options has its engine's marker in a shade of its engine's colour, and
any other label a colour and marker drawn from its text, never from its place in a list.
A label with a note in brackets (``propagate:consistency=arc (first)``) is drawn as the
label before it.

Examples:
    >>> style("cpsat")
    Style(colour='#2ca02c', marker='s')
    >>> style("cpsat") == style("cpsat")
    True
    >>> style("cpsat:method=plain").marker, style("cpsat:method=plain").colour != "#2ca02c"
    ('s', True)
    >>> style("propagate:consistency=arc (first)") == style("propagate:consistency=arc")
    True
"""

from __future__ import annotations

import zlib
from typing import NamedTuple


class Style(NamedTuple):
    """A line's colour (``#rrggbb``) and marker (Matplotlib's marker codes)."""

    colour: str
    marker: str


#: The registry's engines. Colours from Matplotlib's default cycle (readable on white,
#: told apart by most colour-blind readers with the marker's help).
ENGINES: dict[str, Style] = {
    "reference": Style("#1f77b4", "o"),
    "cpsat": Style("#2ca02c", "s"),
    "cpsat-board": Style("#d62728", "^"),
    "pyconstraint": Style("#9467bd", "v"),
    "fast": Style("#17becf", "D"),
    "propagate": Style("#8c564b", "P"),
    "mip": Style("#e377c2", "X"),
    "cpmpy": Style("#ff7f0e", "p"),
    "minizinc": Style("#bcbd22", "h"),
    "construct": Style("#7f7f7f", "*"),
    "minconflicts": Style("#393b79", "d"),
    "template": Style("#000000", "."),
}

#: Variants drawn side by side in the docs and lessons: each told apart at a glance.
VARIANTS: dict[str, Style] = {
    "cpsat:method=plain": Style("#80c680", "s"),  # as compare.png draws it
    "cpsat:method=fast": Style("#1a6b1a", "D"),
    "propagate:consistency=none": Style("#d9b9a9", "o"),
    "propagate:consistency=forward": Style("#b0846f", "v"),
    "propagate:consistency=arc": Style("#8c564b", "P"),
    "propagate:consistency=alldiff": Style("#3f2520", "X"),
    # CPMpy's solvers, light to dark (docs/solvers.md draws them together)
    "cpmpy:solver=exact": Style("#ffbb78", "<"),
    "cpmpy:solver=choco": Style("#ff7f0e", "p"),
    "cpmpy:solver=ortools": Style("#d45f00", ">"),
    "cpmpy:solver=pumpkin": Style("#a04800", "H"),
    "cpmpy:solver=pysat": Style("#6e3000", "8"),
    "minizinc:solver=gecode": ENGINES["minizinc"],
}

#: For labels that are no engine's name: a colour and a marker chosen by the label's text.
OTHER_COLOURS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
)  # fmt: skip
OTHER_MARKERS = ("o", "s", "^", "v", "D", "P", "X", "p", "h", "*", "<", ">")
#: How far a variant's colour moves towards black (negative) or white (positive).
SHADES = (-0.45, 0.4, -0.25, 0.2)


def style(label: str) -> Style:
    """The colour and marker of the line of ``label`` (an engine, ``engine:options``, or
    any other name)."""
    label = label.split(" (", 1)[0]
    own = ENGINES.get(label) or VARIANTS.get(label)
    if own is not None:
        return own
    key = zlib.crc32(label.encode("utf-8"))  # stable across runs, unlike hash()
    base = ENGINES.get(label.split(":", 1)[0].strip())
    if base is not None:
        return Style(_shade(base.colour, SHADES[key % len(SHADES)]), base.marker)
    return Style(OTHER_COLOURS[key % len(OTHER_COLOURS)], OTHER_MARKERS[key % len(OTHER_MARKERS)])


def _shade(colour: str, amount: float) -> str:
    """``colour`` moved towards white (``amount`` > 0) or black (< 0)."""
    channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    target = 255 if amount > 0 else 0
    moved = [round(c + (target - c) * abs(amount)) for c in channels]
    return "#" + "".join(f"{c:02x}" for c in moved)
