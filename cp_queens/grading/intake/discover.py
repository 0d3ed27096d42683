"""Who is in the class: every entry of the class folder becomes exactly one row.

A lecturer's folder is what students and an LMS made of it: ``SAM.PY``,
``kim.Py``, ``tom.py `` (a trailing space), a folder with ``model.py`` and
``helpers.py``, ``ada.py`` beside ``ada.ipynb``, a zip, a ``.DS_Store``, a
Moodle download (one folder ``Full Name_12345_assignsubmission_file_`` per
student) or a Canvas one (``lastfirst_12345_67890_queens.py``, one file per
upload). Nothing in it may vanish silently: each entry (or each student's
entries, for an LMS download and for two files of one name) is one
``Submission``, graded or with the reason it is not (a FIFO, a device, a
hidden file, an archive, two files for one student, a folder with nothing to
grade). A folder of several files is graded from its entry point (the one file
that defines ``model``, else ``model.py``), the other ``.py`` files importable
beside it in the room.

Source is read as Python reads it (``cp_queens.grading.intake.textfile.decode_source``:
a BOM, a coding cookie), a notebook's code cells in time and memory linear in
its size, and no file larger than the rubric's ``submission_kb`` is read at all.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

import cp_queens.grading.intake.lms as lms
from cp_queens.errors import ParseError
from cp_queens.grading.intake.textfile import read_source
from cp_queens.grading.results import GradeError
from cp_queens.json_depth import check_json_depth

#: A notebook nested deeper than this is not a notebook (nbformat's own is about 6 deep).
NOTEBOOK_DEPTH = 64

#: What a submission's file may be called (compared case-insensitively, blanks at the
#: end of the name ignored: ``SAM.PY``, ``tom.py ``).
SUFFIXES = (".py", ".ipynb")

#: Names of archives: their row says to unpack them.
ARCHIVES = (".zip", ".tar", ".tgz", ".gz", ".bz2", ".xz", ".7z", ".rar", ".zst")


@dataclass(frozen=True, slots=True)
class Submission:
    """One student's work, or one entry of the class folder that is not: a name, where it
    is, its Python code, or why it was not read (``refused``). A value: each step of
    intake makes a new one (``dataclasses.replace``)."""

    student: str
    path: Path
    source: str
    refused: str | None = None
    beside: Mapping[str, bytes] = field(default_factory=dict)  # files importable beside it
    status: str = "graded"  # "graded", "not graded", "conflict"
    student_id: str = ""  # the LMS's id, from the download's names
    keys: Mapping[str, str] = field(default_factory=dict)  # the LMS's keys (grading.intake.lms)
    notes: tuple[str, ...] = ()  # said in the feedback, not fatal
    entries: tuple[str, ...] = ()  # the class folder's names it stands for

    def __post_init__(self) -> None:
        if self.refused is not None and self.status == "graded":
            # Still being made: a refused submission is "not graded" from the start.
            object.__setattr__(self, "status", "not graded")


def is_submission_name(name: str) -> bool:
    """A ``.py`` or ``.ipynb`` name, in any case, blanks after it ignored."""
    return name.rstrip().lower().endswith(SUFFIXES) and not name.startswith(".")


def shown(name: str) -> str:
    """A file's name as a person can read it: quoted when it has blanks at either end or
    characters that do not print (``'tom.py '``)."""
    if name != name.strip() or not name.isprintable():
        return repr(name)
    return name


def _stem(name: str) -> str:
    base = name.rstrip()
    return base[: base.rfind(".")] if "." in base else base


@dataclass(slots=True)
class _Group:
    """The entries of one student: a key, their names, where they are."""

    student: str
    student_id: str = ""
    entries: list[tuple[str, Path]] = field(default_factory=list)  # (name shown, path)
    keys: dict[str, str] = field(default_factory=dict)  # an LMS download's keys, else none


def find_submissions(folder: str | Path, max_bytes: int | None = None) -> list[Submission]:
    """One ``Submission`` per student of ``folder`` (every entry belongs to exactly one),
    sorted by student; a file over ``max_bytes`` is refused before a byte of it is read."""
    root = Path(folder)
    if not root.is_dir():
        raise GradeError(f"{root}: not a folder of submissions")
    try:
        names = sorted(os.listdir(root))
    except OSError as error:
        raise GradeError(f"{root}: cannot list the folder: {error.strerror}") from None
    if not names:
        raise GradeError(f"{root}: an empty folder: no submissions to grade")
    groups: dict[tuple[str, str], _Group] = {}
    found: list[Submission] = []
    for name in names:
        path = root / name
        try:
            mode = os.lstat(path).st_mode
        except OSError as error:
            found.append(_not_graded(name, path, f"cannot be read: {error.strerror}"))
            continue
        other = _other_entry(name, path, mode)
        if other is not None:
            found.append(other)
            continue
        download = lms.parse_download(name, stat.S_ISDIR(mode))
        if download is not None:
            student, student_id = download.name, download.value
        else:
            student, student_id = (name if stat.S_ISDIR(mode) else _stem(name)), ""
        group = groups.setdefault((student.casefold(), student_id), _Group(student, student_id))
        group.entries.append((name, path))
        if download is not None and not group.keys:
            group.keys = download.keys()
    for group in groups.values():
        found.append(_from_group(group, max_bytes))
    return tell_apart(sorted(found, key=lambda s: (s.student.casefold(), s.student_id)))


def _other_entry(name: str, path: Path, mode: int) -> Submission | None:
    """The row of an entry that is not a submission (hidden, a link, a FIFO, an archive,
    another kind of file); None for a submission's file or a folder."""
    if name.startswith("."):
        return _not_graded(name, path, "a hidden file (its name starts with a dot)")
    if stat.S_ISLNK(mode):
        return _not_graded(name, path, "a symbolic link, not a file: not read")
    kinds = {
        stat.S_ISFIFO: "a FIFO (named pipe)",
        stat.S_ISSOCK: "a socket",
        stat.S_ISCHR: "a character device",
        stat.S_ISBLK: "a block device",
    }
    for test, kind in kinds.items():
        if test(mode):
            return _not_graded(name, path, f"{kind}, not a file")
    if stat.S_ISDIR(mode):
        return None
    lower = name.rstrip().lower()
    if is_submission_name(name) or lms.parse_download(name, folder=False) is not None:
        return None
    if lower.endswith(ARCHIVES):
        return _not_graded(
            name, path, "an archive: unpack it (each submission a file or folder) and grade again"
        )
    return _not_graded(name, path, "not a Python file (.py) or notebook (.ipynb)")


def _not_graded(name: str, path: Path, why: str) -> Submission:
    student = name if name.startswith(".") else _stem(name) or name
    return Submission(student, path, "", why, status="not graded", entries=(name,))


def _from_group(group: _Group, max_bytes: int | None) -> Submission:
    """One student's submission from their entries: a file, a folder, or an LMS student's
    files; two entries of a plain name (``ada.py``, ``ada.ipynb``) are a conflict."""
    names = [name for name, _ in group.entries]
    if len(group.entries) > 1 and not group.keys:
        listed = ", ".join(shown(n) for n in names)
        return Submission(
            group.student,
            group.entries[0][1],
            "",
            f"{len(names)} submissions for {group.student}: {listed} (keep one and grade "
            "again, or decide by an override)",
            status="conflict",
            entries=tuple(names),
        )
    files: list[tuple[str, Path]] = []  # (the name the student gave it, where it is)
    other: list[str] = []
    for name, path in group.entries:
        if path.is_dir():
            files += _folder_files(path, other)
        else:
            download = lms.parse_download(name, folder=False) if group.keys else None
            given = download.file if download is not None and download.file else name
            if is_submission_name(given):
                files.append((given, path))
            else:
                other.append(shown(given))
    where = group.entries[0][1]
    archives = [name for name in other if name.strip("'\"").rstrip().lower().endswith(ARCHIVES)]
    if not files and archives:
        return Submission(
            group.student,
            where,
            "",
            f"an archive ({', '.join(archives)}), nothing else to grade: unpack it (each "
            "submission a file or folder) and grade again",
            status="not graded",
            entries=tuple(names),
            student_id=group.student_id,
            keys=dict(group.keys),
        )
    submission = _entry_point(group.student, where, files, max_bytes)
    notes = list(submission.notes)
    if other and submission.refused is None:
        notes.append(f"also handed in, not graded: {', '.join(sorted(other))}")
    if any(name != name.strip() or not name.isprintable() for name in names):
        notes.append(f"handed in as {', '.join(shown(n) for n in names)}")
    return dataclasses.replace(
        submission,
        student_id=group.student_id,
        keys=dict(group.keys),
        entries=tuple(names),
        notes=tuple(notes),
    )


def _folder_files(folder: Path, other: list[str]) -> list[tuple[str, Path]]:
    """The submission files of a student's folder (its top level, links and hidden files
    left out: Jupyter's ``.ipynb_checkpoints`` is no second submission)."""
    files = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    for name in names:
        path = folder / name
        if name.startswith(".") or name == "__pycache__":
            continue
        try:
            regular = stat.S_ISREG(os.lstat(path).st_mode)
        except OSError:
            continue
        if regular and is_submission_name(name):
            files.append((name, path))
        else:
            other.append(shown(name))
    return files


def _entry_point(
    student: str, where: Path, files: list[tuple[str, Path]], max_bytes: int | None
) -> Submission:
    """The file to grade among ``files``, the others importable beside it: the one that
    defines ``model``, else ``model.py``, else the only one."""
    if not files:
        return Submission(
            student,
            where,
            "",
            "nothing to grade: no .py or .ipynb file in it",
            status="not graded",
        )
    if len(files) == 1:
        return read_submission(student, files[0][1], max_bytes)
    read = [(name, path, read_submission(student, path, max_bytes)) for name, path in files]
    for _, _, one in read:
        if one.refused is not None:
            return one
    defining = [(name, path, one) for name, path, one in read if defines_model(one.source)]
    called_model = [entry for entry in read if entry[0].rstrip().lower() == "model.py"]
    if len(defining) == 1:
        chosen = defining[0]
    elif called_model and (not defining or called_model[0] in defining):
        chosen = called_model[0]
    else:
        listed = ", ".join(shown(name) for name, _, _ in (defining or read))
        said = "define model" if defining else "is a submission; none defines model"
        return Submission(
            student,
            where,
            "",
            f"{len(defining or read)} files {said}: {listed}; cannot tell which to grade "
            "(name the one to grade model.py, or keep one)",
            status="conflict",
        )
    name, _, submission = chosen
    others = [(other_name, other_path) for other_name, other_path, _ in read]
    return _with_beside(submission, name, others, max_bytes, where)


def _with_beside(
    submission: Submission,
    name: str,
    others: list[tuple[str, Path]],
    max_bytes: int | None,
    where: Path,
) -> Submission:
    """``submission`` (the file ``name``) with the ``.py`` files of ``others`` importable
    beside it, as in its room; refused when they are together over ``max_bytes``."""
    total = len(submission.source.encode())
    notes = list(submission.notes)
    beside = dict(submission.beside)
    for other_name, other_path in others:
        if other_path == submission.path or not other_name.rstrip().lower().endswith(".py"):
            continue
        module = other_name.rstrip()
        if module == "submission.py" or not module[:-3].isidentifier():
            notes.append(f"{shown(other_name)} is not importable by that name")
            continue
        data = other_path.read_bytes()
        total += len(data)
        if max_bytes is not None and total > max_bytes:
            return Submission(
                submission.student,
                where,
                "",
                "its files together are over submission_kb: not read",
                status="not graded",
            )
        beside[module] = data
    if beside:
        notes.append(f"graded {shown(name)}, with {', '.join(sorted(beside))} beside it")
    return dataclasses.replace(submission, beside=beside, notes=tuple(notes))


def with_siblings(student: str, path: Path, max_bytes: int | None = None) -> Submission:
    """One file as the class run grades it in its folder (``cp-queens grade FILE``, a
    student's own check): the ``.py`` files beside it that it imports (and they import)
    are importable beside it in the room, as a folder submission's files are."""
    submission = read_submission(student, path, max_bytes)
    if submission.refused is not None:
        return submission
    siblings: dict[str, Path] = {}
    try:
        for entry in sorted(os.listdir(path.parent)):
            sibling = path.parent / entry
            wanted_name = entry.endswith(".py") and entry != path.name
            if (
                wanted_name
                and not entry.startswith(".")
                and stat.S_ISREG(os.lstat(sibling).st_mode)
            ):
                siblings[entry[:-3]] = sibling
    except OSError:
        return submission
    wanted: list[tuple[str, Path]] = []
    todo = [submission.source]
    while todo:
        for module in _imported(todo.pop()):
            if module in siblings and all(module + ".py" != n for n, _ in wanted):
                wanted.append((module + ".py", siblings[module]))
                try:
                    todo.append(siblings[module].read_text(encoding="utf-8", errors="replace"))
                except OSError:
                    continue
    return _with_beside(submission, path.name, wanted, max_bytes, path)


def _imported(source: str) -> set[str]:
    """The top-level names of the modules ``source`` imports (anywhere in it)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set(re.findall(r"(?m)^\s*(?:from|import)\s+([A-Za-z_]\w*)", source))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.partition(".")[0])
    return names


def defines_model(source: str) -> bool:
    """Does the module define ``model`` at its top level (a function, a name, an import)?"""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return re.search(r"(?m)^(?:async\s+)?def\s+model\b|^model\s*=", source) is not None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == "model":
                return True
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "model" for t in targets):
                return True
        elif isinstance(node, ast.Import | ast.ImportFrom) and any(
            (alias.asname or alias.name) == "model" for alias in node.names
        ):
            return True
    return False


def read_submission(student: str, path: Path, max_bytes: int | None = None) -> Submission:
    """The student's code, or the reason it is not read: one student's file never stops
    the class (a 20 GB file is refused by its size, before it is opened)."""
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):
            return Submission(student, path, "", "a symbolic link, not a file: not read")
        if not stat.S_ISREG(mode):
            return Submission(student, path, "", "not a regular file: not read")
        size = os.stat(path).st_size
        notebook = path.name.rstrip().lower().endswith(".ipynb")
        if notebook and max_bytes is not None and max_bytes < size <= NOTEBOOK_BYTES:
            return _notebook_over(student, path, size, max_bytes)
        if max_bytes is not None and size > max_bytes:
            return Submission(
                student,
                path,
                "",
                f"the file is {_size(size)}, over the {_size(max_bytes)} a submission may be "
                "(the rubric's limits.submission_kb): not read",
            )
        if path.name.rstrip().lower().endswith(".ipynb"):
            return Submission(student, path, notebook_code(path))
        data = path.read_bytes()
        try:
            text, note = read_source(data)
        except SyntaxError as error:
            return Submission(student, path, "", f"Python cannot read the file: {error.msg}")
        return Submission(student, path, text, notes=(note,) if note else ())
    except GradeError as error:
        return Submission(student, path, "", str(error))
    except OSError as error:
        return Submission(student, path, "", f"cannot read the file: {error.strerror}")


#: The largest notebook read at all: its outputs (plots above all) are dropped as it is
#: read, and the code cells alone are held to ``submission_kb``.
NOTEBOOK_BYTES = 256 << 20


def _notebook_over(student: str, path: Path, size: int, max_bytes: int) -> Submission:
    """A notebook over ``submission_kb`` whose code is not: its outputs (plots saved in
    it) are what is large, and are never graded. Graded by its code cells, said in a note."""
    code = notebook_code(path)
    if len(code.encode()) > max_bytes:
        return Submission(
            student,
            path,
            "",
            f"its code cells are {_size(len(code.encode()))}, over the {_size(max_bytes)} a "
            "submission may be (the rubric's limits.submission_kb): not graded",
        )
    return Submission(
        student,
        path,
        code,
        notes=(
            f"the notebook is {_size(size)}, nearly all of it outputs (plots): graded by its "
            f"code cells ({_size(len(code.encode()))}); clear the outputs before handing in "
            "(Kernel > Restart & Clear Output, then save) to keep it small",
        ),
    )


def notebook_code(path: str | Path) -> str:
    """The code cells of a notebook as one Python file, IPython magics (``%``, ``!``) commented
    out: read with ``json``, no kernel, nothing run. Memory stays a small multiple of the
    file's size: objects other than the notebook, its cells and their sources are dropped
    as they are decoded, and lines are never split into a list."""
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            text = handle.read()
        check_json_depth(text, NOTEBOOK_DEPTH, str(path))
        notebook = json.loads(text, object_pairs_hook=_only_code)
        del text
        cells = notebook["cells"]
        if not isinstance(cells, list):
            raise TypeError
    except ParseError:
        raise GradeError(
            f"{path}: not a Jupyter notebook (nested more than {NOTEBOOK_DEPTH} deep)"
        ) from None
    except (ValueError, KeyError, TypeError, RecursionError):
        raise GradeError(f"{path}: not a Jupyter notebook (no list of cells)") from None
    parts = []
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        text = "".join(map(str, source)) if isinstance(source, list) else str(source)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        parts.append(_MAGIC.sub("# ", text).rstrip("\n"))
    return "\n\n".join(parts) + "\n"


#: A line of IPython magic (``%timeit``, ``!pip``): commented out, indentation and all.
_MAGIC = re.compile(r"(?m)^(?=[ \t]*[%!])")

_KEPT = frozenset(("cells", "cell_type", "source"))


def _only_code(pairs: Iterable[tuple[str, object]]) -> dict[str, object] | None:
    """``json``'s hook for each object: only what ``notebook_code`` reads is kept (outputs,
    metadata, attachments go as soon as they are decoded); an object with none of it is
    None (a million ``{}`` cost a list of Nones, not a million dicts)."""
    kept = {key: value for key, value in pairs if key in _KEPT}
    return kept or None


class _Named(Protocol):
    """A row with a student's name and id (a ``Submission``, a ``StudentResult``): a
    dataclass, so that a namesake is told apart in a new row."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def student(self) -> str: ...

    @property
    def student_id(self) -> str: ...


Named = TypeVar("Named", bound=_Named)


def tell_apart(found: list[Named]) -> list[Named]:
    """Two rows never share a student name (their feedback files would): the second of two
    namesakes (of an LMS download, or of a roster) is told apart by its id, else by a
    number."""
    seen: set[str] = set()
    told: list[Named] = []
    for submission in found:
        name = submission.student
        if name.casefold() in seen:
            name = (
                f"{submission.student} [{submission.student_id}]" if submission.student_id else name
            )
            number = 2
            while name.casefold() in seen:
                name = f"{submission.student} ({number})"
                number += 1
            submission = dataclasses.replace(submission, student=name)
        seen.add(name.casefold())
        told.append(submission)
    return told


class _Found(Protocol):
    @property
    def status(self) -> str: ...

    @property
    def entries(self) -> Sequence[str]: ...


def summary(found: Iterable[_Found], folder: str | Path) -> str:
    """What was found in ``folder``, counted by what it is (a ``Submission`` or a graded
    row): "12 entries (9 files, 3 folders): 1 conflict; 10 graded; 1 not graded"."""
    root = Path(folder)
    files = folders = entries = 0
    statuses: dict[str, int] = {}
    for one in found:
        statuses[one.status] = statuses.get(one.status, 0) + 1
        for name in one.entries:
            entries += 1
            if (root / name).is_dir() and not (root / name).is_symlink():
                folders += 1
            else:
                files += 1
    kinds = [f"{files} file{'s' * (files != 1)}", f"{folders} folder{'s' * (folders != 1)}"]
    said = [f"{count} {status}" for status, count in sorted(statuses.items())]
    return f"{entries} entries ({', '.join(kinds)}): {'; '.join(said)}"


def _size(count: int) -> str:
    for unit, scale in (("MB", 1 << 20), ("KB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"
