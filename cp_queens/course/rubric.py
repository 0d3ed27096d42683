"""The rubric of ``cp-queens grade``: points per board size, penalties, resource limits.

A teacher's rubric is a small TOML file (read with ``tomllib``); every key
it leaves out keeps the default shipped in ``cp_queens/course/rubric.toml``,
so a rubric can be one line (``[limits]`` / ``cpu_seconds = 20``). Anything
unknown or out of range is refused with one line naming the file and the key:
a typo must not silently grade a class with the defaults.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cp_queens.course.sandbox import ISOLATIONS, Limits
from cp_queens.errors import CpQueensError

DEFAULT = Path(__file__).with_name("rubric.toml")


class RubricError(CpQueensError):
    """A rubric file that cannot be read or holds a key or value we do not understand."""


@dataclass(frozen=True, slots=True)
class Rubric:
    """Points per size (``default`` for a size not listed), penalty fractions, limits."""

    default_points: float = 2.0
    points: dict[int, float] = field(default_factory=dict)
    invalid_penalty: float = 0.5
    duplicate_penalty: float = 0.5
    limits: Limits = field(default_factory=Limits)
    source: str = "default rubric"

    def points_for(self, n: int) -> float:
        return self.points.get(n, self.default_points)


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
}


def load(path: str | Path | None = None) -> Rubric:
    """The default rubric, with the values of the TOML file at ``path`` (if given) on top."""
    settings = _read(DEFAULT)
    source = "default rubric"
    if path is not None:
        mine = _read(Path(path))
        for table, values in mine.items():
            if table not in settings:
                raise RubricError(
                    f"{path}: unknown table [{table}] (expected [points], [penalties], [limits])"
                )
            if not isinstance(values, dict):
                raise RubricError(f"{path}: '{table}' must be a table, [{table}]")
            settings[table] = {**settings[table], **values}
        source = str(path)
    return _build(settings, source)


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise RubricError(f"{path}: no such rubric file") from None
    except OSError as error:
        raise RubricError(f"{path}: cannot read the rubric: {error.strerror}") from None
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
    penalties = settings.get("penalties", {})
    for key in penalties:
        if key not in ("invalid", "duplicate"):
            raise RubricError(f"{source}: penalties.{key}: unknown (expected invalid, duplicate)")
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
        if kind is int and number != int(number):
            raise RubricError(f"{source}: limits.{key}: a whole number, got {value!r}")
        limits[key] = kind(number)
    return Rubric(
        default_points=default_points,
        points=points,
        invalid_penalty=_number(source, "penalties.invalid", penalties["invalid"], 0.0, 1.0),
        duplicate_penalty=_number(source, "penalties.duplicate", penalties["duplicate"], 0.0, 1.0),
        limits=Limits(**limits),
        source=source,
    )


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


def _number(source: str, key: str, value: Any, low: float, high: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise RubricError(f"{source}: {key}: a number, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"{low:g}..{high:g}" if high is not None else f">= {low:g}"
        raise RubricError(f"{source}: {key}: must be {bound}, got {value!r}")
    return float(value)
