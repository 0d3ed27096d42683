"""A field of the JSON answer that changes shape or goes away must bump its version.

docs/exit-codes.md promises that the ``version`` of the answer document goes up when a
field changes meaning or goes away; ``count`` once changed from ``"task":
"count_unique", "value": {"total": ..., "unique": ...}`` to ``"value": 14200, "unique":
1787`` under the same version, and nothing noticed. So every command's document is
held here to a **frozen example** of its version (``tests/data/answers/v<VERSION>/``):

- each frozen example is valid against the schema the package ships;
- the command run today still has every field of its example, each of the same shape
  (an object keeps its fields, a list its items' shape, a number stays a number, ...);
  new fields are welcome (adding one needs no bump), ``null`` for a figure not known
  is the schema's to allow or refuse, and ``stats.extra`` is the engine's own business.

A frozen example is never edited to fit a new shape: a new shape is a new version.
Bump ``VERSION`` in ``cp_queens/answer.py`` (and the schema's ``const``), then freeze the
new version's examples with ``python tests/test_answer_shapes.py`` (it refuses to write
over a version already frozen), and say in docs/exit-codes.md what changed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
FROZEN = Path(__file__).resolve().parent / "data" / "answers"

#: One example per answering command (two for ``count``: whole and cut short), each a
#: command whose document has the same shape on every run (fixed engines, no timeouts
#: but the one asked for). ``{placements}`` and ``{board}`` are files made for the run.
COMMANDS = {
    "solve": ["solve", "6", "-e", "reference"],
    "count": ["count", "8", "-e", "fast"],
    "count-cut-short": ["count", "15", "-e", "reference", "--time-limit", "0.05"],
    "count-unique": ["count", "8", "--unique", "-e", "reference"],
    "enumerate": ["enumerate", "6", "-e", "reference"],
    "verify": ["verify", "{placements}"],
    "check": ["check", "{placements}"],
    "complete": ["complete", "{board}", "--count", "-e", "reference", "-x", "reference"],
    "compare": ["compare", "--n", "5,6", "--engines", "reference", "--repeat", "2"],
    "dominate": ["dominate", "5"],
}


def document(name: str, folder: Path) -> dict[str, Any]:
    """The JSON document of ``COMMANDS[name]`` as the command prints it today."""
    import contextlib
    import io

    from cp_queens.cli import main

    placements = folder / "placements.jsonl"
    placements.write_text("[1, 3, 0, 2]\n[0, 1, 2, 3]\n", encoding="utf-8")
    board = folder / "board.txt"
    board.write_text("Q.......\n" + "........\n" * 7, encoding="utf-8")
    files = {"{placements}": str(placements), "{board}": str(board)}
    argv = [files.get(arg, arg) for arg in COMMANDS[name]]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main([*argv, "--format", "json", "-q"])
    return json.loads(out.getvalue())


def shape(value: Any) -> Any:
    """What a reader relies on of a JSON value: its kind, an object's fields and their
    shapes, a list's items' shape (its first item's)."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    if value is None or isinstance(value, bool):
        return repr(value) if value is None else "boolean"
    return {int: "integer", float: "number", str: "string"}[type(value)]


def changed(frozen: Any, now: Any, where: str = "") -> list[str]:
    """The fields of ``frozen`` (a shape) gone or of another shape in ``now`` (a shape)."""
    if isinstance(frozen, dict):
        if not isinstance(now, dict):
            return [f"{where or 'the document'}: an object, now {now!r}"]
        found = []
        for key, item in frozen.items():
            path = f"{where}.{key}" if where else key
            if key not in now:
                found.append(f"{path}: gone")
            elif path != "stats.extra":  # the engine's own figures, per engine
                found += changed(item, now[key], path)
        return found
    if isinstance(frozen, list):
        if not isinstance(now, list):
            return [f"{where}: a list, now {now!r}"]
        return changed(frozen[0], now[0], f"{where}[0]") if frozen and now else []
    if frozen == now or (frozen, now) == ("number", "integer"):  # a whole number is one
        return []
    if "None" in (frozen, now):  # unknown here, known there: whether a field may be
        return []  # null is the schema's to say (a figure the engine does not keep)
    return [f"{where}: {frozen}, now {now}"]


def frozen_version() -> Path:
    from cp_queens.answer import VERSION

    return FROZEN / f"v{VERSION}"


def test_the_current_version_has_a_frozen_example_of_every_command() -> None:
    folder = frozen_version()
    assert folder.is_dir(), (
        f"no frozen examples of this version: run python tests/test_answer_shapes.py "
        f"(writes {folder.relative_to(ROOT)})"
    )
    assert sorted(path.stem for path in folder.glob("*.json")) == sorted(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_frozen_example_is_valid_against_the_shipped_schema(name: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from cp_queens.answer import VERSION, schema

    example = json.loads((frozen_version() / f"{name}.json").read_text(encoding="utf-8"))
    assert example["version"] == VERSION
    jsonschema.Draft202012Validator(schema()).validate(example)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_no_field_changed_shape_or_went_away_without_a_new_version(
    name: str, tmp_path: Path
) -> None:
    example = json.loads((frozen_version() / f"{name}.json").read_text(encoding="utf-8"))
    now = document(name, tmp_path)
    lost = changed(shape(example), shape(now))
    assert not lost, (
        f"{' '.join(COMMANDS[name])} --format json: "
        + "; ".join(lost)
        + f" (version {now['version']}). A changed or removed field needs a new version: "
        "bump VERSION in cp_queens/answer.py, then freeze its examples (see this module)"
    )


def test_a_changed_shape_is_caught() -> None:
    """The old ``count`` against today's: the version 1 reader's ``value`` was an object."""
    old = {"task": "count_unique", "value": {"total": 14200, "unique": 1787}, "stats": None}
    new = {"task": "count", "value": 14200, "unique": 1787, "stats": None}
    assert changed(shape(old), shape(new)) == ["value: an object, now 'integer'"]
    assert changed(shape(new), shape({**new, "added": [1]})) == []  # a new field is fine
    assert changed(shape(new), shape({"task": "count", "value": 1.5, "stats": None})) == [
        "value: integer, now number",
        "unique: gone",
    ]
    runs = {"value": [{"engine": "a", "wall_time": 0.5}]}
    spread = {"value": [{"engine": "a", "wall_time": {"median": 0.5, "min": 0.4}}]}
    assert changed(shape(runs), shape(spread)) == [
        "value[0].wall_time: number, now {'median': 'number', 'min': 'number'}"
    ]


def freeze() -> None:
    """Write this version's frozen examples; never over a version already frozen."""
    import tempfile

    folder = frozen_version()
    if folder.exists():
        raise SystemExit(f"{folder} exists: a frozen version is not written again")
    folder.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as scratch:
        for name in COMMANDS:
            text = json.dumps(document(name, Path(scratch)), indent=1, ensure_ascii=False)
            (folder / f"{name}.json").write_text(text + "\n", encoding="utf-8")
            print("froze", folder / f"{name}.json")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    freeze()
