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
