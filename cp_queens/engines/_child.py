"""Solver work that cannot be interrupted, run where it can be stopped: a child process.

Some phases of some engines never look at the clock: CPMpy's encodings (the SAT
encoding of ``n = 200`` takes minutes and gigabytes before PySAT starts), the JVM that
Choco starts (which ends the whole process with exit 1 when it cannot reserve its
memory), an external ``minizinc`` that hangs. A time limit can only be kept over such
work from outside it, so it runs in a child process that we can kill:

* ``ChildRun`` forks (or, with threads alive, forks from a fork server: see
  ``parallel.local.start_method``) a Python process that runs a function and sends
  its messages back over a pipe, as they come (solutions stream at flat memory: the
  child blocks while the pipe is full). Its stdout and stderr go to a file, so a
  backend's noise (Pumpkin's "unsendable" traceback, Graal's "graal_create_isolate
  error") never reaches the user's terminal; when the child fails, its last line
  becomes one line of ours.
* ``spawn`` starts an external program (``minizinc``) under a small supervisor in a
  process group of its own, so the program *and its own children* (``fzn-gecode``)
  can be killed as one.

Either way the child dies with us (``PR_SET_PDEATHSIG``, the mechanism of our worker
pools, kill -9 included), is killed at our deadline plus ``GRACE`` whatever it is
doing, and a child that crashes, or outgrows the memory a call may plan on
(``limits.MEMORY_SHARE`` of what was free, at least ``MEMORY_FLOOR``) is a
``SolverFailedError``: one line, its own exit code on the command line.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import cp_queens.limits as limits
from cp_queens.budget import Clock
from cp_queens.errors import SolverFailedError

#: Seconds a child may run past the call's deadline (to finish its last message, or
#: notice the deadline itself) before it is killed.
GRACE = 1.0
#: How often (seconds) the parent looks at a silent child: alive, memory.
POLL = 0.1
#: Bytes a child may always use, however little memory was free when it started.
MEMORY_FLOOR = 1e9

Send = Callable[[tuple[Any, ...]], None]


class ChildRun:
    """``target(*args, send)`` in a child process tied to ours; read with ``messages()``.

    ``clock`` is the call's: the child is killed once it has run out plus ``GRACE``.
    ``target`` must be a module-level function (a fork server pickles it) and sends
    tuples whose first item names them; it ends by sending ``("done", ...)``. What it
    raises comes back as ``("error", class name, message)``. ``what`` names the solver
    in error messages (``"cpmpy (pysat)"``).
    """

    def __init__(
        self,
        target: Callable[..., None],
        args: tuple[Any, ...],
        *,
        what: str,
        clock: Clock,
        preload: Sequence[str] = (),
    ) -> None:
        from cp_queens.parallel.local import start_method

        self.what = what
        # Ours, with the grace: the enforcer waits a little longer than the limit itself.
        self.enforcer = clock.extended(GRACE)
        self.timed_out = False
        self.peak_rss = 0
        # What a call may plan on, but never under MEMORY_FLOOR: memory free is a moment's
        # figure (another program may hold most of it as we start), and the watch is
        # for encodings off by factors, not for a child of a few hundred megabytes.
        self._ceiling = max(MEMORY_FLOOR, limits.MEMORY_SHARE * limits.available_memory())
        context = start_method(preload)
        reader, writer = context.Pipe(duplex=False)
        handle, self._log = tempfile.mkstemp(prefix="cp-queens-solver-", suffix=".log")
        os.close(handle)
        self._reader = reader
        self._process = context.Process(  # type: ignore[attr-defined]
            target=_child_main,
            # Our pid: started by a fork server, the child's parent is that server.
            args=(target, args, writer, self._log, os.getpid()),
            name=f"cp-queens {what}",
            daemon=True,
        )
        self._process.start()
        writer.close()  # ours; the child holds its own: its end means EOF here

    def messages(self) -> Iterator[tuple[Any, ...]]:
        """The child's messages until ``done``; kills it on every way out.

        Past the deadline plus ``GRACE`` the child is killed and the stream simply
        ends (``timed_out`` is then True): the caller marks its call as cut short.

        Raises:
            SolverFailedError: the child died without finishing, used more memory
                than a call may plan on, or raised (the class and message in one line).
        """
        try:
            while True:
                if self.enforcer.expired():
                    self.timed_out = True
                    return
                left = self.enforcer.remaining()
                wait = POLL if left is None else min(POLL, left)
                if self._reader.poll(wait):
                    try:
                        message = self._reader.recv()
                    except EOFError:
                        raise self._failure() from None
                    if message[0] == "error":
                        raise self._raised(message[1], message[2])
                    yield message
                    if message[0] == "done":
                        return
                    continue
                self._watch_memory()
        finally:
            self.stop()

    def stop(self) -> None:
        """Kill the child (if still running) and free what it held; safe to repeat."""
        process = self._process
        if process.is_alive():
            with contextlib.suppress(OSError):
                os.kill(process.pid, signal.SIGKILL)
        process.join(5)
        self._reader.close()
        with contextlib.suppress(OSError):
            os.unlink(self._log)

    def _watch_memory(self) -> None:
        rss = _rss(self._process.pid)
        self.peak_rss = max(self.peak_rss, rss)
        if rss > self._ceiling:
            raise SolverFailedError(
                f"{self.what}: the solver used {limits.format_bytes(rss)} of memory, more "
                f"than a call may plan on here ({limits.format_bytes(self._ceiling)}); "
                "stopped. Try a smaller n or another engine"
            )

    def _failure(self) -> SolverFailedError:
        self._process.join(5)
        code = self._process.exitcode
        how = f"was killed by signal {-code}" if code is not None and code < 0 else f"exit {code}"
        said = last_line(self._log)
        return SolverFailedError(
            f"{self.what}: the solver process failed ({how})" + (f": {said}" if said else "")
        )

    def _raised(self, kind: str, message: str) -> Exception:
        import cp_queens.errors as errors

        error = getattr(errors, kind, None)
        if isinstance(error, type) and issubclass(error, errors.CpQueensError):
            with contextlib.suppress(TypeError):
                return error(message)
        return SolverFailedError(f"{self.what}: {kind}: {message.splitlines()[0][:300]}")


def _child_main(
    target: Callable[..., None], args: tuple[Any, ...], writer: Any, log: str, parent: int | None
) -> None:
    """The child's life: tied to the parent, its output to ``log``, ``target`` run."""
    from cp_queens.parallel.local import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)
    handle = os.open(log, os.O_WRONLY | os.O_APPEND)
    os.dup2(handle, 1)
    os.dup2(handle, 2)
    os.close(handle)
    try:
        target(*args, writer.send)
    except BaseException as error:
        with contextlib.suppress(Exception):
            writer.send(("error", type(error).__name__, str(error) or repr(error)))
    finally:
        with contextlib.suppress(Exception):
            writer.close()


def _rss(pid: int) -> int:
    """Resident bytes of process ``pid`` (0 when unknown)."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def last_line(path: str) -> str:
    """The last non-blank line of a file (its last 4 kB), for a one-line error."""
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, os.path.getsize(path) - 4096))
            text = handle.read().decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


# -- external programs ---------------------------------------------------------------

#: The supervisor of an external program, run as ``python -c``. It asks to be told
#: (SIGTERM) when our process dies, and to adopt whatever its descendants orphan (a
#: "child subreaper"): MiniZinc starts its solver in a process group of its own, so a
#: kill of MiniZinc's group, or of MiniZinc, would leave ``fzn-gecode`` searching on.
#: On SIGTERM, and when the program ends, it kills every process below it, then exits.
_SUPERVISOR = """
import ctypes, os, signal, sys, time
parent = int(sys.argv[1])
def below():
    children = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open("/proc/%s/stat" % name, "rb") as stat:
                    data = stat.read()
                ppid = int(data[data.rindex(b")") + 2:].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(name))
    found, todo = [], [os.getpid()]
    while todo:
        for pid in children.get(todo.pop(), []):
            found.append(pid)
            todo.append(pid)
    return found
def clear():
    for _ in range(200):
        pids = below()
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass
        time.sleep(0.005)
def end(*_):
    clear()
    os._exit(137)
signal.signal(signal.SIGTERM, end)
try:
    libc = ctypes.CDLL(None)
    libc.prctl(36, 1, 0, 0, 0)
    libc.prctl(1, signal.SIGTERM, 0, 0, 0)
except (OSError, AttributeError):
    pass
if os.getppid() != parent:
    end()
pid = os.fork()
if pid == 0:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
while True:
    try:
        _, status = os.waitpid(pid, 0)
        break
    except InterruptedError:
        continue
clear()
code = os.waitstatus_to_exitcode(status)
os._exit(code if code >= 0 else 128 - code)
"""


def spawn(command: Sequence[str], **popen: Any) -> subprocess.Popen[Any]:
    """Start ``command`` tied to our process: it and its children die with us.

    Stop it with ``kill_group``. ``popen``: more arguments for ``subprocess.Popen``
    (pipes, ``text``).
    """
    return subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", _SUPERVISOR, str(os.getpid()), *command],
        start_new_session=True,
        **popen,
    )


def kill_group(process: subprocess.Popen[Any]) -> None:
    """Kill a program started by ``spawn``, with every process it started, and reap it.

    Its supervisor kills what is below it (SIGTERM); should it not be done within a
    second, its process group is killed outright.
    """
    if process.poll() is None:
        with contextlib.suppress(OSError):
            process.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(1)
    with contextlib.suppress(OSError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)


def run_briefly(command: Sequence[str], *, seconds: float, what: str) -> str:
    """Run ``command`` (tied to us) for its stdout, killing it after ``seconds``.

    Raises:
        SolverFailedError: it did not answer in time.
    """
    # ``with``: its pipe is closed however it ends (a timeout left it open till exit)
    with spawn(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as process:
        try:
            out, _ = process.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            message = f"{what} did not answer within {seconds:g} s; killed it"
            raise SolverFailedError(message) from None
        finally:
            kill_group(process)
    return out
