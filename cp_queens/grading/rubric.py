"""The rubric of ``cp-queens grade``: the task, points per board size, credit, limits.

A teacher's rubric is a small TOML file (read with ``tomllib``); every key
it leaves out keeps the default shipped in ``cp_queens/grading/rubric.toml``,
so a rubric can be one line (``[limits]`` / ``cpu_seconds = 20``). Anything
unknown or out of range is refused with one line naming the file and the key:
a typo must not silently grade a class with the defaults.

A rubric has a name and a digest (a hash of every value in effect, defaults
included), both written into ``marks.csv``: a student who asks "by which
rules was I marked?" gets an answer that a changed file cannot blur.
"""

from __future__ import annotations

import hashlib
import json
import math
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import cp_queens.grading.tasks as tasks
from cp_queens.errors import CpQueensError
from cp_queens.grading.intake.textfile import (
    CONFIG_BYTES,
    TextFileError,
    decode_config,
    read_capped,
)
from cp_queens.grading.sandbox import ISOLATIONS, Limits

DEFAULT = Path(__file__).with_name("rubric.toml")


class RubricError(CpQueensError):
    """A rubric file that cannot be read or holds a key or value we do not understand."""


#: How a size of the ``solutions`` task earns its points (see rubric.toml).
SCHEMES = ("shares", "penalties", "exact")


@dataclass(frozen=True, slots=True)
class Rubric:
    """The task, points per size (``default`` for a size not listed), how a size earns
    them (``scheme``, penalty fractions, the ``dominate`` shares), limits."""

    default_points: float = 2.0
    points: dict[int, float] = field(default_factory=dict)
    invalid_penalty: float = 0.5
    duplicate_penalty: float = 0.5
    limits: Limits = field(default_factory=Limits)
    source: str = "default rubric"
    name: str = "default"
    task: str = "solutions"
    scheme: str = "shares"
    above_minimum: tuple[float, ...] = (1.0, 0.5, 0.25)
    parallel_deduction: float = 0.5  # share of a size taken off for parallel enumeration
    digest: str = ""  # sha256 of the settings in effect, 12 hex digits

    def points_for(self, n: int) -> float:
        return self.points.get(n, self.default_points)

    def for_task(self, task: str | None) -> Rubric:
        """This rubric with its task replaced (``--task``); the digest follows."""
        if task is None or task == self.task:
            return self
        if task not in tasks.names():
            raise RubricError(f"task {task!r}: unknown (expected {', '.join(tasks.names())})")
        settings = {**self.settings(), "task": task}
        return replace(self, task=task, digest=_digest(settings))

    def settings(self) -> dict[str, Any]:
        """Every value in effect, as plain data (what the digest is taken of)."""
        return {
            "task": self.task,
            "points": {
                "default": self.default_points,
                **{str(k): v for k, v in self.points.items()},
            },
            "credit": {"scheme": self.scheme, "parallel_enumeration": self.parallel_deduction},
            "penalties": {"invalid": self.invalid_penalty, "duplicate": self.duplicate_penalty},
            "dominate": {"above_minimum": list(self.above_minimum)},
            "limits": {f.name: getattr(self.limits, f.name) for f in fields(self.limits)},
        }


_LIMIT_KEYS = {
    "cpu_seconds": int,
    "memory_mb": int,
    "wall_seconds": float,
    "file_mb": int,
    "output_kb": int,
    "allow_processes": bool,
    "isolation": str,
    "modules": list,
    "submission_kb": int,
    "scratch_mb": int,
    "solver_threads": int,
}


def load(path: str | Path | None = None) -> Rubric:
    """The default rubric, with the values of the TOML file at ``path`` (if given) on top."""
    settings = _read(DEFAULT)
    source = "default rubric"
    if path is not None:
        mine = _read(Path(path))
        settings["name"] = Path(path).stem  # a rubric of one's own is not "default"
        for table, values in mine.items():
            if table in _TOP_KEYS:
                settings[table] = values
                continue
            if table not in settings:
                tables = ", ".join(f"[{name}]" for name in settings if name not in _TOP_KEYS)
                raise RubricError(f"{path}: unknown table [{table}] (expected {tables})")
            if not isinstance(values, dict):
                raise RubricError(f"{path}: '{table}' must be a table, [{table}]")
            settings[table] = {**settings[table], **values}
        source = str(path)
    return _build(settings, source)


#: Keys at the top of a rubric, outside any table.
_TOP_KEYS = ("name", "task")


def _read(path: Path) -> dict[str, Any]:
    """The TOML at ``path``: read under a cap (``/dev/zero`` is refused, not read until the
    memory is gone), UTF-8 or UTF-16 with a BOM as editors save it."""
    try:
        text = decode_config(read_capped(path, CONFIG_BYTES, "rubric file"), str(path))
        return tomllib.loads(text)
    except TextFileError as error:
        raise RubricError(str(error)) from None
    except tomllib.TOMLDecodeError as error:
        raise RubricError(f"{path}: not valid TOML: {error}") from None


def _build(settings: dict[str, Any], source: str) -> Rubric:
    points: dict[int, float] = {}
    default_points = 0.0
    for key, value in settings.get("points", {}).items():
        amount = _number(source, f"points.{key}", value, low=0.0)
        if key == "default":
            default_points = amount
        elif key.isascii() and key.isdigit() and int(key) >= 1:
            points[int(key)] = amount
        else:
            raise RubricError(
                f"{source}: points.{key}: a key of [points] is 'default' or a board size "
                '(e.g. "9")'
            )
    penalties = _known_keys(
        source, "penalties", settings.get("penalties", {}), "invalid", "duplicate"
    )
    limits: dict[str, Any] = {}
    for key, value in settings.get("limits", {}).items():
        kind = _LIMIT_KEYS.get(key)
        if kind is None:
            raise RubricError(
                f"{source}: limits.{key}: unknown (expected {', '.join(_LIMIT_KEYS)})"
            )
        if kind is str:
            if value not in ISOLATIONS:
                raise RubricError(
                    f"{source}: limits.{key}: one of {', '.join(map(repr, ISOLATIONS))}, "
                    f"got {value!r}"
                )
            if value == "none":  # a file handed around must not turn the sandbox off
                raise RubricError(
                    f'{source}: limits.{key}: "none" is refused: a rubric cannot switch the '
                    "sandbox off; only the command line can (see docs/course-grading.md)"
                )
            limits[key] = value
            continue
        if kind is list:
            limits[key] = _modules(source, key, value)
            continue
        if kind is bool:
            if not isinstance(value, bool):
                raise RubricError(f"{source}: limits.{key}: true or false, got {value!r}")
            limits[key] = value
            continue
        number = _number(source, f"limits.{key}", value, low=1.0)
        if number > _LIMIT_MAX[key]:
            raise RubricError(
                f"{source}: limits.{key}: at most {_LIMIT_MAX[key]:.17g} (what the kernel "
                f"takes), got {value!r}"
            )
        if kind is int and number != int(number):
            raise RubricError(f"{source}: limits.{key}: a whole number, got {value!r}")
        limits[key] = kind(number)
    rubric = Rubric(
        default_points=default_points,
        points=points,
        invalid_penalty=_number(source, "penalties.invalid", penalties["invalid"], 0.0, 1.0),
        duplicate_penalty=_number(source, "penalties.duplicate", penalties["duplicate"], 0.0, 1.0),
        limits=Limits(**limits),
        source=source,
        **_judging(settings, source),
    )
    return replace(rubric, digest=_digest(rubric.settings()))


def _judging(settings: dict[str, Any], source: str) -> dict[str, Any]:
    """The rubric's name, its task and how a size earns its points, checked."""
    name = settings.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        raise RubricError(f"{source}: name: a line of text (at most 80 characters), got {name!r}")
    task = settings.get("task")
    if task not in tasks.names():
        raise RubricError(f"{source}: task: one of {', '.join(tasks.names())}, got {task!r}")
    credit = _known_keys(
        source, "credit", settings.get("credit", {}), "scheme", "parallel_enumeration"
    )
    scheme = credit.get("scheme")
    if scheme not in SCHEMES:
        raise RubricError(f"{source}: credit.scheme: one of {', '.join(SCHEMES)}, got {scheme!r}")
    dominate = _known_keys(source, "dominate", settings.get("dominate", {}), "above_minimum")
    shares = dominate.get("above_minimum")
    if not isinstance(shares, list) or not shares:
        raise RubricError(
            f"{source}: dominate.above_minimum: a list of shares, e.g. [1.0, 0.5], got {shares!r}"
        )
    above = tuple(
        _number(source, f"dominate.above_minimum[{i}]", share, 0.0, 1.0)
        for i, share in enumerate(shares)
    )
    deduction = _number(
        source, "credit.parallel_enumeration", credit.get("parallel_enumeration", 0.5), 0.0, 1.0
    )
    return {
        "name": name.strip(),
        "task": task,
        "scheme": scheme,
        "above_minimum": above,
        "parallel_deduction": deduction,
    }


def _known_keys(source: str, table: str, values: dict[str, Any], *known: str) -> dict[str, Any]:
    """``values`` (the rubric's table ``table``) when it has no key but ``known``."""
    for key in values:
        if key not in known:
            raise RubricError(f"{source}: {table}.{key}: unknown (expected {', '.join(known)})")
    return values


def _digest(settings: dict[str, Any]) -> str:
    text = json.dumps(settings, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _modules(source: str, key: str, value: Any) -> tuple[str, ...]:
    """The modules a submission may import besides the standard library: top-level names
    (``constraint``, not ``python-constraint2``), never the toolkit itself."""
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise RubricError(f"{source}: limits.{key}: a list of module names, got {value!r}")
    for name in value:
        if not name.isidentifier():
            raise RubricError(
                f'{source}: limits.{key}: {name!r} is not a module name (e.g. "ortools")'
            )
        if name == "cp_queens":
            raise RubricError(
                f"{source}: limits.{key}: cp_queens is never available to submissions "
                "(it answers the assignment)"
            )
    return tuple(value)


#: The largest value of each numeric limit: what the kernel takes for it. An rlimit
#: (``RLIMIT_CPU`` is set to the limit and one second more, ``RLIMIT_FSIZE`` in bytes) and
#: a cgroup's ``memory.max`` or a tmpfs size in bytes are signed 64-bit numbers; a larger
#: value passed the check before and then failed every submission's run ("every student
#: gets 0"). Seconds of CPU: 2**53, the largest whole number a TOML float keeps exactly
#: (2**63 - 2 read as a float is 2**63: too large). The wall clock: a thousand years.
_BYTES = (1 << 63) - 1
_LIMIT_MAX = {
    "cpu_seconds": float(1 << 53),
    "wall_seconds": 3.2e10,
    "memory_mb": float(_BYTES >> 20),
    "file_mb": float(_BYTES >> 20),
    "scratch_mb": float(_BYTES >> 20),
    "output_kb": float(_BYTES >> 10),
    "submission_kb": float(_BYTES >> 10),
    "solver_threads": 1024.0,
}


def _number(source: str, key: str, value: Any, low: float, high: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RubricError(f"{source}: {key}: a finite number, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"{low:g}..{high:g}" if high is not None else f">= {low:g}"
        raise RubricError(f"{source}: {key}: must be {bound}, got {value!r}")
    return float(value)
