"""What a submission sees: the bubblewrap command line of one graded run.

The room is built from nothing: a fresh mount namespace holding, read-only,
the system's ``/usr`` (the C library and what the interpreter links to), the
interpreter's own prefix (its standard library) as ``/opt/python``, and, in
``/site``, only the installed distributions that hold the modules the rubric
allows plus the distributions they need (read from their metadata, wherever they
are installed: a venv, a venv chained to another through a ``.pth`` file, the
system). Every site-packages folder of the interpreter is empty there, so
whatever else is installed (``cp_queens`` above all, its keys, the teacher's own
packages) is not in the room. Nothing names the host's folders: each tree is
bound from its copy in hard links (``neutral``), since a bind mount shows its
source in ``/proc/self/mountinfo``. Writable: a small
private ``/scratch`` (``/tmp`` points there) that vanishes with the run. The
submission's file is bound read-only, and so is the harness
(``child.py``, which imports nothing of ``cp_queens``).

Namespaces: all of them (user, PID, network, mount, IPC, UTS, cgroup), no
capabilities, no nested user namespaces, a new session (no terminal to push
keystrokes into), and ``--die-with-parent``. When the grader dies, even by -9,
the whole PID namespace goes with it: the room's first process holds a pipe only
the grader writes to, and ends when it closes (``child._reap_until``).
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path, PurePosixPath

import cp_queens.grading.sandbox.neutral as neutral

#: Where the allowed distributions appear inside the room.
SITE = "/site"
#: The submission's private writable folder inside the room (a size-capped tmpfs).
SCRATCH = "/scratch"
#: Where the submission's file and the harness appear inside the room.
SUBMISSION = "/submission/submission.py"
HARNESS = "/harness/child.py"

#: Inside the room the submission's user is nobody.
NOBODY = 65534

#: The toolkit itself, never allowed in a room, whatever the rubric says.
TOOLKIT = "cp_queens"

_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


class Unavailable(Exception):
    """Bubblewrap cannot run a room here; the message says why."""


def interpreter() -> Path:
    """The base interpreter (not a venv's launcher: a venv's ``pyvenv.cfg`` points outside)."""
    return Path(getattr(sys, "_base_executable", None) or sys.executable).resolve()


@functools.cache
def interpreter_paths(python: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The interpreter's prefixes and its ``sys.path`` when it starts isolated (``-I``):
    asked of the interpreter itself, so a Debian ``dist-packages`` is found like a
    pyenv ``site-packages``."""
    code = "import sys, json; print(json.dumps([[sys.prefix, sys.exec_prefix], sys.path]))"
    done = subprocess.run(
        [python, "-I", "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    prefixes, path = json.loads(done.stdout)
    return tuple(prefixes), tuple(path)


def site_folders(python: str) -> list[Path]:
    """The folders of the interpreter's ``sys.path`` that are not its standard library:
    the site-packages folders to cover."""
    import sysconfig

    stdlib = {
        Path(sysconfig.get_path(name)).resolve()
        for name in ("stdlib", "platstdlib")
        if sysconfig.get_path(name)
    }
    _, path = interpreter_paths(python)
    covered = []
    for entry in path:
        folder = Path(entry).resolve()
        if not folder.is_dir() or folder in stdlib or folder.name == "lib-dynload":
            continue
        if any(part in ("site-packages", "dist-packages") for part in folder.parts):
            covered.append(folder)
    return covered


def allowed_entries(modules: Iterable[str]) -> dict[str, Path]:
    """Name in ``/site`` -> the file or folder to bind there (see ``_allowed_entries``)."""
    return dict(_allowed_entries(tuple(modules)))


@functools.cache
def _allowed_entries(modules: tuple[str, ...]) -> tuple[tuple[str, Path], ...]:
    """Name in ``/site`` -> the file or folder to bind there: every top-level entry of
    every distribution that provides an allowed module, and of the distributions those
    need, found through the grader's own ``importlib`` (whatever chain of ``.pth`` files
    put them on its path). A module with no distribution is bound alone."""
    entries: dict[str, Path] = {}
    wanted: list[str] = []
    for module in modules:
        if module == TOOLKIT or module.startswith(TOOLKIT + "."):
            continue
        spec = importlib.util.find_spec(module)
        if spec is None:
            continue  # not installed: the submission's import fails, as it would anywhere
        if spec.origin in (None, "built-in", "frozen") and not spec.submodule_search_locations:
            continue  # compiled into the interpreter
        if _in_stdlib(spec):
            continue
        distributions = _owners(module)
        if not distributions:
            location = _location(spec)
            if location is not None:
                entries.setdefault(location.name, location)
        wanted += distributions
    for distribution in _closure(wanted):
        for name, where in _top_level(distribution).items():
            entries.setdefault(name, where)
    toolkit = _toolkit_folder()
    return tuple(
        (name, where)
        for name, where in entries.items()
        if toolkit is None or not (where == toolkit or toolkit.is_relative_to(where))
    )


def _owners(module: str) -> list[str]:
    """The distributions that install top-level ``module``: the one of the same name, else
    those whose file list names it (read as text: parsing every file list of every
    installed distribution, as ``packages_distributions`` does, takes seconds)."""
    try:
        importlib.metadata.distribution(module)
        return [module]
    except importlib.metadata.PackageNotFoundError:
        pass
    found = []
    needles = (f"\n{module}/", f"\n{module}.py,", f"\n{module}.")
    for distribution in importlib.metadata.distributions():
        record = distribution.read_text("RECORD") or ""
        if any(needle in "\n" + record for needle in needles):
            found.append(distribution.metadata["Name"])
    return found


def _in_stdlib(spec: importlib.machinery.ModuleSpec) -> bool:
    import sysconfig

    location = _location(spec)
    stdlib = Path(sysconfig.get_path("stdlib")).resolve()
    return (
        location is not None
        and location.is_relative_to(stdlib)
        and ("site-packages" not in location.parts and "dist-packages" not in location.parts)
    )


def _location(spec: importlib.machinery.ModuleSpec) -> Path | None:
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))).resolve()
    if spec.origin:
        return Path(spec.origin).resolve()
    return None


def _closure(names: Iterable[str]) -> list[importlib.metadata.Distribution]:
    """The distributions named and every one they require (extras left out), installed."""
    seen: dict[str, importlib.metadata.Distribution] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:
            continue
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        seen[key] = distribution
        for requirement in distribution.requires or []:
            if "extra" in requirement.partition(";")[2]:
                continue  # an optional extra: not needed to import the module
            match = _NAME.match(requirement)
            if match:
                todo.append(match.group(1))
    return list(seen.values())


def _top_level(distribution: importlib.metadata.Distribution) -> dict[str, Path]:
    """The entries a distribution installed at the top of its site folder (its packages,
    modules, bundled libraries, its ``.dist-info``); scripts installed elsewhere left out."""
    base = Path(str(distribution.locate_file(""))).resolve()
    found: dict[str, Path] = {}
    for file in distribution.files or []:
        parts = Path(str(file)).parts
        if not parts or parts[0] in ("..", "/", "__pycache__") or parts[0].endswith(".pth"):
            continue  # scripts elsewhere; compiled files of every top-level module; hooks
        where = base / parts[0]
        if parts[0] not in found and where.exists():
            found[parts[0]] = where
    return found


def _toolkit_folder() -> Path | None:
    spec = importlib.util.find_spec(TOOLKIT)
    return _location(spec) if spec is not None else None


def _system_binds() -> list[str]:
    """``/usr`` read-only, and the top-level links into it (``/lib`` -> ``usr/lib``) as links,
    or as read-only binds where a system keeps real folders there."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("lib", "lib64", "lib32", "libx32", "bin", "sbin"):
        top = Path("/") / name
        if top.is_symlink():
            args += ["--symlink", str(top.readlink()), str(top)]
        elif top.is_dir():
            args += ["--ro-bind", str(top), str(top)]
    for name in ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime"):
        path = Path("/etc") / name
        if path.exists():
            args += ["--ro-bind", str(path), str(path)]
    return args


def command(
    harness_argv: Sequence[str],
    submission: Path,
    modules: Iterable[str],
    *,
    scratch_bytes: int,
    beside: Iterable[Path] = (),
    userns: int | None = None,
) -> list[str]:
    """The ``bwrap`` command running ``python -I -u HARNESS *harness_argv`` in a room;
    the files ``beside`` appear read-only next to the submission, under their names;
    ``userns``: a descriptor of the user namespace to join (``users.namespace``, when the
    grader is root), else bubblewrap makes one mapping the room's user to the grader's."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise Unavailable("bubblewrap (bwrap) is not installed")
    python = interpreter()
    prefixes, _ = interpreter_paths(str(python))
    if userns is None:  # run by an ordinary user: the room's user is that user outside
        users = ["--unshare-all", "--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY)]
        users += ["--disable-userns", "--cap-drop", "ALL"]
    else:  # run by root: the namespace of the run's own uid; the harness becomes NOBODY
        users = ["--userns", str(userns), "--unshare-pid", "--unshare-net", "--unshare-ipc"]
        users += ["--unshare-uts", "--unshare-cgroup-try", "--cap-drop", "ALL"]
        users += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    args = [
        bwrap,
        *users,
        "--die-with-parent",
        "--new-session",
        # The harness is the namespace's first process (no bwrap there to trace or read):
        # it makes itself untraceable and runs the submission as its child.
        "--as-pid-1",
        "--hostname",
        "submission",
        *_system_binds(),
    ]
    roots: list[Path] = []
    for prefix in prefixes:
        root = Path(prefix).resolve()
        if root not in roots and not any(root.is_relative_to(r) for r in roots):
            roots.append(root)
    places = _places([root for root in roots if not root.is_relative_to("/usr")])
    covered = [
        folder
        for folder in site_folders(str(python))
        if any(folder.is_relative_to(root) for root in [*roots, Path("/usr")])
    ]
    toolkit = _toolkit_folder()
    if toolkit is not None and any(toolkit.is_relative_to(r) for r in [*roots, Path("/usr")]):
        covered.append(toolkit)  # an install of the toolkit in a bound tree: covered
    for root, place in places.items():
        bound = neutral.source(root, place, [f for f in covered if f.is_relative_to(root)])
        args += ["--ro-bind", str(bound), place]
        if bound == root:  # not linked: cover what the links would have left out
            for folder in covered:
                if folder.is_relative_to(root):
                    args += ["--tmpfs", _inside(folder, places)]
    for folder in covered:
        if folder.is_relative_to("/usr"):
            args += ["--tmpfs", str(folder)]
    inside = _inside(python, places)
    if inside == str(python) and not python.is_relative_to("/usr"):
        args += ["--ro-bind", str(python), inside]
    # /proc/sys read-only: bubblewrap covers it only where it could write it, and a few
    # files there (ns_last_pid) and the network's sysctls are writable by their owner.
    args += ["--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys", "--dev", "/dev"]
    args += ["--perms", "01777", "--size", str(scratch_bytes), "--tmpfs", SCRATCH]
    args += ["--perms", "01777", "--size", str(1 << 20), "--tmpfs", "/dev/shm"]
    args += ["--symlink", SCRATCH, "/tmp", "--dir", SITE]
    for name, where in sorted(allowed_entries(modules).items()):
        args += ["--ro-bind", str(neutral.source(where, f"{SITE}/{name}")), f"{SITE}/{name}"]
    harness = neutral.source(Path(__file__).with_name("child.py"), HARNESS)
    args += ["--ro-bind", str(harness), HARNESS, "--ro-bind", str(submission), SUBMISSION]
    for path in beside:
        args += ["--ro-bind", str(path), f"{SUBMISSION.rsplit('/', 1)[0]}/{path.name}"]
    args += _open_folders(args)
    # The room's own root is a tmpfs bubblewrap made to hold the mount points: read-only
    # once they are made, or a submission could fill memory there, outside every cap.
    args += ["--remount-ro", "/", "--chdir", SCRATCH, "--clearenv"]
    for key, value in _environment(places).items():
        args += ["--setenv", key, value]
    return [*args, "--", inside, "-I", "-u", HARNESS, *harness_argv]


#: Where the interpreter's prefix appears in the room (a second prefix, if its
#: ``exec_prefix`` is another tree, one beside it): a path that names nothing of the host.
PYTHON = "/opt/python"


def _places(roots: list[Path]) -> dict[Path, str]:
    """Each tree of the interpreter outside ``/usr`` -> where the room shows it."""
    return {root: PYTHON if i == 0 else f"{PYTHON}-{i}" for i, root in enumerate(roots)}


def _inside(path: Path, places: dict[Path, str]) -> str:
    """Where the room shows the host's ``path`` (under one of ``places``, or where it is)."""
    for root, place in places.items():
        if path.is_relative_to(root):
            relative = path.relative_to(root)
            return place if str(relative) == "." else f"{place}/{relative}"
    return str(path)


def _open_folders(args: list[str]) -> list[str]:
    """``--chmod 0755`` for the folders bubblewrap made on the way to a mount point: it
    gives them the mode of the host's (``/root`` is 0700, the scratch folder holding the
    submission too), and the room's user, not their owner, must pass through them."""
    destinations = {args[i + 2] for i, arg in enumerate(args) if arg in _MOUNTS}
    made: list[str] = []
    for destination in sorted(destinations):
        for parent in reversed(PurePosixPath(destination).parents):
            folder = str(parent)
            if folder != "/" and folder not in destinations and folder not in made:
                made.append(folder)
    return [word for folder in made for word in ("--chmod", "0755", folder)]


#: The options that mount SOURCE on DESTINATION (the destination is the second argument).
_MOUNTS = ("--ro-bind", "--bind", "--dev-bind")


def _environment(places: dict[Path, str]) -> dict[str, str]:
    """The room's variables. An interpreter linked to its own ``libpython`` finds it through
    a ``RUNPATH`` naming the host's prefix, absent in the room: ``LD_LIBRARY_PATH`` names
    where the room shows it."""
    import sysconfig

    extra = {}
    library = sysconfig.get_config_var("LIBDIR")
    if sysconfig.get_config_var("Py_ENABLE_SHARED") and library:
        inside = _inside(Path(library).resolve(), places)
        if inside != str(Path(library).resolve()):
            extra["LD_LIBRARY_PATH"] = inside
    return {
        **extra,
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": SCRATCH,
        "TMPDIR": SCRATCH,
        "LANG": "C.UTF-8",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MPLBACKEND": "Agg",
    }


@functools.cache
def unavailable() -> str | None:
    """Why a room cannot be made here (None: it can): asked once, by making one."""
    if not sys.platform.startswith("linux"):
        return f"bubblewrap needs Linux namespaces; this is {sys.platform}"
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed"
    import tempfile

    import cp_queens.grading.sandbox.users as users

    userns = None
    try:
        if users.dropping():
            users.check_locks()
        uid = users.acquire() if users.dropping() else None
    except users.UserError as error:  # the uids' lock folder is not safe to use
        return str(error)
    with tempfile.NamedTemporaryFile("w", suffix=".py") as probe:
        probe.write("def model(n):\n    return []\n")
        probe.flush()
        try:
            userns = None if uid is None else users.namespace(uid)
            settings = json.dumps({"user": None if userns is None else NOBODY})
            argv = command(
                ["--probe", settings], Path(probe.name), (), scratch_bytes=1 << 20, userns=userns
            )
            done = subprocess.run(
                argv,
                capture_output=True,
                timeout=60,
                stdin=subprocess.DEVNULL,
                pass_fds=() if userns is None else (userns,),
            )
        except (OSError, subprocess.SubprocessError) as error:
            return f"bwrap could not start: {error}"
        except Unavailable as error:
            return str(error)
        finally:
            if userns is not None:
                os.close(userns)
            if uid is not None:
                users.release(uid)
    if done.returncode != 0 or done.stdout.strip() != b"probe ok":
        said = (done.stderr or done.stdout).decode(errors="replace").strip().splitlines()
        return f"bwrap cannot make a sandbox here: {said[-1] if said else done.returncode}"
    return None
