"""Sources for the room's read-only binds that name nothing of the host.

A bind mount tells where it came from: the fourth field of ``/proc/self/mountinfo``
is the source's path inside its file system, wherever the room mounts it. Bound
straight from the grader's interpreter prefix, its venv and its checkout, a room
shows ``/root/.pyenv/versions/3.11.7``, ``/home/lecturer/course/.venv/lib/...`` and
the repository the harness came from. Bound from here, it shows a folder of hard
links made for this grader process (``/var/tmp/cp-queens-room-XXXXXXXX/opt/python``),
which says nothing of who graded, or from where. Hard links copy nothing (a few
thousand ``link`` calls, once per process) and keep the files' inodes, modes and
owners; the folder is private to the grader's user, removed when the process ends
(and by the next grader, if a process was killed before it could).

A tree that cannot be linked (on another file system than the folder, or holding a
file the grader's user may not link: ``fs.protected_hardlinks``) is bound from where
it is: its path shows in ``mountinfo``, and the room works as before.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import shutil
import stat
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path

#: The links' folders: ``/var/tmp`` (on the system's own disk, like most installs),
#: else the system's temporary folder.
PREFIX = "cp-queens-room-"
BASES = ("/var/tmp",)
#: A folder of another grader is removed once it is this old and no process holds it.
STALE_SECONDS = 60.0

_LOCK = threading.Lock()
_FOLDER: list[Path] = []  # this process's folder, once made
_HELD: list[int] = []  # the descriptor whose lock says the folder is in use
_SOURCES: dict[tuple[Path, str, tuple[Path, ...]], Path] = {}


def folder() -> Path | None:
    """This process's folder of links (made on first use), or None where none can be made."""
    with _LOCK:
        return _folder()


def source(path: Path, inside: str, skip: Iterable[Path] = ()) -> Path:
    """What to bind at ``inside`` (a path in the room) for the host's ``path``: its copy in
    hard links under this process's folder, at ``inside``'s own path there; ``path``
    itself where it cannot be linked. Folders in ``skip`` are linked as empty folders
    (what the room must not see: site-packages, the toolkit). Made once per process."""
    key = (path, inside, tuple(sorted(skip)))
    with _LOCK:
        found = _SOURCES.get(key)
        if found is not None:
            return found
        base = _folder()
        target = None if base is None else base / inside.lstrip("/")
        if target is None or target.exists() or target.is_symlink():
            found = path  # no folder, or that room path already linked from another source
        else:
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                _link(path, target, set(key[2]))
                found = target
            except OSError:
                _remove(target)
                found = path
        _SOURCES[key] = found
        return found


def _folder() -> Path | None:
    if _FOLDER:
        return _FOLDER[0]
    for base in (*BASES, tempfile.gettempdir()):
        if not os.path.isdir(base) or not os.access(base, os.W_OK | os.X_OK):
            continue
        _sweep(Path(base))
        try:
            made = Path(tempfile.mkdtemp(prefix=PREFIX, dir=base))  # 0700, this user's
            held = os.open(made / ".lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            fcntl.flock(held, fcntl.LOCK_EX)
        except OSError:
            continue
        _FOLDER.append(made)
        _HELD.append(held)
        atexit.register(_remove_own)
        return made
    return None


def _link(path: Path, target: Path, skip: set[Path]) -> None:
    """``target`` as a copy of ``path`` in hard links: folders made with their modes,
    files linked, symbolic links copied (one pointing inside the tree made relative, so
    that it names no host path); sockets and devices left out. (Plain strings and
    ``scandir``: 14,900 entries for Python 3.11 and OR-Tools, linked once per process.)"""
    if not path.is_dir():
        os.link(path, target, follow_symlinks=True)
        return
    tree, skipped = str(path), {str(folder) for folder in skip}
    todo = [(tree, str(target))]
    while todo:
        here, there = todo.pop()
        os.mkdir(there)
        os.chmod(there, stat.S_IMODE(os.stat(here).st_mode))
        with os.scandir(here) as entries:
            for entry in entries:
                inner, outer = entry.path, os.path.join(there, entry.name)
                if entry.is_symlink():
                    _copy_symlink(inner, outer, tree)
                elif entry.is_dir(follow_symlinks=False):
                    if inner in skipped:
                        os.mkdir(outer, 0o755)
                    else:
                        todo.append((inner, outer))
                elif entry.is_file(follow_symlinks=False):
                    os.link(inner, outer, follow_symlinks=False)


def _copy_symlink(link: str, target: str, tree: str) -> None:
    points = os.readlink(link)
    if os.path.isabs(points) and (points == tree or points.startswith(tree + os.sep)):
        points = os.path.relpath(points, os.path.dirname(link))
    os.symlink(points, target)


def _sweep(base: Path) -> None:
    """Remove folders of this user's earlier graders that no process holds any more."""
    with contextlib.suppress(OSError):
        for candidate in base.glob(PREFIX + "*"):
            with contextlib.suppress(OSError):
                status = os.lstat(candidate)
                if not stat.S_ISDIR(status.st_mode) or status.st_uid != os.geteuid():
                    continue
                if time.time() - status.st_mtime < STALE_SECONDS:
                    continue  # being made: its lock may not be taken yet
                held = os.open(candidate / ".lock", os.O_RDWR | os.O_NOFOLLOW)
                try:
                    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    continue  # a grader still running uses it
                finally:
                    os.close(held)
                _remove(candidate)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        if path.is_symlink() or not path.is_dir():
            path.unlink()
        else:
            shutil.rmtree(path)


def _remove_own() -> None:
    with _LOCK:
        for made in _FOLDER:
            _remove(made)
        for held in _HELD:
            with contextlib.suppress(OSError):
                os.close(held)
        _FOLDER.clear()
        _HELD.clear()
        _SOURCES.clear()
