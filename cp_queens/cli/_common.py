"""Pieces every subcommand shares: argument types, one-line errors, output, progress."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, NoReturn, TextIO, TypeVar

from cp_queens import engines
from cp_queens.engines import DECIMAL_NUMBER, WHOLE_NUMBER, Engine, ProgressCallback
from cp_queens.errors import CpQueensError, ParseError
from cp_queens.stats import Progress as ProgressRecord
from cp_queens.stats import Stats

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import BarColumn, Progress


class OneLineErrorParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit code 2), not a usage dump."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


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


def fail(message: str, code: int = 2) -> int:
    """Print ``cp-queens: error: message`` on stderr and return ``code``."""
    print(f"cp-queens: error: {message}", file=sys.stderr)
    return code


def whole_number(text: str) -> int | None:
    """``text`` as an int when it is a plain ASCII decimal integer, else ``None``.

    ``int()`` takes more: ``1_000``, `` 8 `` and the digits of every script
    (``int("\u0668")``, Arabic-Indic eight, is 8), so a stray character could
    turn into a board size nobody typed.

    Examples:
        >>> whole_number("12"), whole_number("-3"), whole_number("1_000"), whole_number("\u0668")
        (12, -3, None, None)
    """
    if WHOLE_NUMBER.fullmatch(text) is None:
        return None
    try:
        return int(text)
    except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits)
        return None


def _shown(text: str) -> str:
    """``text`` quoted for an error line, cut short if long."""
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


def board_size(text: str) -> int:
    """argparse type for N: a whole number >= 1."""
    n = whole_number(text)
    if n is None:
        raise argparse.ArgumentTypeError(f"N must be a whole number, got {_shown(text)}")
    if n < 1:
        raise argparse.ArgumentTypeError(f"N must be at least 1, got {n}")
    return n


def non_negative_int(text: str) -> int:
    """argparse type for counts such as --workers and --limit: a whole number >= 0."""
    value = whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {_shown(text)}")
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def seed_value(text: str) -> int:
    """argparse type for --seed: a whole number CP-SAT and Numba both take (0 .. 2**31 - 1)."""
    from cp_queens.engines.base import SEED_RANGE

    value = whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {_shown(text)}")
    if value not in SEED_RANGE:
        raise argparse.ArgumentTypeError(
            f"expected a seed from 0 to {SEED_RANGE[-1]}, got {_shown(text)}"
        )
    return value


def fraction(text: str) -> float:
    """argparse type for --recheck: a plain decimal from 0 to 1, checked by the library's
    one checker, ``cp_queens.budget.check_recheck``."""
    from cp_queens.budget import check_recheck

    try:
        if DECIMAL_NUMBER.fullmatch(text) is None:
            raise ValueError(text)
        checked = check_recheck(float(text))
    except (ValueError, CpQueensError):
        raise argparse.ArgumentTypeError(
            f"expected a fraction from 0 to 1, got {_shown(text)}"
        ) from None
    assert checked is not None
    return checked


def positive_seconds(text: str) -> float:
    """argparse type for --time-limit: seconds as a plain decimal (``float()`` also
    takes ``1_0``, spaces and other scripts' digits), checked by the library's one
    checker, ``cp_queens.budget.check_time_limit``."""
    from cp_queens.budget import MAX_SECONDS, check_time_limit

    try:
        if DECIMAL_NUMBER.fullmatch(text) is None:
            raise ValueError(text)
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {_shown(text)}") from None
    try:
        checked = check_time_limit(value)
    except CpQueensError:
        if not value > 0:
            raise argparse.ArgumentTypeError(f"expected a time > 0 seconds, got {text}") from None
        raise argparse.ArgumentTypeError(
            f"expected a time of at most {MAX_SECONDS:g} seconds (a year), got {text}"
        ) from None
    assert checked is not None
    return checked


def engine_name(text: str) -> str:
    """argparse type: a registered engine name, alone or with options (``NAME:KEY=VALUE...``).

    The name is checked here, with the known names in the error; the options when
    the engine is built (``make_engine``).
    """
    known = engines.names()
    name = text.split(":", 1)[0].strip()
    if name not in known:
        raise argparse.ArgumentTypeError(
            f"unknown engine {name!r} (choose from {', '.join(known)})"
        )
    return text


def add_engine_argument(parser: argparse.ArgumentParser, default: str | None, why: str) -> None:
    parser.add_argument(
        "--engine",
        "-e",
        type=engine_name,
        default=default,
        metavar="E",
        help=f"solver to use ({', '.join(engines.names())}), optionally with options as in "
        f"compare, e.g. propagate:consistency=alldiff; default: {why}",
    )


def _cpsat_choices(option: str) -> tuple[str, ...]:
    """The values the cpsat engine takes for ``option``, read without importing it."""
    from cp_queens.engines import choices

    return {
        "method": choices.CPSAT_METHODS,
        "strategy": choices.CPSAT_STRATEGIES,
        "variable_order": choices.CPSAT_VARIABLE_ORDERS,
        "value_order": choices.CPSAT_VALUE_ORDERS,
    }[option]


def add_method_argument(parser: argparse.ArgumentParser) -> None:
    """``--method`` of the cpsat engine: one model, or the fast path (see engines/cpsat)."""
    parser.add_argument(
        "--method",
        choices=_cpsat_choices("method"),
        help="cpsat only: 'plain' enumerates with one model, 'fast' one solution per "
        "symmetry class in parallel subproblems, expanded (default: auto, fast from N=10)",
    )


def _propagate_choices(option: str) -> tuple[str, ...]:
    """The values the propagate engine takes for ``option``, read without importing it."""
    from cp_queens.engines import choices

    return {
        "consistency": choices.PROPAGATE_CONSISTENCIES,
        "variable_order": choices.PROPAGATE_VARIABLE_ORDERS,
        "value_order": choices.PROPAGATE_VALUE_ORDERS,
    }[option]


def _union(*choices: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(value for group in choices for value in group))


def add_strategy_arguments(
    parser: argparse.ArgumentParser, *, solver_workers: bool = False
) -> None:
    """How the search chooses: ``--strategy`` and friends of the cpsat engine
    (engines/cpsat/search.py), ``--consistency`` and the orders of the propagate engine.

    ``--variable-order`` and ``--value-order`` take the values of either engine;
    ``make_engine`` checks them against the engine chosen.
    """
    cpsat_variables, cpsat_values = _cpsat_choices("variable_order"), _cpsat_choices("value_order")
    ours_variables, ours_values = (
        _propagate_choices("variable_order"),
        _propagate_choices("value_order"),
    )
    group = parser.add_argument_group("how the search chooses (cpsat, propagate, cpmpy, minizinc)")
    group.add_argument(
        "--strategy",
        choices=_cpsat_choices("strategy"),
        help="cpsat: portfolio: CP-SAT's own search; fixed: the orders below; greedy: random "
        "queen placements with clause learning on the 0/1 board (fast for large N); "
        "default auto: greedy for one solution, CP-SAT's own search otherwise",
    )
    group.add_argument(
        "--consistency",
        choices=_propagate_choices("consistency"),
        help="propagate: how much to reason after each queen: none (generate and test), "
        "forward (forward checking), arc (AC-3, the default) or alldiff (Régin's "
        "filtering on each AllDifferent)",
    )
    group.add_argument(
        "--variable-order",
        choices=_union(cpsat_variables, ours_variables),
        metavar="ORDER",
        help=f"which row next. cpsat (with --strategy fixed): {', '.join(cpsat_variables)} "
        "(rows in order, the default; or smallest domain first, as CP-SAT measures it by "
        f"its bounds); propagate: {', '.join(ours_variables)}",
    )
    group.add_argument(
        "--value-order",
        choices=_union(cpsat_values, ours_values),
        metavar="ORDER",
        help=f"which column first. cpsat (with --strategy fixed): {', '.join(cpsat_values)} "
        f"(random uses --seed); propagate: {', '.join(ours_values)}; default: min",
    )
    group.add_argument(
        "--solver",
        metavar="SOLVER",
        help="cpmpy: the CPMpy backend (ortools, the default; choco, exact, pumpkin, pysat); "
        "minizinc: any solver MiniZinc has (gecode, the default)",
    )
    if solver_workers:
        group.add_argument(
            "--solver-workers",
            type=non_negative_int,
            metavar="T",
            help="cpsat: CP-SAT's own search threads (default: 1 for fixed and greedy, every "
            "core for portfolio)",
        )


def strategy_options(args: argparse.Namespace) -> dict[str, Any]:
    """The search options the user set, as keyword arguments for ``make_engine``."""
    names = ("strategy", "consistency", "variable_order", "value_order", "solver_workers", "solver")
    return {name: getattr(args, name, None) for name in names}


#: Options that only some engines take, for the hint when another engine is chosen.
OPTION_ENGINES = {
    "strategy": "cpsat",
    "solver_workers": "cpsat",
    "solver": "cpmpy, minizinc",
    "consistency": "propagate",
    "variable_order": "cpsat, propagate",
    "value_order": "cpsat, propagate",
    "recheck": "fast",
    "lost_workers_timeout": "fast",
}


def make_engine(spec: str, **options: Any) -> Engine:
    """Build engine ``spec`` with the options the user set (``None`` means not set).

    ``spec`` is a name or ``name:key=value[:...]``, as ``compare --engines`` takes
    it. ``cp_queens.engines.get`` checks the options for every caller; here an
    option the engine does not take, or a value it does not know, is named by its
    command-line flag, and an option set twice (in ``spec`` and by a flag) is refused.
    """
    try:
        name, given = engines.parse_spec(spec)
    except CpQueensError as error:
        raise CpQueensError(f"--engine: {error}") from None
    chosen = {key: value for key, value in options.items() if value is not None}
    for key in given.keys() & chosen.keys():
        flag = "--" + key.replace("_", "-")
        raise CpQueensError(f"{key} is set twice: in --engine {spec} and by {flag}")
    accepted = engines.options(name)
    for key in chosen:
        if key not in accepted:
            flag = "--" + key.replace("_", "-")
            users = OPTION_ENGINES.get(key)
            hint = f" (it is for: -e {users})" if users else ""
            raise CpQueensError(f"engine '{name}' has no option {flag}{hint}")
    choices: dict[str, tuple[str, ...]] = getattr(engines.engine_class(name), "option_choices", {})
    for key, value in chosen.items():
        if key in choices and value not in choices[key]:
            flag = "--" + key.replace("_", "-")
            raise CpQueensError(
                f"{flag} {value}: not an option of engine '{name}' "
                f"(choose from {', '.join(choices[key])})"
            )
    try:
        return engines.get(name, **given, **chosen)
    except CpQueensError as error:
        if given:
            raise CpQueensError(f"--engine {spec}: {error}") from None
        raise


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


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    whole = round(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


#: Widths the progress bar may take, widest first; the text beside it matters more.
BAR_WIDTHS = (20, 12, 6)


def progress_details(info: ProgressRecord) -> list[str]:
    """What the live line can say about ``info``, from the fullest text to the shortest.

    Examples:
        >>> record = ProgressRecord(12_873_980, 40.0, done=5_920, total=6_778)
        >>> for text in progress_details(record):
        ...     print(text)
        5,920/6,778 parts, 12,873,980 solutions, 0:00:40, ETA 0:00:06
        5,920/6,778 parts, 12,873,980 solutions, ETA 0:00:06
        87%, 12,873,980 solutions, ETA 0:00:06
        87%, ETA 0:00:06
        87%
    """
    elapsed = _clock(info.elapsed)
    if info.total is None or info.done is None:
        solutions = f"{info.solutions:,} solutions"
        rate = f"{info.rate:,.0f}/s"
        return [f"{solutions}, {rate}, {elapsed}", f"{solutions}, {rate}", solutions]
    parts = f"{info.done:,}/{info.total:,} parts"
    solutions = f"{info.solutions:,} solutions"
    eta = f"ETA {_clock(info.eta)}"
    percent = f"{100 * info.done // max(info.total, 1)}%"
    return [
        f"{parts}, {solutions}, {elapsed}, {eta}",
        f"{parts}, {solutions}, {eta}",
        f"{percent}, {solutions}, {eta}",
        f"{percent}, {eta}",
        percent,
    ]


def fit_progress(label: str, details: list[str], width: int) -> tuple[str, int]:
    """The fullest detail text, and the widest bar, that fit one line of ``width`` columns.

    A line that wraps or ends in "..." on a narrow terminal (80 columns) hides what
    matters; so text is dropped, shortest last, and the bar narrows before it does.

    Examples:
        >>> fit_progress("counting N=16 with fast", ["a long text " * 5, "short"], 80)
        ('short', 20)
    """
    fixed = 2 + len(label) + 1 + 1 + 1  # spinner and space, label, spaces, one spare column
    for text in details:
        for bar in BAR_WIDTHS:
            if fixed + bar + len(text) <= width:
                return text, bar
    room = max(width - fixed - BAR_WIDTHS[-1], 0)
    return details[-1][:room], BAR_WIDTHS[-1]


def progress_line(console: Console) -> tuple[BarColumn, Progress]:
    """The live line's Rich columns: spinner, label, bar, detail (fitted per update)."""
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn

    bar_column = BarColumn(bar_width=BAR_WIDTHS[0])
    live = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        bar_column,
        TextColumn("{task.fields[detail]}"),
        console=console,
        transient=True,
        expand=False,
    )
    return bar_column, live


@contextlib.contextmanager
def progress_display(
    label: str, console: Console | None = None
) -> Iterator[ProgressCallback | None]:
    """One live Rich line for every engine's ``Progress``; ``None``
    when stderr is not a terminal (or with ``--quiet``).

    With a known amount of work (subproblems) it draws a bar with the rate and an
    ETA; otherwise a spinner with the solutions so far. The line is fitted to the
    terminal's width at every update (see ``fit_progress``), so it stays whole
    at 80 columns and follows a resized window. Cheap to call often.
    """
    console = console or live_console()
    if console is None:
        yield None
        return
    bar_column, live = progress_line(console)
    with live as bar:
        task = bar.add_task(label, total=None, detail="starting")

        def update(info: ProgressRecord) -> None:
            detail, bar_column.bar_width = fit_progress(
                label, progress_details(info), console.width
            )
            if info.total is None:
                bar.update(task, detail=detail)
            else:
                bar.update(task, total=info.total, completed=info.done, detail=detail)

        yield update


T = TypeVar("T")


class TimeCut:
    """Passes a stream through, ending it quietly where the time limit cut it short.

    A library stream raises ``TimeLimitError`` after its last
    solution; a command writes what came, then reads ``stopped`` to choose its exit
    code (4), so the writers need not know about time limits.
    """

    def __init__(self) -> None:
        self.stopped = False

    def __call__(self, stream: Iterable[T]) -> Iterator[T]:
        from cp_queens.errors import TimeLimitError

        try:
            yield from stream
        except TimeLimitError:
            self.stopped = True
