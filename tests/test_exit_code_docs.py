"""Every exit code printed in the docs and in ``--help`` agrees with the one table
(``cp_queens/cli/exit_codes.py``), and ``docs/exit-codes.md`` is that table."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from cp_queens.cli import build_parser
from cp_queens.cli.exit_codes import BY_COMMAND, MEANINGS, ExitCode, command_codes

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: "exit 4", "exits 3", "exit code 2", "the exit code is 1", "exits with code 1", "(exit 130)"
MENTION = re.compile(r"\bexit(?:s|ed)?(?: with)?(?: code| status)?(?: is)? (\d+)(?!\.?\d)", re.I)

#: More codes of a list after a mention: "exit code 0 when ..., 4 when ..., 2 on ...".
LISTED = re.compile(r"[,;] (\d+) (?:when|on|if|for)\b")

#: Words that name one outcome: a sentence with one of them and a single exit code must
#: give that outcome's code.
KEYWORDS = {
    "disagree": ExitCode.DISAGREE,
    "time limit": ExitCode.TIME_LIMIT,
    "time-limit": ExitCode.TIME_LIMIT,
    "ctrl-c": ExitCode.INTERRUPTED,
    "sigterm": ExitCode.INTERRUPTED,
    "unreadable": ExitCode.BAD_INPUT,
    "no solution exists": ExitCode.NEGATIVE,
}


def sentences(text: str) -> list[str]:
    """Paragraphs (apart at blank lines, table rows, console lines and ``--help``'s option
    entries) cut into sentences."""
    chunks = re.split(r"\n\s*\n|\n(?=\s*[|$#>-])", text)
    return [
        sentence
        for chunk in chunks
        for sentence in re.split(r"(?<=[.;:!?])\s+", " ".join(chunk.split()))
    ]


def wrong_codes(text: str) -> list[str]:
    """The sentences of ``text`` whose exit code is no code, or not the code of what they
    say (a sentence naming one outcome and giving one code)."""
    found = []
    for sentence in sentences(text):
        codes = {int(number) for number in MENTION.findall(sentence)}
        if codes:
            codes |= {int(number) for number in LISTED.findall(sentence)}
        unknown = codes - {int(code) for code in ExitCode}
        if unknown:
            found.append(f"no such exit code {sorted(unknown)}: {sentence.strip()}")
            continue
        if len(codes) != 1:
            continue
        lowered = sentence.lower()
        for word, code in KEYWORDS.items():
            if word in lowered and codes != {int(code)}:
                found.append(f"'{word}' is exit {int(code)}, not {codes.pop()}: {sentence}")
                break
    return found


def test_the_check_catches_the_wrong_code_the_issue_found() -> None:
    old = (
        "If finished engines disagree on a count, the `agrees` column says `NO` and the "
        "exit code is 1."
    )
    assert wrong_codes(old) and not wrong_codes(old.replace("is 1", "is 3"))
    assert wrong_codes("It exits 5 when it feels like it.")
    assert not wrong_codes("Exit code 0 when done, 4 when the time limit stopped it.")


PAGES = sorted([*DOCS.rglob("*.md"), ROOT / "README.md"])


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_exit_code_in_the_docs_agrees_with_the_table(page: Path) -> None:
    assert wrong_codes(page.read_text(encoding="utf-8")) == []


def _help(command: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        build_parser().parse_args([*command, "--help"])
    return out.getvalue()


@pytest.mark.parametrize("command", [[], *([name] for name in BY_COMMAND)], ids=str)
def test_every_exit_code_in_help_agrees_with_the_table(command: list[str]) -> None:
    assert wrong_codes(_help(command)) == []


def test_the_exit_codes_page_is_the_table() -> None:
    text = (DOCS / "exit-codes.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", text, re.M)
    documented = {int(code): meaning.strip().replace("`", "") for code, meaning in rows}
    assert documented == {int(code): meaning for code, meaning in MEANINGS.items()}
    assert set(MEANINGS) == set(ExitCode)


@pytest.mark.parametrize("command", sorted(BY_COMMAND))
def test_each_command_page_writes_its_codes_from_the_table(command: str) -> None:
    import sys

    sys.path.insert(0, str(DOCS / "_hooks"))
    try:
        from cli_help import on_page_markdown
    finally:
        sys.path.remove(str(DOCS / "_hooks"))
    page = (DOCS / "commands" / f"{command}.md").read_text(encoding="utf-8")
    assert f"<!-- exit-codes {command} -->" in page
    shown = on_page_markdown(f"<!-- exit-codes {command} -->")
    assert command_codes(command) in shown and "exit-codes.md" in shown
    assert set(BY_COMMAND[command]) <= set(ExitCode)
