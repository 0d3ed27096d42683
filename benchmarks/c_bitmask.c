/* A plain C bitmask counter, as a yardstick for benchmarks/count.py.
 *
 * The textbook method: columns and both diagonals as bit masks, the lowest
 * free bit first, recursion, and only the left/right mirror symmetry (the
 * first queen in the left half counts twice; the middle column of an odd
 * board once). Usage: c_bitmask N  ->  prints the number of solutions.
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long all;

static unsigned long long place(unsigned long long cols, unsigned long long left,
                                unsigned long long right) {
    if (cols == all) return 1;
    unsigned long long found = 0;
    unsigned long long free = ~(cols | left | right) & all;
    while (free) {
        unsigned long long bit = free & -free;
        free ^= bit;
        found += place(cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    return found;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 1 || n > 32) { fprintf(stderr, "n must be 1..32\n"); return 2; }
    all = (1ULL << n) - 1;
    unsigned long long total = 0;
    for (int col = 0; col < n / 2; col++) {
        unsigned long long bit = 1ULL << col;
        total += 2 * place(bit, bit << 1, bit >> 1);
    }
    if (n % 2) {
        unsigned long long bit = 1ULL << (n / 2);
        total += place(bit, bit << 1, bit >> 1);
    }
    printf("%llu\n", total);
    return 0;
}
