/* What the compiled kernels of the fast engine share to build with GCC, Clang and MSVC:
 * inlining hints, a prefetch hint and the bit operations (count trailing zeros, population
 * count), for
 * 64-bit words (the includer defines u64 first). One copy, included by _kernels.c and
 * _mitm.c. */
#ifndef CP_QUEENS_PORTABLE_H
#define CP_QUEENS_PORTABLE_H

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#define NOINLINE __declspec(noinline)
#define ALWAYS_INLINE __forceinline
static __inline int ctz_msvc(u64 x) {
    unsigned long index;
    _BitScanForward64(&index, x);
    return (int)index;
}
static __inline int popcount_portable(u64 x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#define CTZ(x) ctz_msvc(x)
#define POPCOUNT(x) popcount_portable(x)
#define PREFETCH(p) ((void)(p))
#else
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE __attribute__((always_inline))
#define CTZ(x) __builtin_ctzll(x)
#define POPCOUNT(x) __builtin_popcountll(x)
#define PREFETCH(p) __builtin_prefetch(p)
#endif

#endif
