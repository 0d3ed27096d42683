"""A Griffe extension for the API page: reStructuredText literal blocks shown as code.

The docstrings are written for ``help()`` as much as for the site, and mark a block of
code or a picture the Python way: a paragraph ending in ``::``, then, after a blank line,
an indented block. Markdown has no such block: the page showed the ``::`` ("for
people::") and, inside a list item, ran a board's rows into one line. Before
mkdocstrings renders a docstring, each such block becomes a fenced code block at the
indentation of the paragraph that introduces it (in a list item, the item's text), and
the paragraph ends in ``:``; list items are indented the way Python-Markdown reads them.
Loaded by ``mkdocs.yml`` (the handler's ``extensions``).
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

#: A list item's marker: its text starts after it.
_ITEM = re.compile(r"^(\s*)([*+-]|\d+[.)])\s+")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def fence_literal_blocks(text: str) -> str:
    """``text`` with every ``::`` literal block turned into a fenced code block.

    Examples:
        >>> print(fence_literal_blocks("* a board::\\n\\n      Q .\\n      . Q\\n\\n  more"))
        * a board:
        <BLANKLINE>
          ```text
          Q .
          . Q
          ```
        <BLANKLINE>
          more
    """
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.rstrip().endswith("::"):
            out.append(line)
            i += 1
            continue
        item = _ITEM.match(line)
        indent = len(item.group(0)) if item else _indent(line)
        head = line.rstrip()[:-1]  # "for people::" -> "for people:"
        if head.strip() != ":":
            out.append(head)
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        block: list[str] = []
        while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > indent):
            block.append(lines[j])
            j += 1
        while block and not block[-1].strip():
            block.pop()
        if not block:  # "::" with nothing indented after it: only the colon changes
            i += 1
            continue
        shift = min(_indent(b) for b in block if b.strip())
        pad = " " * indent
        out += ["", f"{pad}```text"]
        out += [pad + b[shift:] if b.strip() else "" for b in block]
        out += [f"{pad}```", ""]
        i = j
        while i < len(lines) and not lines[i].strip():  # one blank line after the fence
            i += 1
    return "\n".join(out)


def four_space_items(text: str) -> str:
    """List items' continuation lines indented as Python-Markdown needs them: four spaces
    past the marker. The docstrings indent them two (past ``* ``), which Markdown reads
    as a lazy continuation of one paragraph: a second paragraph or a code block in an
    item left the list, and the next item ran into it.

    Examples:
        >>> print(four_space_items("* a:\\n\\n  ```text\\n  Q\\n  ```\\n\\n  b\\n* c\\n\\nd"))
        * a:
        <BLANKLINE>
            ```text
            Q
            ```
        <BLANKLINE>
            b
        <BLANKLINE>
        * c
        <BLANKLINE>
        d
    """
    out: list[str] = []
    item: tuple[int, int] | None = None  # the open item: its marker's and its text's column
    loose = False  # the open item holds a blank line (paragraphs, a code block)
    for line in text.split("\n"):
        if item is not None and not line.strip():
            loose = True
        elif item is not None:
            marker, content = item
            if _indent(line) >= content:  # the item goes on (a nested item moves with it)
                out.append(" " * (marker + 4 - content) + line)
                continue
            item = None
        found = _ITEM.match(line)
        if found:
            if loose and out and out[-1].strip():
                out.append("")  # else Markdown reads the item as the paragraph's next line
            item, loose = (len(found.group(1)), len(found.group(0))), False
        out.append(line)
    return "\n".join(out)


class RstLiteralBlocks(Extension):
    """Rewrites each object's docstring as it is loaded (see the module docstring)."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            text = obj.docstring.value
            if "::" in text:
                text = fence_literal_blocks(text)
            obj.docstring.value = four_space_items(text)
