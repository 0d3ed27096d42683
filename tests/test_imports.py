"""Imports at every depth: no cycle, no engine importing another, no oversized module.

``test_layout`` reads the imports a module makes when it is imported; a cycle can
also hide behind an import inside a function (made to keep start-up light), where
it breaks the first time both ends are loaded in the other order. So these tests
read *every* import statement with ``ast``: top level and function level alike.
Imports under ``if TYPE_CHECKING:`` never run and are left out of the layers and the
engines' boundaries; a cycle through them is still a cycle (the type checker follows
it, and it points at a definition in the wrong module), so the cycle test reads them too.

An import counts wherever it is, and whatever it imports: ``from P import x`` is an
edge to the package ``P`` (its ``__init__`` runs first, and may be half-run when the
import happens), and to ``P.x`` too when that is a module. ``from cp_queens import
errors`` inside the package therefore goes through the root package, which imports
nearly everything: modules name each other in full (``import cp_queens.errors as
errors``, ``from cp_queens.errors import ...``). Nothing outside an engine imports the
modules inside its package.

Re-derive the graph by hand with ``python tests/test_imports.py`` (prints
``module -> imports`` for every module of the package, then any cycle).
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "cp_queens"
#: The largest module the package allows itself (lines): one job per module.
MAX_LINES = 600


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.AST) -> bool:
    if not isinstance(node, ast.If):
        return False
    test = node.test
    name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
    return name == "TYPE_CHECKING"


#: The fields of a node that hold statements. An import is a statement, so reading
#: these (and not every expression, as ``ast.walk`` would: four times the work) finds
#: every import at every depth: module, class, function, loop, ``with``, ``try`` and
#: ``match`` bodies alike.
STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(tree: ast.Module, type_checking: bool = False) -> Iterator[ast.AST]:
    """Every statement of ``tree`` at every depth, but those inside ``if TYPE_CHECKING:``
    blocks (they never run; the block's ``else:`` does) unless ``type_checking``."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        for field in STATEMENT_FIELDS:
            if field == "body" and not type_checking and _is_type_checking(node):
                continue
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                stack.extend(inner)


def every_import(name: str, path: Path, type_checking: bool = False) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its code (and under
    ``if TYPE_CHECKING:`` too when ``type_checking``).

    ``from P import x`` is an edge to ``P`` (its ``__init__`` runs to give ``x``, parent
    package or not) and to ``P.x`` when that is a module; ``import P.x`` and ``from P.x
    import y`` are edges to ``P.x``.
    """
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _statements(tree, type_checking):
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


@functools.cache
def _graph(type_checking: bool) -> dict[str, frozenset[str]]:
    return {
        name: frozenset(every_import(name, path, type_checking) - {name})
        for name, path in MODULES.items()
    }


def import_graph(type_checking: bool = False) -> dict[str, set[str]]:
    """Every module's imports (every edge ``every_import`` finds, parents included;
    those under ``if TYPE_CHECKING:`` too when ``type_checking``).

    Read once per process: the package's files do not change during a test run, and
    five tests here read the graph (each gets its own copy)."""
    return {name: set(targets) for name, targets in _graph(type_checking).items()}


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


def test_no_import_cycle_even_under_type_checking() -> None:
    """An import made only for the type checker closes a loop too: each one found here
    was a definition in the wrong module (the dispatcher ``ask`` in ``answer``, tree
    pricing in ``limits``, the pool's placement on ``FastEngine``)."""
    cycle = find_cycle(import_graph(type_checking=True))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_type_checkers_imports_are_read_when_asked(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from cp_queens.problem import Problem\n"
        "import cp_queens.errors\n"
    )
    assert every_import("cp_queens.m", module) == {"cp_queens.errors"}
    both = every_import("cp_queens.m", module, type_checking=True)
    assert both == {"cp_queens.errors", "cp_queens.problem"}


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_an_import_of_a_name_from_the_parent_package_is_an_edge(tmp_path: Path) -> None:
    """The cycle the old reading missed: ``parallel.dask`` importing from ``parallel``."""
    module = tmp_path / "dask.py"
    module.write_text(
        "def f():\n"
        "    from cp_queens.parallel import run\n"
        "    from cp_queens.parallel import local\n"
        "    from cp_queens import errors\n"
    )
    edges = every_import("cp_queens.parallel.dask", module)
    assert edges == {
        "cp_queens.parallel",
        "cp_queens.parallel.local",
        "cp_queens",
        "cp_queens.errors",
    }


def test_an_import_counts_at_every_depth_but_under_type_checking(tmp_path: Path) -> None:
    """The statements read are every statement but a ``TYPE_CHECKING`` block's: imports
    in classes, loops, ``with``, ``try``/``except``/``else``/``finally`` and ``match``
    bodies, nested functions and the block's ``else:`` all count."""
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    import cp_queens.errors\n"
        "    if True:\n"
        "        import cp_queens.stats\n"
        "else:\n"
        "    import cp_queens.budget\n"
        "class C:\n"
        "    def f(self):\n"
        "        def g():\n"
        "            import cp_queens.problem\n"
        "for _ in ():\n"
        "    while False:\n"
        "        import cp_queens.verify\n"
        "with open('x') as f:\n"
        "    import cp_queens.render\n"
        "try:\n"
        "    import cp_queens.limits\n"
        "except ImportError:\n"
        "    import cp_queens.output\n"
        "else:\n"
        "    import cp_queens.formats\n"
        "finally:\n"
        "    import cp_queens.places\n"
        "match 1:\n"
        "    case 1:\n"
        "        import cp_queens.wording\n"
        "x = [lambda: 1]\n"
    )
    found = every_import("cp_queens.m", module)
    assert found == {
        f"cp_queens.{m}"
        for m in (
            "budget",
            "problem",
            "verify",
            "render",
            "limits",
            "output",
            "formats",
            "places",
            "wording",
        )
    }


#: The layers of docs/architecture.md, top (4) to bottom (0), by module prefix (the
#: longest prefix wins). A module imports its own layer or lower ones.
LAYERS = {
    "cp_queens.cli": 4,
    "cp_queens.__main__": 4,
    "cp_queens": 3,  # the library's door (cp_queens/__init__.py)
    "cp_queens.completion": 3,
    "cp_queens.compare": 3,
    "cp_queens.dominate": 3,
    "cp_queens.course": 3,
    "cp_queens.grading": 3,
    "cp_queens.engines": 2,
    "cp_queens.parallel": 1,
    # everything else (budget, problem, stats, errors, formats, ...) is the core: 0
}

#: Edges that point upward, each for a reason docs/architecture.md gives. ``formats``
#: reads big placement files with the ``fast`` engine's compiled parser, through its
#: public ``row_parser`` (imported inside the function, only for a big input).
UPWARD = {("cp_queens.formats", "cp_queens.engines.fast")}


def layer(module: str) -> int:
    if module == "cp_queens":
        return LAYERS["cp_queens"]
    prefixes = [p for p in LAYERS if p != "cp_queens" and (module + ".").startswith(p + ".")]
    return LAYERS[max(prefixes, key=len)] if prefixes else 0


def test_nothing_points_upward_but_the_edges_the_architecture_names() -> None:
    upward = {
        (name, target)
        for name, targets in import_graph().items()
        for target in targets
        if layer(target) > layer(name)
    }
    assert upward == UPWARD


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


def is_private_to_an_engine(module: str) -> bool:
    """A module inside an engine's package (``cp_queens.engines.fast.loader``), not the
    engine's own module, which is its public face."""
    parts = module.split(".")
    return engine_of(module) is not None and len(parts) > 3


def test_nothing_outside_an_engine_imports_its_private_modules() -> None:
    """What other modules need of an engine, the engine's package offers by name
    (``cp_queens.engines.fast.row_parser``): its inner modules can change freely."""
    offenders = [
        f"{name} imports {target}"
        for name, targets in import_graph().items()
        for target in sorted(targets)
        if is_private_to_an_engine(target) and engine_of(name) != engine_of(target)
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
    graph = import_graph()
    for module, imports in sorted(graph.items()):
        print(module, "->", ", ".join(sorted(imports)) or "-")
    cycle = find_cycle(graph)
    print("cycle:", " -> ".join(cycle) if cycle else "none")


def test_the_drawings_load_no_grader() -> None:
    """A lesson drawing a search must not pay for (or depend on) the grader and its room."""
    import subprocess
    import sys

    code = (
        "import sys, cp_queens.course.drawing.trace, cp_queens.course.drawing.slides\n"
        "import cp_queens.course.display\n"
        "print(sorted(m for m in sys.modules if m.startswith('cp_queens.grading')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "[]"


def test_check_model_is_still_where_the_lessons_import_it() -> None:
    from cp_queens.course import CheckReport, check_model
    from cp_queens.grading.as_graded import check_model as graded
    from cp_queens.grading.tasks.solutions.judge import CheckReport as report

    assert check_model is graded and CheckReport is report
