"""The search drawn: the tree holds exactly the engine's nodes, and a real browser shows it."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cp_queens import Problem, engines
from cp_queens.cli import main
from cp_queens.course.trace import Animation, TraceTooLargeError, record
from cp_queens.engines.propagate import CONSISTENCIES

SETTINGS = [("reference", {})] + [("propagate", {"consistency": c}) for c in CONSISTENCIES]


def drawn_nodes(svg: str) -> int:
    return len(re.findall(r'<g class="node ', svg))


@pytest.mark.parametrize(("engine", "options"), SETTINGS, ids=lambda x: str(x))
@pytest.mark.parametrize("n", [4, 5, 6])
def test_the_tree_draws_one_board_per_node(engine: str, options: dict, n: int) -> None:
    trace = record(n, engine=engine, **options)
    svg = trace.tree_svg()
    assert drawn_nodes(svg) == len(trace.nodes) == trace.stats.branches
    # and the same search without a tracer has the same number of nodes
    plain = engines.get(engine, **options)
    plain.count(Problem(n))
    assert plain.stats.branches == trace.stats.branches
    solutions = svg.count('<g class="node solution"')
    assert solutions == trace.stats.solutions


def test_outcomes_tell_dead_ends_from_pruned_branches() -> None:
    plain = record(6, engine="propagate", consistency="none")
    assert {node.outcome for node in plain.nodes} == {"inner", "dead-end", "solution"}
    forward = record(6, engine="propagate", consistency="forward")
    assert {node.outcome for node in forward.nodes} == {"inner", "pruned", "solution"}
    # every non-solution leaf is a dead end or pruned, and they are the engine's fails
    leaves = [node for node in forward.nodes if not node.children]
    assert sum(node.outcome != "solution" for node in leaves) == forward.stats.conflicts


def test_first_solution_stops_the_tree() -> None:
    trace = record(8, engine="propagate", consistency="alldiff", first=True)
    assert trace.stats.solutions == 1
    assert [node.outcome for node in trace.nodes].count("solution") == 1
    assert trace.nodes[-1].outcome == "solution"
    assert len(trace.nodes[-1].queens) == 8


def test_given_queens_are_the_root() -> None:
    trace = record(6, engine="propagate", consistency="forward", fixed={0: 1})
    assert trace.given == ((0, 1),)
    assert all((0, 1) in node.queens for node in trace.nodes)
    assert trace.root_crossed  # propagation from the given queen happens at the root


def test_animation_has_one_frame_per_step() -> None:
    trace = record(5, engine="propagate", consistency="arc", first=True)
    svg = trace.animation_svg()
    assert svg.count('<g class="frame"') == len(trace.steps)
    assert f'data-steps="{len(trace.steps)}"' in svg
    captions = [step.caption for step in trace.steps]
    assert captions[0] == "the empty board"
    assert any(caption.startswith("propagation crosses out") for caption in captions)
    assert captions[-1] == "solution 1"
    html = trace.animation_html()
    assert html.startswith("<!DOCTYPE html>") and "pauseAnimations" in html


def test_jupyter_sees_svg_and_html() -> None:
    trace = record(4)
    assert trace._repr_svg_().startswith("<svg")
    animation = trace.animation()
    assert isinstance(animation, Animation)
    assert "<svg" in animation._repr_html_() and "<script>" in animation._repr_html_()
    assert animation._repr_svg_().startswith("<svg")


def test_too_large_searches_are_refused() -> None:
    with pytest.raises(TraceTooLargeError, match="more than 400 nodes"):
        record(8)
    with pytest.raises(TraceTooLargeError, match="n=11 is too large"):
        record(11, first=True)


def test_cli_writes_the_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trace", "6", "--output", str(tmp_path / "t.svg")]) == 0
    assert drawn_nodes((tmp_path / "t.svg").read_text()) == 152
    assert "wrote" in capsys.readouterr().err
    assert main(["trace", "6", "--animate", "--output", str(tmp_path / "a.html")]) == 0
    assert main(["trace", "5", "--animate", "--first", "-o", str(tmp_path / "a.svg")]) == 0
    assert "<animate" in (tmp_path / "a.svg").read_text()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["trace", "8", "-o", "x.svg"], "more than 400 nodes"),
        (["trace", "20", "-o", "x.svg"], "n=20 is too large"),
        (["trace", "6", "-o", "x.txt"], "must end in .svg, .html or .png"),
        (["trace", "6", "--consistency", "arc", "-o", "x.svg"], "only for --engine propagate"),
    ],
)
def test_cli_refuses_in_one_line(argv, message, capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not list(tmp_path.iterdir())


# -- in a real browser -------------------------------------------------------------------


def screenshot(page: Path, png: Path, *, size: str, wait_ms: int) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.fail("needs Chromium: apt-get install -y chromium (the CI script installs it)")
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={tempfile.mkdtemp()}",
            "--hide-scrollbars",
            f"--window-size={size}",
            f"--virtual-time-budget={wait_ms}",
            f"--screenshot={png}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )


def dark_pixels(png: Path) -> int:
    """Pixels clearly darker than the page (queens, crosses, text)."""
    from matplotlib.image import imread

    image = imread(png)
    brightness = image[..., :3].mean(axis=2)
    return int((brightness < 0.3).sum())


@pytest.mark.slow
def test_chromium_renders_the_tree_and_the_animation(tmp_path: Path) -> None:
    trace = record(6, engine="propagate", consistency="forward")
    pages = {
        "tree.svg": trace.tree_svg(),
        "animation.svg": trace.animation_svg(seconds_per_step=0.5),
        "animation.html": trace.animation_html(seconds_per_step=0.5),
    }
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>")
    screenshot(blank, tmp_path / "blank.png", size="700,600", wait_ms=100)
    assert dark_pixels(tmp_path / "blank.png") == 0
    for name, document in pages.items():
        page = tmp_path / name
        page.write_text(document)
        png = tmp_path / (name + ".png")
        # 4 s into the animation: several queens are on the board
        screenshot(page, png, size="700,600", wait_ms=4200)
        assert png.stat().st_size > 0
        # A blank page has none; the board's lines, queens and caption give hundreds. (How
        # far a SMIL animation has run under a virtual time budget varies, so the bar is
        # "clearly drawn", not "this many queens".)
        assert dark_pixels(png) > 200, f"{name} rendered (nearly) blank"
