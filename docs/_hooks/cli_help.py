"""MkDocs hook: put the live ``cp-queens ... --help`` text where a page asks for it.

A page writes ``<!-- cli-help solve -->`` (or ``<!-- cli-help -->`` for the top level)
and gets the help text that the installed parser prints, so the command pages can never
disagree with the command. The width is fixed so the site does not depend on the
terminal that built it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from typing import Any

MARKER = re.compile(r"<!-- cli-help(?P<command>(?: [a-z-]+)*) -->")


def help_text(command: list[str]) -> str:
    from cp_queens.cli import build_parser

    os.environ["COLUMNS"] = "88"
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        build_parser().parse_args([*command, "--help"])
    return out.getvalue().rstrip()


def on_page_markdown(markdown: str, **_: Any) -> str:
    def replace(match: re.Match[str]) -> str:
        command = match["command"].split()
        return f"```text\n$ cp-queens {' '.join([*command, '--help'])}\n{help_text(command)}\n```"

    return MARKER.sub(replace, markdown)
