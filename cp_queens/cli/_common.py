"""Pieces every subcommand shares: argument types, one-line errors, output, progress."""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from cp_queens import engines
from cp_queens.engines import Engine, ProgressCallback
from cp_queens.errors import CpQueensError, ParseError
from cp_queens.stats import Progress as ProgressRecord
from cp_queens.stats import Stats

if TYPE_CHECKING:
    from rich.console import Console


class OneLineErrorParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit code 2), not a usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def fail(message: str, code: int = 2) -> int:
    """Print ``cp-queens: error: message`` on stderr and return ``code``."""
    print(f"cp-queens: error: {message}", file=sys.stderr)
    return code


def board_size(text: str) -> int:
    """argparse type for N: a whole number >= 1."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"N must be a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"N must be at least 1, got {n}")
    return n


def non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a time > 0 seconds, got {text}")
    return value


def engine_name(text: str) -> str:
    """argparse type: a registered engine name, with the known names in the error."""
    known = engines.names()
    if text not in known:
        raise argparse.ArgumentTypeError(
            f"unknown engine {text!r} (choose from {', '.join(known)})"
        )
    return text


def add_engine_argument(parser: argparse.ArgumentParser, default: str | None, why: str) -> None:
    parser.add_argument(
        "--engine",
        "-e",
        type=engine_name,
        default=default,
        metavar="E",
        help=f"solver to use ({', '.join(engines.names())}); default: {why}",
    )


def _cpsat_choices(option: str) -> tuple[str, ...]:
    """The values the cpsat engine takes for ``option``, as it declares them."""
    cpsat = engines.engine_class("cpsat")
    return cpsat.option_choices[option]  # type: ignore[attr-defined]  # a CpSatEngine's own


def add_method_argument(parser: argparse.ArgumentParser) -> None:
    """``--method`` of the cpsat engine: one model, or the fast path (see engines/cpsat)."""
    parser.add_argument(
        "--method",
        choices=_cpsat_choices("method"),
        help="cpsat only: 'plain' enumerates with one model, 'fast' one solution per "
        "symmetry class in parallel subproblems, expanded (default: auto, fast from N=10)",
    )


def add_strategy_arguments(
    parser: argparse.ArgumentParser, *, solver_workers: bool = False
) -> None:
    """``--strategy`` and friends of the cpsat engine (see engines/cpsat/search.py)."""
    group = parser.add_argument_group("how the cpsat engine searches")
    group.add_argument(
        "--strategy",
        choices=_cpsat_choices("strategy"),
        help="portfolio: CP-SAT's own search; fixed: the orders below; greedy: random "
        "queen placements with clause learning on the 0/1 board (fast for large N); "
        "default auto: greedy for one solution, CP-SAT's own search otherwise",
    )
    group.add_argument(
        "--variable-order",
        choices=_cpsat_choices("variable_order"),
        help="with --strategy fixed: rows in order (input, default) or smallest domain first "
        "(min-domain; CP-SAT measures a domain by its bounds)",
    )
    group.add_argument(
        "--value-order",
        choices=_cpsat_choices("value_order"),
        help="with --strategy fixed: which column to try first (default: min); random uses --seed",
    )
    if solver_workers:
        group.add_argument(
            "--solver-workers",
            type=non_negative_int,
            metavar="T",
            help="CP-SAT's own search threads (default: 1 for fixed and greedy, every core for "
            "portfolio)",
        )


def strategy_options(args: argparse.Namespace) -> dict[str, Any]:
    """The search options the user set, as keyword arguments for :func:`make_engine`."""
    names = ("strategy", "variable_order", "value_order", "solver_workers")
    return {name: getattr(args, name, None) for name in names}


def make_engine(name: str, **options: Any) -> Engine:
    """Build engine ``name`` with the options the user set (``None`` means not set).

    :func:`cp_queens.engines.get` checks the options for every caller; here an
    option the engine does not take is named by its command-line flag.
    """
    chosen = {key: value for key, value in options.items() if value is not None}
    accepted = engines.options(name)
    for key in chosen:
        if key not in accepted:
            flag = "--" + key.replace("_", "-")
            raise CpQueensError(f"engine '{name}' has no option {flag}")
    return engines.get(name, **chosen)


#: Set by ``--quiet``: the ``#`` lines and the live progress stay silent. One process runs
#: one command, so a module-level switch is the whole state.
_quiet = False


def set_quiet(quiet: bool) -> None:
    """Silence (or restore) :func:`note`, :func:`report` and the live progress lines."""
    global _quiet
    _quiet = quiet


def note(message: str) -> None:
    """A ``# message`` line on stderr (what was chosen, where it ran), unless ``--quiet``."""
    if not _quiet:
        print(f"# {message}", file=sys.stderr)


def report(stats: Stats) -> None:
    """The engine's statistics, on stderr so that stdout pipes cleanly (unless ``--quiet``)."""
    note(stats.summary())


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
            handle = io.TextIOWrapper(buffer, encoding="utf-8-sig", errors="strict")
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
            handle.detach()  # type: ignore[attr-defined]  # leave sys.stdin's own buffer open


@contextlib.contextmanager
def open_output(path: str | None) -> Iterator[TextIO]:
    """``path`` opened for writing, or stdout for ``None`` / ``-``.

    A failed write (a full disk, ``/dev/full``, a file that takes no writes)
    becomes one :class:`StreamError` naming the target; a regular file is cut
    back to its last whole line, so what was written stays whole.
    """
    name = "<stdout>" if path in (None, "-") else path
    if path in (None, "-"):
        handle: TextIO = sys.stdout
    else:
        try:
            handle = open(path, "w", encoding="utf-8", newline="")  # noqa: SIM115
        except OSError as error:
            raise StreamError(f"cannot write {path}: {error.strerror}") from None
    try:
        try:
            yield handle
            handle.flush()
        finally:
            if handle is not sys.stdout:
                handle.close()
    except BrokenPipeError:
        raise
    except OSError as error:
        if isinstance(error, StreamError):
            raise
        _cut_to_last_line(handle if handle is sys.stdout else path)
        raise StreamError(f"cannot write {name}: {error.strerror or error}") from None


def _cut_to_last_line(target: TextIO | str | None) -> None:
    """Truncate a regular file after its last newline: a torn last line is worse than none."""
    import os
    import stat

    try:
        if target is None:
            return
        fd = os.open(target, os.O_RDWR) if isinstance(target, str) else os.dup(target.fileno())
    except (OSError, ValueError, AttributeError):
        return
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return
        size = os.lseek(fd, 0, os.SEEK_END)
        keep, chunk = 0, 1 << 16
        position = size
        while position > 0:
            start = max(0, position - chunk)
            data = os.pread(fd, position - start, start)
            newline = data.rfind(b"\n")
            if newline >= 0:
                keep = start + newline + 1
                break
            position = start
        if keep < size:
            os.ftruncate(fd, keep)
    except OSError:
        pass
    finally:
        os.close(fd)


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    whole = round(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


@contextlib.contextmanager
def progress_display(label: str) -> Iterator[ProgressCallback | None]:
    """One live Rich line for every engine's :class:`~cp_queens.stats.Progress`; ``None``
    when stderr is not a terminal.

    With a known amount of work (subproblems) it draws a bar with the rate and an
    ETA; otherwise a spinner with the solutions so far. Cheap to call often.
    """
    console = live_console()
    if console is None:
        yield None
        return
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(bar_width=None),
        TextColumn("{task.fields[detail]}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        expand=False,
    ) as bar:
        task = bar.add_task(label, total=None, detail="starting")

        def update(info: ProgressRecord) -> None:
            if info.total is None:
                detail = f"{info.solutions:,} solutions, {info.rate:,.0f}/s"
                bar.update(task, detail=detail)
                return
            detail = (
                f"{info.done:,}/{info.total:,} parts, {info.solutions:,} solutions, "
                f"ETA {_clock(info.eta)}"
            )
            bar.update(task, total=info.total, completed=info.done, detail=detail)

        yield update
