"""The grader's files written whole or not at all, safe to open, never over a lecturer's own.

``marks.csv`` is read by spreadsheets, which run a cell starting with ``=``,
``+``, ``-`` or ``@`` as a formula (and some take TAB and CR for one): a student
named ``=HYPERLINK(...)`` must not put one there. Each such cell gets a leading
single quote, OWASP's rule for CSV injection
(https://owasp.org/www-community/attacks/CSV_Injection); the feedback, which no
spreadsheet reads, shows the name as it is.

Every file is written under a temporary name in its folder and renamed into
place only when all of it is written: a full disk leaves the previous
``marks.csv`` as it was. The feedback files are all written first, then renamed
together, then ``marks.csv``: a complete ``marks.csv`` means complete feedback.
Re-grading removes only feedback files this grader wrote (a list of them, with a
hash of each, is kept in the feedback folder) and that nobody changed since: a
lecturer's own notes in ``--out`` stay.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from cp_queens.output import OutputError, reason, write_text_whole

#: What a spreadsheet takes for the start of a formula (OWASP: CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: The list of feedback files this grader wrote, kept beside them.
MANIFEST = ".cp-queens-feedback.json"


def cell(value: object) -> str:
    """A CSV cell no spreadsheet runs: text starting like a formula gets a leading quote.

    >>> [cell(v) for v in ("=1+1", "@SUM(1)", "-2", "ada", 3)]
    ["'=1+1", "'@SUM(1)", "'-2", 'ada', '3']
    """
    text = str(value)
    # A lone "-" (Moodle's "no date") is text to every spreadsheet, never a formula.
    return "'" + text if text.startswith(FORMULA_STARTS) and text != "-" else text


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """The rows as CSV text, every cell through ``cell``."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    for row in rows:
        writer.writerow([cell(value) for value in row])
    return buffer.getvalue()


def write_csv(path: str | Path, rows: Iterable[Sequence[object]]) -> None:
    """``rows`` as a CSV file at ``path``, whole or not at all (``OutputError``)."""
    write_text_whole(path, csv_text(rows))


def file_name(student: str) -> str:
    """A feedback file's name for ``student``: the name as it is where a file may carry it,
    a ``_`` for a path separator, a control character or a leading dot."""
    name = "".join(
        "_" if ch in "/\\" or not ch.isprintable() else ch for ch in student.strip()
    ).lstrip(".")
    return (name or "_")[:200] + ".md"


def write_files(folder: str | Path, texts: Mapping[str, str], *, replace: bool) -> list[Path]:
    """Each ``name -> text`` of ``texts`` as a file in ``folder``; all written under temporary
    names first, then renamed: a failure leaves every earlier file as it was. With
    ``replace``, files an earlier run wrote (``MANIFEST``) that this one does not write are
    removed, unless changed since."""
    where = Path(folder)
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(error.errno, f"cannot create {where}: {reason(error)}") from None
    staged: list[tuple[str, Path]] = []
    try:
        for name, text in texts.items():
            staged.append((name, _stage(where, name, text.encode("utf-8"))))
        earlier = _manifest(where)
        written = {name: hashlib.sha256(text.encode()).hexdigest() for name, text in texts.items()}
        kept = {} if replace else earlier
        manifest = json.dumps({**kept, **written}, indent=0, sort_keys=True).encode()
        staged.append((MANIFEST, _stage(where, MANIFEST, manifest)))
        for name, temporary in staged:
            os.replace(temporary, where / name)
        staged.clear()
    except OSError as error:
        raise OutputError(error.errno, f"cannot write {where}: {reason(error)}") from None
    finally:
        for _, temporary in staged:
            with contextlib.suppress(OSError):
                temporary.unlink()
    if replace:
        for name, digest in earlier.items():
            if name not in written and _digest(where / name) == digest:
                with contextlib.suppress(OSError):
                    (where / name).unlink()
    return [where / name for name in texts]


def _stage(folder: Path, name: str, data: bytes) -> Path:
    """``data`` in a temporary file beside ``name``, synced: renaming it is the write."""
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name[:60]}.", suffix=".part")
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fchmod(fd, 0o644)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    os.close(fd)
    return Path(temporary)


def _manifest(folder: Path) -> dict[str, str]:
    """The files an earlier run wrote, with their hashes (nothing if there is no list)."""
    try:
        listed = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(listed, dict):
        return {}
    return {
        name: digest
        for name, digest in listed.items()
        if isinstance(name, str) and isinstance(digest, str) and "/" not in name
    }


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
