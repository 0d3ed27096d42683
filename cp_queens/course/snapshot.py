"""An SVG made into a PNG by headless Chromium: slides need a bitmap now and then.

Why a browser and not Matplotlib: the pictures are SVG written by hand, and the
browser that shows them to a student is the one that should draw them; a second
drawing of the same picture would drift from the first. Chromium is found on the
``PATH`` as ``chromium`` or ``chromium-browser`` (as the tests find it); without
it, ``svg_to_png`` raises one clear ``CpQueensError``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from cp_queens.errors import CpQueensError

BROWSERS = ("chromium", "chromium-browser")
#: Chromium's switches for one screenshot, named without their two leading dashes (the
#: library names no command-line flags; these belong to another program). No sandbox:
#: it fails as root and in containers; ``virtual-time-budget`` lets the page settle.
SWITCHES = (
    "headless",
    "no-sandbox",
    "disable-gpu",
    "disable-background-networking",
    "disable-component-update",
    "disable-sync",
    "no-first-run",
    "hide-scrollbars",
    "virtual-time-budget=100",
)


def find_chromium() -> str | None:
    """The Chromium on the ``PATH``, or ``None``."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def svg_size(svg: str) -> tuple[int, int]:
    """The ``width`` and ``height`` (px) of an SVG document's outer element."""
    head = svg[: svg.index(">")]
    width = re.search(r'\bwidth="(\d+(?:\.\d+)?)"', head)
    height = re.search(r'\bheight="(\d+(?:\.\d+)?)"', head)
    if width is None or height is None:
        raise ValueError("svg_size: the SVG has no width and height in px")
    return round(float(width.group(1))), round(float(height.group(1)))


def svg_to_png(svg: str, png: Path, *, timeout: float = 120) -> None:
    """Write ``svg`` as the PNG ``png``, at its own size, drawn by headless Chromium."""
    browser = find_chromium()
    if browser is None:
        raise CpQueensError(
            f"{png}: a PNG is drawn by Chromium, which is not on the PATH (install chromium, "
            "or write .svg)"
        )
    width, height = svg_size(svg)
    with tempfile.TemporaryDirectory(prefix="cp-queens-png-") as folder:
        page = Path(folder) / "picture.html"
        page.write_text(
            '<!DOCTYPE html><html><head><meta charset="utf-8"><style>html, body '
            "{margin: 0; padding: 0; overflow: hidden; background: white}</style></head>"
            f"<body>{svg}</body></html>",
            encoding="utf-8",
        )
        shot = Path(folder) / "picture.png"
        settings = {
            "user-data-dir": Path(folder) / "profile",  # a fresh profile: nothing shared
            "window-size": f"{width},{height}",
            "screenshot": shot,
        }
        try:
            result = subprocess.run(
                [
                    browser,
                    *(f"--{switch}" for switch in SWITCHES),
                    *(f"--{switch}={value}" for switch, value in settings.items()),
                    page.as_uri(),
                ],
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            raise CpQueensError(f"{png}: Chromium took more than {timeout:.0f} s") from None
        if result.returncode != 0 or not shot.exists():
            last = (result.stderr.strip().splitlines() or ["no message"])[-1]
            raise CpQueensError(f"{png}: Chromium could not draw the PNG ({last})")
        try:
            shutil.copyfile(shot, png)
        except OSError as error:
            raise CpQueensError(f"{png}: cannot write: {error.strerror}") from None
