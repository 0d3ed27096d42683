/* cp_queens.engines.fast._kernels: the compiled kernels of engine `fast`.
 *
 * Built by the package's build (setup.py, an optional extension: without a C compiler
 * the install still succeeds and the interpreted kernels count). The functions take
 * the same arguments as their interpreted twins in kernels.py and parse.py, over
 * buffers of 8-byte integers (array.array('q'), NumPy int64 arrays), and release the
 * GIL while they search, so threads (Dask's local cluster) count on every core.
 *
 *   count_many(n, kinds, depths, prefixes, base, results, allow, bits, stack,
 *              queen_cols, inverse) -> subtrees counted (all, unless stopped)
 *   request_stop(), clear_stop(): every search loop returns at once while the flag is up
 *              (see stopping.py); count_many then says how many subtrees it finished.
 *   enumerate_batch(n, allow, state, stack_free, stack_cols, stack_left, stack_right,
 *                   bits, out, capacity, max_nodes) -> (found, nodes)
 *   parse_rows(data, brackets, out, shape) -> rows (or -1)
 *
 * Arguments are checked here (sizes, n, kinds, one-bit prefixes): a wrong call raises
 * ValueError instead of reading or writing outside a buffer.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;
typedef int64_t i64;

#define KIND_PLAIN 0
#define KIND_CORNER 1
#define KIND_EDGE 2
#define BY_ORBIT 0
#define MAX_N 62
#define DYNAMIC_UP_TO 32

/* NOINLINE: the searches stay functions of their own (inlined into count_many, they
 * shared its registers and spilled their loop variables to memory). */
#include "_portable.h"

/* Raised by request_stop() (from another thread: stopping.py), read by every search loop
 * where it backtracks (a load, next to the mispredicted branch there: no measurable cost). */
static volatile int stop_flag = 0;
#define STOPPED() (stop_flag != 0)

/* The baseline build of the kernels. */
#define K(name) name##_generic
#define KATTR static
#define KINLINE static inline ALWAYS_INLINE
#include "_kernels_impl.h"
#undef K
#undef KATTR
#undef KINLINE

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
/* The same kernels for x86-64 CPUs with POPCNT and BMI (every x86-64 since about 2013). */
#define HAVE_X86_V3 1
#define K(name) name##_v3
#define KATTR static __attribute__((target("popcnt,bmi,bmi2,lzcnt")))
#define KINLINE static inline __attribute__((always_inline, target("popcnt,bmi,bmi2,lzcnt")))
#include "_kernels_impl.h"
#undef K
#undef KATTR
#undef KINLINE
#endif

typedef i64 (*count_many_fn)(int, i64, const i64 *, const i64 *, const u64 *, const u64 *, i64 *,
                              u64 *, u64 *, u64 *, i64 *, i64 *);
static count_many_fn count_many_impl = count_many_generic;
static const char *variant = "generic x86-64/portable";

/* -- buffers ------------------------------------------------------------------------- */

/* Take a C-contiguous buffer of `itemsize`-byte items, at least `need` long. */
static int take(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t itemsize,
                Py_ssize_t need, const char *name) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) != 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s: need a %scontiguous buffer of %zd-byte integers",
                     name, writable ? "writable " : "", itemsize);
        return -1;
    }
    const char *format = view->format ? view->format : "B";
    char code = format[strlen(format) - 1];
    int integer = strchr(itemsize == 8 ? "qQlL" : "bBc", code) != NULL;
    if (view->itemsize != itemsize || !integer) {
        PyErr_Format(PyExc_ValueError, "%s: need %zd-byte integers, got format '%s'", name,
                     itemsize, format);
        PyBuffer_Release(view);
        return -1;
    }
    Py_ssize_t length = view->len / itemsize;
    if (length < need) {
        PyErr_Format(PyExc_ValueError, "%s: holds %zd items, needs %zd", name, length, need);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static void release_all(Py_buffer *views, int taken) {
    for (int i = 0; i < taken; i++) PyBuffer_Release(&views[i]);
}

/* -- count_many ---------------------------------------------------------------------- */

static PyObject *count_many(PyObject *self, PyObject *args) {
    int n;
    PyObject *objects[10];
    if (!PyArg_ParseTuple(args, "iOOOOOOOOOO:count_many", &n, &objects[0], &objects[1],
                          &objects[2], &objects[3], &objects[4], &objects[5], &objects[6],
                          &objects[7], &objects[8], &objects[9]))
        return NULL;
    if (n < 1 || n > MAX_N) return PyErr_Format(PyExc_ValueError, "n must be 1..%d", MAX_N);
    static const char *names[10] = {"kinds", "depths", "prefixes", "base",       "results",
                                    "allow", "bits",   "stack",    "queen_cols", "inverse"};
    Py_buffer views[10];
    Py_ssize_t m = PyObject_Length(objects[0]);
    if (m < 0) return NULL;
    Py_ssize_t need[10] = {m, m, m * n, n, 3 * m, 64, 64, 6 * 64, 64, 64};
    int taken = 0;
    for (; taken < 10; taken++) {
        if (take(objects[taken], &views[taken], taken >= 4, 8, need[taken], names[taken]) != 0) {
            release_all(views, taken);
            return NULL;
        }
    }
    const i64 *kinds = views[0].buf;
    const i64 *depths = views[1].buf;
    const u64 *prefixes = views[2].buf;
    const u64 *base = views[3].buf;
    u64 mask = ((u64)1 << n) - 1;
    for (Py_ssize_t i = 0; i < m; i++) {
        const char *bad = NULL;
        if (kinds[i] < KIND_PLAIN || kinds[i] > KIND_EDGE) bad = "a kind is not 0, 1 or 2";
        else if (depths[i] < 0 || depths[i] > n) bad = "a depth is not 0..n";
        for (i64 r = 0; bad == NULL && r < depths[i]; r++) {
            u64 bit = prefixes[i * n + r];
            if (bit == 0 || (bit & (bit - 1)) || (bit & ~mask)) bad = "a prefix row is not one column";
        }
        if (bad == NULL && kinds[i] == KIND_EDGE && depths[i] < 1)
            bad = "an edge subtree needs its first row preset";
        if (bad == NULL && kinds[i] == KIND_CORNER && n > 1 && depths[i] < 2)
            bad = "a corner subtree needs two preset rows";
        if (bad != NULL) {
            release_all(views, taken);
            return PyErr_Format(PyExc_ValueError, "count_many: subtree %zd: %s", i, bad);
        }
    }
    i64 done;
    Py_BEGIN_ALLOW_THREADS
    done = count_many_impl(n, (i64)m, kinds, depths, prefixes, base, views[4].buf, views[5].buf,
                           views[6].buf, views[7].buf, views[8].buf, views[9].buf);
    Py_END_ALLOW_THREADS
    release_all(views, taken);
    return PyLong_FromLongLong((long long)done);
}

/* -- enumerate_batch ----------------------------------------------------------------- */

static void enumerate_loop(int n, const u64 *allow, i64 *state, u64 *stack_free, u64 *stack_cols,
                           u64 *stack_left, u64 *stack_right, u64 *bits, i64 *out, i64 capacity,
                           i64 max_nodes, i64 *found_out, i64 *nodes_out) {
    u64 mask = ((u64)1 << n) - 1;
    int last = n - 1;
    int row = (int)state[0];
    i64 found = 0, nodes = 0;
    while (row >= 0) {
        u64 free_ = stack_free[row];
        if (free_ == 0) {
            row--;
            continue;
        }
        u64 bit = free_ & (0 - free_);
        stack_free[row] = free_ ^ bit;
        bits[row] = bit;
        nodes++;
        if (row == last) {
            i64 at = found * n;
            for (int r = 0; r < n; r++) out[at + r] = CTZ(bits[r]);
            found++;
            if (found == capacity) break;
            continue;
        }
        u64 cols = stack_cols[row] | bit;
        u64 left = ((stack_left[row] | bit) << 1) & mask;
        u64 right = (stack_right[row] | bit) >> 1;
        row++;
        stack_cols[row] = cols;
        stack_left[row] = left;
        stack_right[row] = right;
        stack_free[row] = ~(cols | left | right) & allow[row];
        if (nodes >= max_nodes) break;
    }
    state[0] = row;
    *found_out = found;
    *nodes_out = nodes;
}

static PyObject *enumerate_batch(PyObject *self, PyObject *args) {
    int n;
    long long capacity, max_nodes;
    PyObject *objects[8];
    if (!PyArg_ParseTuple(args, "iOOOOOOOOLL:enumerate_batch", &n, &objects[0], &objects[1],
                          &objects[2], &objects[3], &objects[4], &objects[5], &objects[6],
                          &objects[7], &capacity, &max_nodes))
        return NULL;
    if (n < 1 || n > MAX_N) return PyErr_Format(PyExc_ValueError, "n must be 1..%d", MAX_N);
    if (capacity < 1 || capacity > PY_SSIZE_T_MAX / MAX_N)
        return PyErr_Format(PyExc_ValueError, "capacity must be at least 1");
    static const char *names[8] = {"allow",      "state",       "stack_free", "stack_cols",
                                   "stack_left", "stack_right", "bits",       "out"};
    Py_ssize_t need[8] = {n, 1, n, n, n, n, n, (Py_ssize_t)capacity * n};
    Py_buffer views[8];
    int taken = 0;
    for (; taken < 8; taken++) {
        if (take(objects[taken], &views[taken], taken >= 1, 8, need[taken], names[taken]) != 0) {
            release_all(views, taken);
            return NULL;
        }
    }
    i64 *state = views[1].buf;
    if (state[0] < -1 || state[0] >= n) {
        release_all(views, taken);
        return PyErr_Format(PyExc_ValueError, "enumerate_batch: state[0] must be -1..n-1");
    }
    i64 found = 0, nodes = 0;
    Py_BEGIN_ALLOW_THREADS
    enumerate_loop(n, views[0].buf, state, views[2].buf, views[3].buf, views[4].buf, views[5].buf,
                   views[6].buf, views[7].buf, capacity, max_nodes, &found, &nodes);
    Py_END_ALLOW_THREADS
    release_all(views, taken);
    return Py_BuildValue("(LL)", (long long)found, (long long)nodes);
}

/* -- parse_rows ---------------------------------------------------------------------- */

#define DIGIT(c) ((c) >= 48 && (c) <= 57)

/* parse.parse_rows, with a bound on `out` (-1 when it would overflow). */
static i64 parse_loop(const unsigned char *data, Py_ssize_t size, int brackets, i64 *out,
                      Py_ssize_t out_len, i64 *shape) {
    Py_ssize_t i = 0, k = 0;
    i64 rows = 0, width = -1;
    while (i < size) {
        if (brackets) {
            if (data[i] != 91) return -1; /* "[" */
            i++;
        }
        i64 count = 0;
        for (;;) {
            if (i >= size || !DIGIT(data[i])) return -1;
            if (brackets && data[i] == 48 && i + 1 < size && DIGIT(data[i + 1])) return -1;
            i64 value = 0;
            int digits = 0;
            while (i < size && DIGIT(data[i])) {
                value = value * 10 + (data[i] - 48);
                digits++;
                i++;
                if (digits >= 9) return -1;
            }
            if (k >= out_len) return -1;
            out[k++] = value;
            count++;
            if (i < size && data[i] == 44) { /* "," */
                i++;
                if (brackets && i < size && data[i] == 32) i++;
                continue;
            }
            break;
        }
        if (brackets) {
            if (i >= size || data[i] != 93) return -1; /* "]" */
            i++;
        }
        if (i >= size || data[i] != 10) return -1; /* "\n" */
        i++;
        if (width < 0)
            width = count;
        else if (count != width)
            return -1;
        rows++;
    }
    shape[0] = width;
    return rows;
}

static PyObject *parse_rows(PyObject *self, PyObject *args) {
    PyObject *data_obj, *out_obj, *shape_obj;
    int brackets;
    if (!PyArg_ParseTuple(args, "OiOO:parse_rows", &data_obj, &brackets, &out_obj, &shape_obj))
        return NULL;
    Py_buffer data, out, shape;
    if (take(data_obj, &data, 0, 1, 0, "data") != 0) return NULL;
    if (take(out_obj, &out, 1, 8, 0, "out") != 0) {
        PyBuffer_Release(&data);
        return NULL;
    }
    if (take(shape_obj, &shape, 1, 8, 1, "shape") != 0) {
        PyBuffer_Release(&data);
        PyBuffer_Release(&out);
        return NULL;
    }
    i64 rows;
    Py_BEGIN_ALLOW_THREADS
    rows = parse_loop(data.buf, data.len, brackets, out.buf, out.len / 8, shape.buf);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&data);
    PyBuffer_Release(&out);
    PyBuffer_Release(&shape);
    return PyLong_FromLongLong(rows);
}

/* -- the module ---------------------------------------------------------------------- */

static PyObject *request_stop(PyObject *self, PyObject *unused) {
    stop_flag = 1;
    Py_RETURN_NONE;
}

static PyObject *clear_stop(PyObject *self, PyObject *unused) {
    stop_flag = 0;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"count_many", count_many, METH_VARARGS,
     "count_many(n, kinds, depths, prefixes, base, results, allow, bits, stack, queen_cols, "
     "inverse) -> subtrees counted: count a batch of subtrees (see kernels.count_many)."},
    {"request_stop", request_stop, METH_NOARGS, "Make every running search return at once."},
    {"clear_stop", clear_stop, METH_NOARGS, "Let searches run again after request_stop()."},
    {"enumerate_batch", enumerate_batch, METH_VARARGS,
     "enumerate_batch(n, allow, state, stack_free, stack_cols, stack_left, stack_right, bits, "
     "out, capacity, max_nodes) -> (found, nodes) (see kernels.enumerate_batch)."},
    {"parse_rows", parse_rows, METH_VARARGS,
     "parse_rows(data, brackets, out, shape) -> rows or -1 (see parse.parse_rows)."},
    {NULL, NULL, 0, NULL}};

static int exec_module(PyObject *module) {
#ifdef HAVE_X86_V3
    __builtin_cpu_init();
    if (__builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
        __builtin_cpu_supports("bmi2")) {
        count_many_impl = count_many_v3;
        variant = "x86-64 with POPCNT and BMI2";
    }
#endif
    return PyModule_AddStringConstant(module, "VARIANT", variant);
}

static PyModuleDef_Slot slots[] = {{Py_mod_exec, exec_module},
#if PY_VERSION_HEX >= 0x030C0000
                                   {Py_mod_multiple_interpreters,
                                    Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
                                   {0, NULL}};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_kernels",
    "The compiled kernels of engine 'fast' (C; see cp_queens/engines/fast/_kernels.c).", 0,
    methods, slots, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModuleDef_Init(&definition); }
