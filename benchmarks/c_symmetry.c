/* The classic full-symmetry bitmask counter in C, as the strong yardstick for
 * benchmarks/count.py.
 *
 * Written for this project from the published description of the well-known
 * 2003 algorithm (first queen in a corner or not, BOUND1/BOUND2 pruning,
 * COUNT2/4/8 by orbit size, recursion over three bit masks); no code copied.
 *
 * Bit c of a row mask is column c. `down` holds the columns taken, `left` and
 * `right` the diagonals, shifted one column per row. Only canonical boards
 * (lexicographically smallest of their 8 images) are searched:
 *
 *  - corner: q[0] = 0, q[1] = b in 2..n-2; column 1 closed in rows 2..b-1
 *    (else the transpose is smaller). Such a board has 8 distinct images, so
 *    each leaf counts 8, with no check.
 *  - edge: no corner queen; q[0] = b with b < n-1-b. Side columns closed in
 *    rows 1..b-1, both taken by row n-1-b, and the last queen at least b from
 *    the corners (else an image starts with a smaller column). Each leaf is
 *    compared with its images: 0 if one is smaller, else 8 / (number of
 *    images equal to it), i.e. COUNT8, COUNT4 or COUNT2.
 *
 * Usage: c_symmetry N  ->  prints "total unique".
 */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long long u64;

static int n, last, bound1, bound2;
static u64 mask, side, lastmask;
static u64 board[64];
static u64 count2, count4, count8;

static int column(u64 bit) { return __builtin_ctzll(bit); }

/* Orbit size of the complete edge board if it is canonical, else 0. */
static int orbit(void) {
    int q[64], inv[64];
    for (int r = 0; r < n; r++) {
        q[r] = column(board[r]);
        inv[q[r]] = r;
    }
    int same = 1;
    for (int image = 1; image < 8; image++) {
        int order = 0;
        for (int i = 0; i < n && order == 0; i++) {
            int v;
            switch (image) {
            case 1: v = last - q[i]; break;          /* mirror left-right */
            case 2: v = q[last - i]; break;          /* mirror up-down */
            case 3: v = last - q[last - i]; break;   /* rotate 180 */
            case 4: v = inv[i]; break;               /* transpose */
            case 5: v = last - inv[last - i]; break; /* anti-transpose */
            case 6: v = last - inv[i]; break;        /* rotate 90 */
            default: v = inv[last - i]; break;       /* rotate 270 */
            }
            if (v != q[i]) order = v < q[i] ? -1 : 1;
        }
        if (order < 0) return 0;
        if (order == 0) same++;
    }
    return 8 / same;
}

static void corner(int y, u64 left, u64 down, u64 right) {
    u64 free = mask & ~(left | down | right);
    if (y == last) {
        if (free) count8++;
        return;
    }
    if (y < bound1) free &= ~2ULL;
    while (free) {
        u64 bit = free & -free;
        free ^= bit;
        corner(y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
}

static void edge(int y, u64 left, u64 down, u64 right) {
    u64 free = mask & ~(left | down | right);
    if (y == last) {
        if (free && !(free & lastmask)) {
            board[y] = free;
            switch (orbit()) {
            case 2: count2++; break;
            case 4: count4++; break;
            case 8: count8++; break;
            }
        }
        return;
    }
    if (y < bound1) {
        free &= ~side;
    } else if (y == bound2) {
        if (!(down & side)) return;
        if ((down & side) != side) free &= side;
    }
    while (free) {
        u64 bit = free & -free;
        free ^= bit;
        board[y] = bit;
        edge(y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
}

int main(int argc, char **argv) {
    n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 1 || n > 32) {
        fprintf(stderr, "n must be 1..32\n");
        return 2;
    }
    if (n == 1) {
        printf("1 1\n");
        return 0;
    }
    last = n - 1;
    mask = (1ULL << n) - 1;
    side = 1ULL | (1ULL << last);
    board[0] = 1;
    for (bound1 = 2; bound1 < last; bound1++) {
        u64 bit = 1ULL << bound1;
        board[1] = bit;
        corner(2, (2ULL | bit) << 1, 1ULL | bit, bit >> 1);
    }
    lastmask = side;
    for (bound1 = 1, bound2 = last - 1; bound1 < bound2; bound1++, bound2--) {
        u64 bit = 1ULL << bound1;
        board[0] = bit;
        edge(1, bit << 1, bit, bit >> 1);
        lastmask |= (lastmask >> 1) | (lastmask << 1);
        lastmask &= mask;
    }
    u64 unique = count2 + count4 + count8;
    printf("%llu %llu\n", 2 * count2 + 4 * count4 + 8 * count8, unique);
    return 0;
}
