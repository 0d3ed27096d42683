"""The engine registry: every solver by name.

Engines register themselves with :func:`register`; every module in this
package is imported on first use, so adding an engine means adding one file.
An engine whose optional dependency is missing simply does not register.

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
_loaded = False

E = TypeVar("E", bound=type[Engine])


def register(cls: E) -> E:
    """Class decorator: make an engine available under ``cls.name``."""
    if not cls.name:
        raise TypeError(f"{cls.__qualname__} has no name")
    _REGISTRY[cls.name] = cls
    return cls


def _load_all() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in pkgutil.iter_modules(__path__):
        if module.name != "base" and not module.name.startswith("_"):
            try:
                importlib.import_module(f"{__name__}.{module.name}")
            except ImportError:  # an optional dependency is missing
                continue


def names() -> list[str]:
    """Registered engine names, sorted."""
    _load_all()
    return sorted(_REGISTRY)


def engine_class(name: str) -> type[Engine]:
    """The class registered under ``name``; a clear error lists the known names."""
    _load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownEngineError(f"unknown engine '{name}' (known engines: {known})") from None


def get(name: str, **options: Any) -> Engine:
    """A fresh engine instance; ``options`` go to its constructor (e.g. ``time_limit``)."""
    return engine_class(name)(**options)
