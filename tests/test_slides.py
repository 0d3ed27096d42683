"""The slide of several searches side by side reads for everyone: colour-blind viewers,
a grey-scale print, the back row of a lecture hall."""

from __future__ import annotations

import itertools
import re

import pytest

from cp_queens.course.drawing.board import COLOURS
from cp_queens.course.drawing.slides import LEGEND_TEXT, SMALL_TEXT, compare_svg, mark
from cp_queens.course.drawing.trace import record

#: Machado, Oliveira & Fernandes (2009): full deuteranopia and protanopia, on linear RGB.
DEUTAN = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.01182, 0.04294, 0.968881),
)
PROTAN = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)


def seen(colour: str, matrix) -> tuple[float, ...]:
    """``colour`` (``#rrggbb``) as a viewer with that deficiency sees it (sRGB, 0..1)."""
    srgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb]
    mixed = [
        min(max(sum(m * c for m, c in zip(row, linear, strict=True)), 0.0), 1.0) for row in matrix
    ]
    return tuple(c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055 for c in mixed)


def apart(a: str, b: str, matrix) -> float:
    return sum((x - y) ** 2 for x, y in zip(seen(a, matrix), seen(b, matrix), strict=True)) ** 0.5


@pytest.mark.parametrize("matrix", [DEUTAN, PROTAN], ids=["deuteranopia", "protanopia"])
def test_no_two_outcome_colours_merge_for_a_colour_blind_viewer(matrix) -> None:
    for (one, a), (other, b) in itertools.combinations(COLOURS.items(), 2):
        assert apart(a, b, matrix) > 0.2, f"{one} and {other} look alike"


def test_the_check_sees_the_red_and_green_that_merged() -> None:
    """The palette before: a solution's green and a dead end's red, the same olive."""
    assert apart("#2ca02c", "#d62728", DEUTAN) < 0.2
    assert apart("#2ca02c", "#f58518", PROTAN) < 0.2


def test_each_outcome_has_its_own_shape() -> None:
    """Dot, star, cross, triangle: told apart with no colour at all (a grey-scale print)."""

    def kind(shape: str) -> str:
        tag = shape.split()[0]
        corners = re.search(r'points="([^"]+)"', shape)
        return f"{tag}/{len(corners.group(1).split())}" if corners else tag

    shapes = {outcome: mark(outcome, 50, 50, 10) for outcome in COLOURS}
    kinds = {outcome: kind(shape) for outcome, shape in shapes.items()}
    assert kinds == {
        "inner": "<circle",
        "solution": "<polygon/10",
        "dead-end": "<path",
        "pruned": "<polygon/3",
    }
    for outcome, shape in shapes.items():
        assert COLOURS[outcome] in shape


def test_the_slide_draws_each_node_with_its_shape_and_a_large_legend() -> None:
    traces = [record(5, engine="propagate", consistency=c) for c in ("none", "forward")]
    svg = compare_svg(traces, ["none", "forward"])
    nodes = re.findall(r'<g class="node ([\w-]+)"[^>]*>(<\w+)', svg)
    assert len(nodes) == sum(len(trace.nodes) for trace in traces)
    tag = {"inner": "<circle", "solution": "<polygon", "dead-end": "<path", "pruned": "<polygon"}
    assert all(tag[outcome] == element for outcome, element in nodes)
    assert {outcome for outcome, _ in nodes} == set(COLOURS)  # none: dead ends; forward: pruned
    legend = svg.split('<g class="legend"')[1]
    assert f'font-size="{LEGEND_TEXT}"' in legend.split(">")[0] and LEGEND_TEXT >= 28
    assert all(words in legend for words in ("solution", "dead end", "pruned by propagation"))
    sizes = [int(size) for size in re.findall(r'font-size="(\d+)"', svg)]
    assert min(sizes) >= SMALL_TEXT >= 24
