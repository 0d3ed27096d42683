"""``cp-queens verify``: check placements read from a file or stdin."""

from __future__ import annotations

import argparse
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from cp_queens.cli._common import (
    Tally,
    add_format_argument,
    board_size,
    deliver,
    non_negative_int,
    open_input,
    progress_display,
)
from cp_queens.problem import Problem
from cp_queens.verify import verify_all
from cp_queens.writers import FORMATS, choices

if TYPE_CHECKING:
    from cp_queens.answer import Answer


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify",
        description="Read placements (jsonl: one JSON array of columns per line; csv; or boards "
        "of '.' and 'Q' separated by blank lines; the format is detected) and check that no "
        "two queens attack each other. Prints a summary; exit code 0 when all are valid, "
        "1 when any is not or there is nothing to check, 2 when the input cannot be read.",
        epilog="examples:\n"
        "  cp-queens enumerate 8 --format jsonl | cp-queens verify --expect 92 --distinct\n"
        "  echo '[0, 2, 4, 1, 3, 5]' | cp-queens verify      names the attacking pair\n"
        "  cp-queens verify solutions.csv --n 10 --format json",
    )
    parser.add_argument(
        "file", nargs="?", default="-", metavar="FILE", help="file to read (default: stdin)"
    )
    parser.add_argument(
        "--n", type=board_size, metavar="N", help="also require every placement to have size N"
    )
    parser.add_argument(
        "--distinct",
        action="store_true",
        help="also require that no placement repeats (keeps one hash per placement)",
    )
    parser.add_argument(
        "--expect", type=non_negative_int, metavar="K", help="also require exactly K placements"
    )
    add_format_argument(parser, choices("summary", "document"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from cp_queens.formats import read_blocks

    name = "<stdin>" if args.file == "-" else args.file
    with open_input(args.file) as source:
        # The whole, where it is known: the placements --expect names, else a file's bytes.
        where = None if args.expect is not None else _position(source)
        parts = "placements" if args.expect is not None else "bytes" if where else "parts"
        label = f"verifying {os.path.basename(name)}"
        with progress_display(label, noun="placements", parts=parts) as show:
            blocks = read_blocks(source, name)
            tally = None if show is None else Tally(show, total=args.expect, where=where)
            verdict = _verdict(args, blocks if tally is None else _told(blocks, tally), name)
    return deliver(verdict, args.format)


def _verdict(args: argparse.Namespace, blocks: Iterable[Any], name: str) -> Answer:
    problem = None if args.n is None else Problem(args.n)

    def say(index: int, n: int, reason: str) -> None:
        print(f"{name}: placement {index} (n={n}): {reason}")

    return verify_all(
        blocks,
        name,
        problem=problem,
        distinct=args.distinct,
        expect=args.expect,
        # a listing for people names every failure as it is found; a document keeps
        # the first ones
        on_failure=None if FORMATS[args.format].document else say,
    )


def _position(source: Any) -> Callable[[], tuple[int, int]] | None:
    """How far into a regular file the reading is, and its size (``None`` for a pipe or a
    terminal: no whole to compare with); the file's own offset, ahead of the reader by
    at most a buffer."""
    try:
        fd = source.fileno()
        status = os.fstat(fd)
    except (AttributeError, OSError, ValueError):
        return None
    if not stat.S_ISREG(status.st_mode) or status.st_size == 0:
        return None
    size = status.st_size
    return lambda: (min(os.lseek(fd, 0, os.SEEK_CUR), size), size)


def _told(blocks: Iterable[Any], tally: Tally) -> Iterator[Any]:
    """``blocks`` as read (arrays of placements, or one placement each), counted for the
    live line on a terminal."""
    for block in blocks:
        yield block
        tally.add(len(block) if getattr(block, "ndim", 1) == 2 else 1)
