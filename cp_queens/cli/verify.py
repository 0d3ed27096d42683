"""``cp-queens verify``: check placements read from a file or stdin."""

from __future__ import annotations

import argparse

from cp_queens.cli._common import (
    add_format_argument,
    board_size,
    deliver,
    non_negative_int,
    open_input,
)
from cp_queens.problem import Problem
from cp_queens.verify import verify, verify_rows
from cp_queens.writers import FORMATS, choices


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify",
        description="Read placements (jsonl: one JSON array of columns per line; csv; or boards "
        "of '.' and 'Q' separated by blank lines; the format is detected) and check that no "
        "two queens attack each other. Prints a summary; exit code 0 when all are valid, "
        "1 when any is not or there is nothing to check, 2 when the input cannot be read.",
        epilog="examples:\n"
        "  cp-queens enumerate 8 --format jsonl | cp-queens verify --expect 92 --distinct\n"
        "  echo '[0, 2, 4, 1, 3, 5]' | cp-queens verify      names the attacking pair\n"
        "  cp-queens verify solutions.csv --n 10 --format json",
    )
    parser.add_argument(
        "file", nargs="?", default="-", metavar="FILE", help="file to read (default: stdin)"
    )
    parser.add_argument(
        "--n", type=board_size, metavar="N", help="also require every placement to have size N"
    )
    parser.add_argument(
        "--distinct",
        action="store_true",
        help="also require that no placement repeats (keeps one hash per placement)",
    )
    parser.add_argument(
        "--expect", type=non_negative_int, metavar="K", help="also require exactly K placements"
    )
    add_format_argument(parser, choices("summary", "document"))
    parser.set_defaults(run=run)


#: Failures listed in a JSON answer; the count of all of them is in ``stats``.
JSON_FAILURES = 100


def run(args: argparse.Namespace) -> int:
    from cp_queens.answer import ANSWER, NEGATIVE, Answer
    from cp_queens.formats import read_blocks

    name = "<stdin>" if args.file == "-" else args.file
    checked = invalid = 0
    sizes: set[int] = set()
    seen: dict[int, int] = {}
    problem = None if args.n is None else Problem(args.n)
    failures: list[dict[str, object]] = []

    def judge(cols: list[int], index: int) -> None:
        nonlocal invalid
        verdict = verify(cols, problem)
        if verdict.ok and args.distinct:
            earlier = seen.setdefault(hash(tuple(cols)), index)
            if earlier != index:
                verdict = verdict.__class__(False, f"repeats placement {earlier}")
        if not verdict.ok:
            invalid += 1
            if FORMATS[args.format].document:
                if len(failures) < JSON_FAILURES:
                    failures.append({"placement": index, "n": len(cols), "reason": verdict.reason})
            else:
                print(f"{name}: placement {index} (n={len(cols)}): {verdict.reason}")

    with open_input(args.file) as source:
        for item in read_blocks(source, name):
            if isinstance(item, list):
                checked += 1
                sizes.add(len(item))
                judge(item, checked)
                continue
            # A block of placements: judged all at once; only failures go one by one.
            first = checked + 1
            checked += len(item)
            sizes.add(item.shape[1])
            ok = None if args.distinct or args.n is not None else verify_rows(item)
            if ok is None:
                for offset, cols in enumerate(item.tolist()):
                    judge(cols, first + offset)
            else:
                # The first row also goes through the exact verifier: a cross-check of
                # the bit masks against it on every block.
                if bool(verify(item[0].tolist())) != bool(ok[0]):
                    raise AssertionError(f"block check disagrees with verify() on {item[0]}")
                for offset in (~ok).nonzero()[0].tolist():
                    judge(item[offset].tolist(), first + offset)
    size_text = ", ".join(f"n={n}" for n in sorted(sizes)) or "no placements"
    problems = []
    if invalid:
        problems.append(f"{invalid} invalid")
    if args.expect is not None and checked != args.expect:
        problems.append(f"expected {args.expect} placements")
    valid = not problems and checked > 0
    if problems:
        summary = f"FAILED: {checked} placements checked ({size_text}): {', '.join(problems)}"
    elif checked == 0:
        summary = f"NOTHING TO CHECK: {name} holds no placement"
    else:
        summary = f"OK: {checked} placements checked ({size_text}), all valid"
    details = {
        "source": name,
        "checked": checked,
        "invalid": invalid,
        "sizes": sorted(sizes),
        "failures": failures,
        "summary": summary,
    }
    outcome = ANSWER if valid else NEGATIVE
    return deliver(Answer("verify", problem, valid, outcome=outcome, details=details), args.format)
