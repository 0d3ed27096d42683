"""The grader's side of the conversation with a submission: which messages it believes.

The harness and the student's code share one process, so nothing the harness
holds (its descriptors, a secret, a nonce) is hidden from the student: anything
the harness can write, the submission can write too. The grader therefore
believes no message for what it says, only for *when* it comes:

- it asks for one board size at a time, and only after the file has loaded;
- it takes one reply (``result`` or ``error``) for the size it asked, and then
  asks for the next;
- a reply for a size it is not asking for (before it was asked, after it was
  answered, a second one, or a size not graded at all) is a violation: the size
  gets 0 points and the feedback names what happened.

What a submission can still do is answer the size it is asked for in its own
words, which is no more than ``return`` in ``model(n)`` could: a reply is
judged like any other. Each run is its own process tree in its own
namespaces, so nothing one submission writes reaches another's conversation.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: Replies that answer a size.
REPLIES = ("result", "error")
#: Messages of the loading phase, before any size is asked.
LOADING = ("loaded", "load_error", "setup_error")
#: What the harness saw while the running size ran (CP-SAT's parameters at a solve): not a
#: reply; the last one of a size says all (``child._SolverWatch``).
DURING = ("solver",)


@dataclass(slots=True)
class Conversation:
    """What was asked and what was accepted, message by message."""

    sizes: Sequence[int]
    accepted: list[dict[str, Any]] = field(default_factory=list)
    violations: dict[int, str] = field(default_factory=dict)  # size -> what happened
    notes: list[str] = field(default_factory=list)  # violations about no graded size
    garbled: int = 0  # lines that were not JSON objects with an event
    asking: int | None = None  # the index in ``sizes`` of the size running now
    answered: set[int] = field(default_factory=set)
    loaded: bool = False
    finished: bool = False  # every size answered, or loading failed

    def next_size(self) -> int | None:
        """The size to ask for now (after loading, or after a reply), or None: all asked."""
        index = 0 if self.asking is None else self.asking + 1
        if index >= len(self.sizes):
            self.finished = True
            self.asking = len(self.sizes)
            return None
        self.asking = index
        n = self.sizes[index]
        self.accepted.append({"event": "start", "n": n})  # the grader's own record
        return n

    @property
    def running(self) -> int | None:
        """The size asked for and not answered yet."""
        if self.asking is None or self.asking >= len(self.sizes):
            return None
        n = self.sizes[self.asking]
        return None if n in self.answered else n

    def take(self, line: bytes | bytearray) -> bool:
        """Judge one line from the result channel; True when the grader should ask for
        the next size (the running one was just answered, or the file just loaded)."""
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser
            self.garbled += 1
            return False
        if not isinstance(message, dict) or not isinstance(message.get("event"), str):
            self.garbled += 1
            return False
        event = message["event"]
        if event in LOADING:
            if self.loaded or self.asking is not None or self.finished:
                self._out_of_turn(f"a second '{event}' message, after the file had loaded")
                return False
            if event == "loaded":
                self.loaded = True
                self.accepted.append(message)
                return True
            self.accepted.append(message)
            self.finished = True
            return False
        if event in DURING:
            if message.get("n") == self.running and self.running is not None:
                self.accepted.append(message)
            else:
                self._out_of_turn(f"a '{event}' message for no running board size")
            return False
        if event not in REPLIES:
            self._out_of_turn(f"a message the grader does not know ({event[:40]!r})")
            return False
        n = message.get("n")
        if not isinstance(n, int) or isinstance(n, bool):
            self._out_of_turn(f"a '{event}' for no board size")
            return False
        running = self.running
        if n == running:
            self.accepted.append(message)
            self.answered.add(n)
            return True
        if n not in self.sizes:
            self._out_of_turn(f"a result for n={n}, a size not asked")
        elif n in self.answered:
            self._violate(n, f"a second result for n={n}, after the first was taken")
        elif running is None:
            self._violate(n, f"a result for n={n} before the grader asked for it")
        else:
            self._violate(n, f"a result for n={n} while model({running}) was running")
        return False

    def _violate(self, n: int, what: str) -> None:
        self.violations.setdefault(n, f"on the grader's result channel, the program wrote {what}")

    def _out_of_turn(self, what: str) -> None:
        text = f"on the grader's result channel, the program wrote {what}: ignored"
        if text not in self.notes and len(self.notes) < 10:
            self.notes.append(text)


#: What reading one reply may cost the grader at most, whatever the task: a few hundred MB
#: of its memory (``cost`` estimates it). A forged 64 MB line of one-queen boards parsed
#: whole held 3.4 GB.
MOST = 256 << 20
#: ... and at least, whatever the task: a wrong answer judged as wrong, not stopped (every
#: permutation of 8 columns, 40,320 boards, costs about 16 MB).
LEAST = 32 << 20
#: How much more than the right answer a reply may cost: every solution twice is judged.
FACTOR = 4

#: Bytes of the grader's memory per character of a reply line, once ``json.loads`` has read
#: it (a list, a value in one, a mapping; any byte, as in a string): counted as the line
#: streams, at C speed, before a byte of it is parsed.
_LIST, _VALUE, _MAPPING, _BYTE = 64, 40, 240, 1


def cost(data: bytes | bytearray, start: int = 0, stop: int | None = None) -> int:
    """About what ``data[start:stop]``, a part of a reply line, costs the grader once
    parsed: a list ``[`` 64 bytes, each value after a ``,`` 40 (an object and its slot), a
    mapping 240, every byte one more. Over-counts a string holding these characters:
    never under."""
    stop = len(data) if stop is None else stop
    return (
        _LIST * data.count(b"[", start, stop)
        + _VALUE * data.count(b",", start, stop)
        + _MAPPING * data.count(b"{", start, stop)
        + _BYTE * (stop - start)
    )


def reply_budget(expected: Any) -> int:
    """What one reply may cost the grader (``cost``) when ``expected`` is the right
    answer: ``FACTOR`` times the right answer's own, within ``LEAST .. MOST``."""
    honest = json.dumps(expected, default=_plain).encode()
    return max(LEAST, min(MOST, FACTOR * cost(honest)))


def _plain(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return sorted(value)
    return list(value) if hasattr(value, "__iter__") else str(value)


class TooMuch(Exception):
    """A line on the result channel would cost the grader more than its budget."""


class Lines:
    """The result channel cut into lines, in time linear in what it carries: each byte is
    looked at once when it arrives (a reply line of tens of MB comes in thousands of
    reads; searching the whole line again at each read took the grader minutes of CPU).
    A line's cost (``cost``) is counted as it streams: past ``budget``, ``feed`` raises
    ``TooMuch`` before the line is whole, so no line larger than that is ever parsed."""

    def __init__(self, budget: int | None = None) -> None:
        self.pending = bytearray()
        self.scanned = 0  # bytes searched for a line's end, for the tests: what was fed
        self.budget = budget  # what one line may cost; None: no bound
        self.spent = 0  # the cost of the line being read

    def feed(self, data: bytes) -> list[bytes]:
        """The lines ``data`` completes (without their newline).

        Raises:
            TooMuch: the line being read costs more than ``budget``.
        """
        lines: list[bytes] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            self.scanned += (len(data) if end < 0 else end + 1) - start
            stop = len(data) if end < 0 else end
            self.spent += cost(data, start, stop)
            if self.budget is not None and self.spent > self.budget:
                raise TooMuch(f"a line costing more than {self.budget} bytes")
            if end < 0:
                self.pending += data[start:]
                return lines
            if self.pending:
                self.pending += data[start:end]
                lines.append(bytes(self.pending))
                self.pending.clear()
            else:
                lines.append(data[start:end])
            self.spent = 0
            start = end + 1
