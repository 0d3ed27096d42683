"""The kernels a wrapper calls: interpreted always, compiled when they are trusted.

``PYTHON`` are the kernels as written, run by CPython over lists. ``COMPILED``
loads the compiled ones on first use (the ahead-of-time build of
``cp_queens.engines.fast.build``, else Numba's JIT), and trusts native code only
after it has shown the same counts as ``PYTHON`` on small boards
(``cp_queens.engines.fast.subproblems.self_test``).
"""

from __future__ import annotations

import importlib.util
from types import SimpleNamespace
from typing import Any

from cp_queens.engines.fast.bits import numba_extensions
from cp_queens.engines.fast.kernels import count_many, enumerate_batch
from cp_queens.engines.fast.parse import parse_rows

#: The kernels a wrapper calls, by name.
KERNELS = ("count_many", "enumerate_batch", "parse_rows")

#: Interpreted versions (over lists): always available.
PYTHON = SimpleNamespace(
    count_many=count_many, enumerate_batch=enumerate_batch, parse_rows=parse_rows
)


class _Compiled:
    """The compiled kernels, loaded on first use, not on import.

    Preferably the ahead-of-time build (``cp_queens.engines.fast.build``),
    which imports in milliseconds; the first use after an install builds it
    (15-30 s). Where that cannot be done, Numba's JIT with ``cache=True``: the
    first run compiles (some 10 s), later ones load the cache (about 0.9 s of
    CPU, mostly importing Numba and LLVM).
    """

    def __init__(self) -> None:
        self._kernels: Any = None
        self._native: Any = None

    def native_built(self) -> bool:
        """Whether the native counting library is there to load (never builds it)."""
        if self._native is None:
            from cp_queens.engines.fast import build  # not on import: ``python -m`` runs it

            found = build.load_native()
            if found is None:
                return False
            self._native = found
        return bool(self._native)

    def native_count(self) -> Any:
        """``count_many`` as a C function over ``ctypes`` buffers, or ``None`` (use
        ``count_many`` over NumPy arrays). The native library comes with the
        ahead-of-time build and spares a count the import of NumPy."""
        if self._native is None:
            from cp_queens.engines.fast import build

            found = build.load_native()
            if found is None and self._kernels is None:
                self.__getattr__("count_many")  # builds both on first use, if it can
                found = build.load_native()
            self._native = found if found is not None else False
        return self._native or None

    def __getattr__(self, name: str) -> Any:
        if name not in KERNELS:
            raise AttributeError(name)
        if self._kernels is None:
            from cp_queens.engines.fast import build

            # Built ahead of time (on first use, or by python -m cp_queens.engines.fast.build):
            # no Numba to load in later processes.
            self._kernels = build.load_or_build() or _compile()
        return getattr(self._kernels, name)

    def refuse_native(self) -> None:
        """Stop using the native library in this process (it failed its self-test)."""
        self._native = False

    def refuse(self) -> None:
        """Stop using the compiled array kernels in this process (they failed their
        self-test): the interpreted ones stand in, exact if slower."""
        self._native = False
        self._kernels = PYTHON

    @property
    def ahead_of_time(self) -> bool:
        """Whether the kernels in use were compiled ahead of time (after the first call)."""
        if self._native:
            return True
        return self._kernels is not None and not isinstance(self._kernels, SimpleNamespace)


def _compile() -> SimpleNamespace:
    import numba

    numba_extensions()
    jit = numba.njit(cache=True, nogil=True, boundscheck=False)
    return SimpleNamespace(**{name: jit(getattr(PYTHON, name)) for name in KERNELS})


#: Compiled versions (over int64 arrays), or ``None`` without Numba.
COMPILED: _Compiled | None = _Compiled() if importlib.util.find_spec("numba") is not None else None
