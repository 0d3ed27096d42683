/* cp_queens.engines.fast._mitm: the meet-in-the-middle counter of engine `fast`, in C.
 *
 * The method and its readable statement are in mitm.py (the tests hold the two to the
 * same figures); this module counts the same way, fast. Built by setup.py as an optional
 * extension, like _kernels.c. The searches release the GIL, and every loop looks at a
 * stop flag (request_stop) often enough that a count ends within milliseconds of it.
 *
 *   count_range(n, middle, lo, hi, path=-1, split=0, rows=0) -> (solutions, representatives,
 *                                                                nodes, pairs, stopped)
 *   count_class(n, middle, top, path=-1, split=0, rows=0) -> (pairs, nodes)
 * (split: joins of at least 2^split pairs split on a shared bit first; 0: the default;
 *  rows: the rows of a half's first quarter, 1..k-1; 0: the default, k/2)
 *   phases(n, middle, lo, hi, path=-1, split=0, rows=0) -> (solutions, pairs, halves_s,
 *                                                           join_s, partition_s, scan_s, stopped)
 *   symmetric(n, quarter) -> (boards, nodes, stopped)
 *   request_stop(), clear_stop(), stop_requested() -> bool
 *   PATHS: the paths this CPU can run (0 scalar, 1 AVX2, 2 AVX-512); VARIANT: the chosen one.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;
typedef int64_t i64;

#include "_portable.h"

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_X86_PATHS 1
#include <immintrin.h>
#endif

/* Members of the smaller side per bit-sliced block: its tables (up to 8 of 256 rows of
 * BLOCK bits: 512 KB) stay in a core's L2 cache. */
#define BLOCK 2048
/* Below this many members on the smaller side, pairs are tested one by one. */
#define DIRECT_BELOW 48
/* A join of at least 2^split pairs first splits on its most shared bit, when the pairs
 * that share it are at least 1 / SPLIT_SHARE of the whole (see mitm.py: join). The split
 * is chosen per n by the caller (meet.SPLIT, measured); this one when none is given. */
#define SPLIT_DEFAULT 24
#define SPLIT_SHARE 12
/* Keys of each side sampled to choose the bit to split on. */
#define SAMPLE 256
#define MAX_N 32

/* Set by request_stop() (a signal handler, a watchdog thread); read by every loop. */
static volatile int stop_flag = 0;
#define STOPPED() (stop_flag != 0)

/* One board's fixed data: the halves' rows and the middle queen. */
typedef struct Board {
    int n, k, middle, width, places;
    u64 all;  /* the columns the halves share out (every column but the middle queen's) */
    u64 allow[32];
} Board;

/* Buffers of one count: the two sides' keys, the block's bitsets and tables. */
typedef struct Work {
    u64 *a, *b, *sa, *sb; /* the keys, and their compressed copies */
    u64 *sp;              /* the keys a partition moves back */
    i64 cap_a, cap_b, cap_sa, cap_sb, cap_sp;
    int failed; /* out of memory */
    u64 *bits, *rows, *pad;
    u64 pairs;
    u64 split_from; /* joins of at least this many pairs split first */
    int timed;      /* phases(): add each phase's seconds to spent[] */
    double spent[4];
} Work;

/* The phases phases() times: making the halves, the whole join, and within the join the
 * choice of a bit and the partitions, and the scans (the rest of the join: compressing
 * the keys, slicing a block, building its tables). */
enum { PHASE_HALVES, PHASE_JOIN, PHASE_PARTITION, PHASE_SCAN };

#include <time.h>
/* The thread's CPU time: on a shared machine wall time would count the other tenants. */
static double now(void) {
    struct timespec t;
#ifdef CLOCK_THREAD_CPUTIME_ID
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
#else
    clock_gettime(CLOCK_MONOTONIC, &t);
#endif
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
#define TIC(work) ((work)->timed ? now() : 0.0)

/* Room for `count` keys in a scratch buffer; NULL when out of memory. */
static u64 *scratch(u64 **buf, i64 *cap, i64 count) {
    if (count > *cap) {
        u64 *more = realloc(*buf, (size_t)count * sizeof(u64));
        if (more == NULL) return NULL;
        *buf = more;
        *cap = count;
    }
    return *buf;
}

static u64 binomial[64][64];

static void fill_binomials(void) {
    for (int i = 0; i < 64; i++) {
        binomial[i][0] = 1;
        for (int j = 1; j <= i; j++) binomial[i][j] = binomial[i - 1][j - 1] + binomial[i - 1][j];
    }
}

/* The subset of `places` positions with k members and colex rank `rank` (numeric order
 * of the bitmasks: rank = sum of binomial(position of member i, i + 1)). */
static u64 unrank(u64 rank, int places, int k) {
    u64 subset = 0;
    int top = places - 1;
    for (int i = k; i >= 1; i--) {
        while (top >= 0 && binomial[top][i] > rank) top--;
        subset |= (u64)1 << top;
        rank -= binomial[top][i];
        top--;
    }
    return subset;
}

/* The next subset with as many members in numeric order (Gosper's hack). */
static u64 next_subset(u64 x) {
    u64 low = x & (0 - x);
    u64 ripple = x + low;
    return (((ripple ^ x) >> 2) / low) | ripple;
}

/* The colex rank of a set of columns among all n (see unrank). */
static u64 colex_rank(u64 cols) {
    u64 rank = 0;
    for (int i = 1; cols; i++) {
        rank += binomial[CTZ(cols)][i];
        cols &= cols - 1;
    }
    return rank;
}

/* The quarters of a board: every placement of queens on rows 0..a-1 (the first quarter)
 * and on rows a..k-1 (the second) that attack no one among themselves, grouped by their
 * set of columns (its colex rank among the n columns: entries start[r] .. start[r+1]-1),
 * each with its "/" sums (bit r+c) and "\" differences (bit c-r+n-1). A half of a
 * class is a pair of them (halves_q). The same for every middle queen (whose squares are
 * left out at the pairing), so a process builds them once per n and a, and keeps them.
 * Where to cut (a) is the caller's: an uneven cut (a = 2 or 3 of k = 8) makes the second
 * quarter's groups longer, so the vector pairing of halves_q runs fuller and the loop
 * over the first quarter's placements shorter (measured: meet.QUARTER_ROWS). */
typedef struct Quarters {
    int n, k, a;
    i64 *start1, *start2;
    u64 *s1, *d1, *s2, *d2;
    size_t bytes;
} Quarters;

static Quarters *quarters_cache[MAX_N + 1][MAX_N / 2 + 1];

typedef struct Collect {
    int n, stop;
    i64 *next; /* fill cursor per rank, or NULL on the counting pass */
    i64 *count;
    u64 *s, *d;
} Collect;

static void collect(Collect *c, int row, u64 cols, u64 sums, u64 diffs) {
    if (row == c->stop) {
        u64 rank = colex_rank(cols);
        if (c->next == NULL) {
            c->count[rank]++;
        } else {
            i64 at = c->next[rank]++;
            c->s[at] = sums;
            c->d[at] = diffs;
        }
        return;
    }
    int n = c->n;
    /* The open columns of this row: bit c of `sums >> row` is the "/" of (row, c), bit c
     * of `diffs >> (n - 1 - row)` its "\\"; one test per placement, not per column. */
    u64 open = (((u64)1 << n) - 1) & ~(cols | (sums >> row) | (diffs >> (n - 1 - row)));
    while (open) {
        int col = CTZ(open);
        open &= open - 1;
        u64 cb = (u64)1 << col, sb = (u64)1 << (row + col), db = (u64)1 << (col - row + n - 1);
        collect(c, row + 1, cols | cb, sums | sb, diffs | db);
    }
}

/* Fill one quarter (rows first..stop-1, `members` columns each); 0, or -1 out of memory. */
static int build_quarter(int n, int first, int stop, i64 **start, u64 **s, u64 **d,
                         size_t *bytes) {
    int members = stop - first;
    u64 sets = binomial[n][members];
    i64 *count = calloc(sets + 1, sizeof(i64));
    i64 *next = malloc((sets + 1) * sizeof(i64));
    if (count == NULL || next == NULL) {
        free(count);
        free(next);
        return -1;
    }
    Collect c = {n, stop, NULL, count, NULL, NULL};
    collect(&c, first, 0, 0, 0);
    i64 total = 0;
    for (u64 r = 0; r < sets; r++) {
        i64 here = count[r];
        count[r] = total;
        next[r] = total;
        total += here;
    }
    count[sets] = total;
    *start = count;
    *s = malloc((size_t)(total + 1) * sizeof(u64));
    *d = malloc((size_t)(total + 1) * sizeof(u64));
    if (*s == NULL || *d == NULL) {
        free(next);
        return -1;
    }
    c.next = next;
    c.s = *s;
    c.d = *d;
    collect(&c, first, 0, 0, 0);
    free(next);
    *bytes += (size_t)(sets + 1) * sizeof(i64) + 2 * (size_t)(total + 1) * sizeof(u64);
    return 0;
}

static void quarters_free(Quarters *q) {
    if (q == NULL) return;
    free(q->start1);
    free(q->start2);
    free(q->s1);
    free(q->d1);
    free(q->s2);
    free(q->d2);
    free(q);
}

/* The quarters of board n cut after `a` rows (1..k-1), built at the first use and kept
 * (call with the GIL held: the cache is shared by the threads of a process). NULL when
 * out of memory. */
static Quarters *quarters_for(const Board *board, int a) {
    int n = board->n;
    if (quarters_cache[n][a] != NULL) return quarters_cache[n][a];
    Quarters *q = calloc(1, sizeof(Quarters));
    if (q == NULL) return NULL;
    q->n = n;
    q->k = board->k;
    q->a = a;
    if (build_quarter(n, 0, q->a, &q->start1, &q->s1, &q->d1, &q->bytes) != 0 ||
        build_quarter(n, q->a, q->k, &q->start2, &q->s2, &q->d2, &q->bytes) != 0) {
        quarters_free(q);
        return NULL;
    }
    quarters_cache[n][a] = q;
    return q;
}

/* The columns of a subset of the `places` positions: the middle queen's column skipped. */
static u64 expand(const Board *board, u64 subset) {
    if (board->middle < 0) return subset;
    u64 below = ((u64)1 << board->middle) - 1;
    return (subset & below) | ((subset & ~below) << 1);
}

static u64 mirror(const Board *board, u64 cols) {
    u64 out = 0;
    while (cols) {
        int c = CTZ(cols);
        cols &= cols - 1;
        out |= (u64)1 << (board->n - 1 - c);
    }
    return out;
}

/* How many ordered classes the orbit of (top, bottom) holds, if `top` is its
 * representative (see mitm.py: orbit_weight), else 0. */
static int orbit_weight(const Board *board, u64 top) {
    u64 bottom = board->all ^ top;
    if (top > bottom) return 0;
    if (board->middle >= 0 && 2 * board->middle + 1 < board->n) return 4;
    u64 mt = mirror(board, top), mb = mirror(board, bottom);
    if (mt < top || mb < top) return 0;
    return (mt == top || mt == bottom) ? 2 : 4;
}

/* The baseline (portable) path. */
#define MITM_PATH 0
#define K(name) name##_scalar
#define KATTR static
#define KINLINE static inline ALWAYS_INLINE
#include "_mitm_impl.h"
#undef K
#undef KATTR
#undef KINLINE
#undef MITM_PATH

#ifdef HAVE_X86_PATHS
#define MITM_PATH 1
#define K(name) name##_avx2
#define KATTR static __attribute__((target("avx2,popcnt,bmi,bmi2")))
#define KINLINE static inline __attribute__((always_inline, target("avx2,popcnt,bmi,bmi2")))
#include "_mitm_impl.h"
#undef K
#undef KATTR
#undef KINLINE
#undef MITM_PATH

#define MITM_PATH 2
#define K(name) name##_avx512
#define KATTR                                                                                     \
    static __attribute__((target("avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx2,popcnt,bmi,bmi2")))
#define KINLINE                                                                                   \
    static inline __attribute__((always_inline,                                                   \
                                 target("avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx2,popcnt,"  \
                                        "bmi,bmi2")))
#include "_mitm_impl.h"
#undef K
#undef KATTR
#undef KINLINE
#undef MITM_PATH
#endif

typedef int (*count_range_fn)(const Board *, const Quarters *, u64, u64, u64 *, Work *);
typedef int (*count_class_fn)(const Board *, const Quarters *, u64, u64 *, Work *);
static const count_range_fn range_paths[3] = {
    count_range_scalar,
#ifdef HAVE_X86_PATHS
    count_range_avx2, count_range_avx512
#else
    NULL, NULL
#endif
};
static const count_class_fn class_paths[3] = {
    count_class_scalar,
#ifdef HAVE_X86_PATHS
    count_class_avx2, count_class_avx512
#else
    NULL, NULL
#endif
};
static const char *path_names[3] = {"scalar (portable)", "AVX2", "AVX-512 with VPOPCNTDQ"};
static int supported[3] = {1, 0, 0};
static int chosen = 0;

/* -- the board --------------------------------------------------------------------- */

/* Fill the board of size n with the middle queen in column `middle` (odd n), or none. */
static const char *make_board(Board *board, int n, int middle) {
    if (n < 4 || n > MAX_N) return "n must be 4..32";
    int k = n / 2;
    if (n % 2 == 0 && middle != -1) return "an even board has no middle queen (middle=-1)";
    if (n % 2 == 1 && (middle < 0 || middle >= n)) return "middle must be a column 0..n-1";
    memset(board, 0, sizeof *board);
    board->n = n;
    board->k = k;
    board->middle = n % 2 ? middle : -1;
    board->width = 2 * k - 1;
    board->places = n % 2 ? n - 1 : n;
    u64 full = ((u64)1 << n) - 1;
    board->all = board->middle >= 0 ? full & ~((u64)1 << middle) : full;
    for (int r = 0; r < k; r++) {
        u64 allow = board->all;
        if (board->middle >= 0) {
            int gap = k - r; /* rows between this one and the middle row */
            if (middle + gap < n) allow &= ~((u64)1 << (middle + gap));
            if (middle - gap >= 0) allow &= ~((u64)1 << (middle - gap));
        }
        board->allow[r] = allow;
    }
    return NULL;
}

static void work_free(Work *work);

/* 0, or -1 (and nothing held) when out of memory. */
static int work_init(Work *work, int split) {
    memset(work, 0, sizeof *work);
    work->split_from = (u64)1 << split;
    work->bits = malloc(sizeof(u64) * 64 * (BLOCK / 64));
    work->rows = malloc(sizeof(u64) * 8 * 256 * (BLOCK / 64));
    work->pad = malloc(sizeof(u64) * (BLOCK / 64));
    if (work->bits && work->rows && work->pad) return 0;
    work_free(work);
    return -1;
}

static void work_free(Work *work) {
    free(work->a);
    free(work->b);
    free(work->sa);
    free(work->sb);
    free(work->sp);
    free(work->bits);
    free(work->rows);
    free(work->pad);
}

static int pick_path(int path) {
    if (path < 0) return chosen;
    if (path > 2 || !supported[path]) return -1;
    return path;
}

/* -- symmetric boards (for the unique count) ------------------------------------------ */

typedef struct Sym {
    int n, quarter;
    u64 rows, cols, sums, diffs;
    u64 nodes;
} Sym;

/* Place the queen (r, c) and its images under the rotations kept (a half turn, or all
 * quarter turns); 0 when one of them attacks another or a queen already placed. */
static int place_orbit(Sym *s, int r, int c, u64 *undo) {
    int n = s->n, last = n - 1;
    int rs[4] = {r, last - r, c, last - c};
    int cs[4] = {c, last - c, last - r, r};
    int count = s->quarter ? 4 : 2;
    undo[0] = s->rows;
    undo[1] = s->cols;
    undo[2] = s->sums;
    undo[3] = s->diffs;
    /* order of a quarter-turn orbit: (r,c) -> (c, n-1-r) -> (n-1-r, n-1-c) -> (n-1-c, r) */
    int qr[4] = {r, c, last - r, last - c};
    int qc[4] = {c, last - r, last - c, r};
    for (int i = 0; i < count; i++) {
        int rr = s->quarter ? qr[i] : rs[i];
        int cc = s->quarter ? qc[i] : cs[i];
        if (i > 0 && rr == r && cc == c) break; /* the orbit closed early (the centre) */
        int dup = 0;
        for (int j = 0; j < i; j++) {
            int pr = s->quarter ? qr[j] : rs[j], pc = s->quarter ? qc[j] : cs[j];
            if (pr == rr && pc == cc) dup = 1;
        }
        if (dup) continue;
        u64 rb = (u64)1 << rr, cb = (u64)1 << cc, sb = (u64)1 << (rr + cc),
            db = (u64)1 << (cc - rr + last);
        if ((s->rows & rb) || (s->cols & cb) || (s->sums & sb) || (s->diffs & db)) {
            s->rows = undo[0];
            s->cols = undo[1];
            s->sums = undo[2];
            s->diffs = undo[3];
            return 0;
        }
        s->rows |= rb;
        s->cols |= cb;
        s->sums |= sb;
        s->diffs |= db;
    }
    return 1;
}

static u64 symmetric_search(Sym *s) {
    u64 full = ((u64)1 << s->n) - 1;
    if (s->rows == full) return 1;
    if (STOPPED()) return 0;
    int r = CTZ(~s->rows & full);
    u64 found = 0;
    for (int c = 0; c < s->n; c++) {
        u64 undo[4];
        s->nodes++;
        if (!place_orbit(s, r, c, undo)) continue;
        found += symmetric_search(s);
        s->rows = undo[0];
        s->cols = undo[1];
        s->sums = undo[2];
        s->diffs = undo[3];
    }
    return found;
}

/* -- Python functions ----------------------------------------------------------------- */

/* count_range and phases: the same arguments, the same count; phases also times it. */
static PyObject *range_call(PyObject *args, int timed) {
    const char *name = timed ? "phases" : "count_range";
    int n, middle, path = -1, split = 0, rows = 0;
    unsigned long long lo, hi;
    if (!PyArg_ParseTuple(args, "iiKK|iii", &n, &middle, &lo, &hi, &path, &split, &rows))
        return NULL;
    if (split < 0 || split > 62)
        return PyErr_Format(PyExc_ValueError, "%s: split must be 1..62 (0: the default)", name);
    Board board;
    const char *bad = make_board(&board, n, middle);
    if (bad) return PyErr_Format(PyExc_ValueError, "%s: %s", name, bad);
    if (rows < 0 || rows >= board.k)
        return PyErr_Format(PyExc_ValueError, "%s: rows must be 1..%d (0: the default)", name,
                            board.k - 1);
    if (board.middle >= 0 && 2 * board.middle + 1 > n)
        return PyErr_Format(PyExc_ValueError,
                            "%s: the middle column must be at most (n-1)/2 (mirror)", name);
    u64 classes = binomial[board.places][board.k];
    if (lo > hi || hi > classes)
        return PyErr_Format(PyExc_ValueError, "%s: ranks must satisfy 0 <= lo <= hi <= %llu",
                            name, (unsigned long long)classes);
    int p = pick_path(path);
    if (p < 0) return PyErr_Format(PyExc_ValueError, "%s: path %d is not available", name, path);
    Quarters *quarters = quarters_for(&board, rows ? rows : board.k / 2);
    Work work;
    if (quarters == NULL || work_init(&work, split ? split : SPLIT_DEFAULT) != 0) return PyErr_NoMemory();
    work.timed = timed;
    u64 out[4] = {0, 0, 0, 0};
    int status = 0;
    Py_BEGIN_ALLOW_THREADS
    if (lo < hi) status = range_paths[p](&board, quarters, lo, hi, out, &work);
    Py_END_ALLOW_THREADS
    double spent[4];
    memcpy(spent, work.spent, sizeof spent);
    work_free(&work);
    if (status < 0) return PyErr_NoMemory();
    PyObject *stopped = status ? Py_True : Py_False;
    if (timed)
        return Py_BuildValue("(KKddddO)", (unsigned long long)out[0], (unsigned long long)out[3],
                             spent[PHASE_HALVES], spent[PHASE_JOIN], spent[PHASE_PARTITION],
                             spent[PHASE_SCAN], stopped);
    return Py_BuildValue("(KKKKO)", (unsigned long long)out[0], (unsigned long long)out[1],
                         (unsigned long long)out[2], (unsigned long long)out[3], stopped);
}

static PyObject *count_range(PyObject *self, PyObject *args) { return range_call(args, 0); }

/* count_range with each phase timed in CPU seconds (for benchmarks/mitm_phases.py; the
 * clock is read a few times per class, per split and per block, which costs some). */
static PyObject *phases(PyObject *self, PyObject *args) { return range_call(args, 1); }

static PyObject *count_class(PyObject *self, PyObject *args) {
    int n, middle, path = -1, split = 0, rows = 0;
    unsigned long long top;
    if (!PyArg_ParseTuple(args, "iiK|iii:count_class", &n, &middle, &top, &path, &split, &rows))
        return NULL;
    if (split < 0 || split > 62)
        return PyErr_Format(PyExc_ValueError, "count_class: split must be 1..62 (0: the default)");
    Board board;
    const char *bad = make_board(&board, n, middle);
    if (bad) return PyErr_Format(PyExc_ValueError, "count_class: %s", bad);
    if (rows < 0 || rows >= board.k)
        return PyErr_Format(PyExc_ValueError, "count_class: rows must be 1..%d (0: the default)",
                            board.k - 1);
    if ((top & ~board.all) || POPCOUNT(top) != board.k)
        return PyErr_Format(PyExc_ValueError,
                            "count_class: top must be %d of the board's columns, not the middle one",
                            board.k);
    int p = pick_path(path);
    if (p < 0) return PyErr_Format(PyExc_ValueError, "count_class: path %d is not available", path);
    Quarters *quarters = quarters_for(&board, rows ? rows : board.k / 2);
    Work work;
    if (quarters == NULL || work_init(&work, split ? split : SPLIT_DEFAULT) != 0) return PyErr_NoMemory();
    u64 out[4] = {0, 0, 0, 0};
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = class_paths[p](&board, quarters, (u64)top, out, &work);
    Py_END_ALLOW_THREADS
    work_free(&work);
    if (status < 0) return PyErr_NoMemory();
    return Py_BuildValue("(KK)", (unsigned long long)out[0], (unsigned long long)out[2]);
}

static PyObject *symmetric(PyObject *self, PyObject *args) {
    int n, quarter;
    if (!PyArg_ParseTuple(args, "ip:symmetric", &n, &quarter)) return NULL;
    if (n < 1 || n > MAX_N) return PyErr_Format(PyExc_ValueError, "symmetric: n must be 1..32");
    Sym s = {n, quarter, 0, 0, 0, 0, 0};
    u64 found;
    Py_BEGIN_ALLOW_THREADS
    found = symmetric_search(&s);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(KKO)", (unsigned long long)found, (unsigned long long)s.nodes,
                         STOPPED() ? Py_True : Py_False);
}

static PyObject *request_stop(PyObject *self, PyObject *unused) {
    stop_flag = 1;
    Py_RETURN_NONE;
}

static PyObject *clear_stop(PyObject *self, PyObject *unused) {
    stop_flag = 0;
    Py_RETURN_NONE;
}

static PyObject *stop_requested(PyObject *self, PyObject *unused) {
    return PyBool_FromLong(stop_flag);
}

static PyMethodDef methods[] = {
    {"count_range", count_range, METH_VARARGS,
     "count_range(n, middle, lo, hi, path=-1, split=0, rows=0) -> (solutions, representatives, "
     "nodes, pairs, stopped): count the class orbits with representatives of rank lo..hi-1 (see "
     "mitm.count_range)."},
    {"count_class", count_class, METH_VARARGS,
     "count_class(n, middle, top, path=-1, split=0, rows=0) -> (pairs, nodes): the solutions whose top rows "
     "use the columns `top` (see mitm.count_class)."},
    {"phases", phases, METH_VARARGS,
     "phases(n, middle, lo, hi, path=-1, split=0, rows=0) -> (solutions, pairs, halves_s, join_s, "
     "partition_s, scan_s, stopped): count_range with its phases timed (CPU seconds)."},
    {"symmetric", symmetric, METH_VARARGS,
     "symmetric(n, quarter) -> (boards, nodes, stopped): the solutions a half turn (or, with "
     "quarter, a quarter turn) maps to themselves (see mitm.symmetric)."},
    {"request_stop", request_stop, METH_NOARGS, "Ask every running count to stop (at once)."},
    {"clear_stop", clear_stop, METH_NOARGS, "Let counts run again after request_stop()."},
    {"stop_requested", stop_requested, METH_NOARGS, "Whether request_stop() is in force."},
    {NULL, NULL, 0, NULL}};

static int exec_module(PyObject *module) {
    fill_binomials();
#ifdef HAVE_X86_PATHS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") &&
        __builtin_cpu_supports("popcnt"))
        supported[1] = 1;
    if (supported[1] && __builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512vpopcntdq"))
        supported[2] = 1;
#endif
    chosen = supported[2] ? 2 : supported[1] ? 1 : 0;
    PyObject *paths = PyTuple_New(supported[0] + supported[1] + supported[2]);
    if (paths == NULL) return -1;
    int at = 0;
    for (int p = 0; p < 3; p++)
        if (supported[p]) PyTuple_SET_ITEM(paths, at++, PyLong_FromLong(p));
    if (PyModule_AddObject(module, "PATHS", paths) != 0) {
        Py_DECREF(paths);
        return -1;
    }
    if (PyModule_AddIntConstant(module, "PATH", chosen) != 0) return -1;
    if (PyModule_AddIntConstant(module, "MAX_N", MAX_N) != 0) return -1;
    return PyModule_AddStringConstant(module, "VARIANT", path_names[chosen]);
}

static PyModuleDef_Slot slots[] = {{Py_mod_exec, exec_module},
#if PY_VERSION_HEX >= 0x030C0000
                                   {Py_mod_multiple_interpreters,
                                    Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
                                   {0, NULL}};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_mitm",
    "The meet-in-the-middle counter of engine 'fast' (C; see cp_queens/engines/fast/_mitm.c).",
    0, methods, slots, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__mitm(void) { return PyModuleDef_Init(&definition); }
