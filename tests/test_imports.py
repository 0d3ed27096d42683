"""Imports at every depth: no cycle, no engine importing another, no oversized module.

``test_layout`` reads the imports a module makes when it is imported; a cycle can
also hide behind an import inside a function (made to keep start-up light), where
it breaks the first time both ends are loaded in the other order. So these tests
read *every* import statement with ``ast``: top level and function level alike.
Imports under ``if TYPE_CHECKING:`` never run and are left out.

Re-derive the graph by hand with ``python tests/test_imports.py`` (prints
``module -> imports`` for every module of the package).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "cp_queens"
#: The largest module the package allows itself (lines): one job per module.
MAX_LINES = 600


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _under_type_checking(tree: ast.Module) -> set[int]:
    """Ids of the nodes inside ``if TYPE_CHECKING:`` blocks (they never run)."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                hidden.update(id(inner) for sub in node.body for inner in ast.walk(sub))
    return hidden


def every_import(name: str, path: Path) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its code."""
    tree = ast.parse(path.read_text())
    hidden = _under_type_checking(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, up level - 1 steps
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {module for module in found if module in MODULES}


def import_graph() -> dict[str, set[str]]:
    """Every module's imports; an import of a module's own ancestor package is how
    Python loads a submodule (the package first), not an edge of a cycle."""
    return {
        name: {t for t in every_import(name, path) if t != name and not name.startswith(t + ".")}
        for name, path in MODULES.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, str] = {}
    for start in sorted(graph):
        if start in state:
            continue
        trail = [start]
        state[start] = "open"
        stack = [iter(sorted(graph[start]))]
        while stack:
            target = next(stack[-1], None)
            if target is None:
                state[trail.pop()] = "done"
                stack.pop()
            elif state.get(target) == "open":
                return [*trail[trail.index(target) :], target]
            elif target not in state:
                state[target] = "open"
                trail.append(target)
                stack.append(iter(sorted(graph[target])))
    return None


def test_no_import_cycle_at_any_depth() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def engine_of(module: str) -> str | None:
    """The engine a module belongs to (``cp_queens.engines.cpsat.orbits``: ``cpsat``),
    or ``None`` for the registry, ``base`` and shared helpers (``_cpsat``)."""
    from cp_queens.engines import NOT_ENGINES

    parts = module.split(".")
    if parts[:2] != ["cp_queens", "engines"] or len(parts) < 3:
        return None
    top = parts[2]
    return None if top in NOT_ENGINES or top.startswith("_") else top


def test_no_engine_imports_another_engine() -> None:
    offenders = [
        f"{name} imports {target}"
        for name, targets in import_graph().items()
        for target in sorted(targets)
        if engine_of(name) is not None
        and engine_of(target) is not None
        and engine_of(name) != engine_of(target)
    ]
    assert not offenders, "\n".join(offenders)


def test_every_engine_module_is_an_engine() -> None:
    """The check above sees an engine by its module: each must be one the registry lists."""
    from cp_queens.engines import names

    engines = {engine_of(name) for name in MODULES} - {None}
    assert engines == {name.replace("-", "_") for name in names()}


def test_no_module_exceeds_the_line_limit() -> None:
    sizes = {name: len(path.read_text().splitlines()) for name, path in MODULES.items()}
    large = {name: lines for name, lines in sizes.items() if lines > MAX_LINES}
    assert not large, f"modules over {MAX_LINES} lines: {large}"


def test_render_labels_the_boards_whose_squares_have_names() -> None:
    from cp_queens.problem import NAMED_UP_TO
    from cp_queens.render import LABELLED_UP_TO

    assert LABELLED_UP_TO == NAMED_UP_TO


if __name__ == "__main__":  # python tests/test_imports.py: the graph, one module a line
    sys.path.insert(0, str(PACKAGE.parent))
    for module, imports in sorted(import_graph().items()):
        print(module, "->", ", ".join(sorted(imports)) or "-")
