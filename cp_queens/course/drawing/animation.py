"""The board of a ``Trace`` animated step by step: a self-contained SVG (SMIL, no
script), and a page or notebook cell that adds play, pause and step buttons.

Each step is a frame (a group) that a discrete animation shows in turn, with its
caption wrapped under the board; the page with buttons shows the frames from its own
step counter instead, so that the caption, the slider and its label always agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cp_queens.course.drawing.board import board_svg, escape

if TYPE_CHECKING:
    from cp_queens.course.drawing.recorded import Recording

#: The default pace of an animation: the whole search in about this many seconds, each
#: step shown between FASTEST_STEP and SLOWEST_STEP seconds.
ANIMATION_SECONDS = 25.0
FASTEST_STEP, SLOWEST_STEP = 0.15, 0.6


@dataclass
class Animation:
    """Shows itself as the animated board in Jupyter (HTML with buttons, or plain SVG)."""

    trace: Recording
    seconds_per_step: float = SLOWEST_STEP

    def _repr_html_(self) -> str:
        return animation_fragment(self.trace, self.seconds_per_step)

    def _repr_svg_(self) -> str:
        return animation_svg(self.trace, self.seconds_per_step)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken between words only."""
    import textwrap

    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]


#: The animation's caption: font size (px) and characters a line holds at that size.
CAPTION_PX = 20
CAPTION_CHAR_PX = 10.5  # an average sans-serif character at 20 px, with room to spare


def animation_svg(trace: Recording, seconds: float) -> str:
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
        *board_svg(n, board_x, margin, cell, (), frozenset()),
        *coordinates(n, board_x, margin, cell),
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
        parts += board_svg(
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
                f"{escape(line)}</tspan>"
            )
        parts.append("</text>")
        parts.append("</g>")
    parts.append(
        f'<text x="{margin}" y="{height - 10}" font-size="16" fill="#555">n = {n}: '
        f"{escape(trace.label)}</text>"
    )
    parts.append("</svg>")
    return "\n".join(parts)


def coordinates(n: int, x: float, y: float, cell: float) -> list[str]:
    """The files (``a``, ``b``, ...) under the board and the ranks (``n`` at the top, ``1``
    at the bottom) left of it: the captions name squares as chess does."""
    label = 'font-size="13" fill="#555" text-anchor="middle"'
    files = [
        f'<text class="file" x="{x + (c + 0.5) * cell:.1f}" y="{y + n * cell + 12:.1f}" '
        f"{label}>{chr(ord('a') + c)}</text>"
        for c in range(n)
    ]
    ranks = [
        f'<text class="rank" x="{x - 9:.1f}" y="{y + (r + 0.5) * cell + 5:.1f}" '
        f"{label}>{n - r}</text>"
        for r in range(n)
    ]
    return files + ranks


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
  // The page shows the frames itself, from one step number that also sets the slider
  // and its label: the SVG's own clock, read every 100 ms, lagged a step behind its
  // caption ("17/66" over a slider at 16) whenever a step is short.
  const box = document.getElementById("{id}");
  const svg = box.querySelector("svg");
  const frames = Array.from(svg.querySelectorAll("g.frame"));
  const seconds = {seconds}, steps = {steps};
  const slider = box.querySelector("[data-do=seek]");
  const label = box.querySelector("[data-show=step]");
  const play = box.querySelector("[data-do=play]");
  svg.querySelectorAll("animate").forEach(function (clock) {{ clock.remove(); }});
  let step = 1, timer = null;
  function show(next) {{
    step = Math.min(Math.max(next, 1), steps);
    frames.forEach(function (frame, i) {{
      frame.setAttribute("opacity", i + 1 === step ? "1" : "0");
    }});
    label.textContent = step; slider.value = step;
    svg.setAttribute("data-shown", step);
  }}
  function pause() {{ clearInterval(timer); timer = null; play.textContent = "play"; }}
  function start() {{
    timer = setInterval(function () {{ show(step % steps + 1); }}, seconds * 1000);
    play.textContent = "pause";
  }}
  play.onclick = function () {{ if (timer) pause(); else start(); }};
  box.querySelector("[data-do=back]").onclick = function () {{ pause(); show(step - 1); }};
  box.querySelector("[data-do=next]").onclick = function () {{ pause(); show(step + 1); }};
  slider.oninput = function () {{ pause(); show(Number(slider.value)); }};
  show(1); start();
}})();
</script>
</div>"""


def animation_fragment(trace: Recording, seconds: float) -> str:
    import uuid

    return _PLAYER.format(
        id=f"cpq-{uuid.uuid4().hex[:8]}",
        svg=animation_svg(trace, seconds),
        steps=len(trace.steps),
        seconds=seconds,
    )


def animation_html(trace: Recording, seconds: float) -> str:
    title = escape(f"cp-queens: the search for n = {trace.n} step by step")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<title>{title}</title>\n</head>\n<body>\n<h1 style="font-family: sans-serif; '
        f'font-size: 18px">{title}</h1>\n{animation_fragment(trace, seconds)}\n</body>\n</html>\n'
    )
