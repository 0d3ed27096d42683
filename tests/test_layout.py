"""The layout keeps its promises: no import cycles, the CLI stays a thin door.

Read off the source with ``ast`` (nothing is imported), so a new module is
checked by being written.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "cp_queens"
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]+")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def top_level_imports(path: Path) -> set[str]:
    """Modules imported when ``path`` is imported (not inside functions or TYPE_CHECKING)."""
    found: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name in MODULES}


def test_no_import_cycles() -> None:
    graph = {name: top_level_imports(path) - {name} for name, path in MODULES.items()}
    # A package's modules import the package first: that edge is how Python works, not a cycle.
    for name, targets in graph.items():
        graph[name] = {t for t in targets if not name.startswith(t + ".")}
    state: dict[str, str] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = "open"
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                cycle = [*trail[trail.index(target) :], target] if target in trail else [target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target, [*trail, target])
        state[name] = "done"

    for name in graph:
        if name not in state:
            visit(name, [name])


def string_constants(path: Path) -> list[tuple[int, str]]:
    """String literals that are not docstrings, with their line numbers."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


#: Modules that run another program: the flags they write are that program's, not ours.
RUNS_A_PROGRAM = {
    "cp_queens.engines.minizinc",  # the `minizinc` executable
    "cp_queens.grading.sandbox.room",  # `bwrap`
    "cp_queens.grading.sandbox.child",  # the harness's own argument (`--probe`)
}


def test_only_the_cli_names_command_line_flags() -> None:
    """The library speaks of options (``workers``), the CLI of flags (``--workers``)."""
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text!r}"
        for name, path in MODULES.items()
        if not name.startswith("cp_queens.cli") and name not in RUNS_A_PROGRAM
        for line, text in string_constants(path)
        if FLAG.search(text)
    ]
    assert not offenders, "\n".join(offenders)


def test_the_cli_imports_no_private_module_of_the_library() -> None:
    offenders = []
    for name, path in MODULES.items():
        if not name.startswith("cp_queens.cli"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                library = module in MODULES and not module.startswith("cp_queens.cli")
                if library and any(_private(part) for part in module.split(".")):
                    offenders.append(f"{name}: {module}")
    assert not offenders, offenders


def _private(part: str) -> bool:
    return part.startswith("_") and not part.startswith("__")


def test_no_test_module_imports_another() -> None:
    """Shared test code lives in tests/helpers.py; test modules stay independent."""
    offenders = []
    for path in sorted((PACKAGE.parent / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            offenders += [
                f"{path.name}: {name}"
                for name in names
                if name.startswith(("tests.test_", "tests.conftest"))
            ]
    assert not offenders, "import from tests.helpers instead: " + ", ".join(offenders)
