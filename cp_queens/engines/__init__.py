"""The engine registry: every solver by name.

Engines register themselves with ``register``; engine ``x-y`` lives in
module ``x_y.py`` of this package, so adding an engine means adding one file.
A module is imported only when its engine is first asked for; one whose
optional dependency is missing gives a clear error naming it.

Examples:
    >>> from cp_queens import engines, Problem
    >>> engines.get("reference").count(Problem(6)).value
    4
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from typing import Any, TypeVar

from cp_queens.budget import KEYWORDS, Budget
from cp_queens.engines.base import Call, Engine, ProgressCallback, Solutions, UniqueCount
from cp_queens.errors import EngineOptionError, UnknownEngineError

__all__ = [
    "Budget",
    "Call",
    "Engine",
    "ProgressCallback",
    "Solutions",
    "UniqueCount",
    "build",
    "engine_class",
    "get",
    "names",
    "options",
    "parse_spec",
    "register",
]

_REGISTRY: dict[str, type[Engine]] = {}

#: Modules of this package that hold no engine.
NOT_ENGINES = frozenset({"ask", "base", "call"})

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
    light; an engine's module (OR-Tools, NumPy, ...) loads only when it is used.
    """
    in_modules = {
        module.name.replace("_", "-")
        for module in pkgutil.iter_modules(__path__)
        if module.name not in NOT_ENGINES and not module.name.startswith("_")
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


def options(name: str) -> list[str]:
    """What a user may pass for engine ``name``: the run settings it honours (its
    ``budget_keys``, see ``Budget``), then the options of its
    method (its constructor's keyword arguments).

    Examples:
        >>> options("reference")
        ['time_limit', 'tracer']
    """
    cls = engine_class(name)
    return [*_budget_keywords(cls), *_method_options(cls)]


def _budget_keywords(cls: type[Engine]) -> list[str]:
    """The budget keys an engine honours, with ``where`` in the spellings users type."""
    spelled: list[str] = []
    for key in cls.budget_keys:
        spelled += ["scheduler", "cluster", "executor", "where"] if key == "where" else [key]
    return spelled


def _method_options(cls: type[Engine]) -> list[str]:
    init = cls.__init__
    code = getattr(init, "__code__", None)
    if code is not None and not hasattr(init, "__wrapped__"):
        # Read off the code object: every command calls this, and importing ``inspect``
        # (ast, dis, tokenize) would cost more than the rest of a small command's start-up.
        first = code.co_argcount
        return list(code.co_varnames[first : first + code.co_kwonlyargcount])
    import inspect

    parameters = inspect.signature(init).parameters
    return [p.name for p in parameters.values() if p.kind is p.KEYWORD_ONLY]


def build(name: str, **chosen: Any) -> tuple[Engine, Budget]:
    """A fresh engine with its method options, and the run settings as a ``Budget``
    to pass with each call (``engine.count(problem, budget=budget)``).

    The one place options are checked, for the library, the CLI and ``compare``
    alike: an option the engine does not take is an ``EngineOptionError``
    naming the ones it does. Run settings (``time_limit``, ``workers``,
    ``scheduler``/``cluster``/``executor``, ``checkpoint``, ``recheck``) become the
    ``Budget``, checked by ``Budget.of``; the rest go to the engine's constructor,
    which checks their values.

    Examples:
        >>> from cp_queens import Problem
        >>> engine, budget = build("reference", time_limit=5)
        >>> engine.count(Problem(6), budget=budget).value, budget.time_limit
        (4, 5.0)
        >>> build("reference", workers=2)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cp_queens.errors.EngineOptionError: engine 'reference' has no option 'workers' (its ...)
    """
    cls = _checked(name, chosen)
    run = {key: chosen.pop(key) for key in list(chosen) if key in KEYWORDS}
    budget = Budget.of(**run)
    return cls(**chosen), budget


def _checked(name: str, chosen: dict[str, Any]) -> type[Engine]:
    """The class of engine ``name``, once every key of ``chosen`` is one it takes."""
    cls = engine_class(name)
    known = options(name)
    for option in chosen:
        if option not in known:
            raise EngineOptionError(
                f"engine '{name}' has no option '{option}' (its options: {', '.join(known)})"
            )
    return cls


def get(name: str, **chosen: Any) -> Engine:
    """A fresh engine instance with the options of its method (e.g. ``strategy``).

    Checked as ``build`` checks them. The run settings (``time_limit``, ``workers``,
    ...) are not the engine's: they go with each call (``budget=``), so that one engine
    keeps nothing of a call and may serve several at once; ``build`` takes both and
    gives the ``Budget`` beside the engine.

    Examples:
        >>> from cp_queens import Budget, Problem
        >>> get("reference").count(Problem(6), budget=Budget.of(time_limit=5)).value
        4
        >>> get("reference", time_limit=5)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        cp_queens.errors.EngineOptionError: time_limit is a run setting, given with each call...
    """
    cls = _checked(name, chosen)  # an option it does not take is named first
    settings = [key for key in chosen if key in KEYWORDS]
    if settings:
        given = ", ".join(f"{key}={chosen[key]!r}" for key in settings)
        verb = "is a run setting" if len(settings) == 1 else "are run settings"
        raise EngineOptionError(
            f"{' and '.join(settings)} {verb}, given with each call, not kept on the "
            f"engine: engine.count(problem, budget=Budget.of({given})), or "
            f"engine, budget = engines.build({name!r}, {given})"
        )
    return cls(**chosen)


def parse_spec(text: str) -> tuple[str, dict[str, Any]]:
    """An engine named with options, ``name:key=value[:key=value...]``, split up.

    The one syntax for an engine with options, wherever a user names one (the
    command line's ``--engine``, ``compare --engines``). Values read as int,
    float, ``true``/``false`` or text; ``-`` in a key reads as ``_``. The name is
    checked here, the options when the engine is built (``get``).

    Examples:
        >>> parse_spec("propagate:consistency=alldiff:value-order=centre")
        ('propagate', {'consistency': 'alldiff', 'value_order': 'centre'})
        >>> parse_spec("pyconstraint:forwardcheck=false")
        ('pyconstraint', {'forwardcheck': False})
    """
    name, *pairs = (part.strip() for part in text.strip().split(":"))
    known = names()
    if name not in known:
        raise UnknownEngineError(f"unknown engine '{name}' (known engines: {', '.join(known)})")
    chosen: dict[str, Any] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key.strip():
            raise EngineOptionError(
                f"cannot read option {pair!r} in {text.strip()!r} (expected name:key=value)"
            )
        chosen[key.strip().replace("-", "_")] = _option_value(value.strip())
    return name, chosen


#: What ``compare`` can ask every engine: its ``first``,
#: ``count`` or ``solutions`` (``enumerate``).
TASKS = ("first", "count", "enumerate")

#: What reads as a number, here in an option's value and on the command line
#: (``cp_queens.cli``): ASCII digits and an optional sign. ``int()`` and ``float()`` alone
#: would also take "1_000", " 5" or "١٢"; ``inf`` and ``nan`` match so that a caller can
#: refuse them by name.
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
DECIMAL_NUMBER = re.compile(
    r"[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|inf|infinity|nan)", re.IGNORECASE
)


def _option_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if WHOLE_NUMBER.fullmatch(text) and len(text) < 4000:  # int()'s digit limit is 4300
        return int(text)
    if DECIMAL_NUMBER.fullmatch(text):
        return float(text)
    return text
