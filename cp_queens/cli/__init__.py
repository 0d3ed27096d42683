"""The ``cp-queens`` command: parse arguments, call the library, print.

Each subcommand lives in its own module with ``add_parser(subparsers)`` and
``run(args) -> exit code``; ``COMMANDS`` lists them in ``--help`` order.
No solving happens here. A command's module is imported, and its options
added, only when that command is on the command line: ``cp-queens count 8``
is over in a fraction of a second, and loading the other eight commands (and
what they import) would be a good part of it.

Every way out goes through ``main``, which turns what happened into one
line on stderr and one of the exit codes of ``cp_queens.cli.exit_codes``:
a script can tell a proven "no" from a crash, and a complete answer from one
cut short. A traceback is shown only with ``--debug`` or ``CP_QUEENS_DEBUG=1``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any, cast

from cp_queens import __version__, startup
from cp_queens.cli._common import (
    HelpFormatter,
    OneLineErrorParser,
    StreamError,
    check_output,
    choose_format,
    fail,
    set_quiet,
)
from cp_queens.cli.exit_codes import ExitCode, table
from cp_queens.errors import (
    ClusterLostError,
    CpQueensError,
    InvalidAnswerError,
    SolverFailedError,
)


class Command:
    """A subcommand as ``--help`` lists it: its name, its module here, its one-line help."""

    def __init__(self, name: str, module: str, help: str) -> None:
        self.name = name
        self.module = module
        self.help = help

    def load(self) -> Any:
        """The command's module (``add_parser``, ``run``), imported now."""
        return importlib.import_module(f"{__name__}.{self.module}")


#: The subcommands, in ``--help`` order.
COMMANDS = [
    Command("solve", "solve", "find one solution"),
    Command("count", "count", "count all solutions"),
    Command("enumerate", "enumerate", "list every solution"),
    Command("verify", "verify", "check placements from a file or stdin"),
    Command("check", "check", "check that a file holds every solution of N exactly once"),
    Command("complete", "complete", "complete a partial board (or prove it impossible)"),
    Command("compare", "compare", "run engines side by side over a range of N"),
    Command("dominate", "dominate", "the fewest queens that attack or occupy every square"),
    Command("trace", "trace", "draw the search tree, or animate the search on the board"),
    Command("grade", "grade", "grade a folder of students' model(n) files, each run apart"),
    Command("completion", "shell_completion", "print a shell completion script"),
]

#: Commands that print no statistics, so ``--quiet`` would mean nothing to them.
NOTHING_TO_QUIET = ("completion",)
#: Commands that draw a live progress line on a terminal (which ``--quiet`` drops too).
LIVE_PROGRESS = frozenset({"count", "enumerate", "verify", "compare", "grade"})

#: Set to 1 (or pass ``--debug``) to see the traceback of an internal error.
DEBUG_VARIABLE = "CP_QUEENS_DEBUG"

DESCRIPTION = """\
Solve, count and enumerate N-Queens placements: place N queens on an N x N
board so that no two attack each other (no shared row, column or diagonal).

A placement is written as the column of the queen in each row, e.g. [1, 3, 0, 2]
for N = 4. Engines: 'cpsat' (the constraint model on OR-Tools CP-SAT) and
'reference' (a readable backtracker) at least; see 'cp-queens solve --help'.
"""

EPILOG = """\
examples:
  cp-queens solve 8                          one solution, drawn as a board
  cp-queens count 12                         how many solutions for N = 12
  cp-queens enumerate 8 --format jsonl       every solution, one per line
  cp-queens enumerate 8 --format jsonl | cp-queens verify

""" + table()

DEBUG_HELP = f"show the traceback of an internal error (or set {DEBUG_VARIABLE}=1)"


def build_parser(*, lazy: bool = False) -> OneLineErrorParser:
    """The whole ``cp-queens`` parser; with ``lazy``, a command's options are added (and
    its module imported) only when parsing reaches that command, as ``main`` does."""
    parser = OneLineErrorParser(
        prog="cp-queens",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    subparsers = cast(
        "_Commands", parser.add_subparsers(dest="command", metavar="COMMAND", action=_Commands)
    )
    subparsers.required = True
    for command in COMMANDS:
        subparsers.add_parser(command.name, help=command.help, formatter_class=HelpFormatter)
    if not lazy:
        for command in COMMANDS:
            subparsers.add_options(command.name)
    return parser


class _Commands(argparse._SubParsersAction):
    """The subcommands: each one's options are added when it is first needed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ready: set[str] = set()

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: Any = None) -> None:
        self.add_options(values[0])  # the command's name, already checked against the choices
        super().__call__(parser, namespace, values, option_string)

    def add_options(self, name: str) -> None:
        """Let command ``name``'s module add its options to the parser made for it."""
        if name in self.ready:
            return
        self.ready.add(name)
        command = next(command for command in COMMANDS if command.name == name)
        subparser = self.choices[name]
        command.load().add_parser(_Into(subparser))
        subparser.formatter_class = HelpFormatter
        if name not in NOTHING_TO_QUIET:
            live = " and no live progress" if name in LIVE_PROGRESS else ""
            subparser.add_argument(
                "--quiet",
                "-q",
                action="store_true",
                help=f"no '#' statistics lines{live} on stderr (errors still show)",
            )
        # Accepted after the command too; SUPPRESS keeps a flag given before it.
        subparser.add_argument(
            "--debug", action="store_true", default=argparse.SUPPRESS, help=DEBUG_HELP
        )


class _Into:
    """What a command module's ``add_parser(subparsers)`` is given: ``add_parser(name, ...)``
    hands back the parser already made for the command, with the settings applied."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser

    def add_parser(self, name: str, **settings: Any) -> argparse.ArgumentParser:
        if name != self.parser.prog.split()[-1]:
            raise ValueError(f"the module of '{self.parser.prog}' adds a parser for '{name}'")
        settings.pop("formatter_class", None)  # every command's help uses HelpFormatter
        for setting, value in settings.items():
            setattr(self.parser, setting, value)  # description, epilog
        return self.parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``cp-queens`` and ``python -m cp_queens``: returns the exit code."""
    if sys.stderr is None:  # started with stderr closed: errors have nowhere to go
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    if sys.stdout is None:
        return fail("cannot write <stdout>: it is closed", ExitCode.IO_ERROR)
    # First: a signal while a command's modules load (OR-Tools takes a second or more) is
    # an interrupt like any other, not a kill by SIGTERM nor a failed import.
    received: list[int] = []
    previous = _sigterm_as_interrupt(received)
    debug = os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")
    try:
        _warnings_as_one_line()  # before parsing: --workers is checked (and capped) there
        args = build_parser(lazy=True).parse_args(argv)
        set_quiet(getattr(args, "quiet", False))
        debug = debug or args.debug
        _file_size_limit_as_error()
        choose_format(args)
        check_output(args)
        code = args.run(args)
        sys.stdout.flush()  # a full disk shows here, while we can still say so
        return code
    except ClusterLostError as error:  # the request was fine; the connection was not
        return fail(str(error), ExitCode.IO_ERROR)
    except SolverFailedError as error:  # the request was fine; the solver was not
        return fail(str(error), ExitCode.SOLVER_FAILED)
    except InvalidAnswerError as error:  # the engine and the verifier disagree
        return fail(str(error), ExitCode.DISAGREE)
    except CpQueensError as error:
        return fail(str(error), ExitCode.BAD_INPUT)
    except KeyboardInterrupt:
        return _interrupted()
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: not an error, nothing to say.
        _silence_stdout()
        return ExitCode.CLOSED_PIPE
    except SystemExit as leaving:
        # Rich's console meets a closed pipe with SystemExit(1) raised while handling
        # the BrokenPipeError; 1 would claim "a proven negative".
        if isinstance(leaving.__context__, BrokenPipeError):
            _silence_stdout()
            return ExitCode.CLOSED_PIPE
        raise
    except StreamError as error:
        _silence_stdout()
        return fail(str(error), ExitCode.IO_ERROR)
    except Exception as error:
        if received:  # what the interrupt broke on its way (an import it cut short)
            return _interrupted()
        return _failed(error, debug)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous[0])
            signal.signal(signal.SIGINT, previous[1])


def _interrupted() -> int:
    print("cp-queens: interrupted", file=sys.stderr)
    return ExitCode.INTERRUPTED


def _failed(error: Exception, debug: bool) -> int:
    """The exit code and line of an exception none of ``main``'s own cases took."""
    if isinstance(error, OSError):
        _silence_stdout()
        if debug:
            import traceback

            traceback.print_exc()
        where = f"{error.filename}: " if error.filename else ""
        return fail(f"I/O error: {where}{error.strerror or error}", ExitCode.IO_ERROR)
    if debug:
        import traceback

        traceback.print_exc()
        return ExitCode.INTERNAL_ERROR
    what = "out of memory" if isinstance(error, MemoryError) else type(error).__name__
    detail = str(error).splitlines()[0][:200] if str(error) else ""
    return fail(
        f"internal error: {what}{': ' + detail if detail else ''} (a bug in cp-queens; "
        f"run again with --debug or {DEBUG_VARIABLE}=1 to see the traceback)",
        ExitCode.INTERNAL_ERROR,
    )


def _warnings_as_one_line() -> None:
    """Our warnings (workers capped, ...) as ``cp-queens: warning: ...``, not file:line dumps."""
    import warnings

    from cp_queens.errors import CpQueensWarning

    shown: set[str] = set()
    # Other warnings go where they went before: on Python 3.12+ a fork with threads alive
    # (OpenBLAS starts idle ones when numpy is imported) is a DeprecationWarning that
    # Python's own filters hide from a user; it is not ours to print as a line of ours.
    previous = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        if not issubclass(category, CpQueensWarning):
            previous(message, category, filename, lineno, file, line)
        elif str(message) not in shown:  # the same option may be checked in several places
            shown.add(str(message))
            print(f"cp-queens: warning: {message}", file=sys.stderr)

    warnings.showwarning = show
    warnings.simplefilter("always", CpQueensWarning)


def _sigterm_as_interrupt(received: list[int]):
    """Let SIGTERM unwind like Ctrl-C, so that every ``finally`` (workers, files) runs;
    and make a second Ctrl-C (or SIGTERM) end the process at once, cleanup or not.

    The first signal raises ``KeyboardInterrupt``: workers are stopped, finished work
    is saved. Should that take too long for the user, the second one does not wait.
    """

    def interrupt(signum: int, frame: object) -> None:
        if received:
            os.write(2, b"cp-queens: interrupted again, exiting at once\n")
            os._exit(ExitCode.INTERRUPTED)
        received.append(signum)
        running = sys.modules.get("cp_queens.parallel")  # not loaded: no run to stop
        if running is not None:
            running.interrupted.set()  # in case this KeyboardInterrupt gets swallowed
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
        previous_int = signal.getsignal(signal.SIGINT)
        if previous_int is startup.leave:  # the command's own, from its first line
            previous_int = signal.default_int_handler
        if previous_int is signal.default_int_handler:  # not ignored (e.g. by nohup)
            signal.signal(signal.SIGINT, interrupt)
        return previous, previous_int
    except ValueError:  # not the main thread (a test runner): leave signals alone
        return None


def _file_size_limit_as_error() -> None:
    """Ignore ``SIGXFSZ``: a write beyond ``ulimit -f`` then fails with ``EFBIG`` and is
    reported like a full disk (exit 74, one line) instead of killing the process
    mid-record with nothing said."""
    with contextlib.suppress(AttributeError, ValueError):  # no such signal; not main thread
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def _silence_stdout() -> None:
    """Point stdout at devnull, so Python's final flush of what is left cannot fail again."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
