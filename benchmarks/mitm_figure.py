"""Draw docs/mitm_cut.svg: the cut and the join of the meet-in-the-middle counter, on n = 8.

Run: ``python benchmarks/mitm_figure.py [OUT]`` (default ``docs/mitm_cut.svg``). Every
figure in the drawing comes from ``cp_queens.engines.fast.mitm`` itself (the halves, their
keys, the pairs), for the class of the top columns {a, e, f, h}.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cp_queens.engines.fast import mitm

N = 8
TOP = (0, 4, 5, 7)  # the class: columns of the top half (a, e, f, h)
CELL = 26
FONT = "font-family='DejaVu Sans, Arial, sans-serif'"


def halves_with_rows(cls: int) -> list[tuple[list[int], int]]:
    """Each top half on ``cls``: its columns by row, and its key (as mitm.halves makes it)."""
    k = N // 2
    table = mitm.key_tables(N)
    found: list[tuple[list[int], int]] = []

    def place(row: int, cols: list[int], used: int, left: int, right: int, key: int) -> None:
        if row == k:
            found.append((cols, key))
            return
        free = cls & ~(used | left | right)
        for c in range(N):
            if free >> c & 1:
                bit = 1 << c
                place(
                    row + 1,
                    [*cols, c],
                    used | bit,
                    (left | bit) << 1,
                    (right | bit) >> 1,
                    key | table[row][c],
                )

    place(0, [], 0, 0, 0, 0)
    assert [key for _, key in found] == mitm.halves(N, -1, cls)
    return found


def text(
    x: float,
    y: float,
    words: str,
    size: int = 13,
    anchor: str = "start",
    weight: str = "normal",
    fill: str = "#222",
) -> str:
    return (
        f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size}' {FONT} text-anchor='{anchor}' "
        f"font-weight='{weight}' fill='{fill}'>{words}</text>"
    )


def draw_board(x0: float, y0: float, queens: list[int], width: int) -> list[str]:
    """The solution on the board, the cut, the class columns and the crossing diagonals."""
    out = []
    k = N // 2
    top = set(TOP)
    for r in range(N):
        for c in range(N):
            dark = (r + c) % 2 == 1
            fill = "#b58863" if dark else "#f0d9b5"
            if (r < k and c in top) or (r >= k and c not in top):
                fill = "#7fa6d6" if dark else "#bcd3ee"
            if r >= k:
                fill = fill if c in top else ("#d48e8e" if dark else "#f2c4c4")
            out.append(
                f"<rect x='{x0 + c * CELL}' y='{y0 + r * CELL}' width='{CELL}' "
                f"height='{CELL}' fill='{fill}'/>"
            )
    for r, c in enumerate(queens):
        out.append(
            text(
                x0 + c * CELL + CELL / 2,
                y0 + r * CELL + CELL * 0.75,
                "&#9819;",
                size=20,
                anchor="middle",
            )
        )
    cut = y0 + k * CELL
    out.append(
        f"<line x1='{x0 - 8}' y1='{cut}' x2='{x0 + N * CELL + 8}' y2='{cut}' "
        "stroke='#c00' stroke-width='3' stroke-dasharray='6 4'/>"
    )
    out.append(text(x0 + N * CELL + 12, cut + 4, "the cut", size=12, fill="#c00"))
    for c in range(N):
        out.append(
            text(
                x0 + c * CELL + CELL / 2,
                y0 + N * CELL + 16,
                "abcdefgh"[c],
                size=12,
                anchor="middle",
            )
        )
    out.append(text(x0, y0 - 30, "1. Cut the board in two halves", size=15, weight="bold"))
    out.append(text(x0, y0 - 12, "top: the columns C = {a, e, f, h} (blue);", size=12))
    out.append(
        text(x0, y0 + N * CELL + 36, "bottom: the other four (red). A solution is one", size=12)
    )
    out.append(text(x0, y0 + N * CELL + 52, "top and one bottom that share no diagonal", size=12))
    out.append(text(x0, y0 + N * CELL + 68, "crossing the cut: a key of 2 x 7 bits each.", size=12))
    return out


def key_strip(x0: float, y0: float, key: int, width: int, size: float) -> list[str]:
    """A key as 2 x width small squares: "/" sums, then "\\" differences."""
    out = []
    for bit in range(2 * width):
        on = key >> bit & 1
        gap = 4 if bit >= width else 0
        fill = "#333" if on else "#fff"
        out.append(
            f"<rect x='{x0 + bit * size + gap:.1f}' y='{y0:.1f}' width='{size - 1:.1f}' "
            f"height='{size - 1:.1f}' fill='{fill}' stroke='#999' stroke-width='0.5'/>"
        )
    return out


def draw_join(x0: float, y0: float) -> list[str]:
    cls = sum(1 << c for c in TOP)
    width = N - 1
    tops = halves_with_rows(cls)
    bottoms = mitm.halves(N, -1, ((1 << N) - 1) ^ cls, as_bottom=True)
    size = 9
    strip = 2 * width * size + 4
    out = [
        text(x0, y0 - 30, "2. Join the class: count the pairs of keys", size=15, weight="bold"),
        text(x0, y0 - 12, "with no bit in common (AND = 0)", size=12),
    ]
    col0 = x0 + strip + 60
    pitch = 36
    for j in range(len(bottoms)):
        x = col0 + j * pitch
        out.append(text(x + pitch / 2 - 4, y0 + 8, f"b{j + 1}", size=12, anchor="middle"))
    out.append(text(x0, y0 + 8, "/ sums", size=11, fill="#555"))
    out.append(text(x0 + width * size + 4, y0 + 8, "\\ differences", size=11, fill="#555"))
    out.append(text(x0 + strip + 8, y0 + 8, "tops", size=11, fill="#555"))
    pairs = 0
    for i, (cols, key) in enumerate(tops):
        y = y0 + 20 + i * 22
        out += key_strip(x0, y, key, width, size)
        out.append(
            text(x0 + strip + 8, y + 8, "".join("abcdefgh"[c] for c in cols), size=11, fill="#555")
        )
        for j, other in enumerate(bottoms):
            ok = key & other == 0
            pairs += ok
            x = col0 + j * pitch
            out.append(
                f"<rect x='{x}' y='{y - 3}' width='{pitch - 8}' height='18' "
                f"fill='{'#9fd39f' if ok else '#eee'}' stroke='#bbb'/>"
            )
            out.append(
                text(
                    x + (pitch - 8) / 2,
                    y + 10,
                    "&#10003;" if ok else "&#183;",
                    size=13,
                    anchor="middle",
                    fill="#161" if ok else "#999",
                )
            )
    y = y0 + 20 + len(tops) * 22 + 8
    out.append(
        text(
            x0,
            y + 6,
            "bottom halves b1..b4 on the other columns (keys, flipped):",
            size=11,
            fill="#555",
        )
    )
    for j, key in enumerate(bottoms):
        out.append(text(x0, y + 26 + j * 18, f"b{j + 1}", size=11))
        out += key_strip(x0 + 24, y + 17 + j * 18, key, width, size)
    out.append(
        text(
            x0,
            y + 26 + len(bottoms) * 18 + 14,
            f"{pairs} pairs = the {pairs} solutions of this class. The C counter tests 512 pairs",
            size=12,
            weight="bold",
        )
    )
    out.append(
        text(
            x0,
            y + 26 + len(bottoms) * 18 + 30,
            "at a time: each bit's set of bottoms is a bitset, and a top ORs the sets",
            size=12,
        )
    )
    out.append(
        text(
            x0,
            y + 26 + len(bottoms) * 18 + 46,
            "of its bits; the bottoms outside the union are its partners.",
            size=12,
        )
    )
    assert pairs == mitm.count_class(N, -1, cls)
    return out


def main() -> None:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/mitm_cut.svg")
    solution = [0, 4, 7, 5, 2, 6, 1, 3]  # its top rows use exactly TOP
    assert sorted(solution[: N // 2]) == sorted(TOP)
    parts = draw_board(30, 60, solution, N * CELL) + draw_join(330, 60)
    width, height = 900, 470
    svg = (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
        f"viewBox='0 0 {width} {height}'>\n<rect width='100%' height='100%' fill='white'/>\n"
        + "\n".join(parts)
        + "\n</svg>\n"
    )
    target.write_text(svg, encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
