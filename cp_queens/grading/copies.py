"""Copies flagged for the lecturer: a submission that is a file the course ships, or
another student's, once whitespace and comments are set aside.

The course's repository holds right answers (``examples/assignment/submissions/ada.py``
scores full marks; ``examples/solutions/`` are the keys of the lessons): handed in
byte for byte, or re-indented with a comment changed, they earn full marks, and
nothing said so. A flag is not a verdict: two students may write the same ten lines,
and a student may start from the sample as the lesson suggests. So the flag goes to
the lecturer only (``marks.csv``'s ``flags`` column, the class summary), never into
the student's feedback, and the marks stay what the rubric gave; the lecturer decides
(an override). ``similarity`` adds, for each submission, the nearest other one of the
class, for a lecturer who wants to look further than identical files.

Examples:
    >>> normalised("x = 1  # one\\n\\n\\ny  =  2\\n") == normalised("x=1\\ny=2\\n")
    True
"""

from __future__ import annotations

import difflib
import hashlib
import io
import json
import tokenize
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path

#: Where the course's own files are, when the toolkit runs from its repository or an
#: sdist (MANIFEST.in grafts ``examples``).
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

_SKIPPED = (tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER)
_MARKS = {tokenize.NEWLINE: "\n", tokenize.INDENT: "<indent>", tokenize.DEDENT: "<dedent>"}

#: Tokens compared for ``similarity`` at most (difflib's time grows with their product).
TOKENS = 4000


def normalised(source: str) -> str:
    """The source's tokens without comments, blank lines or the spaces between tokens
    (indentation kept as tokens); the source's lines stripped when it does not tokenize."""
    try:
        tokens = [
            _MARKS.get(token.type, token.string)
            for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type not in _SKIPPED
        ]
    except (tokenize.TokenError, SyntaxError, ValueError, RecursionError):
        lines = (line.split("#", 1)[0].strip() for line in source.splitlines())
        return "\n".join(line for line in lines if line)
    return " ".join(tokens)


def fingerprint(source: str, beside: Mapping[str, bytes] | None = None) -> str:
    """A digest of the normalised source (and of the files beside it)."""
    parts = [normalised(source)]
    for name, data in sorted((beside or {}).items()):
        parts.append(f"{name}\0{normalised(data.decode('utf-8', errors='replace'))}")
    return hashlib.sha256("\0\0".join(parts).encode()).hexdigest()


@lru_cache(maxsize=4)
def shipped(folder: Path = EXAMPLES) -> dict[str, str]:
    """The fingerprint of every ``.py`` file and notebook the course ships -> its path
    (relative to the repository): the keys a class must not hand in as their own."""
    found: dict[str, str] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.rglob("*")):
        if path.suffix not in (".py", ".ipynb") or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
            if path.suffix == ".ipynb":
                text = _notebook(text)
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        found.setdefault(fingerprint(text), str(path.relative_to(folder.parent)))
    return found


def _notebook(text: str) -> str:
    cells = json.loads(text).get("cells", [])
    return "\n\n".join(
        "".join(cell.get("source", "")) for cell in cells if cell.get("cell_type") == "code"
    )


def flags(
    students: Sequence[str],
    prints: Sequence[str | None],
    course: dict[str, str] | None = None,
    paths: Sequence[Path] = (),
) -> list[list[str]]:
    """For each student, what their submission is a copy of: a file of the course, or
    other students' submissions. ``prints`` are the fingerprints (None: not read);
    ``paths`` where each was read (the course's own file graded where it ships, as the
    examples' class is, is no copy of itself)."""
    course = shipped() if course is None else course
    said: list[list[str]] = [[] for _ in students]
    owners: dict[str, list[int]] = {}
    for index, digest in enumerate(prints):
        if digest is None:
            continue
        owners.setdefault(digest, []).append(index)
        original = digest in course and EXAMPLES.parent / course[digest]
        if index < len(paths) and original and _same(paths[index], original):
            continue
        if digest in course:
            said[index].append(f"the course's {course[digest]} (whitespace and comments aside)")
    for group in owners.values():
        for index in group:
            others = [students[other] for other in group if other != index]
            if others:
                said[index].append(
                    f"the same as {', '.join(others)} (whitespace and comments aside)"
                )
    return said


def similarity(sources: Sequence[str | None]) -> list[tuple[int, float] | None]:
    """For each submission, the nearest other one of the class and how near (0..1, the
    share of their normalised tokens that match, difflib's ratio); None alone."""
    tokens = [None if text is None else normalised(text).split()[:TOKENS] for text in sources]
    nearest: list[tuple[int, float] | None] = [None] * len(sources)
    for i, mine in enumerate(tokens):
        if mine is None:
            continue
        for j in range(i + 1, len(tokens)):
            theirs = tokens[j]
            if theirs is None:
                continue
            matcher = difflib.SequenceMatcher(None, mine, theirs, autojunk=False)
            if matcher.real_quick_ratio() < _best(nearest[i], nearest[j]):
                continue
            ratio = matcher.ratio()
            for here, there in ((i, j), (j, i)):
                if nearest[here] is None or ratio > nearest[here][1]:  # type: ignore[index]
                    nearest[here] = (there, ratio)
    return nearest


def _best(*found: tuple[int, float] | None) -> float:
    """The lower of the best ratios found so far: a pair that cannot beat it is skipped."""
    return min((pair[1] if pair is not None else 0.0) for pair in found)


def described(students: Sequence[str], nearest: Iterable[tuple[int, float] | None]) -> list[str]:
    """``similarity``'s answer in words for ``marks.csv``: ``"bob 0.93"``."""
    return ["" if pair is None else f"{students[pair[0]]} {pair[1]:.2f}" for pair in nearest]


def _same(path: Path, other: Path) -> bool:
    try:
        return path.resolve() == other.resolve()
    except OSError:
        return False
