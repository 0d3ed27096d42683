"""What a command writes: one-line errors, ``#`` notes, answers as text or JSON, and
the files and streams it reads and writes (a failure there is one line, exit 74)."""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from cp_queens.answer import NEGATIVE, Answer
from cp_queens.cli.exit_codes import of as exit_code
from cp_queens.errors import CpQueensError, ParseError
from cp_queens.problem import Problem
from cp_queens.stats import Stats
from cp_queens.writers import (
    FORMATS,
    Sink,
    answer_text,
    format_help,
    format_of_file,
    goes_out,
    stopped_line,
    write_answer,
)

if TYPE_CHECKING:
    from rich.console import Console


def fail(message: str, code: int = 2) -> int:
    """Print ``cp-queens: error: message`` on stderr and return ``code``."""
    print(f"cp-queens: error: {message}", file=sys.stderr)
    return code


#: Set by ``--quiet``: the ``#`` lines and the live progress stay silent. One process runs
#: one command, so a module-level switch is the whole state.
_quiet = False


def set_quiet(quiet: bool) -> None:
    """Silence (or restore) ``note``, ``report`` and the live progress lines."""
    global _quiet
    _quiet = quiet


def note(message: str) -> None:
    """A ``# message`` line on stderr (what was chosen, where it ran), unless ``--quiet``."""
    if not _quiet:
        print(f"# {message}", file=sys.stderr)


def report(stats: Stats | None) -> None:
    """An answer's statistics, on stderr so that stdout pipes cleanly (unless ``--quiet``);
    nothing for an answer no engine gave."""
    if stats is not None:
        note(stats.summary())


def add_format_argument(
    parser: argparse.ArgumentParser, names: Sequence[str], more: str = "", *, output: bool = False
) -> None:
    """``--format`` with ``names`` (from ``cp_queens.writers.choices``, the first the
    default), its help in the registry's own words. Not given, the format is chosen
    after parsing (``choose_format``): for a command with ``-o FILE`` (``output``) the
    one FILE's suffix names, else the default."""
    default = names[0]
    suffix = "; with -o FILE and no --format: the format FILE's suffix names" if output else ""
    parser.add_argument(
        "--format",
        choices=names,
        default=None,
        help=format_help(names, default) + suffix + (f"; {more}" if more else ""),
    )
    parser.set_defaults(format_names=tuple(names), format_default=default)


def choose_format(args: argparse.Namespace) -> None:
    """Set ``args.format`` where the user gave none: the format the suffix of ``-o FILE``
    names (``writers.format_of_file``), else the command's default. The same rule for
    every command that has ``--format`` and ``-o``."""
    names = getattr(args, "format_names", None)
    if names is None or args.format is not None:
        return
    output = getattr(args, "output", None)
    named = format_of_file(output)
    if named is not None and named not in names:  # rather than a file belying its name
        raise CpQueensError(
            f"-o {output}: that suffix means --format {named}, which this command does "
            f"not write (give --format: {', '.join(names)})"
        )
    args.format = named or args.format_default


def check_output(args: argparse.Namespace) -> None:
    """Refuse an ``-o FILE`` that cannot be created, before any work: a bad argument
    (exit 2), said at once, not a failed write (exit 74) after the search it would waste.
    A file that fails later (a full disk) is still exit 74."""
    path = getattr(args, "output", None)
    if path in (None, "-"):
        return
    from cp_queens.output import OutputError, check_writable

    try:
        check_writable(path)
    except OutputError as error:
        raise CpQueensError(str(error.strerror)) from None


@contextlib.contextmanager
def open_sink(fmt: str, path: str | None, problem: Problem | None = None) -> Iterator[Sink]:
    """A ``Sink`` in format ``fmt`` on ``path`` (stdout for ``None`` / ``-``), whole records
    or a failure (``open_output``)."""
    with open_output(path, lines=FORMATS[fmt].lines) as out:
        yield Sink(fmt, out, problem)


def deliver(answer: Answer, fmt: str, *, output: str | None = None) -> int:
    """The last two steps of every answering command: write ``answer``, return its exit code.

    The one rule for what goes where (``writers.goes_out``, ``docs/architecture.md``):
    a document (json) always goes out whole, also for an answer cut short (its figure
    under ``partial``). Otherwise only what is true as written goes where answers go:
    an answer, or a witness found before a cut (a dominating set, with words saying it is
    not proven the smallest); a figure cut short (a count so far) or doubted (engines
    disagree) writes nothing there, and a proven "no" is a line on stdout, never a file
    of ``-o``. Why an answer stopped is one line on stderr (``conclude``).
    """
    if goes_out(answer, fmt):
        with open_sink(fmt, output, answer.problem) as sink:
            sink.finish(answer)
    elif answer.outcome == NEGATIVE:
        write_answer(answer, fmt, sys.stdout)
    return conclude(answer)


def conclude(answer: Answer, where: str = "") -> int:
    """Say on stderr what stdout does not (a partial figure, an empty list), and return the
    answer's exit code. ``where``: the file a stream went to (`` in out.jsonl``)."""
    if not answer.complete:
        print(stopped_line(answer, where), file=sys.stderr)
    elif answer.task == "solutions" and answer.outcome == NEGATIVE:
        print(f"cp-queens: {answer_text(answer)}", file=sys.stderr)
    return exit_code(answer)


def quiet() -> bool:
    """Whether ``--quiet`` was given."""
    return _quiet


def live_console() -> Console | None:
    """A Rich console on stderr for live progress, or ``None`` when piped or ``--quiet``.

    Rich is imported only for a terminal: a piped or scripted run starts lighter.
    """
    if _quiet or not sys.stderr.isatty():
        return None
    from rich.console import Console

    console = Console(stderr=True)
    if _quiet or not console.is_terminal:
        return None
    return console


class StreamError(OSError):
    """Reading or writing a stream failed (disk full, closed stream): one line, exit code 74."""


@contextlib.contextmanager
def open_input(path: str) -> Iterator[TextIO]:
    """``path`` opened for reading, or stdin for ``-``; a missing file is a one-line error.

    Every reader sees the same text: UTF-8 with an optional byte-order mark
    dropped, and ``\\r\\n`` read as ``\\n``; bytes that are not UTF-8 are one
    line naming the source, not a ``UnicodeDecodeError``.
    """
    name = "<stdin>" if path == "-" else path
    if path == "-":
        if sys.stdin is None:
            raise StreamError("cannot read <stdin>: it is closed")
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # a test's StringIO: already text
            handle: TextIO = sys.stdin
        else:
            handle = _Borrowed(buffer, encoding="utf-8-sig", errors="strict")
    else:
        try:
            handle = open(path, encoding="utf-8-sig", errors="strict")  # noqa: SIM115
        except OSError as error:
            raise CpQueensError(f"cannot read {path}: {error.strerror}") from None
    try:
        yield handle
    except UnicodeDecodeError as error:
        raise ParseError(
            f"{name}: not UTF-8 text (byte 0x{error.object[error.start]:02x}); "
            "expected boards, JSON lines or CSV"
        ) from None
    except OSError as error:
        if isinstance(error, StreamError):
            raise
        raise StreamError(f"cannot read {name}: {error.strerror or error}") from None
    finally:
        if path != "-":
            handle.close()
        elif handle is not sys.stdin:
            # Leave sys.stdin's own buffer open. A stdin that refuses the flush detaching
            # makes (pytest's capture) keeps its wrapper attached: ``_Borrowed`` then
            # never closes it, not even when collected.
            with contextlib.suppress(OSError, ValueError):
                handle.detach()  # type: ignore[attr-defined]


class _Borrowed(io.TextIOWrapper):
    """Text read from a buffer this process does not own (stdin's): collected, it does
    not close the buffer. (A plain ``TextIOWrapper`` closes it, flushing first; on 3.13
    a stdin that refuses the flush printed "Exception ignored" at a random later moment.)"""

    def __del__(self) -> None:
        pass


@contextlib.contextmanager
def open_output(path: str | None, lines: bool = False) -> Iterator[Any]:
    """``path`` opened for writing, or stdout for ``None`` / ``-``: whole records or a
    failure (``cp_queens.output``).

    A failed write (a full disk, ``ulimit -f``, ``/dev/full``, a file that takes no
    writes) becomes one ``StreamError`` naming the target, and what was written
    stays whole: stdout, if a regular file, is cut back to its last whole record; a
    file named with ``-o`` is written under a temporary name and renamed into place
    when complete, so it never holds half a placement (on failure it is not created,
    or an old one stays untouched). Ctrl-C keeps the whole records written so far.
    ``lines``: every line is a record (jsonl, csv), else every write is (boards, pictures).
    """
    from cp_queens.output import OutputError, whole_file, whole_stream

    try:
        if path in (None, "-"):
            with whole_stream(sys.stdout, "<stdout>", lines) as out:
                yield out
        else:
            with whole_file(path, lines=lines) as out:
                yield out
    except OutputError as error:
        raise StreamError(error.strerror) from None
