"""A checkpoint file, so that a long run survives Ctrl-C, a crash or a lost node.

The file is JSON lines. The first line says which job it belongs to (for a
count: the engine, board size, pre-placed queens, split depth and number of
subproblems, as the engine describes it); every further line is one finished
item, written as soon as it is done and flushed to disk::

    {"checkpoint": "cp_queens", "version": 1, "job": {"n": 17, "fixed": [], "depth": 4, ...}}
    {"key": "edge:1.3.0.2", "total": 1234, "unique": 160, "nodes": 56789,
     "mod13": [12, 4, 3], "mod15": [4, 10, 14], "crc": 3141592653}

Re-running the same job reads the file, skips what it lists and appends the
rest, so no item is ever computed twice. The file cannot lie or rot:

* the header must be the first line, and a file that is not ours (or was
  written for another job) is refused, never appended to;
* one run at a time: the file is locked (``lockf``) while a run uses it;
* a last line cut short by a crash or a full disk is cut off before anything
  is appended (that item is simply computed again);
* every record carries a checksum (CRC-32 of its fields) and each field's
  residues mod 13 and mod 15, and must pass the caller's sanity check (for a
  count: no more solutions than the subproblem's free rows can hold, and
  ``unique <= total <= 8 * unique``); a record that fails is dropped, all such
  records named in one warning, and its item computed again. A CRC is easy to
  recompute after an edit; figures that also keep their residues and stay within
  what the board can hold are much harder to forge or to rot into;
* a bad byte costs one record, not the file: lines are read one by one, and a
  line that is not text or not JSON is just a dropped record;
* a header torn by a crash while the file was being created (a first line cut
  short, no records yet) is written again instead of making the file unusable.

Records are named tuples of whole numbers (``record_type``), stored field by field.

Examples:
    >>> import os, tempfile
    >>> from typing import NamedTuple
    >>> class Part(NamedTuple):
    ...     total: int
    ...     nodes: int
    >>> path = os.path.join(tempfile.mkdtemp(), "job.jsonl")
    >>> job = {"n": 8, "subproblems": 2}
    >>> with Checkpoint.open(path, job, {"a", "b"}, Part) as cp:
    ...     cp.record([("a", Part(8, 20))])
    >>> with Checkpoint.open(path, job, {"a", "b"}, Part) as cp:
    ...     cp.done
    {'a': Part(total=8, nodes=20)}
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import warnings
import zlib
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import IO, Any

from cp_queens.errors import CpQueensError, CpQueensWarning, ParseError

FORMAT = "cp_queens"
VERSION = 4

#: How every written header begins: a first line cut short that still agrees with this
#: is our own torn header, not somebody's file.
HEADER_START = '{"checkpoint":"cp_queens"'

#: The moduli of the residues stored beside each figure.
MODULI = (13, 15)


class CheckpointMismatchError(CpQueensError):
    """The checkpoint file was written for a different job."""


class Checkpoint:
    """An open checkpoint: what is already done, and a way to record more."""

    def __init__(self, path: Path, handle: IO[bytes], done: dict[str, Any]) -> None:
        self.path = path
        self._handle = handle
        #: Finished items read from the file (and recorded since), by key.
        self.done = done

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        job: dict[str, Any],
        keys: Collection[str],
        record_type: Any,
        sane: Callable[[str, Any], str | None] | None = None,
    ) -> Checkpoint:
        """Open ``path`` for ``job`` (made of items named ``keys``), creating it if needed.

        Args:
            path: the checkpoint file.
            job: what identifies the job (JSON-ready); a file written for another is refused.
            keys: the names of every item of the job; a record for another key is refused.
            record_type: the named tuple of whole numbers each record is read back into.
            sane: why a record read back (its key and figures) cannot be true, or
                ``None`` when it can; one that cannot is computed again.

        Raises:
            CheckpointMismatchError: the file belongs to another job, or is not a checkpoint.
            CheckpointBusyError: another run is using the file.
        """
        path = Path(path)
        header = {"checkpoint": FORMAT, "version": VERSION, "job": job}
        _check_kind(path)
        try:
            # Binary: a bad byte must cost one record, not the decoding of the whole file.
            # O_NOFOLLOW: a symbolic link put there after the check above is refused too.
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | _NOFOLLOW, 0o666)
            handle = os.fdopen(descriptor, "a+b")
        except OSError as error:
            raise CpQueensError(f"cannot write checkpoint {path}: {reason(error)}") from None
        try:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # replaced meanwhile
                raise CpQueensError(f"checkpoint {path} must be a regular file")
            _lock(handle, path)
            handle.seek(0)
            done: dict[str, Any] = {}
            size = os.fstat(handle.fileno()).st_size
            if size > 0:
                done, keep = _read(path, handle, header, set(keys), record_type, sane)
                if keep < size:  # a torn last line (or header): cut it off before appending
                    handle.truncate(keep)
            checkpoint = cls(path, handle, done)
            if os.fstat(handle.fileno()).st_size == 0:
                checkpoint._write([header])
        except BaseException:
            handle.close()
            raise
        return checkpoint

    def record(self, results: Iterable[tuple[str, Any]]) -> None:
        """Append finished items and push them to disk before returning."""
        lines = []
        for key, record in results:
            self.done[key] = record
            fields = {"key": key, **record._asdict()}
            residues = {f"mod{m}": [value % m for value in record] for m in MODULI}
            lines.append({**fields, **residues, "crc": _crc(fields)})
        self._write(lines)

    def _write(self, records: list[dict[str, Any]]) -> None:
        """Append whole lines and push them to disk; a short write is cut back off.

        Raises:
            OSError: the disk is full or the file too large (with words, never ``None``):
                what was written before stays whole.
        """
        if not records:
            return
        data = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records).encode()
        fd = self._handle.fileno()
        start = os.lseek(fd, 0, os.SEEK_END)
        try:
            written = 0
            while written < len(data):
                written += os.write(fd, data[written:])
            os.fsync(fd)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, start)  # no half record left behind
            raise OSError(
                error.errno, f"cannot write checkpoint {self.path}: {reason(error)}"
            ) from None

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CheckpointBusyError(CpQueensError):
    """Another run is writing the checkpoint file."""


#: Refuse to open a symbolic link (where the system has the flag).
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def reason(error: BaseException) -> str:
    """Why an operation failed, in words: ``strerror`` when the system gave one, else
    the message, else the kind of error (an ``OSError`` may carry ``None`` for both)."""
    text = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return text.rstrip(".")


def _check_kind(path: Path) -> None:
    """Refuse what is not a regular file before opening it: a FIFO would block or be
    unseekable, a directory cannot be appended to."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise CpQueensError(f"cannot use checkpoint {path}: {reason(error)}") from None
    if stat.S_ISLNK(mode):
        # Followed, it would create or append to whatever it names (another user's
        # file in a shared /tmp, say): name the file itself.
        raise CpQueensError(
            f"checkpoint {path} is a symbolic link; give the path of the file itself"
        )
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else None
        raise CpQueensError(
            f"checkpoint {path} must be a regular file"
            + (f", it is {kind}" if kind else ", it is a special file")
        )


def _lock(handle: IO[bytes], path: Path) -> None:
    """An exclusive lock for this run, or a clear error: two runs on one file would
    record every subproblem twice. A POSIX record lock (``lockf``), not ``flock``: it
    belongs to this process alone, so forked workers do not keep it after the run."""
    try:
        import fcntl
    except ImportError:  # not on a POSIX system: no lock
        return
    try:
        fcntl.lockf(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise CheckpointBusyError(
            f"checkpoint {path} is in use by another run; wait for it or use another file"
        ) from None


def _crc(fields: dict[str, Any]) -> int:
    """CRC-32 of a record's fields in a fixed text form: an edited record no longer matches."""
    return zlib.crc32(json.dumps(fields, sort_keys=True, separators=(",", ":")).encode())


def _read(
    path: Path,
    handle: IO[bytes],
    header: dict[str, Any],
    keys: set[str],
    record_type: Any,
    sane: Callable[[str, Any], str | None] | None,
) -> tuple[dict[str, Any], int]:
    """The records of a checkpoint, and how many bytes of it to keep (a torn tail goes)."""
    data = handle.read()
    lines = data.split(b"\n")
    if len(lines) == 1 and _torn_header(lines[0]):
        return {}, 0  # a crash while the file was created: it is written anew
    # The header first, before anything is cut: a file that is not ours is never touched.
    _check_header(path, _json_or_none(lines[0], deepest=8), header)
    complete = data.endswith(b"\n")
    keep = len(data) if complete else len(data) - len(lines[-1])
    if not complete:
        lines = lines[:-1]  # cut short by a crash while writing: compute it again
    done: dict[str, Any] = {}
    dropped: list[str] = []
    for number, line in enumerate(lines, start=1):
        if number == 1 or not line:
            continue
        record = _json_or_none(line, deepest=2)
        why = _why_bad(record, keys, record_type, sane)
        if why is not None:
            dropped.append(f"line {number} ({why})")
            continue
        done[record["key"]] = record_type(*(record[name] for name in record_type._fields))
    if dropped:
        warnings.warn(
            f"checkpoint {path}: {len(dropped)} record(s) dropped and computed again: "
            + ", ".join(dropped[:3])
            + (" ..." if len(dropped) > 3 else ""),
            CpQueensWarning,
            stacklevel=3,
        )
    return done, keep


def _torn_header(line: bytes) -> bool:
    """A first line with no end that agrees with how our headers begin (or is the
    start of it): our own header, cut short while the file was being created."""
    start = HEADER_START.encode()
    return bool(line) and (line.startswith(start) or start.startswith(line))


def _json_or_none(line: bytes, deepest: int) -> Any:
    """The JSON value of a line, or ``None`` (not text, not JSON); deep nesting is
    refused before decoding."""
    from cp_queens.json_depth import check_json_depth, whole_numbers

    try:
        text = line.decode("utf-8")
        check_json_depth(text, deepest, "checkpoint")
        return json.loads(text, parse_int=whole_numbers("checkpoint"))
    except (UnicodeDecodeError, ParseError, json.JSONDecodeError, RecursionError):
        return None


def _why_bad(
    record: Any,
    keys: set[str],
    record_type: Any,
    sane: Callable[[str, Any], str | None] | None,
) -> str | None:
    """Why a record cannot be trusted, or ``None`` when it can."""
    if not isinstance(record, dict):
        return "not a record"
    key, crc = record.get("key"), record.get("crc")
    names = ("key", *record_type._fields)
    residues = [f"mod{m}" for m in MODULI]
    if not isinstance(key, str) or set(record) != {*names, *residues, "crc"}:
        return "not a record of this job"
    values = [record[name] for name in record_type._fields]
    if any(type(value) is not int for value in values):
        return "not whole numbers"
    if crc != _crc({name: record[name] for name in names}):
        return "checksum does not match"
    for modulus, name in zip(MODULI, residues, strict=True):
        if record[name] != [value % modulus for value in values]:
            return f"residues mod {modulus} do not match"
    if key not in keys:
        return f"item {key[:40]} is not part of this job"
    why = None if sane is None else sane(key, record_type(*values))
    if why is not None:
        return f"impossible figures: {why}"
    return None


def _check_header(path: Path, found: Any, expected: dict[str, Any]) -> None:
    if not isinstance(found, dict) or found.get("checkpoint") != FORMAT:
        raise CheckpointMismatchError(f"{path} is not a cp_queens checkpoint (line 1)")
    if found.get("version") != expected["version"]:
        raise CheckpointMismatchError(
            f"checkpoint {path} has format version {found.get('version')!r}, this is "
            f"version {expected['version']}; start a new file"
        )
    job, expected_job = found.get("job"), expected["job"]
    if not isinstance(job, dict):
        raise CheckpointMismatchError(f"{path} is not a cp_queens checkpoint (line 1)")
    for field, value in expected_job.items():
        if job.get(field) != value:
            raise CheckpointMismatchError(
                f"checkpoint {path} was written for {field}={job.get(field)!r}, this job "
                f"has {field}={value!r}; use another file or the same command"
            )
