"""The ahead-of-time build of the fast kernels: found only when it matches, exact when used."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cp_queens.engines.fast import build


def test_nothing_built_means_the_jit_path(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CP_QUEENS_CACHE", str(tmp_path))
    assert build.cache_dir() == tmp_path
    assert build.load() is None


def test_a_module_of_another_source_is_not_loaded(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CP_QUEENS_CACHE", str(tmp_path))
    (tmp_path / "fast_kernels_0123456789abcdef.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    assert build.module_name() != "fast_kernels_0123456789abcdef"
    assert build.load() is None


def test_jit_switch_ignores_a_build(monkeypatch) -> None:
    monkeypatch.setenv("CP_QUEENS_JIT", "1")
    assert build.load() is None


@pytest.mark.slow
def test_built_kernels_count_like_the_jit_ones(tmp_path: Path) -> None:
    """Build into an empty cache (half a minute), then count in a fresh process with each."""
    env = {"CP_QUEENS_CACHE": str(tmp_path), "PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-m", "cp_queens.engines.fast.build"], env=env, check=True)
    probe = (
        "from cp_queens.engines.fast import loader, subproblems as s; "
        "parts = [s.count_with(loader.COMPILED, True, s.split(n, depth=d)) "
        "for n in range(1, 14) for d in (1, 2, 4)]; "
        "import sys; "
        "print(loader.COMPILED.ahead_of_time, 'numpy' in sys.modules, "
        "[tuple(map(tuple, p)) for p in parts])"
    )
    built = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    ).stdout.split(" ", 2)
    jit = subprocess.run(
        [sys.executable, "-c", probe],
        env={**env, "CP_QUEENS_JIT": "1"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split(" ", 2)
    # Built: the native library counts, without NumPy; the JIT path needs it.
    assert built[:2] == ["True", "False"] and jit[:2] == ["False", "True"]
    assert built[2] == jit[2]


def test_a_failed_build_is_noted_and_not_tried_again(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CP_QUEENS_CACHE", str(tmp_path))
    monkeypatch.delenv("CP_QUEENS_JIT", raising=False)
    tries = []

    def failing_build(verbose: bool = True) -> Path:
        tries.append(verbose)
        raise RuntimeError("no C compiler")

    monkeypatch.setattr(build, "build", failing_build)
    assert build.load_or_build() is None  # the JIT path takes over
    note = tmp_path / f"{build.module_name()}.failed"
    assert "no C compiler" in note.read_text()
    assert build.load_or_build() is None and len(tries) == 1


def test_the_jit_switch_skips_the_build_too(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CP_QUEENS_CACHE", str(tmp_path))
    monkeypatch.setenv("CP_QUEENS_JIT", "1")
    monkeypatch.setattr(build, "build", lambda verbose=True: pytest.fail("built"))
    assert build.load_or_build() is None


#: Needs the compiled kernels, whose first use builds them (half a minute): slow run.
@pytest.mark.slow
def test_the_native_library_counts_like_the_array_kernels() -> None:
    """Where the build worked, counts go through the C entry point; same figures, subproblem by
    subproblem, as the kernels over NumPy arrays."""
    from cp_queens.engines.fast import loader
    from cp_queens.engines.fast import subproblems as s

    assert loader.COMPILED is not None
    native = loader.COMPILED.native_count()
    if native is None:  # the build failed here and said why, or the JIT was asked for
        noted = (build.cache_dir() / f"{build.module_name()}.failed").exists()
        assert noted or os.environ.get("CP_QUEENS_JIT")
        return
    for n, depth in ((9, 2), (12, 3), (13, 2)):
        subs = s.split(n, depth=depth)
        kinds = [s.KIND_NUMBERS[sub.kind] for sub in subs]
        depths = [len(sub.prefix) for sub in subs]
        prefixes = [0] * (n * len(subs))
        for i, sub in enumerate(subs):
            for r, col in enumerate(sub.prefix):
                prefixes[i * n + r] = 1 << col
        base = s.base_masks(n, (), ())
        through_c = s._count_native(native, n, kinds, depths, prefixes, base)
        assert through_c == s.count_with(loader.PYTHON, False, subs)


def test_processes_started_together_build_once(monkeypatch, tmp_path: Path) -> None:
    """Two callers after an install: the second waits for the first's build and loads it,
    instead of spending its own half minute (the lock is per file, so threads show it)."""
    import threading

    monkeypatch.setenv("CP_QUEENS_CACHE", str(tmp_path))
    monkeypatch.delenv("CP_QUEENS_JIT", raising=False)
    built = tmp_path / "built"
    started = threading.Event()
    second_waiting = threading.Event()
    builds = []

    def slow_build(verbose: bool = True) -> Path:
        builds.append(threading.current_thread().name)
        started.set()
        second_waiting.wait(5)  # the other caller is now inside load_or_build
        built.write_text("module")
        return built

    monkeypatch.setattr(build, "build", slow_build)
    monkeypatch.setattr(build, "load", lambda: "module" if built.exists() else None)
    found: dict[str, object] = {}

    def call(name: str) -> None:
        found[name] = build.load_or_build()

    first = threading.Thread(target=call, args=("first",), name="first")
    first.start()
    assert started.wait(5)
    second = threading.Thread(target=call, args=("second",), name="second")
    second.start()
    second.join(0.3)  # without the lock it would have started its own build by now
    second_waiting.set()
    first.join(5)
    second.join(5)
    assert builds == ["first"]
    assert found == {"first": "module", "second": "module"}
