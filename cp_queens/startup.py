"""Started as the command (``python -m cp_queens``, ``cp-queens``), Ctrl-C and SIGTERM end
it with exit 130 and one line from its first moment, not a traceback or a kill by the
signal while its modules load (OR-Tools alone takes a second or more).

Imported first by the package: from here until ``cp_queens.cli.main`` installs its own
handlers (which stop workers and keep finished work), nothing has started that needs
cleaning up, so a signal ends the process at once. Imported as a library, nothing changes:
the program that imports it owns its signals.
"""

from __future__ import annotations

import os
import signal
import sys

#: The exit code of an interrupt (``cp_queens.cli.exit_codes.ExitCode.INTERRUPTED``).
INTERRUPTED = 130


def started_as_command() -> bool:
    """Is this process the command? While ``python -m cp_queens`` looks for the module,
    ``sys.argv[0]`` is ``"-m"`` (documented); the console script is named ``cp-queens``."""
    first = sys.argv[0] if sys.argv else ""
    return first == "-m" or os.path.basename(first) in ("cp-queens", "cp-queens.exe")


def leave(signum: int, frame: object) -> None:
    """The handler until ``main``'s: one line, exit 130, at once."""
    os.write(2, b"cp-queens: interrupted\n")
    os._exit(INTERRUPTED)


def take_signals() -> None:
    """End at once on SIGTERM, and on Ctrl-C unless it is ignored (``nohup``, ``&``)."""
    try:
        signal.signal(signal.SIGTERM, leave)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, leave)
    except ValueError:  # not the main thread: not ours to take
        pass


if started_as_command():
    take_signals()
