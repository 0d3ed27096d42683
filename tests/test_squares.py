"""One square convention everywhere: algebraic names, checked against what the renderers draw.

Row r, column c of an n x n board is the square named file ``"abc..."[c]`` and rank
``n - r`` (row 0 is drawn at the top). These tests read the labels the Unicode and SVG
boards actually draw, find the queens on them, and compare with :func:`square_name`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cp_queens import Problem, engines, first
from cp_queens.problem import NAMED_UP_TO, describe_square, parse_square, square_name
from cp_queens.render import svg, unicode
from cp_queens.verify import verify

SVG_NS = "{http://www.w3.org/2000/svg}"


def test_corners_of_the_chess_board() -> None:
    assert square_name(0, 0, 8) == "a8"  # top-left, printed first
    assert square_name(7, 0, 8) == "a1"  # bottom-left
    assert square_name(0, 7, 8) == "h8"
    assert square_name(7, 7, 8) == "h1"
    assert square_name(25, 25, 26) == "z1"


@given(
    st.integers(1, NAMED_UP_TO).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, n - 1), st.integers(0, n - 1))
    )
)
def test_names_round_trip(case: tuple[int, int, int]) -> None:
    n, row, col = case
    assert parse_square(square_name(row, col, n), n) == (row, col)


@pytest.mark.parametrize(
    ("name", "n", "message"),
    [("i1", 8, "outside the board a1..h8"), ("a9", 8, "outside"), ("8a", 8, "not a square name")],
)
def test_bad_square_names_are_clear(name: str, n: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_square(name, n)


def test_huge_boards_have_no_names() -> None:
    with pytest.raises(ValueError, match=r"1\.\.26 files"):
        square_name(0, 0, 27)
    assert describe_square(0, 0, 27) == "(row 0, col 0)"


def unicode_queen_squares(board: str) -> list[str]:
    """The squares of the queens as the Unicode diagram labels them, top line first."""
    *rows, files_line = board.splitlines()
    files = files_line.split()
    found = []
    for line in rows:
        rank, *cells = line.split()
        found += [files[i] + rank for i, cell in enumerate(cells) if cell in "♛♕"]
    return found


@pytest.mark.parametrize("n", [1, 4, 5, 8, 13, 26])
def test_unicode_labels_agree_with_square_name(n: int) -> None:
    placement = engines.get("construct").first(Problem(n)).value if n != 1 else [0]
    expected = [square_name(r, c, n) for r, c in enumerate(placement)]
    assert unicode_queen_squares(unicode(placement)) == expected


def svg_queen_squares(document: str) -> list[str]:
    """The squares of the queens as the SVG's own rank and file labels name them."""
    root = ET.fromstring(document)
    texts = root.findall(f"{SVG_NS}text")
    ranks = sorted((float(t.get("y")), t.text) for t in texts if t.get("class") == "rank")
    files = sorted((float(t.get("x")), t.text) for t in texts if t.get("class") == "file")
    n = len(files)
    cell = 400 / n
    found = []
    for queen in (t for t in texts if t.text in "♛"):
        x, y = float(queen.get("x")), float(queen.get("y"))
        # The rank label is in the top-left corner of its row, the file label in the
        # bottom-right corner of its column: pick the label drawn inside the queen's square.
        rank = next(label for top, label in ranks if top <= y < top + cell)
        file = next(label for right, label in files if right - cell <= x < right)
        found.append(file + rank)
    return found


@pytest.mark.parametrize("n", [4, 5, 8, 13, 26])
def test_svg_labels_agree_with_square_name(n: int) -> None:
    placement = engines.get("construct").first(Problem(n)).value
    expected = [square_name(r, c, n) for r, c in enumerate(placement)]
    assert svg_queen_squares(svg(placement)) == expected


@pytest.mark.parametrize("n", [5, 8])
def test_a1_is_dark_in_both_pictures(n: int) -> None:
    placement = [1, 3, 0, 2, 4] if n == 5 else [0, 4, 7, 5, 2, 6, 1, 3]
    assert verify(placement)
    bottom_line = unicode(placement).splitlines()[n - 1]
    a1 = bottom_line.split()[1]
    assert a1 in "■♛" and (a1 == "■" or placement[n - 1] == 0)
    root = ET.fromstring(svg(placement))
    squares = root.findall(f"{SVG_NS}rect")
    a1_rect = squares[(n - 1) * n]  # drawn row by row from the top: the last row's first
    assert a1_rect.get("fill") == "#b58863"


def test_a_queen_given_at_a8_is_the_top_left_corner() -> None:
    """``fixed={0: 0}`` puts the queen at a8, where the diagram draws it (top-left)."""
    placement = first(8, fixed={0: 0}, engine="reference")
    assert placement is not None and placement[0] == 0
    top_line = unicode(placement, given={0: 0}).splitlines()[0]
    assert re.match(r"8 ♕", top_line)
    assert unicode_queen_squares(unicode(placement))[0] == "a8" == square_name(0, 0, 8)
    assert parse_square("a8", 8) == (0, 0)
