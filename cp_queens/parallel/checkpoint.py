"""A checkpoint file, so that a long run survives Ctrl-C, a crash or a lost node.

The file is JSON lines. The first line says which job it belongs to (for a
count: the engine, board size, pre-placed queens, split depth and number of
subproblems, as the engine describes it); every further line is one finished
item, written as soon as it is done and flushed to disk::

    {"checkpoint": "cp_queens", "version": 1, "job": {"n": 17, "fixed": [], "depth": 4, ...}}
    {"key": "edge:1.3.0.2", "total": 1234, "unique": 160, "nodes": 56789}

Re-running the same job reads the file, skips what it lists and appends the
rest, so no item is ever computed twice. A file written for another job is
refused with a clear error rather than silently mixed in. A last line cut
short by a crash is ignored (that item is simply computed again).

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

import json
import os
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any, TextIO

from cp_queens.errors import CpQueensError, ParseError

FORMAT = "cp_queens"
VERSION = 2


class CheckpointMismatchError(CpQueensError):
    """The checkpoint file was written for a different job."""


class Checkpoint:
    """An open checkpoint: what is already done, and a way to record more."""

    def __init__(self, path: Path, handle: TextIO, done: dict[str, Any]) -> None:
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
    ) -> Checkpoint:
        """Open ``path`` for ``job`` (made of items named ``keys``), creating it if needed.

        Args:
            path: the checkpoint file.
            job: what identifies the job (JSON-ready); a file written for another is refused.
            keys: the names of every item of the job; a record for another key is refused.
            record_type: the named tuple of whole numbers each record is read back into.

        Raises:
            CheckpointMismatchError: the file belongs to another job, or is not a checkpoint.
            ParseError: a line (other than a torn last one) cannot be read.
        """
        path = Path(path)
        header = {"checkpoint": FORMAT, "version": VERSION, "job": job}
        done: dict[str, Any] = {}
        exists = path.exists() and path.stat().st_size > 0
        if exists:
            done = _read(path, header, set(keys), record_type)
        try:
            handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
        except OSError as error:
            raise CpQueensError(f"cannot write checkpoint {path}: {error.strerror}") from None
        checkpoint = cls(path, handle, done)
        if not exists:
            checkpoint._write([header])
        return checkpoint

    def record(self, results: Iterable[tuple[str, Any]]) -> None:
        """Append finished items and push them to disk before returning."""
        lines = []
        for key, record in results:
            self.done[key] = record
            lines.append({"key": key, **record._asdict()})
        self._write(lines)

    def _write(self, records: list[dict[str, Any]]) -> None:
        if not records:
            return
        self._handle.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _read(path: Path, header: dict[str, Any], keys: set[str], record_type: Any) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CpQueensError(f"cannot read checkpoint {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise CheckpointMismatchError(f"{path} is not a cp_queens checkpoint (not text)") from None
    lines = text.split("\n")
    complete = text.endswith("\n")
    done: dict[str, Any] = {}
    for number, line in enumerate(lines, start=1):
        if not line:
            continue
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as error:
            if number == len(lines) and not complete:
                break  # cut short by a crash while writing: compute it again
            if number == 1:
                raise CheckpointMismatchError(f"{path} is not a cp_queens checkpoint") from None
            message = getattr(error, "msg", "nested too deeply")
            raise ParseError(f"{path}, line {number}: not JSON ({message})") from None
        if number == 1:
            _check_header(path, record, header)
            continue
        try:
            key = record["key"]
            values = [record[name] for name in record_type._fields]
            if not isinstance(key, str) or any(type(v) is not int for v in values):
                raise TypeError
        except (KeyError, TypeError):
            raise ParseError(f"{path}, line {number}: not a record of this job") from None
        if key not in keys:
            raise CheckpointMismatchError(
                f"{path}, line {number}: item {key} is not part of this job"
            )
        done[key] = record_type(*values)
    return done


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
