/* SPDX-License-Identifier: MIT */
/* Arguments: sizes, boards in every form Python callers hold them, search
 * limits. Boards become text for the library's one parser, so that a board
 * means here exactly what it means to slidedb-lookup. */
#include <time.h>

#include "ext.h"

enum { TEXT_CAP = 4096 };

const char *ext_text(PyObject *str, const char *what)
{
	Py_ssize_t len;
	const char *s = PyUnicode_AsUTF8AndSize(str, &len);
	if (s && strlen(s) != (size_t)len) {
		const Py_ssize_t at = PyUnicode_FindChar(str, 0, 0, PyUnicode_GET_LENGTH(str), 1);
		ext_invalid("%s: a NUL character at position %zd", what, at + 1);
		return NULL;
	}
	return s;
}

int ext_uint_arg(uint64_t *v, PyObject *obj, const char *name, uint64_t lo, uint64_t hi,
                 const char *none)
{
	PyObject *i = PyNumber_Index(obj);
	if (!i)
		return -1;
	unsigned long long x = PyLong_AsUnsignedLongLong(i);
	int out = x < lo || x > hi;
	if (x == (unsigned long long)-1 && PyErr_Occurred()) {
		if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
			Py_DECREF(i);
			return -1;
		}
		PyErr_Clear();   /* negative, or beyond 64 bits */
		out = 1;
	}
	if (out) {
		char top[24] = "2**64 - 1";
		if (hi != UINT64_MAX)
			snprintf(top, sizeof top, "%llu", (unsigned long long)hi);
		PyObject *r = PyObject_Repr(i);
		const char *given = r ? PyUnicode_AsUTF8(r) : NULL;
		PyErr_Clear();
		ext_invalid("%s must be an integer from %llu to %s%s%s%s, not %.60s", name,
		            (unsigned long long)lo, top, none ? " (" : "", none ? none : "",
		            none ? ")" : "", given ? given : "that");
		Py_XDECREF(r);
	}
	Py_DECREF(i);
	if (out)
		return -1;
	*v = x;
	return 0;
}

/* A distance argument that may be None (-1). */
/* One number of moves of a request (None: -1), within the library's bounds
 * (its constants); how the numbers combine is the library's to judge. */
/* A count of moves: a whole number the request's rules then judge (their
 * words, as the other front ends give them); one that is no int at all,
 * negative or past 2**31, is refused here with the range it should be in. */
static int moves_arg(int *v, PyObject *obj, const char *name, int most)
{
	*v = -1;
	if (obj == Py_None)
		return 0;
	PyObject *i = PyNumber_Index(obj);
	if (!i)
		return -1;
	int over;
	long long x = PyLong_AsLongLongAndOverflow(i, &over);
	Py_DECREF(i);
	if (x == -1 && PyErr_Occurred())
		return -1;
	if (over || x < 0 || x > INT32_MAX) {
		uint64_t unused;   /* (out of 0..most, so it raises, in its words) */
		ext_uint_arg(&unused, obj, name, 0, (uint64_t)most, NULL);
		return -1;
	}
	*v = (int)x;
	return 0;
}

int ext_request_args(sdb_random_request *r, PyObject *distance, PyObject *min_distance,
                     PyObject *max_distance, PyObject *walk)
{
	const int far = SDB_MAX_DISTANCE - 1;
	if (moves_arg(&r->distance, distance, "distance", far) ||
	    moves_arg(&r->min_distance, min_distance, "min_distance", far) ||
	    moves_arg(&r->max_distance, max_distance, "max_distance", far) ||
	    moves_arg(&r->walk, walk ? walk : Py_None, "walk", SDB_MAX_WALK))
		return -1;
	if (sdb_random_check(r)) {
		ext_raise(SDB_EINVAL, -1, 0);
		return -1;
	}
	return 0;
}

int ext_metric_arg(int *metric, PyObject *obj)
{
	*metric = SDB_METRIC_STM;
	if (obj == NULL || obj == Py_None)
		return 0;
	const char *text = ext_text(obj, "metric");
	if (!text)
		return -1;
	*metric = sdb_metric_from_name(text);
	if (*metric >= 0)
		return 0;
	ext_invalid("metric: '%.40s' is not 'stm' or 'mtm'", text);
	return -1;
}

int ext_size_arg(PyObject *obj, int *w, int *h)
{
	*w = *h = 0;
	if (obj == NULL || obj == Py_None)
		return 0;
	if (PyUnicode_Check(obj)) {
		const char *text = ext_text(obj, "size");
		if (!text)
			return -1;
		if (sdb_board_size_parse(w, h, text) == 0)
			return 0;
		ext_invalid("size: '%.40s' is not a board size (write it WxH, e.g. '3x3')", text);
		return -1;
	}
	if (PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) == 2) {
		int over_a, over_b;
		long a = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(obj, 0), &over_a);
		long b = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(obj, 1), &over_b);
		if (PyErr_Occurred())
			return -1;
		if (!over_a && !over_b && a > 0 && b > 0 && a < 100 && b < 100 &&
		    sdb_board_size_valid((int)a, (int)b)) {
			*w = (int)a;
			*h = (int)b;
			return 0;
		}
		PyObject *r = PyObject_Repr(obj);
		const char *given = r ? PyUnicode_AsUTF8(r) : NULL;
		PyErr_Clear();
		ext_invalid("size: %.80s is not a board slidedb models (2 <= W, H <= %d)",
		            given ? given : "that", SDB_MAX_SIDE);
		Py_XDECREF(r);
		return -1;
	}
	PyErr_Format(PyExc_TypeError, "size must be 'WxH' or (W, H), not %.100s",
	             Py_TYPE(obj)->tp_name);
	return -1;
}

/* Append s to the text; -1 (raised) when it is full. */
static int put(char *buf, size_t *len, const char *s, const char *what)
{
	size_t n = strlen(s);
	if (*len + n + 1 > TEXT_CAP) {
		ext_invalid("%s: too long for a board", what);
		return -1;
	}
	memcpy(buf + *len, s, n + 1);
	*len += n;
	return 0;
}

/* The cells of an integer array of 1 or 2 dimensions as text: "1 2 3 0"
 * or, for rows, "[[1,2],[3,0]]" (the shape gives the size). */
static int array_text(PyArrayObject *a, char *buf, size_t *len, const char *what)
{
	const int nd = PyArray_NDIM(a);
	const npy_intp rows = nd == 2 ? PyArray_DIM(a, 0) : 1, cols = PyArray_DIM(a, nd - 1);
	if (rows * cols > 2 * SDB_MAX_CELLS)
	{
		ext_invalid("%s: %ld cells are too many for a board", what, (long)(rows * cols));
		return -1;
	}
	if (nd == 2 && put(buf, len, "[", what))
		return -1;
	for (npy_intp r = 0; r < rows; r++) {
		if (nd == 2 && put(buf, len, r ? ",[" : "[", what))
			return -1;
		for (npy_intp c = 0; c < cols; c++) {
			const long v = *(const long *)(nd == 2 ? PyArray_GETPTR2(a, r, c) : PyArray_GETPTR1(a, c));
			char cell[32];
			if (v < 0 || v > 255) {
				ext_invalid("%s: tile %ld is out of range", what, v);
				return -1;
			}
			snprintf(cell, sizeof cell, c ? (nd == 2 ? ",%ld" : " %ld") : "%ld", v);
			if (put(buf, len, cell, what))
				return -1;
		}
		if (nd == 2 && put(buf, len, "]", what))
			return -1;
	}
	return nd == 2 ? put(buf, len, "]", what) : 0;
}

/* Append one board argument to buf as text. */
static int board_text(PyObject *obj, char *buf, size_t *len, const char *what)
{
	if (PyUnicode_Check(obj)) {
		const char *s = ext_text(obj, what);
		return s ? put(buf, len, s, what) : -1;
	}
	if (PyBytes_Check(obj) || PyByteArray_Check(obj) || PyDict_Check(obj)) {
		PyErr_Format(PyExc_TypeError, "%s must be a str, a sequence of tiles or an array, "
		             "not %.100s", what, Py_TYPE(obj)->tp_name);
		return -1;
	}
	PyArrayObject *raw = (PyArrayObject *)PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
	if (!raw)
		return -1;
	int rc = -1;
	if (PyArray_NDIM(raw) < 1 || PyArray_NDIM(raw) > 2) {
		ext_invalid("%s: a board is one row of cells or rows of cells, not an array of "
		            "%d dimensions", what, PyArray_NDIM(raw));
	} else if (!PyArray_ISINTEGER(raw) && !(PyArray_SIZE(raw) == 0)) {
		ext_refuse_tiles(obj, raw, what);
	} else {
		PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY((PyObject *)raw, NPY_LONG, 1, 2,
		                                                    NPY_ARRAY_CARRAY | NPY_ARRAY_FORCECAST);
		if (a) {
			rc = array_text(a, buf, len, what);
			Py_DECREF(a);
		}
	}
	Py_DECREF(raw);
	return rc;
}

int ext_query(sdb_query *q, const sdb_db *db, PyObject *start, PyObject *goal, int w, int h)
{
	char text[TEXT_CAP];
	size_t len = 0;
	text[0] = '\0';
	if (board_text(start, text, &len, "start"))
		return -1;
	if (goal && goal != Py_None &&
	    (put(text, &len, " ; ", "goal") || board_text(goal, text, &len, "goal")))
		return -1;
	int err = sdb_query_parse(q, text, w, h, db);
	if (err) {
		ext_raise(err, -1, 0);
		return -1;
	}
	return 0;
}

int ext_board(sdb_board *b, const sdb_db *db, PyObject *obj, int w, int h, const char *what)
{
	char text[TEXT_CAP];
	size_t len = 0;
	text[0] = '\0';
	if (board_text(obj, text, &len, what))
		return -1;
	int err = sdb_board_parse(b, text, w, h);
	if (err == SDB_EAMBIGUOUS) {   /* settled by the tables, as in queries */
		uint8_t cells[SDB_MAX_CELLS];
		int count;
		if (sdb_board_cells_parse(cells, &count, SDB_MAX_CELLS, text) == 0 &&
		    (err = sdb_board_cells_size(&w, &h, count, db)) == 0)
			err = sdb_board_parse(b, text, w, h);
	}
	if (err) {
		ext_fail(err, "%s: %s", what, sdb_error_detail());
		return -1;
	}
	return 0;
}

int ext_goal(sdb_board *goal, const sdb_db *db, PyObject *obj, int w, int h)
{
	if (obj && obj != Py_None)
		return ext_board(goal, db, obj, w, h, "goal");
	sdb_board_goal(goal, w, h, w * h - 1);
	return 0;
}

PyObject *ext_board_str(const sdb_board *b)
{
	char text[3 * SDB_MAX_CELLS];
	sdb_board_format(text, sizeof text, b);
	return PyUnicode_FromString(text);
}

unsigned long ext_main_thread;

/* How often a search in the main thread looks for Ctrl-C: the GIL is taken
 * for it, which may wait for another thread's switch interval (5 ms). */
#define POLL_SECONDS 0.1

static double monotonic(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The library's poll, called without the GIL every 16384 nodes: run the
 * signal handlers Python has (Ctrl-C raises KeyboardInterrupt), and stop the
 * search if one raised. The exception stays set for the caller to return. */
static int poll_signals(void *ctx, const sdb_search_progress *p)
{
	static double next;   /* only the main thread polls */
	(void)ctx;
	(void)p;
	const double now = monotonic();
	if (now < next)
		return 0;
	next = now + POLL_SECONDS;
	PyGILState_STATE g = PyGILState_Ensure();
	const int stop = PyErr_CheckSignals() < 0;
	PyGILState_Release(g);
	return stop;
}

/* The poll of a search with a progress callback: Ctrl-C as poll_signals()
 * (in the main thread), and the callback at most every EXT_PROGRESS_SECONDS,
 * with the GIL taken for those alone. A callback that raises stops the
 * search with its exception set; one that returns a true value stops it
 * (p->stopped). */
static int poll_progress(void *ctx, const sdb_search_progress *sp)
{
	ext_progress *p = ctx;
	const double now = monotonic();
	const int signals = p->main_thread && now >= p->next_signals,
	          call = now >= p->next_call;
	if (!signals && !call)
		return 0;
	PyGILState_STATE g = PyGILState_Ensure();
	int stop = 0;
	if (signals) {
		p->next_signals = now + POLL_SECONDS;
		stop = PyErr_CheckSignals() < 0;
	}
	if (call && !stop) {
		p->next_call = now + EXT_PROGRESS_SECONDS;
		p->bound = sp->bound;
		p->nodes = sp->nodes;
		PyObject *r = PyObject_CallFunction(p->fn, "iKd", sp->bound,
		                                    (unsigned long long)sp->nodes, sp->seconds);
		const int truth = r ? PyObject_IsTrue(r) : -1;
		Py_XDECREF(r);
		p->stopped = truth > 0;
		stop = truth != 0;   /* (-1: it raised, or its value has no truth) */
	}
	PyGILState_Release(g);
	return stop;
}

int ext_progress_arg(sdb_solve_limits *l, ext_progress *p, PyObject *fn)
{
	*p = (ext_progress){ 0 };
	if (!fn || fn == Py_None)
		return 0;
	if (!PyCallable_Check(fn)) {
		PyErr_Format(PyExc_TypeError, "progress must be a callable (bound, nodes, seconds) "
		             "or None, not %.100s", Py_TYPE(fn)->tp_name);
		return -1;
	}
	p->fn = fn;
	p->main_thread = PyThread_get_thread_ident() == ext_main_thread;
	p->next_call = monotonic() + EXT_PROGRESS_SECONDS;
	l->poll = poll_progress;
	l->poll_ctx = p;
	return 0;
}

int ext_limits(sdb_solve_limits *l, PyObject *max_nodes, PyObject *timeout)
{
	*l = (sdb_solve_limits){ 0 };   /* every field: no poll unless one is set */
	if (PyThread_get_thread_ident() == ext_main_thread)
		l->poll = poll_signals;
	if (max_nodes && max_nodes != Py_None &&
	    ext_uint_arg(&l->max_nodes, max_nodes, "max_nodes", 1, UINT64_MAX, "None: no limit"))
		return -1;
	if (timeout && timeout != Py_None) {
		l->timeout = PyFloat_AsDouble(timeout);
		if (PyErr_Occurred())
			return -1;
		if (!(l->timeout > 0)) {
			ext_invalid("timeout must be a positive number of seconds (None: no limit)");
			return -1;
		}
	}
	return 0;
}
