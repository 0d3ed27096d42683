"""``cp-queens completion SHELL``: print a tab-completion script for bash, zsh or tcsh.

The script is generated from the same argparse parser that reads the command line
(with `shtab <https://github.com/iterative/shtab>`_), so it knows every subcommand,
option and choice and can never drift from them.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

SHELLS = ("bash", "zsh", "tcsh")

EPILOG = """\
examples:
  eval "$(cp-queens completion bash)"      # bash: add this line to ~/.bashrc
  cp-queens completion zsh > "${fpath[1]}/_cp-queens"   # zsh: then open a shell
  eval "`cp-queens completion tcsh`"       # tcsh: add this line to ~/.tcshrc
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "completion",
        description="Print a tab-completion script for SHELL on stdout. Load it in your shell\n"
        "(see the examples) and Tab completes commands, options and their choices, file\n"
        "names where an argument is a file and directories where it is one.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("shell", choices=SHELLS, metavar="SHELL", help=", ".join(SHELLS))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import shtab

    from cp_queens.cli import build_parser

    parser = build_parser()
    _offer_engine_names(parser)
    _offer_paths(parser, shtab)
    sys.stdout.write(shtab.complete(parser, shell=args.shell))
    return 0


#: Metavars of the arguments that name a file (``F``: ``--output``; ``CSV``:
#: ``--overrides``; ``FOLDER|FILE``: what ``grade`` grades) and a directory (``DIR``).
FILE_METAVARS = frozenset({"F", "FILE", "CSV", "FOLDER|FILE"})
DIRECTORY_METAVARS = frozenset({"DIR"})


def _offer_paths(parser: argparse.ArgumentParser, shtab: Any) -> None:
    """Tab completes file names where an argument is a file, directories where it is one.

    Found by metavar, so that a new ``--output F`` completes file names with no edit here.
    """
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for subparser in action.choices.values():
                _offer_paths(subparser, shtab)
        elif action.metavar in FILE_METAVARS:
            action.complete = shtab.FILE  # type: ignore[attr-defined]
        elif action.metavar in DIRECTORY_METAVARS:
            action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]


def _offer_engine_names(parser: argparse.ArgumentParser) -> None:
    """Give ``--engine`` (and friends) the registered names as choices, for completion only.

    The parser that reads the command line checks engine names with a type function (so
    its error lists them); completion needs them as ``choices``, set here on a parser
    built for the script alone.
    """
    import cp_queens.engines as engines

    names = engines.names()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for subparser in action.choices.values():
                _offer_engine_names(subparser)
        elif action.dest in ("engine", "cross_check") and action.choices is None:
            action.choices = names
