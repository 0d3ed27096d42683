"""The engine registry: every solver by name.

Engines register themselves with :func:`register`; engine ``x-y`` lives in
module ``x_y.py`` of this package, so adding an engine means adding one file.
A module is imported only when its engine is first asked for; one whose
optional dependency is missing gives a clear error naming it.

Examples:
    >>> from cp_queens import engines, Problem
    >>> engines.get("reference").count(Problem(6))
    4
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, TypeVar

from cp_queens.engines.base import Engine, ProgressCallback, UniqueCount
from cp_queens.errors import UnknownEngineError

__all__ = ["Engine", "ProgressCallback", "UniqueCount", "engine_class", "get", "names", "register"]

_REGISTRY: dict[str, type[Engine]] = {}

E = TypeVar("E", bound=type[Engine])


def register(cls: E) -> E:
    """Class decorator: make an engine available under ``cls.name``."""
    if not cls.name:
        raise TypeError(f"{cls.__qualname__} has no name")
    _REGISTRY[cls.name] = cls
    return cls


def _module_name(engine_name: str) -> str:
    """Engines live in a module named after them: ``cpsat-board`` in ``cpsat_board.py``."""
    return engine_name.replace("-", "_")


def names() -> list[str]:
    """Every engine name, sorted, read off the module names.

    Engine modules are not imported here, so ``--help`` and argument checks stay quick and
    light; an engine's module (OR-Tools, Numba, ...) loads only when it is used.
    """
    in_modules = {
        module.name.replace("_", "-")
        for module in pkgutil.iter_modules(__path__)
        if module.name != "base" and not module.name.startswith("_")
    }
    return sorted(in_modules | _REGISTRY.keys())  # plus any registered from elsewhere


def engine_class(name: str) -> type[Engine]:
    """The class registered under ``name``; a clear error lists the known names."""
    if name not in _REGISTRY:
        if name not in names():
            known = ", ".join(names())
            raise UnknownEngineError(f"unknown engine '{name}' (known engines: {known})")
        try:
            importlib.import_module(f"{__name__}.{_module_name(name)}")
        except ImportError as error:
            raise UnknownEngineError(
                f"engine '{name}' needs a package that is not installed ({error})"
            ) from None
    return _REGISTRY[name]


def get(name: str, **options: Any) -> Engine:
    """A fresh engine instance; ``options`` go to its constructor (e.g. ``time_limit``)."""
    return engine_class(name)(**options)
