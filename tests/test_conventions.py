"""Package conventions: one version, a licence, type hints shipped, --quiet, shell completion."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from importlib import metadata, resources
from pathlib import Path

import pytest

import cp_queens
from cp_queens.cli import COMMANDS, build_parser
from tests.helpers import run_cli

ROOT = Path(__file__).resolve().parents[1]


run = run_cli


def test_version_has_one_source(capsys) -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "cp_queens.__version__"
    }
    assert metadata.version("cp-queens") == cp_queens.__version__
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out == f"cp-queens {cp_queens.__version__}\n"


def test_licence_and_type_marker_ship() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert resources.files("cp_queens").joinpath("py.typed").is_file()
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["cp_queens"]


def test_changelog_has_unreleased_and_the_current_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in changelog
    assert f"## [{cp_queens.__version__}] - " in changelog


def test_quiet_silences_the_statistics_not_the_answer(capsys) -> None:
    code, out, err = run(capsys, "count", "8")
    assert code == 0 and err.startswith("# ")
    code, quiet_out, quiet_err = run(capsys, "count", "8", "--quiet")
    assert code == 0 and quiet_out == out and quiet_err == ""
    code, out, err = run(capsys, "solve", "6", "-q")
    assert code == 0 and out.count("Q") == 6 and err == ""


def test_quiet_keeps_errors(capsys) -> None:
    code, _, err = run(capsys, "solve", "6", "-q", "--engine", "nope")
    assert code == 2 and "unknown engine 'nope'" in err


def test_every_command_but_completion_takes_quiet() -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    assert len(subparsers.choices) == len(COMMANDS)
    for name, subparser in subparsers.choices.items():
        flags = {flag for action in subparser._actions for flag in action.option_strings}
        assert ("--quiet" in flags) == (name != "completion"), name


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_completion_script_names_every_command(capsys, shell: str) -> None:
    code, out, _ = run(capsys, "completion", shell)
    assert code == 0
    subparsers = next(a for a in build_parser()._actions if a.dest == "command")
    for name in subparsers.choices:
        assert name in out


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_commands_and_engine_names(tmp_path: Path) -> None:
    script = tmp_path / "cp-queens.bash"
    script.write_text(
        subprocess.run(
            [sys.executable, "-m", "cp_queens", "completion", "bash"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )

    def complete(*words: str) -> list[str]:
        line = " ".join(words)
        program = (
            f"source {script}; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; "
            '_shtab_cp_queens; echo "${COMPREPLY[@]}"'
        )
        done = subprocess.run(["bash", "-c", program], capture_output=True, text=True)
        return done.stdout.split()

    assert set(complete("cp-queens", "co")) == {"count", "complete", "compare", "completion"}
    assert set(complete("cp-queens", "count", "8", "--engine", "cpsat")) == {"cpsat", "cpsat-board"}
    assert complete("cp-queens", "solve", "8", "--format", "j") == ["jsonl", "json"]
    # file names where an argument is a file, directories where it is one
    (tmp_path / "boards.jsonl").write_text("[1, 3, 0, 2]\n")
    (tmp_path / "results").mkdir()
    folder = f"{tmp_path}/"
    assert f"{tmp_path}/boards.jsonl" in complete("cp-queens", "verify", f"{folder}b")
    assert f"{tmp_path}/boards.jsonl" in complete("cp-queens", "enumerate", "8", "-o", f"{folder}b")
    assert f"{tmp_path}/boards.jsonl" in complete("cp-queens", "complete", f"{folder}b")
    outs = complete("cp-queens", "compare", "--n", "4", "--out", folder)
    assert any(out.rstrip("/") == f"{tmp_path}/results" for out in outs), outs
    assert not any(out.endswith("boards.jsonl") for out in outs)
