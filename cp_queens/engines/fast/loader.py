"""The kernels a wrapper calls: compiled when the package was built with them, else interpreted.

``PYTHON`` are the kernels as written (``kernels.py``, ``dynamic.py``, ``parse.py``), run
by CPython over lists: exact, and the readable statement of the search. ``COMPILED`` is
the C extension ``_kernels`` (``_kernels.c``, a line-for-line port of them), built by
the package's build when it is installed (``setup.py``) and imported from the package
like any module: nothing is compiled at run time and no native code comes from a cache.
It is ``None`` when the install found no C compiler; ``MISSING`` then says why (one
line, for the engine's warning) and how to get it. ``mitm()`` loads the compiled
meet-in-the-middle counter (``_mitm.c``; its readable twin is ``mitm.py``) at its first
use (a small count never needs it), ``None`` likewise.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType, SimpleNamespace

from cp_queens.engines.fast.kernels import count_many, enumerate_batch
from cp_queens.engines.fast.parse import parse_rows

#: The kernels a wrapper calls, by name.
KERNELS = ("count_many", "enumerate_batch", "parse_rows")

#: Interpreted versions (over lists): always available.
PYTHON = SimpleNamespace(
    count_many=count_many, enumerate_batch=enumerate_batch, parse_rows=parse_rows
)

#: How to get the compiled kernels where they are missing.
HOW = (
    "install a C compiler and the Python headers (Debian/Ubuntu: apt-get install gcc "
    "python3-dev), then install cp-queens again from its source or sdist"
)


def _load(name: str = "_kernels") -> tuple[ModuleType | None, str | None]:
    """The extension ``name``, or ``None`` and why it is missing."""
    try:
        kernels = importlib.import_module(f"cp_queens.engines.fast.{name}")
    except ImportError as error:
        note = Path(__file__).with_name("_kernels_missing.txt")
        try:
            reason = note.read_text(encoding="utf-8").strip().splitlines()[0]
            why = f"no C extension was built when cp-queens was installed ({reason[:160]})"
        except (OSError, IndexError):
            why = f"its C extension cannot be imported ({error})"
        return None, why
    return kernels, None


COMPILED, MISSING = _load()
_MITM: list[ModuleType | None] = []


def mitm() -> ModuleType | None:
    """The compiled meet-in-the-middle counter, or ``None`` when it was not built."""
    if not _MITM:
        _MITM.append(_load("_mitm")[0])
    return _MITM[0]
