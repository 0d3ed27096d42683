"""Native code verified before it is believed (issue 19, item 3): the kernel cache.

A library planted in the cache is refused with one line and never loaded; files that
others may write are refused; a digest recorded by the build is checked on load; and
compiled kernels that count small boards differently from the interpreted ones are
refused by the self-test, the count still exact.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cp_queens.engines.fast import build, loader
from cp_queens.engines.fast import subproblems as s
from tests.helpers import total, unique

PLANTED_C = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void planted(void) {
    const char *marker = getenv("PLANTED_MARKER");
    if (marker) { FILE *f = fopen(marker, "w"); if (f) fclose(f); }
}
void cp_queens_count_many(int64_t n, int64_t m, int64_t *a0, int64_t *a1, int64_t *a2,
                          int64_t *a3, int64_t *a4, int64_t *a5, int64_t *a6, int64_t *a7,
                          int64_t *a8, int64_t *a9) { /* counts nothing: every figure 0 */ }
"""


def plant(cache: Path) -> Path:
    """A library under the native kernel's exact name: one that says when it was loaded
    (its constructor writes ``$PLANTED_MARKER``) and counts 0, or junk without a compiler."""
    cache.mkdir(mode=0o700, exist_ok=True)
    target = cache / f"{build.native_name()}.so"
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        target.write_bytes(b"\x7fELF planted")
        return target
    source = cache.parent / "planted.c"
    source.write_text(PLANTED_C)
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(target), str(source)], check=True)
    return target


def count_12(cache: Path, marker: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CP_QUEENS_CACHE": str(cache), "PLANTED_MARKER": str(marker)}
    env.pop("CP_QUEENS_JIT", None)
    return subprocess.run(
        [sys.executable, "-m", "cp_queens", "count", "12"], env=env, capture_output=True, text=True
    )


def test_a_planted_library_is_refused_in_one_line_and_never_loaded(tmp_path: Path) -> None:
    """The issue's reproducer: ``fast_count_<hash>.so`` planted in ``CP_QUEENS_CACHE``."""
    planted = plant(tmp_path / "cache")
    marker = tmp_path / "constructor-ran"
    done = count_12(tmp_path / "cache", marker)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"n=12: {total(12)} solutions, {unique(12)} unique\n"
    warnings = [line for line in done.stderr.splitlines() if not line.startswith("#")]
    assert len(warnings) == 1, done.stderr
    assert f"refused {planted}" in warnings[0] and "no digest" in warnings[0]
    assert not marker.exists()  # its code never ran


@pytest.mark.slow
def test_a_library_whose_digest_differs_is_refused(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    planted = plant(cache)
    (cache / f"{build.module_name()}.sha256").write_text(f"{'0' * 64}  {planted.name}\n")
    os.chmod(cache / f"{build.module_name()}.sha256", 0o600)
    marker = tmp_path / "constructor-ran"
    done = count_12(cache, marker)
    assert done.returncode == 0 and f"{total(12)} solutions" in done.stdout
    assert "SHA-256 differs" in done.stderr and not marker.exists()


@pytest.mark.slow
@pytest.mark.parametrize("who", ["directory", "file"])
def test_what_others_may_write_is_refused(tmp_path: Path, who: str) -> None:
    cache = tmp_path / "cache"
    planted = plant(cache)
    os.chmod(cache if who == "directory" else planted, 0o777)
    marker = tmp_path / "constructor-ran"
    done = count_12(cache, marker)
    assert done.returncode == 0 and f"{total(12)} solutions" in done.stdout
    assert "writable by group or others" in done.stderr and not marker.exists()
    assert ("its directory" in done.stderr) == (who == "directory")


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs chown")
def test_a_file_owned_by_another_user_is_refused(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    planted = plant(cache)
    os.chown(planted, 65534, 65534)
    done = count_12(cache, tmp_path / "marker")
    assert done.returncode == 0 and f"{total(12)} solutions" in done.stdout
    assert "owned by another user" in done.stderr


class Liar:
    """Compiled kernels that load fine and count wrong: nothing, every figure 0."""

    def __init__(self) -> None:
        self.refused: list[str] = []

    def native_count(self) -> Any:
        return lambda n, m, *arrays: None

    def count_many(self, *arguments: Any) -> None:
        arguments[5][:] = 7  # results: all wrong

    def refuse_native(self) -> None:
        self.refused.append("native")

    def refuse(self) -> None:
        self.refused.append("arrays")


def test_kernels_that_count_wrong_are_refused_by_the_self_test(monkeypatch: Any) -> None:
    liar = Liar()
    monkeypatch.setattr(loader, "COMPILED", liar)
    monkeypatch.setattr(s, "_TESTED", {})
    with pytest.warns(Warning) as caught:
        parts = s.count_with(liar, True, s.split(12, depth=3))
    assert sum(part.total for part in parts) == total(12)
    assert sum(part.unique for part in parts) == unique(12)
    assert liar.refused == ["native", "arrays"]
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2 and all("differently from the interpreted" in m for m in messages)
    assert "n=1" in messages[0]  # the first board tried already differs


class Interpreted:
    """The interpreted kernels behind the compiled interface (int64 arrays in and out);
    ``wrong_at`` makes them miscount one board size."""

    def __init__(self, wrong_at: int | None = None) -> None:
        self.wrong_at = wrong_at

    def count_many(self, n: int, *arrays: Any) -> None:
        lists = [array.tolist() for array in arrays]
        loader.PYTHON.count_many(n, *lists)
        if n == self.wrong_at:
            lists[4][0] += 8  # one orbit too many on this board
        arrays[4][:] = lists[4]


def test_the_self_test_passes_sound_kernels_and_names_a_difference() -> None:
    assert s.self_test(Interpreted()) is None
    assert s.self_test(Interpreted(wrong_at=9)) == "n=9"


@pytest.mark.slow
def test_the_compiled_kernels_here_pass_their_self_test() -> None:
    """The real build (or the JIT): every figure of the self-test agrees."""
    assert loader.COMPILED is not None
    native = loader.COMPILED.native_count()
    assert s.self_test(loader.COMPILED, native) is None
    assert s.self_test(loader.COMPILED) is None
