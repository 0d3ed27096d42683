"""Choosing an engine on the command line: ``--engine``, the flags of its method, and
``make_engine``, which checks them with the engine's own checker.

The values a flag offers (``--strategy``, ``--consistency``, ...) are the engine
class's ``option_choices``, read when first needed
(a flag given, or ``--help``), so that building a parser imports no engine.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from typing import Any, overload

import cp_queens.engines as engines
from cp_queens.budget import Budget
from cp_queens.cli._args import engine_name, non_negative_int
from cp_queens.engines import Engine
from cp_queens.errors import CpQueensError, EngineOptionError


class EngineChoices(Sequence[str]):
    """The values some engines take for ``option``, in their order, from their classes.

    What argparse needs of ``choices`` (``in``, iteration) loads the classes on first
    use; a command that never sees the flag never imports the engines.

    Examples:
        >>> "arc" in EngineChoices("consistency", "propagate")
        True
        >>> list(EngineChoices("value_order", "propagate"))
        ['min', 'centre']
    """

    def __init__(self, option: str, *engine_names: str) -> None:
        self.option = option
        self.engine_names = engine_names
        self._values: tuple[str, ...] | None = None

    def values(self) -> tuple[str, ...]:
        if self._values is None:
            found = (
                value
                for name in self.engine_names
                for value in engines.engine_class(name).option_choices[self.option]
            )
            self._values = tuple(dict.fromkeys(found))
        return self._values

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self.values()[index]

    def __len__(self) -> int:
        return len(self.values())

    def __iter__(self) -> Iterator[str]:
        return iter(self.values())

    def __contains__(self, value: object) -> bool:
        return value in self.values()

    def __repr__(self) -> str:
        return f"EngineChoices({self.option!r}, {', '.join(map(repr, self.engine_names))})"


#: The engines each method flag is for: the hint when another engine is chosen.
FLAG_ENGINES: dict[str, tuple[str, ...]] = {
    "method": ("cpsat",),
    "strategy": ("cpsat",),
    "solver_workers": ("cpsat",),
    "consistency": ("propagate",),
    "variable_order": ("cpsat", "propagate"),
    "value_order": ("cpsat", "propagate"),
    "solver": ("cpmpy", "minizinc"),
    "recheck": ("fast",),
    "lost_workers_timeout": ("fast",),
}


def _choices(option: str) -> EngineChoices:
    return EngineChoices(option, *FLAG_ENGINES[option])


def add_engine_argument(parser: argparse.ArgumentParser, default: str | None, why: str) -> None:
    parser.add_argument(
        "--engine",
        "-e",
        type=engine_name,
        default=default,
        metavar="E",
        help=f"solver to use ({', '.join(engines.names())}), optionally with options as in "
        f"compare, e.g. propagate:consistency=alldiff; default: {why}",
    )


def add_method_argument(parser: argparse.ArgumentParser) -> None:
    """``--method`` of the cpsat engine: one model, or the fast path (see engines/cpsat)."""
    parser.add_argument(
        "--method",
        choices=_choices("method"),
        metavar="M",
        help="cpsat only, one of %(choices)s: 'plain' enumerates with one model, 'fast' one "
        "solution per symmetry class in parallel subproblems, expanded (default: auto, "
        "fast from N=10)",
    )


def add_strategy_arguments(
    parser: argparse.ArgumentParser, *, solver_workers: bool = False
) -> None:
    """How the search chooses: ``--strategy`` and friends of the cpsat engine
    (engines/cpsat/search.py), ``--consistency`` and the orders of the propagate engine.

    ``--variable-order`` and ``--value-order`` take the values of either engine;
    ``make_engine`` checks them against the engine chosen. Every flag has a
    ``metavar``: without one, argparse would read the choices (and import the
    engines) as the flag is added, not when it is used.
    """
    group = parser.add_argument_group("how the search chooses (cpsat, propagate, cpmpy, minizinc)")
    group.add_argument(
        "--strategy",
        choices=_choices("strategy"),
        metavar="S",
        help="cpsat, one of %(choices)s. portfolio: CP-SAT's own search; fixed: the orders "
        "below; greedy: random queen placements with clause learning on the 0/1 board "
        "(fast for large N); default auto: CP-SAT's own search on the integer model, but "
        "greedy for one solution from N=33",
    )
    group.add_argument(
        "--consistency",
        choices=_choices("consistency"),
        metavar="LEVEL",
        help="propagate: how much to reason after each queen: none (chronological "
        "backtracking: each square tested when tried), "
        "forward (forward checking), arc (AC-3, the default) or alldiff (Régin's "
        "filtering on each AllDifferent); one of %(choices)s",
    )
    group.add_argument(
        "--variable-order",
        choices=_choices("variable_order"),
        metavar="ORDER",
        help="which row next, one of %(choices)s. cpsat (with --strategy fixed): rows in "
        "order (input, the default) or smallest domain first, as CP-SAT measures it by its "
        "bounds (min-domain); propagate: input or first-fail (-centre: ties to the middle)",
    )
    group.add_argument(
        "--value-order",
        choices=_choices("value_order"),
        metavar="ORDER",
        help="which column first, one of %(choices)s; cpsat (with --strategy fixed) takes "
        "all but centre (random uses --seed), propagate min or centre; default: min",
    )
    group.add_argument(
        "--solver",
        metavar="SOLVER",
        help="cpmpy: the CPMpy backend (ortools, the default; choco, exact, pumpkin, pysat); "
        "minizinc: any solver MiniZinc has (gecode, the default)",
    )
    if solver_workers:
        group.add_argument(
            "--solver-workers",
            type=non_negative_int,
            metavar="T",
            help="cpsat: CP-SAT's own search threads (default: 1 for fixed and greedy, every "
            "core for portfolio)",
        )


def strategy_options(args: argparse.Namespace) -> dict[str, Any]:
    """The search options the user set, as keyword arguments for ``make_engine``."""
    names = ("strategy", "consistency", "variable_order", "value_order", "solver_workers", "solver")
    return {name: getattr(args, name, None) for name in names}


def make_engine(spec: str, **options: Any) -> tuple[Engine, Budget]:
    """Build engine ``spec`` with the options the user set (``None`` means not set), and
    the one ``Budget`` of the command's run settings, which the command passes with
    each call (``engine.count(problem, budget=budget)``).

    ``spec`` is a name or ``name:key=value[:...]``, as ``compare --engines`` takes
    it. ``cp_queens.engines.get`` checks the options for every caller; here an
    option the engine does not take, or a value it does not know, is named by its
    command-line flag, and an option set twice (in ``spec`` and by a flag) is refused.
    """
    try:
        name, given = engines.parse_spec(spec)
    except CpQueensError as error:
        raise CpQueensError(f"--engine: {error}") from None
    chosen = {key: value for key, value in options.items() if value is not None}
    for key in given.keys() & chosen.keys():
        flag = "--" + key.replace("_", "-")
        raise CpQueensError(f"{key} is set twice: in --engine {spec} and by {flag}")
    accepted = engines.options(name)
    cls = engines.engine_class(name)
    for key, value in chosen.items():
        flag = "--" + key.replace("_", "-")
        if key not in accepted:
            users = FLAG_ENGINES.get(key)
            hint = f" (it is for: -e {', '.join(users)})" if users else ""
            raise CpQueensError(f"engine '{name}' has no option {flag}{hint}")
        try:
            cls.check_options(**{key: value})
        except EngineOptionError:
            raise CpQueensError(
                f"{flag} {value}: not an option of engine '{name}' "
                f"(choose from {', '.join(cls.option_choices[key])})"
            ) from None
    try:
        return engines.build(name, **given, **chosen)
    except CpQueensError as error:
        if given:
            raise CpQueensError(f"--engine {spec}: {error}") from None
        raise
