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
lecturer's own notes in ``--out`` stay. The folder is opened once and every file is
made, renamed and removed through it, never through a link; the list is believed
only if it is a plain file of this user that no one else may write.

Every student has a file of their own (``file_names``): namesakes and names the
cleaning maps together are told apart before anything is written, and every name is
cut to the 255 bytes a file name may have.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import hashlib
import io
import json
import os
import secrets
import stat
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from cp_queens.output import OutputError, reason, write_text_whole

#: What a spreadsheet takes for the start of a formula (OWASP: CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: The list of feedback files this grader wrote, kept beside them.
MANIFEST = ".cp-queens-feedback.json"
#: The largest list (a class of 10,000 is about 1 MB) and feedback file read back.
MANIFEST_BYTES = FEEDBACK_BYTES = 16 << 20


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


#: The longest file name the usual file systems take (ext4, XFS, Btrfs: 255 bytes; APFS,
#: NTFS: 255 characters, which 255 bytes of UTF-8 never exceed).
NAME_BYTES = 255
#: What the name of a feedback file adds to the student's: its extension.
EXTENSION = ".md"
#: The bytes of a name kept in its staging file's name (``.NAME.RANDOM.part``).
STAGE_BYTES = 60


def _cut(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` bytes of UTF-8, never inside a character."""
    return text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")


def file_name(student: str, suffix: str = "", extension: str = EXTENSION) -> str:
    """A feedback file's name for ``student``: the name as it is where a file may carry it,
    a ``_`` for a path separator, a control character or a leading dot; ``suffix`` (what
    tells namesakes apart) kept whole, the name cut so that all of it fits ``NAME_BYTES``
    (a roster name of 70 emoji is 280 bytes: ``File name too long`` ended a class).

    >>> file_name("a/b"), file_name(".ada"), len(file_name("🙂" * 70).encode())
    ('a_b.md', 'ada.md', 255)
    """
    name = "".join(
        "_" if ch in "/\\" or not ch.isprintable() else ch for ch in student.strip()
    ).lstrip(".")
    room = NAME_BYTES - len((suffix + extension).encode("utf-8"))
    return _cut(name or "_", room) + suffix + extension


def file_names(students: Sequence[tuple[str, str]], extension: str = EXTENSION) -> list[str]:
    """One feedback file name per ``(name, id)``, in order, never shared, decided before
    anything is written: namesakes, and names the cleaning maps together (``a<TAB>b`` and
    ``a_b``, ``ada`` and ``.ada``; told apart without regard to case, as a file system on
    macOS or Windows would) each get their id, or (no id, or the id taken) a counter.

    >>> file_names([("Ada", "7"), ("ada", "9"), ("ben", ""), (".ben", ""), ("cy", "")])
    ['Ada (7).md', 'ada (9).md', 'ben.md', 'ben (2).md', 'cy.md']
    """
    plain = [file_name(name, "", extension) for name, _ in students]
    shared: dict[str, int] = {}
    for name in plain:
        shared[name.casefold()] = shared.get(name.casefold(), 0) + 1
    chosen: list[str] = []
    taken: set[str] = set()
    for (name, ident), first in zip(students, plain, strict=True):
        candidates = [first] if shared[first.casefold()] == 1 else []
        ident = ident.strip()
        if ident:
            tag = _cut(file_name(ident, "", ""), 80)
            candidates.append(file_name(name, f" ({tag})", extension))
        if shared[first.casefold()] > 1 and not ident:
            candidates.append(first)
        candidates += (
            file_name(name, f" ({count})", extension) for count in range(2, len(students) + 2)
        )
        pick = next(c for c in candidates if c.casefold() not in taken)
        taken.add(pick.casefold())
        chosen.append(pick)
    return chosen


class Folder:
    """A folder the grader writes into, opened once: every file is made, renamed and
    removed through its descriptor, never through a link (``O_NOFOLLOW``, ``dir_fd``).
    The folder itself is ``path`` within its parent, made if missing, refused if it is a
    link: a ``feedback/`` linked elsewhere deleted a file there, as root, that the grader
    never wrote. (Its parent, the lecturer's ``--out``, is the lecturer's to choose.)"""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            parent = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as error:
            raise OutputError(error.errno, f"cannot create {self.path}: {reason(error)}") from None
        try:
            with contextlib.suppress(FileExistsError):
                os.mkdir(self.path.name, 0o755, dir_fd=parent)
            flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
            self.fd = os.open(self.path.name, flags, dir_fd=parent)
        except OSError as error:
            raise OutputError(error.errno, _refusal(self.path, error)) from None
        finally:
            os.close(parent)

    def close(self) -> None:
        os.close(self.fd)

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stage(self, name: str, data: bytes) -> str:
        """``data`` in a new file beside ``name`` (made here, never an existing entry),
        synced: renaming it is the write. Its name, in this folder."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        while True:
            temporary = f".{_cut(name, STAGE_BYTES)}.{secrets.token_hex(4)}.part"
            try:
                fd = os.open(temporary, flags, 0o644, dir_fd=self.fd)
                break
            except FileExistsError:
                continue
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fchmod(fd, 0o644)
            os.fsync(fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=self.fd)
            raise
        finally:
            os.close(fd)
        return temporary

    def rename(self, temporary: str, name: str) -> None:
        """The staged file in place of ``name`` (a link there is replaced, not followed)."""
        os.replace(temporary, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def remove(self, name: str) -> None:
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=self.fd)

    def read(self, name: str, cap: int) -> bytes | None:
        """The bytes of the plain file ``name`` here (not a link, not past ``cap``), or
        None."""
        found = self._open(name)
        if found is None:
            return None
        fd, _ = found
        try:
            data = os.read(fd, cap + 1)
        except OSError:
            return None
        finally:
            os.close(fd)
        return data if len(data) <= cap else None

    def owned(self, name: str) -> bool:
        """Is ``name`` here a plain file of this process's user that no one else may
        write (so no one else can have put a list of files in it)?"""
        found = self._open(name)
        if found is None:
            return False
        fd, status = found
        os.close(fd)
        return status.st_uid == os.geteuid() and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)

    def _open(self, name: str) -> tuple[int, os.stat_result] | None:
        if not _plain_name(name):
            return None
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=self.fd)
        except OSError:
            return None
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            os.close(fd)
            return None
        return fd, status


def _plain_name(name: str) -> bool:
    """A name of this folder's own entries: no path, not ``.`` nor ``..``."""
    return bool(name) and "/" not in name and "\0" not in name and name not in (".", "..")


def _refusal(path: Path, error: OSError) -> str:
    if path.is_symlink():
        return (
            f"refusing to write into {path}: it is a symbolic link (the grader writes and "
            "removes files there; remove the link, or choose another output folder)"
        )
    if error.errno == errno.ENOTDIR:
        return f"cannot write into {path}: it is not a folder"
    return f"cannot create {path}: {reason(error)}"


def check_folder(path: str | Path) -> None:
    """Open ``path`` as ``Folder`` would (made if missing, refused if a link), now: asked
    before the work, so that a folder the grader cannot write into costs no run."""
    Folder(path).close()


def write_files(
    folder: str | Path,
    texts: Mapping[str, str],
    *,
    replace: bool,
    problems: list[str] | None = None,
) -> list[Path]:
    """Each ``name -> text`` of ``texts`` as a file in ``folder`` (``Folder``); all written
    under temporary names first, then renamed: a failure leaves every earlier file as it
    was. With ``problems``, a file that cannot be written is said there and the others are
    written all the same (one student's file never costs the class its feedback or its
    marks); without, it fails them all (``OutputError``). With ``replace``, files an
    earlier run of this user wrote (``MANIFEST``) that this one does not write are removed,
    unless changed since: only in this folder, only a plain file, only one the list names
    with the hash of what is there now."""
    with Folder(folder) as where:
        staged: list[tuple[str, str]] = []
        done: dict[str, str] = {}
        failed: set[str] = set()  # not written this time: the earlier file stays, listed
        try:
            for name, text in texts.items():
                data = text.encode("utf-8")
                try:
                    staged.append((name, where.stage(name, data)))
                except OSError as error:
                    if problems is None:
                        raise
                    problems.append(f"{where.path / name}: not written: {reason(error)}")
                    failed.add(name)
                    continue
                done[name] = hashlib.sha256(data).hexdigest()
            earlier = _manifest(where)
            kept = {n: d for n, d in earlier.items() if not replace or n in failed}
            manifest = json.dumps({**kept, **done}, indent=0, sort_keys=True).encode()
            staged.append((MANIFEST, where.stage(MANIFEST, manifest)))
            for name, temporary in staged:
                where.rename(temporary, name)
            staged.clear()
        except OSError as error:
            raise OutputError(error.errno, f"cannot write {where.path}: {reason(error)}") from None
        finally:
            for _, temporary in staged:
                where.remove(temporary)
        if replace:
            for name, digest in earlier.items():
                if name in done or name in failed or name == MANIFEST:
                    continue
                if _digest(where, name) == digest:
                    where.remove(name)
        return [where.path / name for name in done]


def _manifest(folder: Folder) -> dict[str, str]:
    """The files an earlier run wrote, with their hashes: nothing if there is no list, or
    the list is not a plain file of this user that only this user may write."""
    if not folder.owned(MANIFEST):
        return {}
    data = folder.read(MANIFEST, MANIFEST_BYTES)
    try:
        listed = json.loads(data or b"")
    except ValueError:
        return {}
    if not isinstance(listed, dict):
        return {}
    return {
        name: digest
        for name, digest in listed.items()
        if isinstance(name, str) and isinstance(digest, str) and _plain_name(name)
    }


def _digest(folder: Folder, name: str) -> str | None:
    data = folder.read(name, FEEDBACK_BYTES)
    return None if data is None else hashlib.sha256(data).hexdigest()


def same_file(one: str | Path, other: str | Path) -> bool:
    """Would ``one`` and ``other`` name the same file (through links, ``..``, or as two
    names of one file), whether or not it exists yet?"""
    try:
        if os.path.samefile(one, other):
            return True
    except OSError:
        pass
    return os.path.realpath(one) == os.path.realpath(other)


def check_target(path: str | Path, what: str, others: Mapping[str, str | Path | None]) -> None:
    """Refuse, before the work, to write ``what`` at ``path`` when it is one of ``others``
    (what each is -> its path: the run's marks.csv, the roster, the rubric ...), or when
    its folder is missing or takes no new file: ``--export canvas grades/marks.csv``
    replaced the run's marks, ``--export moodle r.csv`` the roster it was read from, and
    an export into a missing folder failed once the whole class had run."""
    from cp_queens.errors import CpQueensError
    from cp_queens.output import check_writable

    for name, other in others.items():
        if other is not None and same_file(path, other):
            raise CpQueensError(
                f"{what} {path}: that is {name}; the grader would write over it (name another file)"
            )
    try:
        check_writable(path)
    except OutputError as error:
        raise CpQueensError(f"{what}: {error.strerror}") from None
