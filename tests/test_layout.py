"""The layout keeps its promises: the CLI stays a thin door, test modules stand alone.

Read off the source with ``ast`` (nothing is imported), so a new module is
checked by being written. Import cycles are test_imports' job: it reads every import
at every depth, so a cycle among the top-level ones is one it finds too.
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
