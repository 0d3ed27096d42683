"""Output that is whole or fails: whole records on a stream, whole files by renaming.

Why: a writer that ignores a short write (a full disk, ``ulimit -f``, a file-size
limit) leaves a file ending mid-placement and reports success; a reader then takes
half a board, or a list cut short, for the answer. Here every write is checked:

* ``WholeRecords`` collects records (each ``write`` whose text ends with a
  newline ends one) and writes them with ``os.write`` until every byte is out. When
  a write fails, a regular file is cut back to the end of its last whole record and
  ``OutputError`` says what failed; a pipe keeps what it already passed on (it
  cannot be taken back), and the run fails all the same. A reader gone away
  (``EPIPE``) stays a ``BrokenPipeError``, which callers treat as the end.
* ``whole_file`` writes a named file under a temporary name beside it and
  renames it into place only when everything was written: a reader sees the old
  file or the new one, never half of it; on failure the temporary file goes and the
  old file (if any) stays as it was.

Examples:
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "out.jsonl")
    >>> with whole_file(path) as out:
    ...     _ = out.write("[1, 3, 0, 2]\\n")
    >>> with open(path) as back:
    ...     back.read()
    '[1, 3, 0, 2]\\n'
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from typing import IO, Any

#: Bytes collected before they are written: whole records only, in one system call.
BUFFER = 1 << 16


class OutputError(OSError):
    """A write failed (a full disk, a file too large, a closed stream); what was written
    is whole records. The message names the target and the reason."""


def reason(error: BaseException) -> str:
    """Why an operation failed, in words, never ``None``."""
    return getattr(error, "strerror", None) or str(error) or type(error).__name__


class WholeRecords:
    """A text sink over a file descriptor that writes whole records or fails.

    Every ``write`` whose text ends with a newline closes a record (a board, a
    picture, a block of lines); with ``lines`` so does every newline. Records are
    collected up to ``BUFFER`` bytes and written with a loop of ``os.write``
    calls that checks each count.
    """

    def __init__(self, fd: int, name: str, lines: bool = False) -> None:
        self.fd = fd
        self.name = name
        #: Every line is a record (jsonl, csv), not only every ``write`` (boards, pictures).
        self.lines = lines
        self._buffer = bytearray()
        self._ends: list[int] = []  # where records end in the buffer
        #: Placements in the records taken whole so far: written, or written by the
        #: ``flush_whole`` of a Ctrl-C (what a stopped run reports it wrote).
        self.records = 0
        self._pending = 0  # placements in a record not yet ended
        try:
            self._regular = stat.S_ISREG(os.fstat(fd).st_mode)
        except OSError:
            self._regular = False

    def write(self, text: str, records: int = 0) -> int:
        """Take ``text``, which holds ``records`` placements (for ``records``)."""
        data = text.encode("utf-8")  # before any state changes: a Ctrl-C here loses nothing
        self._buffer += data
        self._pending += records
        if text.endswith("\n"):
            self._ends.append(len(self._buffer))
            self.records += self._pending
            self._pending = 0
            if len(self._buffer) >= BUFFER:
                self._write(len(self._buffer))
        return len(text)

    def flush(self) -> None:
        """Write everything collected, a record not yet ended included."""
        if self._buffer:
            if not self._ends or self._ends[-1] != len(self._buffer):
                self._ends.append(len(self._buffer))
            self._write(len(self._buffer))

    def flush_whole(self) -> None:
        """Write the records collected that are whole; drop a record not yet ended."""
        if self._ends:
            self._write(self._ends[-1])
        self._buffer.clear()

    def writable(self) -> bool:
        return True

    def _write(self, upto: int) -> None:
        data = bytes(self._buffer[:upto])  # a copy: the buffer may be cut while it is out
        done = 0
        start = self._offset()
        try:
            while done < upto:
                count = os.write(self.fd, data[done:])
                if count <= 0:
                    raise OSError(errno.EIO, "the write wrote nothing")
                done += count
        except OSError as error:
            self._undo(done)
            if isinstance(error, BrokenPipeError):
                raise
            raise OutputError(error.errno, f"cannot write {self.name}: {reason(error)}") from None
        finally:
            # Also when a Ctrl-C stops the loop: the bytes already out leave the buffer, so
            # the ``flush_whole`` that follows goes on from there instead of repeating them.
            # A Ctrl-C can land just as ``os.write`` returns, before ``done`` counts what it
            # wrote (a whole buffer was then written twice): a file's offset says for sure.
            end = self._offset()
            if start is not None and end is not None:
                done = min(max(done, end - start), upto)
            self._drop(done)

    def _offset(self) -> int | None:
        """Where a regular file's writes are now (``None`` for a pipe or a terminal)."""
        if not self._regular:
            return None
        try:
            return os.lseek(self.fd, 0, os.SEEK_CUR)
        except OSError:
            return None

    def _drop(self, done: int) -> None:
        """Forget the first ``done`` bytes of the buffer: they are written."""
        del self._buffer[:done]
        self._ends = [end - done for end in self._ends if end > done]

    def _undo(self, done: int) -> None:
        """Cut a regular file back to the end of the last record written whole."""
        whole = max((end for end in self._ends if end <= done), default=0)
        if self.lines:
            whole = max(whole, self._buffer.rfind(b"\n", 0, done) + 1)
        extra = done - whole
        self._buffer.clear()
        self._ends.clear()
        if extra and self._regular:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, os.fstat(self.fd).st_size - extra)


@contextlib.contextmanager
def whole_stream(handle: IO[str], name: str, lines: bool = False) -> Iterator[Any]:
    """Whole records to an open text stream (stdout): through its file descriptor when it
    has one (after flushing what the stream itself holds), else the stream as it is."""
    try:
        fd = handle.fileno()
    except (AttributeError, OSError, ValueError):  # a test's StringIO: nothing to cut
        yield handle
        handle.flush()
        return
    handle.flush()
    sink = WholeRecords(fd, name, lines)
    try:
        yield sink
    except BaseException:
        sink.flush_whole()  # a run stopped midway: its whole records, not a torn one
        raise
    sink.flush()


@contextlib.contextmanager
def whole_file(
    path: str | os.PathLike[str], keep_partial: bool = True, lines: bool = False
) -> Iterator[Any]:
    """A named file written under a temporary name beside it, renamed in place when done.

    A target that exists and is not a regular file (a device, a FIFO) is written
    directly: it cannot be replaced. ``lines``: as for ``WholeRecords``.
    ``keep_partial``: on Ctrl-C the whole records written so far become the file (a
    stopped run keeps its work); any other failure removes the temporary file and
    leaves no target (or the old one untouched).

    Raises:
        OutputError: the file cannot be created or written.
    """
    path = os.fspath(path)
    name = str(path)
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
        except OSError as error:
            raise OutputError(error.errno, f"cannot write {name}: {reason(error)}") from None
        try:
            sink = WholeRecords(fd, name, lines)
            yield sink
            sink.flush()
        finally:
            os.close(fd)
        return
    directory, base = os.path.split(os.path.abspath(path))
    try:
        import tempfile  # only for -o: a command that writes to stdout starts lighter

        fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{base}.", suffix=".part")
    except OSError as error:
        raise OutputError(error.errno, f"cannot write {name}: {reason(error)}") from None
    renamed = False
    try:
        umask = os.umask(0)
        os.umask(umask)
        _checked(name, os.fchmod, fd, stat.S_IMODE(mode) if mode is not None else 0o666 & ~umask)
        sink = WholeRecords(fd, name, lines)
        try:
            yield sink
        except KeyboardInterrupt:
            if keep_partial:
                sink.flush_whole()
                _checked(name, os.replace, temporary, path)
                renamed = True
            raise
        sink.flush()
        _checked(name, os.fsync, fd)
        _checked(name, os.replace, temporary, path)
        renamed = True
    finally:
        os.close(fd)
        if not renamed:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _checked(name: str, operation: Any, *arguments: Any) -> None:
    try:
        operation(*arguments)
    except OSError as error:
        raise OutputError(error.errno, f"cannot write {name}: {reason(error)}") from None


def write_text_whole(path: str | os.PathLike[str], text: str) -> None:
    """Write a whole file at once (a report, a picture): the old one or the new one."""
    with whole_file(path, keep_partial=False) as out:
        out.write(text)


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise ``OutputError`` now if ``whole_file(path)`` would fail to create its file
    later: a folder stands where the file goes, or its folder takes no new file (no
    permission, read-only). Asked before long work (``compare``'s runs), so that a
    result that cannot be written does not throw that work away at the end. A
    temporary file is made beside it and removed again.
    """
    name = os.fspath(path)
    if os.path.isdir(name):
        raise OutputError(errno.EISDIR, f"cannot write {name}: it is a directory")
    import tempfile

    directory = os.path.dirname(os.path.abspath(name))
    try:
        fd, probe = tempfile.mkstemp(dir=directory, prefix=".cp-queens-", suffix=".part")
    except OSError as error:
        raise OutputError(error.errno, f"cannot write {name}: {reason(error)}") from None
    os.close(fd)
    os.unlink(probe)
