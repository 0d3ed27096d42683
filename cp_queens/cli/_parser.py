"""The command line's parser: errors as one line, help wrapped to the terminal."""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn


class OneLineErrorParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit code 2), not a usage dump.

    The line starts ``cp-queens: error:`` like every other error of the command (see
    ``fail``), whichever subcommand's parser found it: one prefix to grep for.
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"cp-queens: error: {message} (see '{self.prog} --help')\n")


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Long description lines wrapped to the terminal; paragraphs that fit, as written.

    Every command's ``--help`` uses it (``build_parser`` sets it), so a description
    written as one long string never runs off an 80-column screen, while hand-laid
    paragraphs (input formats, exit codes) and the ``examples:`` keep their columns.
    """

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = terminal_columns() - 2  # as argparse does, without its shutil import
        super().__init__(prog, indent_increment, max_help_position, width)

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if isinstance(action, argparse._SubParsersAction) and action.choices:
            # argparse measures the command names one indent short, so a long one
            # ("completion") would push its summary onto a line of its own.
            longest = max(map(len, action.choices)) + self._current_indent + 2 * 2
            self._action_max_length = max(self._action_max_length, longest)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        paragraphs = []
        for part in text.strip("\n").split("\n\n"):
            lines = part.splitlines()
            examples = lines[0].startswith("example")
            # argparse leaves 2 of the terminal's columns spare; a laid-out paragraph may use them
            if examples or all(len(indent + line) <= width + 2 for line in lines):
                paragraphs.append("\n".join(indent + line for line in lines))
            else:  # one long string, or lines too wide for this terminal: wrap
                paragraphs.append(
                    textwrap.fill(
                        " ".join(part.split()),
                        width,
                        initial_indent=indent,
                        subsequent_indent=indent,
                    )
                )
        return "\n\n".join(paragraphs)


def terminal_columns() -> int:
    """The width ``shutil.get_terminal_size()`` gives: ``COLUMNS``, else the terminal of
    stdout, else 80.

    argparse asks shutil for it in every formatter it makes, and it makes one for
    every option added; shutil and the compression modules it imports are a few
    milliseconds of a small command's start-up, for one system call.
    """
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80
