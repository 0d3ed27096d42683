"""course.display.show: text in a terminal (the lessons' script form)."""

from __future__ import annotations

from cp_queens import Placement
from cp_queens.course.display import in_notebook, show


def test_outside_jupyter_a_board_prints_as_text(capsys) -> None:
    assert not in_notebook()
    show(Placement((1, 3, 0, 2)))
    assert capsys.readouterr().out == Placement((1, 3, 0, 2)).to_text() + "\n"


def test_outside_jupyter_a_figure_is_named_and_closed(capsys) -> None:
    import matplotlib.pyplot as plt  # here, not at collection: it takes most of a second

    figure, axes = plt.subplots()
    axes.set_title("nodes per level")
    show(figure)
    assert "[figure: nodes per level - drawn in the notebook version]" in capsys.readouterr().out
    assert not plt.fignum_exists(figure.number)


def test_anything_else_prints(capsys) -> None:
    show({"n": 8})
    assert capsys.readouterr().out == "{'n': 8}\n"


def test_in_jupyter_a_string_prints_as_text_not_as_its_repr(monkeypatch, capsys) -> None:
    """A board drawn as text must not reach Jupyter's display, which shows a string's
    repr: ``'7 ■ □ …\\n6 …'`` on one line, as lesson 11's board once did on the site."""
    import IPython.display

    from cp_queens.course import display
    from cp_queens.render import squares

    shown = []
    monkeypatch.setattr(display, "in_notebook", lambda: True)
    monkeypatch.setattr(IPython.display, "display", shown.append)
    board = squares(3, [(0, 0)], style="unicode")
    show(board)
    assert capsys.readouterr().out == board + "\n" and not shown
    show(display.Squares(3, [(0, 0)]))  # a board object: Jupyter draws its SVG
    assert len(shown) == 1 and shown[0]._repr_svg_().startswith("<svg")


def test_a_dominating_set_draws_every_queen_on_its_square() -> None:
    from cp_queens.course.display import Squares

    board = Squares(4, [(0, 0), (0, 3), (3, 1)], size=400)
    svg = board._repr_svg_()
    assert svg.count("♛") == 3 and svg.count("<rect") == 16
    assert 'x="50.00" y="50.00"' in svg  # (0, 0): the middle of the top-left square
    assert 'x="350.00" y="50.00"' in svg and 'x="150.00" y="350.00"' in svg
    assert board.to_text().splitlines()[0] == "4 ♛ ■ □ ♛"
