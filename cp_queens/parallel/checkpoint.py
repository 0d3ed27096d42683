"""A checkpoint file, so that a long count survives Ctrl-C, a crash or a lost node.

The file is JSON lines. The first line says which count it belongs to (board
size, pre-placed queens, split depth, number of subproblems); every further
line is one finished subproblem, written as soon as it is done and flushed to
disk::

    {"checkpoint": "cp_queens count", "version": 1, "n": 17, "fixed": [], "depth": 4, ...}
    {"key": "edge:1.3.0.2", "total": 1234, "unique": 160, "nodes": 56789}

Re-running the same count reads the file, skips what it lists and appends the
rest, so no subproblem is ever counted twice. A file written for another count
is refused with a clear error rather than silently mixed in. A last line cut
short by a crash is ignored (that subproblem is simply counted again).

Examples:
    >>> import os, tempfile
    >>> from cp_queens.engines.fast.subproblems import split, PartialCount
    >>> path = os.path.join(tempfile.mkdtemp(), "count8.jsonl")
    >>> subs = split(8)
    >>> with Checkpoint.open(path, 8, subs) as cp:
    ...     cp.record([(subs[0].key, PartialCount(8, 1, 20))])
    >>> with Checkpoint.open(path, 8, subs) as cp:
    ...     cp.done
    {'corner:0.2': PartialCount(total=8, unique=1, nodes=20)}
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from cp_queens.engines.fast.subproblems import PartialCount, Subproblem
from cp_queens.errors import CpQueensError, ParseError

FORMAT = "cp_queens count"
VERSION = 1


class CheckpointMismatchError(CpQueensError):
    """The checkpoint file was written for a different count."""


def describe(n: int, subproblems: Sequence[Subproblem]) -> dict[str, Any]:
    """What identifies a count: its board, its given queens and its split."""
    first = subproblems[0] if subproblems else None
    return {
        "checkpoint": FORMAT,
        "version": VERSION,
        "n": n,
        "fixed": [list(pair) for pair in first.fixed] if first else [],
        "depth": max((len(s.prefix) for s in subproblems), default=0),
        "subproblems": len(subproblems),
    }


class Checkpoint:
    """An open checkpoint: what is already done, and a way to record more."""

    def __init__(self, path: Path, handle: TextIO, done: dict[str, PartialCount]) -> None:
        self.path = path
        self._handle = handle
        #: Finished subproblems read from the file (and recorded since), by key.
        self.done = done

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], n: int, subproblems: Sequence[Subproblem]
    ) -> Checkpoint:
        """Open ``path`` for the count of ``n`` made of ``subproblems``, creating it if needed."""
        path = Path(path)
        header = describe(n, subproblems)
        known = {s.key for s in subproblems}
        done: dict[str, PartialCount] = {}
        exists = path.exists() and path.stat().st_size > 0
        if exists:
            done = _read(path, header, known)
        try:
            handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
        except OSError as error:
            raise CpQueensError(f"cannot write checkpoint {path}: {error.strerror}") from None
        checkpoint = cls(path, handle, done)
        if not exists:
            checkpoint._write([header])
        return checkpoint

    def record(self, results: Iterable[tuple[str, PartialCount]]) -> None:
        """Append finished subproblems and push them to disk before returning."""
        lines = []
        for key, part in results:
            self.done[key] = part
            lines.append({"key": key, **part._asdict()})
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


def _read(path: Path, header: dict[str, Any], known: set[str]) -> dict[str, PartialCount]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CpQueensError(f"cannot read checkpoint {path}: {error.strerror}") from None
    lines = text.split("\n")
    complete = text.endswith("\n")
    done: dict[str, PartialCount] = {}
    for number, line in enumerate(lines, start=1):
        if not line:
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            if number == len(lines) and not complete:
                break  # cut short by a crash while writing: count it again
            raise ParseError(f"{path}, line {number}: not JSON ({error.msg})") from None
        if number == 1:
            _check_header(path, record, header)
            continue
        try:
            key = record["key"]
            part = PartialCount(int(record["total"]), int(record["unique"]), int(record["nodes"]))
        except (KeyError, TypeError, ValueError):
            raise ParseError(f"{path}, line {number}: not a subproblem record") from None
        if key not in known:
            raise CheckpointMismatchError(
                f"{path}, line {number}: subproblem {key} is not part of this count"
            )
        done[key] = part
    return done


def _check_header(path: Path, found: Any, expected: dict[str, Any]) -> None:
    if not isinstance(found, dict) or found.get("checkpoint") != FORMAT:
        raise CheckpointMismatchError(f"{path} is not a cp_queens count checkpoint (line 1)")
    for field in ("version", "n", "fixed", "depth", "subproblems"):
        if found.get(field) != expected[field]:
            raise CheckpointMismatchError(
                f"checkpoint {path} was written for {field}={found.get(field)!r}, this count "
                f"has {field}={expected[field]!r}; use another file or the same command"
            )
