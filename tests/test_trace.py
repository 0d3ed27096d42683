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
from cp_queens.course.drawing.slides import compare_svg
from cp_queens.course.drawing.trace import Animation, TraceTooLargeError, emptied_rows, record, wrap
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
    plain = engines.get(engine, **options).count(Problem(n)).stats
    assert plain is not None and plain.branches == trace.stats.branches
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


def attacked(n: int, queens: tuple[tuple[int, int], ...], row: int) -> set[int]:
    """The columns of ``row`` a queen attacks, worked out from the queens alone."""
    return {col for col in range(n) for r, c in queens if c == col or abs(c - col) == abs(r - row)}


@pytest.mark.parametrize("n", [5, 6, 7])
def test_a_pruned_forward_node_names_a_row_its_queens_wipe_out(n: int) -> None:
    """Forward checking fails exactly when a row has every square attacked: the row
    named must be one, computed here from the queens, not from what was crossed out."""
    trace = record(n, engine="propagate", consistency="forward", max_nodes=2000, max_steps=9000)
    pruned = [node for node in trace.nodes if node.outcome == "pruned"]
    assert pruned
    for node in pruned:
        assert node.emptied and "no square left" in node.why
        for row in node.emptied:
            assert row not in {r for r, _ in node.queens}
            assert attacked(n, node.queens, row) == set(range(n)), (node.queens, row)
        # forward checking goes through the rows in order and stops at the first it
        # empties: that one is named (a later row may be wiped out too, unseen)
        free = [r for r in range(n) if r not in {q for q, _ in node.queens}]
        wiped = [r for r in free if attacked(n, node.queens, r) == set(range(n))]
        assert node.emptied == (wiped[0],)


def test_a_dead_end_names_the_row_below_it() -> None:
    trace = record(6)
    for node in trace.nodes:
        if node.outcome == "dead-end":
            (row,) = node.emptied
            assert row == node.row + 1
            assert attacked(6, node.queens, row) == set(range(6))
        elif node.outcome in ("inner", "solution"):
            assert node.emptied == ()


def test_emptied_rows_tells_the_three_reasons_apart() -> None:
    every = {(r, c) for r in range(4) for c in range(4)}
    # row 2 (rank 2 of 4) crossed out entirely
    assert emptied_rows(4, ((0, 1),), {(2, c) for c in range(4)}) == (
        (2,),
        "rank 2 has no square left",
    )
    # rows 1 and 2 down to one square each, and those attack each other (diagonal)
    crossed = every - {(0, 0), (1, 2), (2, 3), (3, 0), (3, 1)}
    rows, why = emptied_rows(4, ((0, 0),), crossed)
    assert rows == (1, 2) and "attack each other" in why
    # rows 1, 2 and 3 have two columns between them: a Hall set, no row empty
    crossed = every - {(0, 0), (1, 1), (1, 3), (2, 1), (2, 3), (3, 1), (3, 3)}
    rows, why = emptied_rows(4, ((0, 0),), crossed)
    assert rows == (1, 2, 3) and why == "ranks 3, 2, 1 have only 2 columns left"


@pytest.mark.parametrize("consistency", ["arc", "alldiff"])
def test_every_pruned_node_is_explained_by_its_board(consistency: str) -> None:
    trace = record(7, engine="propagate", consistency=consistency)
    pruned = [node for node in trace.nodes if node.outcome == "pruned"]
    assert pruned and all(node.emptied for node in pruned)
    assert all(not node.why.startswith("propagation found") for node in pruned)


def test_the_tree_paints_the_emptied_rows() -> None:
    trace = record(6, engine="propagate", consistency="arc")
    svg = trace.tree_svg()
    painted = sum(len(node.emptied) for node in trace.nodes)
    assert painted > 0
    assert svg.count('class="emptied"') == painted
    assert svg.count('class="emptied-label"') == sum(bool(node.emptied) for node in trace.nodes)


def test_the_tree_is_wide_and_shallow() -> None:
    """Root at the top, a level per row: as tall as n boards, not as tall as the leaves."""
    trace = record(6, engine="propagate", consistency="forward")
    width, height = (int(x) for x in re.findall(r'(?:width|height)="(\d+)"', trace.tree_svg())[:2])
    assert width > height
    assert height <= 1080


def test_compare_is_one_slide_with_every_tree_on_one_scale(tmp_path: Path) -> None:
    levels = ["none", "forward", "arc", "alldiff"]
    assert main(["trace", "6", "--compare", ",".join(levels), "-o", str(tmp_path / "t.svg")]) == 0
    svg = (tmp_path / "t.svg").read_text()
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080"')
    panels = re.findall(r'<g class="panel" data-name="(\w+)" data-nodes="(\d+)">', svg)
    expected = []
    for level in levels:
        plain = engines.get("propagate", consistency=level).count(Problem(6)).stats
        assert plain is not None
        expected.append((level, str(plain.branches)))
    assert (
        panels
        == expected
        == [
            ("none", "152"),
            ("forward", "130"),
            ("arc", "76"),
            ("alldiff", "64"),
        ]
    )
    for level, nodes in expected:
        assert f">{level}: {nodes} nodes</text>" in svg
    assert svg.count('<g class="node ') == 152 + 130 + 76 + 64
    # projected text: nothing below 18 px (the slide's default is 24, its legend 28)
    sizes = [int(size) for size in re.findall(r'font-size="(\d+)"', svg)]
    assert min(sizes) >= 18
    assert "pruned by propagation" in svg and "red line" in svg  # the legend
    # a red line per dead end or pruned node
    red = re.search(r'<path class="emptied" d="([^"]+)"', svg)
    assert red is not None


def test_compare_draws_a_smaller_tree_smaller() -> None:
    big, small = record(6), record(6, engine="propagate", consistency="alldiff")
    svg = compare_svg([big, small], ["reference", "alldiff"])

    def spread(panel: str) -> float:
        xs = [float(x) for x in re.findall(r'<g class="node [^"]+" data-x="([\d.]+)"', panel)]
        return max(xs) - min(xs)

    first, second = svg.split('<g class="panel"')[1:3]
    assert spread(second) < spread(first) * 0.8


def test_the_animation_stops_at_the_first_solution_and_lasts_under_a_minute(
    tmp_path: Path,
) -> None:
    page = tmp_path / "a.svg"
    argv = ["trace", "6", "--animate", "-e", "propagate:consistency=forward", "-o", str(page)]
    assert main(argv) == 0
    svg = page.read_text()
    steps = int(re.search(r'data-steps="(\d+)"', svg).group(1))
    seconds = float(re.search(r'data-seconds="([\d.]+)"', svg).group(1))
    assert steps == 83 and "solution 1" in svg and "solution 2" not in svg
    assert steps * seconds <= 30
    assert main([*argv, "--all"]) == 0
    svg = page.read_text()
    assert "solution 4" in svg and 'data-steps="431"' in svg


def test_captions_are_wrapped_between_words_never_cut() -> None:
    trace = record(6, engine="propagate", consistency="alldiff", first=True)
    svg = trace.animation_svg()
    captions = re.findall(r'<text class="caption"[^>]*>(.*?)</text>', svg, re.DOTALL)
    assert len(captions) == len(trace.steps)
    for caption, step in zip(captions, trace.steps, strict=True):
        lines = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", caption)
        assert " ".join(lines).split(": ", 1)[1] == step.caption  # every word, in order
        assert all(len(line) <= 45 for line in lines)
    assert wrap("propagation prunes this branch", 12) == ["propagation", "prunes this", "branch"]


def test_png_without_chromium_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    argv = ["trace", "5", "--compare", "none,alldiff", "-o", str(tmp_path / "t.png")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Chromium" in err and "not on the PATH" in err
    assert not (tmp_path / "t.png").exists()


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
    assert html.startswith("<!DOCTYPE html>") and "data-shown" in html


def test_the_animation_names_squares_as_chess_does() -> None:
    """Captions say "queen on c4", not "row 4, column 2" (docs/index.md: squares have
    chess names everywhere), and the board carries its files and ranks to read them by."""
    from cp_queens.problem import parse_square

    trace = record(6, engine="propagate", consistency="forward", first=True)
    placed = [step for step in trace.steps if step.caption.startswith("queen on ")]
    assert placed
    for step in placed:
        assert parse_square(step.caption.removeprefix("queen on "), 6) == step.mark
    said = " ".join(step.caption for step in trace.steps)
    assert "row" not in said and "column" not in said
    assert "rank" in said  # the rank a propagation emptied
    svg = trace.animation_svg()
    files = re.findall(r'<text class="file"[^>]*>([a-z])</text>', svg)
    ranks = re.findall(r'<text class="rank"[^>]*>(\d+)</text>', svg)
    assert files == list("abcdef") and ranks == ["6", "5", "4", "3", "2", "1"]


def test_the_player_shows_caption_and_slider_from_one_step() -> None:
    """The page's buttons and slider drive the frames from one step number (the SVG's own
    clock is taken out), so the caption's "k/N" and the slider's "k / N" are one k."""
    trace = record(5, engine="propagate", consistency="arc", first=True)
    html = trace.animation_html(seconds_per_step=0.2)
    script = html[html.index("<script>") : html.index("</script>")]
    assert 'querySelectorAll("animate")' in script and "clock.remove()" in script
    assert "getCurrentTime" not in script  # nothing read back from the SMIL clock
    # the frame shown, the slider and its label are set together, in one place
    show = script[script.index("function show") : script.index("function pause")]
    for sets in ('setAttribute("opacity"', "label.textContent = step", "slider.value = step"):
        assert sets in show
    assert script.count("slider.value =") == 1 and script.count("label.textContent =") == 1
    # frame k (1-based) is captioned "k/N"
    svg = trace.animation_svg()
    frames = svg.split('<g class="frame"')[1:]
    for k, frame in enumerate(frames, start=1):
        caption = "".join(re.findall(r"<tspan[^>]*>([^<]*)</tspan>", frame))
        assert caption.startswith(f"{k}/{len(frames)}: "), (k, caption)


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
        (["trace", "6", "--compare", "none,fast", "-o", "x.svg"], "'fast' is not a level"),
        (["trace", "6", "--compare", "arc,arc", "-o", "x.svg"], "names a level twice"),
        (["trace", "8", "--compare", "none,arc", "-o", "x.svg"], "--compare none: trace:"),
        (["trace", "6", "--compare", "arc", "--animate", "-o", "x.svg"], "--compare draws"),
        (["trace", "6", "--animate", "-o", "x.png"], "written as .svg or .html"),
        (["trace", "6", "--first", "--all", "-o", "x.svg"], "choose one"),
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
        "compare.svg": compare_svg(
            [record(6, engine="propagate", consistency=c) for c in CONSISTENCIES],
            list(CONSISTENCIES),
        ),
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


@pytest.mark.slow
def test_cli_writes_a_slide_sized_png(tmp_path: Path) -> None:
    from matplotlib.image import imread

    png = tmp_path / "t.png"
    argv = ["trace", "6", "--compare", "none,forward,arc,alldiff", "-o", str(png)]
    assert main(argv) == 0
    image = imread(png)
    assert image.shape[:2] == (1080, 1920)
    brightness = image[..., :3].mean(axis=2)
    assert int((brightness < 0.3).sum()) > 2000  # titles, edges: clearly drawn
    red = (image[..., 0] > 0.8) & (image[..., 1] < 0.2) & (image[..., 2] < 0.2)
    assert int(red.sum()) > 500  # the red lines to the emptied rows


@pytest.mark.slow
def test_chromium_plays_the_page_with_caption_and_slider_on_one_step(tmp_path: Path) -> None:
    """Played in a browser for a while (short steps, where the old clock-reading page
    lagged a step): the one frame shown is captioned "k/N" and the slider's label says k."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.fail("needs Chromium: apt-get install -y chromium (the CI script installs it)")
    trace = record(6, engine="propagate", consistency="forward", first=True)
    page = tmp_path / "animation.html"
    page.write_text(trace.animation_html(seconds_per_step=0.15), encoding="utf-8")
    dom = subprocess.run(
        [
            *(browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"),
            f"--user-data-dir={tempfile.mkdtemp()}",
            "--virtual-time-budget=2600",
            "--dump-dom",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    step = int(re.search(r'data-shown="(\d+)"', dom).group(1))
    assert 1 < step <= len(trace.steps)  # it played
    assert re.search(r'data-show="step">(\d+)<', dom).group(1) == str(step)
    shown = [frame for frame in dom.split('<g class="frame"')[1:] if 'opacity="1"' in frame[:40]]
    assert len(shown) == 1
    caption = "".join(re.findall(r"<tspan[^>]*>([^<]*)</tspan>", shown[0]))
    assert caption.startswith(f"{step}/{len(trace.steps)}: ")
