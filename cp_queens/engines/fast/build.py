"""Compile the ``fast`` kernels ahead of time, so that later runs start without Numba.

The first count that needs compiled kernels builds them by itself
(``load_or_build``: half a minute, once; it needs a C compiler). To do it
ahead, for example in an image or right after installing::

    python -m cp_queens.engines.fast.build

Why: loading the kernels through Numba's JIT cache costs about 0.9 s of CPU
and 140 MB in every process (importing Numba and LLVM, then typing the call),
more than the whole count of n = 15. The same kernels compiled ahead of time
(Numba's ``pycc``) are a plain extension module: importing it costs
milliseconds and a few megabytes, the machine code is the same.

The module lands in a per-user cache directory (``$CP_QUEENS_CACHE``, else
``$XDG_CACHE_HOME/cp-queens``, else ``~/.cache/cp-queens``) under a name that
hashes the kernels' source, the Python, Numba and machine: a changed kernel
or a new Numba simply is not found, and is built anew by the next count. Nothing
here is needed for correctness: where no build can be made, every count still
runs, compiled by Numba's JIT (``cache=True``) on first use.

Native code is verified before it is believed: a file is loaded only if it and
the cache directory belong to this user and nobody else may write them, and its
SHA-256 is the one its build recorded (``<module>.sha256``); anything else is
refused with one warning line. Once loaded, the kernels must count small boards
exactly as the interpreted ones do (``cp_queens.engines.fast.subproblems.self_test``)
before a count uses them.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import platform
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from cp_queens.engines.fast import kernels
from cp_queens.engines.fast.bits import numba_extensions
from cp_queens.engines.fast.parse import parse_rows

#: The signatures the wrappers call with: C-contiguous int64 arrays, int64 scalars.
_ARRAY = "int64[::1]"
SIGNATURES = {
    "count_many": f"void(int64, {', '.join([_ARRAY] * 10)})",
    "enumerate_batch": f"UniTuple(int64, 2)(int64, {', '.join([_ARRAY] * 8)}, int64, int64)",
    "parse_rows": f"int64(uint8[::1], int64, {_ARRAY}, {_ARRAY})",
}


#: The functions exported by the ahead-of-time module, by name.
KERNEL_FUNCTIONS = {
    "count_many": kernels.count_many,
    "enumerate_batch": kernels.enumerate_batch,
    "parse_rows": parse_rows,
}


def cache_dir() -> Path:
    """Where the ahead-of-time module is kept."""
    explicit = os.environ.get("CP_QUEENS_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cp-queens"


#: The modules whose source is compiled: a change to any of them is a new build.
SOURCES = ("bits.py", "dynamic.py", "kernels.py", "parse.py")


def module_name() -> str:
    """``fast_kernels_<hash>``: changes with the kernels' source, Python, Numba and machine."""
    key = hashlib.sha256()
    for source in SOURCES:
        key.update(Path(__file__).with_name(source).read_bytes())
    for part in (sys.version, _numba_install(), platform.machine(), _cpu_model(), str(SIGNATURES)):
        key.update(part.encode())
    return f"fast_kernels_{key.hexdigest()[:16]}"


def _numba_install() -> str:
    """Which Numba is installed, without importing it: where, and when its files were
    written (``importlib.metadata`` would say its version, but costs 0.1 s to import,
    which every count would pay)."""
    spec = importlib.util.find_spec("numba")
    if spec is None or spec.origin is None:
        return "none"
    try:
        stat = os.stat(spec.origin)
    except OSError:
        return spec.origin
    return f"{spec.origin} {stat.st_size} {stat.st_mtime_ns}"


def _cpu_model() -> str:
    # The build targets this CPU (``target_cpu = "host"``): another CPU needs its own.
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith(("model name", "flags")):
                    return line
    except OSError:
        pass
    return platform.processor()


def _built_file(directory: Path, name: str) -> Path | None:
    matches = sorted(directory.glob(f"{name}.*")) if directory.is_dir() else []
    return next((path for path in matches if path.suffix in (".so", ".pyd")), None)


def load() -> ModuleType | None:
    """The ahead-of-time kernels of this exact source, or ``None`` if not built (or broken,
    or not to be trusted: see ``trusted``)."""
    if os.environ.get("CP_QUEENS_JIT"):  # benchmarks and tests of the JIT path
        return None
    name = module_name()
    path = _built_file(cache_dir(), name)
    if path is None or not trusted(path):
        return None
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError:
        return None
    return module


#: Native files already refused in this process: each is said once.
_REFUSED: set[str] = set()


def why_untrusted(path: Path) -> str | None:
    """Why a file (or directory) of the cache must not be believed, or ``None``.

    Native code runs with this user's rights the moment it is loaded (a library's
    constructor runs on ``dlopen``), so what may be loaded is only what this user
    wrote: owned by this user, writable by nobody else, not a symbolic link.
    """
    try:
        status = os.lstat(path)
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    if stat.S_ISLNK(status.st_mode):
        return "is a symbolic link"
    if hasattr(os, "getuid") and status.st_uid != os.getuid():
        return "is owned by another user"
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "is writable by group or others"
    return None


def trusted(path: Path) -> bool:
    """Whether the built file ``path`` may be loaded: it and its directory pass
    ``why_untrusted``, and its SHA-256 is the one the build recorded beside it.
    Refused: one warning line (once per file and process), and ``False``."""
    why = why_untrusted(path.parent)
    where = "its directory" if why else None
    if why is None:
        why = why_untrusted(path)
    if why is None:
        why = _digest_mismatch(path)
    if why is None:
        return True
    if str(path) not in _REFUSED:
        _REFUSED.add(str(path))
        import warnings

        from cp_queens.errors import CpQueensWarning

        warnings.warn(
            f"kernel cache: refused {path} ({where + ' ' if where else ''}{why}); "
            "counting without it",
            CpQueensWarning,
            stacklevel=2,
        )
    return False


def digest_file() -> Path:
    """``<module>.sha256``: the digests of what the build wrote, one ``HEX  NAME`` a line."""
    return cache_dir() / f"{module_name()}.sha256"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _digest_mismatch(path: Path) -> str | None:
    """Why ``path`` does not match the digest its build recorded, or ``None``."""
    record = digest_file()
    if not record.is_file():
        return "no digest was recorded for it by a build"
    why = why_untrusted(record)
    if why is not None:
        return f"its digest file {why}"
    try:
        lines = record.read_text(encoding="utf-8").splitlines()
        recorded = {name: digest for digest, _, name in (line.partition("  ") for line in lines)}
        found = _sha256(path)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return f"its digest cannot be read ({error})"
    if path.name not in recorded:
        return "no digest was recorded for it by a build"
    if recorded[path.name] != found:
        return "its SHA-256 differs from the one its build recorded"
    return None


#: The C entry point of the native counting library (see ``_build_native``).
NATIVE_ENTRY = "cp_queens_count_many"
#: Its arguments after ``n`` and the number of subproblems: the ten arrays of
#: ``cp_queens.engines.fast.kernels.count_many``, with these fixed lengths (``None``:
#: given by the call).
NATIVE_ARRAYS = ("kinds", "depths", "prefixes", "base", "results", 64, 64, 6 * 64, 64, 64)


def native_name() -> str:
    """``fast_count_<hash>``: the native counting library of the same build."""
    return module_name().replace("fast_kernels_", "fast_count_")


def load_native() -> Any | None:
    """The counting kernel as a plain C function (``ctypes``), or ``None`` if not built.

    Why a second artefact: the ``pycc`` module imports NumPy when it loads
    (0.13-0.2 s of CPU, more than the whole count of n = 14), and a count needs
    no array library, only ten buffers of integers. The same compiled
    ``count_many`` behind a C entry point takes ``ctypes`` buffers and loads in
    about a millisecond.
    """
    if os.environ.get("CP_QUEENS_JIT"):
        return None
    path = cache_dir() / f"{native_name()}.so"
    if not os.path.lexists(path) or not trusted(path):
        return None
    import ctypes

    try:
        entry = getattr(ctypes.CDLL(str(path)), NATIVE_ENTRY)
    except (OSError, AttributeError):
        return None
    pointer = ctypes.POINTER(ctypes.c_int64)
    entry.argtypes = [ctypes.c_int64, ctypes.c_int64] + [pointer] * len(NATIVE_ARRAYS)
    entry.restype = None
    return entry


def load_or_build() -> ModuleType | None:
    """The ahead-of-time kernels, built now if they are not yet (``None``: use the JIT).

    The first process that needs compiled kernels after an install (or after a
    kernel change) builds them, some 15-30 s instead of the 10-20 s a JIT
    compilation takes, and every later process starts in milliseconds, without
    Numba. A build that fails (no C compiler, a Numba without ``pycc``) leaves a
    note in the cache directory, so that later runs go straight to the JIT path
    instead of failing again; ``CP_QUEENS_JIT=1`` skips the build altogether.
    """
    if os.environ.get("CP_QUEENS_JIT"):
        return None
    found = load()
    if found is not None:
        return found
    failed = cache_dir() / f"{module_name()}.failed"
    if failed.exists():
        return None
    if cache_dir().exists() and why_untrusted(cache_dir()) is not None:
        return None  # never build where others could swap the result; the JIT counts
    with _one_builder():
        # Another process may have built it (or failed to) while this one waited.
        found = load()
        if found is not None or failed.exists():
            return found
        try:
            build(verbose=False)
        except Exception as error:  # any failure: the JIT path still counts
            try:
                failed.parent.mkdir(parents=True, exist_ok=True)
                failed.write_text(f"{type(error).__name__}: {error}\n", encoding="utf-8")
            except OSError:
                pass
            return None
    return load()


@contextlib.contextmanager
def _one_builder() -> Iterator[None]:
    """Hold the build lock of these kernels (``<module>.lock`` in the cache directory).

    Why: processes started together after an install (a process pool, ``pytest -n``,
    two shells) would each spend half a minute building the same module; with the
    lock the first builds and the others wait, then load its module. Where no lock
    can be taken (no ``fcntl``, a read-only cache), each builds as before.
    """
    try:
        import fcntl
    except ImportError:  # not on a POSIX system
        yield
        return
    try:
        cache_dir().mkdir(mode=0o700, parents=True, exist_ok=True)
        handle = open(cache_dir() / f"{module_name()}.lock", "a")  # noqa: SIM115
    except OSError:
        yield
        return
    with handle:
        with contextlib.suppress(OSError):  # no lock (some network file systems): build anyway
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)  # released when the file closes
        yield


def _last_used(path: Path) -> float:
    try:
        status = path.stat()
    except OSError:
        return time.time()
    return max(status.st_atime, status.st_mtime)


def build(verbose: bool = True) -> Path:
    """Compile the kernels into the cache directory; return the module's path."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycc announces its own deprecation
        from numba.pycc import CC

    numba_extensions()
    name = module_name()
    target = cache_dir()
    target.mkdir(mode=0o700, parents=True, exist_ok=True)
    why = why_untrusted(target)
    if why is not None:
        raise RuntimeError(f"not building into {target}: it {why}")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=target) as scratch:
        compiler = CC(name)
        compiler.output_dir = scratch
        compiler.target_cpu = "host"
        compiler.verbose = False
        for kernel, signature in SIGNATURES.items():
            compiler.export(kernel, signature)(KERNEL_FUNCTIONS[kernel])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiler.compile()
        built = _built_file(Path(scratch), name)
        if built is None:
            raise RuntimeError(f"numba.pycc produced no module in {scratch}")
        native = _build_native(Path(scratch))
        final = target / built.name
        native_final = target / native.name
        digests = Path(scratch) / "digests"
        digests.write_text(
            "".join(f"{_sha256(path)}  {path.name}\n" for path in (built, native)),
            encoding="utf-8",
        )
        os.replace(digests, digest_file())  # the digests first: a file is never unrecorded
        os.replace(native, native_final)
        os.replace(built, final)  # whole file or nothing: never half a module
    # Builds of other kernels may belong to another install that still uses them
    # (two virtual environments, two checkouts): deleting them would make each
    # rebuild the other's, half a minute a time. Only long-unused ones go.
    (target / f"{name}.failed").unlink(missing_ok=True)  # it built after all
    month_ago = time.time() - 30 * 24 * 3600
    for stale in [*target.glob("fast_kernels_*"), *target.glob("fast_count_*")]:
        unused = stale.is_file() and _last_used(stale) < month_ago
        if stale not in (final, native_final, digest_file()) and unused:
            stale.unlink(missing_ok=True)
    if verbose:
        print(f"built {final} in {time.perf_counter() - started:.1f} s")
    return final


def _build_native(scratch: Path) -> Path:
    """Compile ``count_many`` behind a C entry point into ``fast_count_<hash>.so``.

    Numba compiles a ``cfunc`` that views ten raw buffers as arrays (``carray``)
    and calls the same kernel; its object code is linked by the C compiler into a
    shared library. The object still names a few Numba runtime functions (freeing
    arrays, raising exceptions) that this kernel never reaches: they become
    stubs that abort, and the Python C API comes from the interpreter that loads it.
    """
    import subprocess

    import llvmlite.binding as ll  # type: ignore[import-untyped]
    from numba import carray, cfunc, njit, types

    numba_extensions()
    count_many = njit(kernels.count_many, boundscheck=False, nogil=True)
    pointer = types.CPointer(types.int64)
    signature = types.void(types.int64, types.int64, *[pointer] * len(NATIVE_ARRAYS))

    def entry(n, m, kinds, depths, prefixes, base, results, allow, bits, stack, cols, inverse):
        count_many(
            n,
            carray(kinds, m),
            carray(depths, m),
            carray(prefixes, m * n),
            carray(base, n),
            carray(results, 3 * m),
            carray(allow, 64),
            carray(bits, 64),
            carray(stack, 6 * 64),
            carray(cols, 64),
            carray(inverse, 64),
        )

    compiled: Any = cfunc(signature, nopython=True, boundscheck=False)(entry)  # type: ignore[call-arg]
    machine = ll.Target.from_default_triple().create_target_machine(
        cpu=ll.get_host_cpu_name(),
        features=ll.get_host_cpu_features().flatten(),
        reloc="pic",
        codemodel="default",
        opt=3,
    )
    obj = scratch / "count.o"
    obj.write_bytes(machine.emit_object(compiled._library._final_module))
    undefined = subprocess.run(
        ["nm", "-u", str(obj)], capture_output=True, text=True, check=True
    ).stdout.split()
    stubs = [
        f'void stub{i}(void) __asm__("{symbol}");\nvoid stub{i}(void) {{ abort(); }}'
        for i, symbol in enumerate(undefined)
        if symbol != "U" and not symbol.startswith(("Py", "_Py"))
    ]
    arrays = ", ".join(f"int64_t *a{i}" for i in range(len(NATIVE_ARRAYS)))
    passed = ", ".join(f"a{i}" for i in range(len(NATIVE_ARRAYS)))
    glue = scratch / "count_entry.c"
    glue.write_text(
        "#include <stdint.h>\n#include <stdlib.h>\n"
        + "\n".join(stubs)
        + f'\nextern void kernel(int64_t, int64_t, {arrays}) __asm__("{compiled.native_name}");\n'
        + f"void {NATIVE_ENTRY}(int64_t n, int64_t m, {arrays}) {{ kernel(n, m, {passed}); }}\n",
        encoding="utf-8",
    )
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        raise RuntimeError("no C compiler (cc, gcc or clang) to link the native library")
    library = scratch / f"{native_name()}.so"
    subprocess.run(
        [compiler, "-O2", "-shared", "-fPIC", "-o", str(library), str(obj), str(glue)],
        check=True,
        capture_output=True,
    )
    return library


def main() -> int:
    try:
        build()
    except Exception as error:  # no compiler, no numba: say so, the JIT path still works
        print(f"cp-queens: ahead-of-time build failed ({error}); counts will use Numba's JIT")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
