"""The compiled kernels: three optional C extensions, built when the package is built.

Everything else about the package is in ``pyproject.toml``; this file only adds the C
extensions (``cp_queens/engines/fast/_kernels.c`` and ``_mitm.c``,
``cp_queens/engines/minconflicts/_kernel.c``), so that ``pip install .`` compiles them
once, at install, and a count loads them from site-packages like any other module: no
compiler at run time, nothing compiled into a cache.

Optional: where the build finds no working C compiler (or no Python headers), the
install still succeeds without them, and the engines run their interpreted kernels
(the same answers, slower) after saying so once. ``OptionalBuildExt`` catches the
failure and leaves its reason beside the package (``_kernels_missing.txt``) for that
message.

A build in a checkout also copies the built modules into the checkout (as ``pip
install -e`` does): the test suite and ``python -m cp_queens`` started there import
``cp_queens`` from the checkout, not from site-packages, and must find the same kernels.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
#: Where the reason for a missing extension is left (read by the engines' one-line message).
NOTE = "_kernels_missing.txt"


class OptionalBuildExt(build_ext):
    """``build_ext`` that never fails the install: a failed extension is left out, noted."""

    def build_extension(self, ext: Extension) -> None:
        if self.compiler.compiler_type == "unix":
            ext.extra_compile_args = [*ext.extra_compile_args, "-O3", "-std=c11"]
        package_dir = Path(*ext.name.split(".")[:-1])
        try:
            super().build_extension(ext)
        except Exception as error:
            reason = " ".join(str(error).split()) or type(error).__name__
            print(
                f"cp-queens: not building {ext.name} ({reason}); the pure-Python kernels "
                "will run instead",
                file=sys.stderr,
            )
            self._note(package_dir, f"{ext.name}: {reason}\n")
            return
        self._note(package_dir, None)
        built = Path(self.get_ext_fullpath(ext.name))
        in_checkout = HERE / package_dir
        if not self.inplace and in_checkout.is_dir() and os.access(in_checkout, os.W_OK):
            # (a read-only checkout: the installed package still has them)
            with contextlib.suppress(OSError):
                shutil.copyfile(built, in_checkout / built.name)

    def _note(self, package_dir: Path, text: str | None) -> None:
        """Write (or, with ``None``, remove) the note in the built package and the checkout."""
        places = [Path(self.build_lib) / package_dir]
        if self.inplace or (HERE / package_dir).is_dir():
            places.append(HERE / package_dir)
        for place in places:
            note = place / NOTE
            try:
                if text is None:
                    note.unlink(missing_ok=True)
                else:
                    place.mkdir(parents=True, exist_ok=True)
                    note.write_text(text, encoding="utf-8")
            except OSError:
                pass


setup(
    ext_modules=[
        Extension(
            "cp_queens.engines.fast._kernels",
            ["cp_queens/engines/fast/_kernels.c"],
            depends=[
                "cp_queens/engines/fast/_kernels_impl.h",
                "cp_queens/engines/fast/_portable.h",
            ],
        ),
        Extension(
            "cp_queens.engines.fast._mitm",
            ["cp_queens/engines/fast/_mitm.c"],
            depends=["cp_queens/engines/fast/_mitm_impl.h", "cp_queens/engines/fast/_portable.h"],
        ),
        Extension(
            "cp_queens.engines.minconflicts._kernel",
            ["cp_queens/engines/minconflicts/_kernel.c"],
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
