"""MkDocs hook: put the live ``cp-queens ... --help`` text where a page asks for it.

A page writes ``<!-- cli-help solve -->`` (or ``<!-- cli-help -->`` for the top level)
and gets the help text that the installed parser prints, so the command pages can never
disagree with the command; ``<!-- exit-codes solve -->`` gets the command's exit codes
from the one table (``cp_queens.cli.exit_codes.BY_COMMAND``). The width is fixed so the
site does not depend on the terminal that built it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from typing import Any

MARKER = re.compile(r"<!-- cli-help(?P<command>(?: [a-z-]+)*) -->")

#: ``<!-- exit-codes count -->``: the command's exit codes, from the one table in the code.
EXIT_MARKER = re.compile(r"<!-- exit-codes (?P<command>[a-z-]+) -->")


def exit_codes_line(command: str) -> str:
    """The command page's exit-code line, written from ``cp_queens.cli.exit_codes``."""
    from cp_queens.cli.exit_codes import command_codes

    return (
        f"**Exit codes:** {command_codes(command)}; and, like every command, 70, 74 or 130 "
        "(see [Exit codes and errors](../exit-codes.md))."
    )


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

    markdown = EXIT_MARKER.sub(lambda match: exit_codes_line(match["command"]), markdown)
    return MARKER.sub(replace, markdown)
