"""The installs the docs give run the lessons: after ``pip install .`` alone, every lesson
runs or stops at once with one line naming the extra to install, never a traceback.

A lesson says what it needs beyond the base install with ``cp_queens.course.needs``:
``require("lesson NN", EXTRA, *modules)`` (stop) or ``have(...)`` (skip a part). The
quick tests read those calls (and the lessons' imports) and hold them to
``pyproject.toml``; the slow one makes a fresh venv with only ``pip install .`` and runs
every lesson there, then installs the ``course`` extra and runs the ones that stopped.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cp_queens.course.needs import advice, have, missing, require
from tests.helpers import ROOT

LESSONS = sorted((ROOT / "examples").glob("[0-9][0-9]_*.py"))
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
EXTRAS: dict[str, list[str]] = PROJECT["optional-dependencies"]
GUARDS = ("require", "have")
#: The one line a lesson stops with (``needs.advice``).
ADVICE = re.compile(
    r"^lesson (\d\d) needs [\w, ]+: pip install 'cp-queens\[(\w+)\]' \('\.\[\2\]' in a clone\)$"
)


def distribution(requirement: str) -> str:
    """``"mkdocstrings[python]>=0.26,<2"`` -> ``"mkdocstrings"`` (normalised as PyPI does)."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name, requirement
    return re.sub(r"[-_.]+", "-", name.group(0)).lower()


@functools.cache
def installed() -> dict[str, list[str]]:
    """Top-level module -> distributions, once: it reads every installed package's files."""
    return dict(importlib.metadata.packages_distributions())


def provided_by(modules: list[str]) -> dict[str, set[str]]:
    """Top-level module -> the distributions that install it (all are installed here)."""
    return {module: {distribution(d) for d in installed().get(module, [])} for module in modules}


def guards(path: Path) -> list[tuple[str, str, str, list[str], int]]:
    """Every ``require``/``have`` call of a lesson: (kind, lesson, extra, modules, line)."""
    calls = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id not in GUARDS:
            continue
        args = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):  # require("lesson 10", "solvers", *MODULES)
                args += list(ast.literal_eval(constant(path, arg.value)))
            else:
                args.append(ast.literal_eval(arg))
        label, extra, *modules = args
        calls.append((node.func.id, label, extra, modules, node.lineno))
    return calls


def constant(path: Path, name: ast.expr) -> ast.expr:
    """The value assigned to a module-level name, for ``*NAME`` in a guard call."""
    assert isinstance(name, ast.Name), f"{path.name}: unpack a plain name"
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name.id for t in node.targets
        ):
            return node.value
    raise AssertionError(f"{path.name}: {name.id} is not assigned at module level")


def imports(path: Path) -> dict[str, int]:
    """Top-level modules a lesson imports -> the first line importing each."""
    first: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            first[top] = min(first.get(top, node.lineno), node.lineno)
    return first


BASE = {distribution(requirement) for requirement in PROJECT["dependencies"]}


def optional(module: str) -> bool:
    """A third-party module that ``pip install .`` does not bring."""
    if module in sys.stdlib_module_names or module in ("cp_queens", "__future__"):
        return False
    return not provided_by([module])[module] & BASE


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda path: path.stem)
def test_a_lesson_guards_every_import_that_pip_install_dot_does_not_bring(lesson: Path) -> None:
    guarded = {module: line for kind, _, _, modules, line in guards(lesson) for module in modules}
    for module, line in imports(lesson).items():
        if optional(module):
            assert module in guarded, (
                f"{lesson.name} imports {module}, which `pip install .` does not install: "
                "guard it with cp_queens.course.needs.require/have, naming its extra"
            )
            assert guarded[module] < line, f"{lesson.name}: check for {module} before importing it"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda path: path.stem)
def test_a_lesson_guard_names_an_extra_that_brings_its_modules(lesson: Path) -> None:
    for kind, label, extra, modules, _ in guards(lesson):
        assert label == f"lesson {lesson.name[:2]}", f"{lesson.name}: {kind}({label!r}, ...)"
        assert extra in EXTRAS, f"{lesson.name}: no extra {extra!r} in pyproject.toml"
        assert modules, f"{lesson.name}: {kind} names no module"
        brought = {distribution(requirement) for requirement in EXTRAS[extra]}
        for module, dists in provided_by(modules).items():
            assert dists, f"{lesson.name}: {module} is not installed by any distribution here"
            assert dists & brought, f"{lesson.name}: the {extra} extra does not install {module}"


def test_the_course_extra_runs_every_lesson_and_the_docs_extra_builds_the_site() -> None:
    """``course`` holds every extra a lesson asks for; ``docs`` holds ``course`` (the site
    runs every lesson while it is built), with the same pins."""
    named = {extra for lesson in LESSONS for _, _, extra, _, _ in guards(lesson)}
    assert named, "no lesson names an extra: the guards are not found"
    wanted = {requirement for extra in named for requirement in EXTRAS[extra]}
    assert wanted <= set(EXTRAS["course"]), sorted(wanted - set(EXTRAS["course"]))
    assert set(EXTRAS["course"]) <= set(EXTRAS["docs"]), sorted(
        set(EXTRAS["course"]) - set(EXTRAS["docs"])
    )


def test_the_lessons_that_need_an_extra_are_found() -> None:
    """The checks above can fail: lesson 10 imports cpmpy, and lessons 08-09 draw plots."""
    named = {lesson.name[:2]: {g[2] for g in guards(lesson)} for lesson in LESSONS}
    assert named["10"] == {"solvers"} and named["08"] == named["09"] == {"plot"}
    assert optional("cpmpy") and optional("matplotlib")
    assert not optional("ortools") and not optional("json") and not optional("cp_queens")


def test_the_guards_say_one_line_and_stop_or_skip(capsys: pytest.CaptureFixture[str]) -> None:
    absent = missing("json", "no_such_module_xyz", "no_such.sub")
    assert absent == ["no_such_module_xyz", "no_such.sub"]
    with pytest.raises(SystemExit) as stopped:
        require("lesson 99", "plot", "json", "no_such_module_xyz")
    line = str(stopped.value.code)
    assert "\n" not in line and ADVICE.match(line), line
    assert "no_such_module_xyz" in line and "json" not in line
    require("lesson 99", "plot", "json")  # all there: nothing happens
    assert not have("lesson 99", "plot", "no_such_module_xyz", doing="the plot")
    printed = capsys.readouterr().out
    assert printed.count("\n") == 1 and printed.startswith("(the plot skipped) lesson 99 needs")
    assert advice("lesson 01", "course", ["a"]).endswith("'.[course]' in a clone)")


def run_lessons(
    python: Path, folder: Path, names: list[str]
) -> dict[str, subprocess.CompletedProcess[str]]:
    env = {
        key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")
    }
    return {
        name: subprocess.run(
            [str(python), str(folder / "examples" / name)],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=600,
            env=env,
        )
        for name in names
    }


@pytest.mark.slow
def test_every_lesson_runs_or_names_its_extra_after_pip_install_dot(tmp_path: Path) -> None:
    """The README's install, for real: a new venv, ``pip install .`` and nothing else (pip's
    own cache keeps a second run to about a minute), then every lesson as a reader runs it.
    Each exits 0 or prints one line naming an extra; the ones that stopped then run after
    ``pip install '.[course]'``."""
    clone = tmp_path / "clone"  # pip builds in the source folder: not in this checkout
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "."], cwd=clone, check=True, timeout=900)
    names = [lesson.name for lesson in LESSONS]
    stopped = []
    for name, result in run_lessons(python, clone, names).items():
        assert "Traceback" not in result.stderr, f"{name}:\n{result.stderr[-3000:]}"
        if result.returncode == 0:
            assert result.stdout.strip(), f"{name} printed nothing"
            continue
        line = result.stderr.strip()
        found = ADVICE.match(line)
        assert found and found.group(1) == name[:2], f"{name} exited {result.returncode}: {line}"
        assert found.group(2) in EXTRAS
        stopped.append(name)
    assert stopped == ["10_one_model_many_solvers.py"], stopped  # cpmpy is not in `.`
    subprocess.run([*pip, ".[course]"], cwd=clone, check=True, timeout=900)
    for name, result in run_lessons(python, clone, stopped).items():
        assert result.returncode == 0, f"{name} with the course extra:\n{result.stderr[-3000:]}"


@pytest.mark.slow
def test_lesson_10_leaves_gecode_out_without_minizinc(tmp_path: Path) -> None:
    """MiniZinc is a program, not an extra: without it on the PATH lesson 10 runs the rest
    and says in one line what it left out."""
    path = [
        folder
        for folder in os.environ.get("PATH", "").split(os.pathsep)
        if folder and not (Path(folder) / "minizinc").exists()
    ]
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "10_one_model_many_solvers.py")],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PATH": os.pathsep.join(path), "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.startswith("(Gecode skipped) lesson 10 runs Gecode through MiniZinc")
    assert "(skipped: MiniZinc is not installed)" in result.stdout
    assert not [line for line in result.stdout.splitlines() if line.startswith("gecode")]
    assert "pumpkin" in result.stdout  # the other solvers ran
