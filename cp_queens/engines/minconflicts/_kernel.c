/* cp_queens.engines.minconflicts._kernel: the compiled min-conflicts kernels.
 *
 * A line-for-line port of kernel.py (which stays the readable statement and the
 * fallback where no C compiler was found at install), with the same random draws:
 * both use splitmix64 over one 64-bit state held by the caller, so a seed gives the
 * same board compiled or interpreted. Arrays are buffers of 8-byte integers (NumPy
 * int64); the GIL is released while the kernels run.
 *
 *   greedy_start(n, tries, q, col, up, down, rng) -> None
 *   conflicted_rows(n, q, col, up, down, out) -> k
 *   repair(n, max_moves, q, col, up, down, rows, rng) -> moves, or -moves-1 once solved
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef int64_t i64;
typedef uint64_t u64;

static inline u64 next_random(u64 *state) {
    u64 z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* An integer in lo..hi-1 (hi > lo), as kernel.randint. */
static inline i64 randint(u64 *state, i64 lo, i64 hi) {
    return lo + (i64)(next_random(state) % (u64)(hi - lo));
}

static void greedy_start_loop(i64 n, i64 tries, i64 *q, i64 *col, i64 *up, i64 *down,
                              u64 *rng) {
    for (i64 i = 0; i < n; i++) q[i] = i;
    for (i64 i = n - 1; i > 0; i--) {
        i64 j = randint(rng, 0, i + 1);
        i64 t = q[i];
        q[i] = q[j];
        q[j] = t;
    }
    memset(col, 0, (size_t)n * sizeof(i64));
    memset(up, 0, (size_t)(2 * n - 1) * sizeof(i64));
    memset(down, 0, (size_t)(2 * n - 1) * sizeof(i64));
    for (i64 i = 0; i < n; i++) {
        for (i64 t = 0; t < tries; t++) {
            i64 j = randint(rng, i, n);
            i64 c = q[j];
            if (up[i + c] == 0 && down[i - c + n - 1] == 0) {
                q[j] = q[i];
                q[i] = c;
                break;
            }
        }
        i64 c = q[i];
        col[c]++;
        up[i + c]++;
        down[i - c + n - 1]++;
    }
}

static i64 conflicted(i64 n, const i64 *q, const i64 *col, const i64 *up, const i64 *down,
                      i64 *out) {
    i64 k = 0;
    for (i64 r = 0; r < n; r++) {
        i64 c = q[r];
        if (col[c] + up[r + c] + down[r - c + n - 1] > 3) out[k++] = r;
    }
    return k;
}

static i64 repair_loop(i64 n, i64 max_moves, i64 *q, i64 *col, i64 *up, i64 *down, i64 *rows,
                       u64 *rng) {
    i64 moves = 0;
    while (moves < max_moves) {
        i64 k = conflicted(n, q, col, up, down, rows);
        if (k == 0) return -moves - 1;
        for (i64 i = k - 1; i > 0; i--) {
            i64 j = randint(rng, 0, i + 1);
            i64 t = rows[i];
            rows[i] = rows[j];
            rows[j] = t;
        }
        for (i64 t = 0; t < k; t++) {
            i64 r = rows[t];
            i64 c = q[r];
            if (col[c] + up[r + c] + down[r - c + n - 1] <= 3) continue;
            col[c]--;
            up[r + c]--;
            down[r - c + n - 1]--;
            i64 best = n * 3 + 1, ties = 0, choice = c;
            for (i64 x = 0; x < n; x++) {
                i64 attackers = col[x] + up[r + x] + down[r - x + n - 1];
                if (attackers < best) {
                    best = attackers;
                    ties = 1;
                    choice = x;
                } else if (attackers == best) {
                    ties++;
                    if (randint(rng, 0, ties) == 0) choice = x;
                }
            }
            q[r] = choice;
            col[choice]++;
            up[r + choice]++;
            down[r - choice + n - 1]++;
            moves++;
            if (moves >= max_moves) break;
        }
    }
    if (conflicted(n, q, col, up, down, rows) == 0) return -moves - 1;
    return moves;
}

/* -- buffers ------------------------------------------------------------------------- */

static int take(PyObject *obj, Py_buffer *view, Py_ssize_t need, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) != 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s: need a writable buffer of 8-byte integers", name);
        return -1;
    }
    const char *format = view->format ? view->format : "B";
    if (view->itemsize != 8 || !strchr("qQlL", format[strlen(format) - 1]) ||
        view->len / 8 < need) {
        PyErr_Format(PyExc_ValueError, "%s: need %zd 8-byte integers", name, need);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Take the buffers of `count` objects with the given minimum lengths; -1 on failure. */
static int take_all(PyObject **objects, Py_buffer *views, const Py_ssize_t *need,
                    const char *const *names, int count) {
    for (int i = 0; i < count; i++) {
        if (take(objects[i], &views[i], need[i], names[i]) != 0) {
            for (int j = 0; j < i; j++) PyBuffer_Release(&views[j]);
            return -1;
        }
    }
    return 0;
}

static void release_all(Py_buffer *views, int count) {
    for (int i = 0; i < count; i++) PyBuffer_Release(&views[i]);
}

/* Whether every q[r] is a column 0..n-1 (else the counters would be indexed outside). */
static int columns_ok(i64 n, const i64 *q) {
    for (i64 r = 0; r < n; r++)
        if (q[r] < 0 || q[r] >= n) {
            PyErr_SetString(PyExc_ValueError, "q holds a column outside 0..n-1");
            return 0;
        }
    return 1;
}

static PyObject *greedy_start(PyObject *self, PyObject *args) {
    long long n, tries;
    PyObject *o[5];
    if (!PyArg_ParseTuple(args, "LLOOOOO:greedy_start", &n, &tries, &o[0], &o[1], &o[2], &o[3],
                          &o[4]))
        return NULL;
    if (n < 1 || n > PY_SSIZE_T_MAX / 16) return PyErr_Format(PyExc_ValueError, "n must be >= 1");
    static const char *const names[5] = {"q", "col", "up", "down", "rng"};
    Py_ssize_t need[5] = {n, n, 2 * n - 1, 2 * n - 1, 1};
    Py_buffer v[5];
    if (take_all(o, v, need, names, 5) != 0) return NULL;
    Py_BEGIN_ALLOW_THREADS
    greedy_start_loop(n, tries, v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf);
    Py_END_ALLOW_THREADS
    release_all(v, 5);
    Py_RETURN_NONE;
}

static PyObject *conflicted_rows(PyObject *self, PyObject *args) {
    long long n;
    PyObject *o[5];
    if (!PyArg_ParseTuple(args, "LOOOOO:conflicted_rows", &n, &o[0], &o[1], &o[2], &o[3], &o[4]))
        return NULL;
    if (n < 1 || n > PY_SSIZE_T_MAX / 16) return PyErr_Format(PyExc_ValueError, "n must be >= 1");
    static const char *const names[5] = {"q", "col", "up", "down", "out"};
    Py_ssize_t need[5] = {n, n, 2 * n - 1, 2 * n - 1, n};
    Py_buffer v[5];
    if (take_all(o, v, need, names, 5) != 0) return NULL;
    if (!columns_ok(n, v[0].buf)) {
        release_all(v, 5);
        return NULL;
    }
    i64 k;
    Py_BEGIN_ALLOW_THREADS
    k = conflicted(n, v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf);
    Py_END_ALLOW_THREADS
    release_all(v, 5);
    return PyLong_FromLongLong(k);
}

static PyObject *repair(PyObject *self, PyObject *args) {
    long long n, max_moves;
    PyObject *o[6];
    if (!PyArg_ParseTuple(args, "LLOOOOOO:repair", &n, &max_moves, &o[0], &o[1], &o[2], &o[3],
                          &o[4], &o[5]))
        return NULL;
    if (n < 1 || n > PY_SSIZE_T_MAX / 16) return PyErr_Format(PyExc_ValueError, "n must be >= 1");
    static const char *const names[6] = {"q", "col", "up", "down", "rows", "rng"};
    Py_ssize_t need[6] = {n, n, 2 * n - 1, 2 * n - 1, n, 1};
    Py_buffer v[6];
    if (take_all(o, v, need, names, 6) != 0) return NULL;
    if (!columns_ok(n, v[0].buf)) {
        release_all(v, 6);
        return NULL;
    }
    i64 result;
    Py_BEGIN_ALLOW_THREADS
    result = repair_loop(n, max_moves, v[0].buf, v[1].buf, v[2].buf, v[3].buf, v[4].buf, v[5].buf);
    Py_END_ALLOW_THREADS
    release_all(v, 6);
    return PyLong_FromLongLong(result);
}

static PyMethodDef methods[] = {
    {"greedy_start", greedy_start, METH_VARARGS,
     "greedy_start(n, tries, q, col, up, down, rng): a greedy random start (kernel.greedy_start)."},
    {"conflicted_rows", conflicted_rows, METH_VARARGS,
     "conflicted_rows(n, q, col, up, down, out) -> k: the attacked rows (kernel.conflicted_rows)."},
    {"repair", repair, METH_VARARGS,
     "repair(n, max_moves, q, col, up, down, rows, rng) -> moves, -moves-1 once solved."},
    {NULL, NULL, 0, NULL}};

static PyModuleDef_Slot slots[] = {
#if PY_VERSION_HEX >= 0x030C0000
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
    {0, NULL}};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_kernel",
    "The compiled kernels of engine 'minconflicts' (C; see _kernel.c).", 0, methods, slots,
    NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModuleDef_Init(&definition); }
