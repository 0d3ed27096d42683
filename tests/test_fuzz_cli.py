"""Fuzzing every command: hostile argument lists and input files never crash or run away.

Hypothesis builds argument lists for each ``cp-queens`` command from its own options
(read from the parser, so a new option is fuzzed too) and from values chosen to hurt:
huge, negative, fractional, infinite, empty and non-ASCII numbers, devices, missing files,
folders, and files of malformed boards, JSON lines, CSV and checkpoints.

Property, whatever the arguments: the exit code is a documented one other than 70
(an internal error is a bug) and 130; stderr has at most one ``cp-queens`` line and no
traceback; each run takes bounded time, and the process bounded memory.

The default run keeps a small budget (in this process, through ``run_cli``); ``-m slow``
runs a bigger profile. Local clusters (``--cluster local``) and worker pools are left out:
forking them from this threaded test process can hang, and they have tests of their own.
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cp_queens.formats
from cp_queens.cli import COMMANDS, build_parser
from cp_queens.cli.exit_codes import ExitCode
from tests.helpers import run_cli

#: What any run may end with; 70 (a bug) and 130 (interrupted) may not.
ALLOWED = {
    ExitCode.OK,
    ExitCode.NEGATIVE,
    ExitCode.BAD_INPUT,
    ExitCode.DISAGREE,
    ExitCode.TIME_LIMIT,
    ExitCode.IO_ERROR,
}
#: CPU seconds one run may take: the time limits fuzzed are at most 1 s, the boards small.
RUN_SECONDS = 20
#: Growth of this process's peak memory over the whole fuzz run.
MEMORY_GROWTH = 1 << 30

#: Numbers that hurt: huge, negative, not whole, not finite, not numbers, not ASCII.
HOSTILE_NUMBERS = [
    "-1", "0", "-0", "1.5", "1e400", "inf", "-inf", "nan", "", " ", "0x10", "1_000",
    str(2**63), str(2**70), "9" * 40, "1" + "0" * 30, "\u0663", "\uff18", "8 8", "--", "-",
]  # fmt: skip
#: Board sizes small enough for any command to finish at once.
SMALL_N = ["1", "2", "3", "4", "5", "6", "8", "9"]
#: Values for options whose good values would start processes or clusters.
PROCESS_OPTIONS = {
    "--workers": ["1", "-1", "x", "1.5", ""],
    "--cluster": ["remote", "local:0", "local:x", "", "local:-2"],
    "--scheduler": ["not a url", "http://127.0.0.1:8787", "tcp://", "ucx://x:1", "tcp://h:0"],
}
#: Options given a small positive value when not hostile (their good values run long).
SMALL_VALUE = {"--limit": SMALL_N, "--expect": SMALL_N, "--n": ["4", "5", "1-4", "4..5"]}
#: Time limits that end soon.
TIME_LIMITS = ["0", "0.001", "0.2", "1", "-1", "nan", "inf", "1e400", "x"]

#: Pieces of every input format, and of what breaks them.
PIECES = [
    "[", "]", "{", "}", ",", "\n", "\r\n", "\t", " ", "\ufeff", "q0", "q1", "Q", ".", "-",
    '"n": 8', '"queens": [[0, 0]]', '"blocked": [[1, 1]]', "-1", "99999999999999999999",
    "1e400", "NaN", "true", "null", "Q0,Q1,Q2,Q3", "1,3,0,2", '{"checkpoint":"cp_queens",',
    '"version":4,', '"job":{"engine":"fast","n":6,"fixed":[],"blocked":[],"depth":2,',
    '"subproblems":7}}', '{"key":"edge:1.3","total":4,"unique":1,"nodes":8,"crc":920835486}',
    '{"key":["a"],"total":1}', '"total":1000000000', "[" * 50,
]  # fmt: skip


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


PARSERS = _commands()


def _options(command: str) -> list[argparse.Action]:
    return [
        action
        for action in PARSERS[command]._actions
        if action.option_strings
        and not isinstance(action, argparse._HelpAction)
        and "--debug" not in action.option_strings  # asks for tracebacks: it shows them
    ]


def _value(action: argparse.Action, files: list[str]) -> st.SearchStrategy[list[str]]:
    """Strategy for the words that follow one option (none for a flag)."""
    name = max(action.option_strings, key=len)
    if action.nargs == 0:
        return st.just([name])
    if name in PROCESS_OPTIONS:
        pool = PROCESS_OPTIONS[name]
    elif name == "--time-limit":
        pool = TIME_LIMITS
    elif name in ("--output", "--out", "--checkpoint"):
        pool = files
    elif action.choices is not None:
        pool = [str(choice) for choice in action.choices] + ["nonsense", ""]
    else:
        pool = SMALL_VALUE.get(name, SMALL_N) + HOSTILE_NUMBERS
    return st.sampled_from(pool).map(lambda value: [name, value])


def _positionals(command: str, files: list[str]) -> st.SearchStrategy[list[str]]:
    words: list[st.SearchStrategy[str]] = []
    for action in PARSERS[command]._actions:
        if action.option_strings or isinstance(action, argparse._SubParsersAction):
            continue
        if action.dest in ("n", "N"):
            words.append(st.sampled_from(SMALL_N + HOSTILE_NUMBERS))
        elif action.choices is not None:
            words.append(st.sampled_from([*map(str, action.choices), "nonsense"]))
        else:
            words.append(st.sampled_from(files))
    return st.tuples(*words).map(list) if words else st.just([])


def argv_for(command: str, files: list[str]) -> st.SearchStrategy[list[str]]:
    choices = _options(command)
    options = (
        st.lists(st.sampled_from(choices).flatmap(lambda action: _value(action, files)), max_size=4)
        if choices
        else st.just([])
    )
    extra = st.lists(st.sampled_from(["--", "-x", "--nope", "8", "extra"]), max_size=1)
    return st.tuples(_positionals(command, files), options, extra).map(
        lambda parts: _one_process(
            [command, *parts[0], *(w for pair in parts[1] for w in pair), *parts[2]]
        )
    )


def _one_process(argv: list[str]) -> list[str]:
    """Bounds on what a good run may do: a count with a checkpoint would start a pool of
    every core, so it stays in this process; ``compare`` runs every engine for up to 10 s
    by default (``--n 1_000`` is n = 1000), so it gets half a second each; ``dominate``
    may search a minute for its proof, so it gets a second."""
    if argv[0] == "count" and "--workers" not in argv:
        return [*argv, "--workers", "1"]
    if argv[0] == "compare" and "--time-limit" not in argv:
        return [*argv, "--time-limit", "0.5"]
    if argv[0] == "dominate" and "--time-limit" not in argv:  # proving n = 9 takes a minute
        return [*argv, "--time-limit", "1"]
    return argv


def _files(folder: Path, contents: list[str]) -> list[str]:
    """Paths to hand to commands: generated files, devices, a folder, missing ones."""
    paths = []
    for index, text in enumerate(contents):
        path = folder / f"input{index}.txt"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        paths.append(str(path))
    return [*paths, "/dev/null", "/dev/full", str(folder), str(folder / "missing" / "f"), "-"]


contents = st.lists(
    st.lists(st.sampled_from(PIECES), max_size=30).map("".join), min_size=1, max_size=3
)


def _run(capsys, monkeypatch, folder: Path, argv: list[str]) -> None:
    monkeypatch.chdir(folder)  # whatever a run writes lands in the test's folder
    # /dev/full as an input has no line end: the readers' bound, smaller, keeps runs quick
    # (tests/test_reproducers.py reads to the real one).
    monkeypatch.setattr(cp_queens.formats, "MAX_LINE_CHARS", 1 << 20)
    started = _cpu()
    code, _, err = run_cli(capsys, *argv)
    spent = _cpu() - started
    shown = f"cp-queens {' '.join(argv)!r} -> {code}\n{err}"
    assert code in ALLOWED, shown
    assert "Traceback" not in err, shown
    assert len([line for line in err.splitlines() if line.startswith("cp-queens")]) <= 1, shown
    assert spent < RUN_SECONDS, shown


def _cpu() -> float:
    """CPU seconds of this process and its finished children (a busy machine stretches a
    run's wall time, not these)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _fuzz(examples: int):
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


COMMAND_NAMES = sorted(PARSERS)


def test_every_command_is_fuzzed() -> None:
    assert set(PARSERS) >= {"solve", "count", "enumerate", "verify", "check", "complete"}
    assert len(PARSERS) == len(COMMANDS)


#: ``compare`` forks a process per run (seconds per example): fuzzed in the slow profile.
QUICK_COMMANDS = [
    pytest.param(name, marks=pytest.mark.slow) if name == "compare" else name
    for name in COMMAND_NAMES
]


#: Four examples a command in the default run: a smoke test of every command; the slow
#: run's ``test_any_arguments_many_examples`` asks 150 of each, the same checks and more.
@pytest.mark.parametrize("command", QUICK_COMMANDS)
@_fuzz(4)
@given(data=st.data())
def test_any_arguments_end_in_a_documented_code_and_one_line(
    capsys, monkeypatch, tmp_path_factory, command: str, data
) -> None:
    folder = tmp_path_factory.mktemp(command)
    texts = data.draw(contents)
    files = _files(folder, texts)
    argv = data.draw(argv_for(command, files))
    _run(capsys, monkeypatch, folder, argv)


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMAND_NAMES)
@_fuzz(150)
@given(data=st.data())
def test_any_arguments_many_examples(
    capsys, monkeypatch, tmp_path_factory, command: str, data
) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    folder = tmp_path_factory.mktemp(command)
    texts = data.draw(contents)
    files = _files(folder, texts)
    argv = data.draw(argv_for(command, files))
    _run(capsys, monkeypatch, folder, argv)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    assert grown < MEMORY_GROWTH, (argv, grown)


@_fuzz(15)
@given(text=st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_any_checkpoint_file_through_the_cli(capsys, monkeypatch, tmp_path_factory, text) -> None:
    """A checkpoint file of any content: the exact count, or one line and exit 2."""
    folder = tmp_path_factory.mktemp("ck")
    path = folder / "n6.jsonl"
    path.write_text(text)
    monkeypatch.chdir(folder)
    code, out, err = run_cli(capsys, "count", "6", "--checkpoint", str(path), "--workers", "1")
    assert code in (ExitCode.OK, ExitCode.BAD_INPUT), err
    assert "Traceback" not in err
    assert len([line for line in err.splitlines() if line.startswith("cp-queens: error")]) <= 1
    if code == ExitCode.OK:
        assert out.startswith("n=6: 4 solutions"), (text, out)


# -- numbers are plain ASCII decimals ------------------------------------------------------

#: Spellings ``int()`` (or ``float()``) reads as a number that nobody types as one.
LOOSE_NUMBERS = ["1_0", "\u0668", "\uff18", "\u00b2", " 8", "8\n", "1\u0660"]


def _numeric(parser: argparse.ArgumentParser) -> list[tuple[argparse.Action, str]]:
    """The actions that read a number, with how an error names them."""
    found = []
    for action in parser._actions:
        kind = getattr(action.type, "__name__", "")
        if kind in (
            "board_size",
            "non_negative_int",
            "workers_value",
            "seed_value",
            "positive_seconds",
        ):
            name = action.option_strings[0] if action.option_strings else action.metavar
            found.append((action, str(name)))
    return found


def test_no_option_reads_numbers_with_int_or_float() -> None:
    for command, parser in PARSERS.items():
        for action in parser._actions:
            assert action.type not in (int, float), (command, action.option_strings)
    assert {name for _, name in _numeric(PARSERS["count"])} >= {"N", "--workers", "--time-limit"}


# One test per command, every spelling in it (42 test items cost the run more in their
# reports than the parser takes to refuse them).
@pytest.mark.parametrize("command", ["count", "solve", "enumerate", "verify", "complete", "trace"])
def test_numbers_in_other_scripts_or_with_underscores_are_refused(
    capsys, monkeypatch, tmp_path, command: str
) -> None:
    monkeypatch.chdir(tmp_path)  # should a run get through, what it writes lands here
    board = tmp_path / "board.txt"
    board.write_text("Q . . .\n. . . .\n. . . .\n. . . .\n")
    for loose, (action, name) in itertools.product(LOOSE_NUMBERS, _numeric(PARSERS[command])):
        positional = [] if not action.option_strings else {
            "count": ["6"], "solve": ["6"], "enumerate": ["6"], "trace": ["4", "-o", "t.svg"],
            "verify": [str(board)], "complete": [str(board)],
        }[command]  # fmt: skip
        given = [loose] if not action.option_strings else [name, loose]
        if command == "trace" and not action.option_strings:
            given += ["-o", "t.svg"]
        code, out, err = run_cli(capsys, command, *positional, *given)
        assert code == 2 and out == "", (command, name, loose, err)
        assert len(err.strip().splitlines()) == 1, err
        assert f"argument {name}:" in err and repr(loose) in err, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["compare", "--n", "\u0664..6"], "cannot read '\u0664..6'"),
        (["compare", "--n", "4..1_0"], "cannot read '4..1_0'"),
        (
            ["count", "6", "--cluster", "local:\u00b2"],
            "needs a number of workers >= 1, got '\u00b2'",
        ),
        (["count", "6", "--cluster", "local:\u0662"], "needs a number of workers >= 1"),
        (["count", "6", "--scheduler", "tcp://h:\u0668\u0667"], "a number from 1 to 65535"),
    ],
)
def test_ranges_and_addresses_take_ascii_digits_only(capsys, argv, message) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_csv_columns_take_ascii_digits_only(capsys, tmp_path) -> None:
    path = tmp_path / "p.csv"
    path.write_text("q0,q1,q2,q3\n\u0661,3,0,2\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "verify", str(path))
    assert code == 2 and "field 1 is '\u0661', not a column number" in err
    path.write_text("q0,q1,q2,q3\n 1, 3 ,0,2\n", encoding="utf-8")
    assert run_cli(capsys, "verify", str(path))[0] == 0  # spaces around a number are fine
