"""Rendering: text, Unicode and SVG boards, and bounded output for huge boards."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from cp_queens import Placement, Problem, engines
from cp_queens.render import SVG_QUEENS_UP_TO, svg, text, unicode
from cp_queens.writers import FORMATS

SVG_NS = "{http://www.w3.org/2000/svg}"


def test_text_matches_placement_to_text() -> None:
    p = Placement((1, 3, 0, 2))
    assert text(p) == p.to_text()


def test_unicode_has_one_queen_per_row_and_labels() -> None:
    board = unicode([3, 5, 7, 1, 6, 0, 2, 4])
    lines = board.splitlines()
    assert len(lines) == 9 and lines[-1].split() == list("abcdefgh")
    assert [line.count("♛") for line in lines[:-1]] == [1] * 8
    assert lines[0].startswith("8 ") and lines[7].startswith("1 ")
    assert lines[7].split()[1] == "■"  # a1 is a dark square


def test_unicode_marks_given_queens_and_drops_labels_on_big_boards() -> None:
    board = unicode(list(range(30)), given={2: 2})
    assert board.count("♕") == 1 and board.count("♛") == 29
    assert len(board.splitlines()) == 30


def _svg_elements(document: str) -> ET.Element:
    return ET.fromstring(document)


@pytest.mark.parametrize("n", [1, 4, 8, 64])
def test_small_svg_is_valid_xml_with_every_square_and_queen(n: int) -> None:
    placement = engines.get("construct").first(Problem(n)).value
    root = _svg_elements(svg(placement, given={0: placement[0]}))
    assert len(root.findall(f"{SVG_NS}rect")) == n * n
    queens = [t for t in root.findall(f"{SVG_NS}text") if t.text == "♛"]
    assert len(queens) == n
    assert sum(t.get("fill") == "#c62828" for t in queens) == 1


def test_medium_svg_draws_dots_not_squares() -> None:
    placement = engines.get("construct").first(Problem(500)).value
    root = _svg_elements(svg(placement))
    assert len(root.findall(f"{SVG_NS}rect")) == 1 + 500


def test_huge_svg_is_bounded_and_says_it_is_a_sample() -> None:
    placement = engines.get("construct").first(Problem(100_000)).value
    document = placement._repr_svg_()
    root = _svg_elements(document)
    assert len(root.findall(f"{SVG_NS}rect")) <= 1 + SVG_QUEENS_UP_TO
    assert "100,000" in root.find(f"{SVG_NS}title").text
    assert len(document) < 200_000


def test_the_registry_draws_with_these_functions() -> None:
    """One table of formats, the registry's: its ``boards``, ``unicode`` and ``svg`` are
    this module's drawings (``render`` keeps no format table of its own)."""
    import cp_queens.render as render_module

    placement = Placement([1, 3, 0, 2])
    assert FORMATS["boards"].draw(placement, None) == text(placement) + "\n"
    assert FORMATS["unicode"].draw(placement, None) == unicode(placement) + "\n"
    assert FORMATS["svg"].draw(placement, None) == svg(placement) + "\n"
    assert not hasattr(render_module, "FORMATS") and not hasattr(render_module, "render")
