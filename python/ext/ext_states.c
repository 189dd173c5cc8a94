/* SPDX-License-Identifier: MIT */
/* Database.states() and States: every state at chosen distances from a goal,
 * each once, in the index order of the goal's table (the library's
 * sdb_states_*), as rows of cells with their distances: whole arrays, or an
 * iterator of chunks for tables too big to hold at once. What a dataset for
 * learning needs where random() repeats states and misses others. */
#include "ext.h"

/* Rows listed per release of the GIL when the whole listing is made at
 * once: between them Ctrl-C is seen. */
enum { WHOLE_STEP = 1 << 20 };

typedef struct {
	PyObject_HEAD
	ext_guard guard;
	ext_database *db;   /* pinned until released; NULL once released */
	sdb_states *s;
	sdb_board goal;
	uint64_t count;     /* rows in all */
	uint64_t left;      /* rows not listed yet */
	Py_ssize_t chunk;
	int busy;           /* a thread is in next() (without the GIL) */
} states_object;

/* List up to k rows into cells (and dist, or NULL) without the GIL. Returns
 * the rows listed, or -1 (raised). */
static long list_rows(sdb_states *s, uint8_t *cells, int16_t *dist, size_t k)
{
	long got;
	Py_BEGIN_ALLOW_THREADS
	got = sdb_states_next(s, cells, dist, k);
	Py_END_ALLOW_THREADS
	if (got < 0) {
		ext_raise((int)got, -1, 0);
		return -1;
	}
	return got;
}

/* A listing that ends before its count: the table's counts and its entries
 * disagree. */
static PyObject *short_listing(uint64_t listed, uint64_t count)
{
	return ext_fail(SDB_ECORRUPT, "the table lists %llu states where its counts say %llu",
	                (unsigned long long)listed, (unsigned long long)count);
}


static PyArrayObject *cells_array(npy_intp rows, int n)
{
	npy_intp dims[2] = { rows, n };
	return (PyArrayObject *)PyArray_SimpleNew(2, dims, NPY_UINT8);
}

/* Every row of s at once: (cells, distances or None). */
static PyObject *whole(sdb_states *s, const sdb_board *goal)
{
	const uint64_t count = sdb_states_count(s);
	if (count > (uint64_t)NPY_MAX_INTP / goal->n)
		return PyErr_NoMemory();
	const npy_intp n = (npy_intp)count;
	const npy_intp step = n < WHOLE_STEP ? n : WHOLE_STEP;
	PyArrayObject *cells = cells_array(n, goal->n), *dist = NULL;
	PyObject *result = NULL;
	int16_t *first = malloc((size_t)(step ? step : 1) * sizeof *first);
	if (!cells || !first) {
		if (cells && !first)
			PyErr_NoMemory();
		goto done;
	}
	uint8_t *rows = PyArray_DATA(cells);
	/* The first step tells whether there are distances; only then is their
	 * array made (2 bytes a state for nothing, else). */
	npy_intp done = 0;
	long got = list_rows(s, rows, first, (size_t)step);
	if (got < 0)
		goto done;
	if (sdb_states_distances(s)) {
		if (!(dist = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_INT16)))
			goto done;
		memcpy(PyArray_DATA(dist), first, (size_t)got * sizeof *first);
	}
	for (done = got; got > 0 && done < n; done += got) {
		if (PyErr_CheckSignals())
			goto done;
		const npy_intp k = n - done < WHOLE_STEP ? n - done : WHOLE_STEP;
		got = list_rows(s, rows + done * goal->n,
		                dist ? (int16_t *)PyArray_DATA(dist) + done : NULL, (size_t)k);
		if (got < 0)
			goto done;
	}
	if (done < n)
		short_listing((uint64_t)done, count);
	else
		result = PyTuple_Pack(2, cells, dist ? (PyObject *)dist : Py_None);
done:
	free(first);
	Py_XDECREF(cells);
	Py_XDECREF(dist);
	return result;
}

/* Close the listing and let go of the database: once closed (or listed to
 * the end) and no call is under way. */
static void st_release(states_object *o)
{
	sdb_states_close(o->s);
	o->s = NULL;
	ext_let_go(&o->db);
}

static PyObject *st_close(states_object *o, PyObject *noargs)
{
	(void)noargs;
	if (ext_guard_close(&o->guard))
		st_release(o);
	Py_RETURN_NONE;
}

static void st_dealloc(states_object *o)
{
	/* every call under way holds a reference: no pins are left here */
	st_close(o, NULL);
	PyObject_Free(o);
}

/* A States over s for d (pinned by the caller); s is the object's, or closed. */
static PyObject *states_new(ext_database *d, sdb_states *s, const sdb_board *goal,
                            Py_ssize_t chunk)
{
	states_object *o = PyObject_New(states_object, &ext_states_type);
	if (!o) {
		sdb_states_close(s);
		return NULL;
	}
	o->guard = (ext_guard){ 0 };
	o->s = s;
	o->goal = *goal;
	o->count = o->left = sdb_states_count(s);
	o->chunk = chunk;
	o->busy = 0;
	/* the hold fails when another thread closed d while s was opened */
	if (ext_hold(&o->db, d))
		Py_CLEAR(o);
	return (PyObject *)o;
}

/* The next chunk of rows of a listing that is open and pinned. */
static PyObject *next_chunk(states_object *o)
{
	const npy_intp k = o->left < (uint64_t)o->chunk ? (npy_intp)o->left : o->chunk;
	PyArrayObject *cells = cells_array(k, o->goal.n);
	PyArrayObject *dist = (PyArrayObject *)PyArray_SimpleNew(1, &k, NPY_INT16);
	PyObject *result = NULL;
	if (!cells || !dist)
		goto done;
	o->busy = 1;
	const long got = list_rows(o->s, PyArray_DATA(cells), PyArray_DATA(dist), (size_t)k);
	o->busy = 0;
	if (got < 0)
		goto done;
	if (got < k) {
		short_listing(o->count - o->left + (uint64_t)got, o->count);
		goto done;
	}
	o->left -= (uint64_t)got;
	result = PyTuple_Pack(2, cells, sdb_states_distances(o->s) ? (PyObject *)dist : Py_None);
done:
	Py_XDECREF(cells);
	Py_XDECREF(dist);
	return result;
}

static PyObject *st_next(states_object *o)
{
	if (o->guard.closing || !o->left) {   /* closed, or listed to the end: stop */
		st_close(o, NULL);
		return NULL;
	}
	if (o->busy) {
		PyErr_SetString(PyExc_ValueError, "the listing is in use by another thread");
		return NULL;
	}
	if (ext_guard_pin(&o->guard, "listing"))
		return NULL;
	PyObject *result = next_chunk(o);
	if (!o->left)
		st_close(o, NULL);   /* released by the unpin below: the database is let go at once */
	if (ext_guard_unpin(&o->guard))
		st_release(o);
	return result;
}

static PyObject *st_enter(states_object *o, PyObject *noargs)
{
	(void)noargs;
	return Py_NewRef(o);
}

static PyObject *st_exit(states_object *o, PyObject *args)
{
	(void)args;
	return st_close(o, NULL);
}

static PyObject *st_repr(states_object *o)
{
	char goal[3 * SDB_MAX_CELLS];
	sdb_board_format(goal, sizeof goal, &o->goal);
	return PyUnicode_FromFormat("<slidedb.States %llu states of %dx%d goal '%s' in chunks of %zd%s>",
	                            (unsigned long long)o->count, o->goal.w, o->goal.h, goal, o->chunk,
	                            o->guard.closing ? " (closed)" : "");
}

static PyObject *get_count(states_object *o, void *c)
{
	(void)c;
	return PyLong_FromUnsignedLongLong(o->count);
}

static PyObject *get_chunk(states_object *o, void *c)
{
	(void)c;
	return PyLong_FromSsize_t(o->chunk);
}

static PyObject *get_goal(states_object *o, void *c)
{
	(void)c;
	return ext_board_str(&o->goal);
}

static PyObject *get_size(states_object *o, void *c)
{
	(void)c;
	return PyUnicode_FromFormat("%dx%d", o->goal.w, o->goal.h);
}

PyObject *ext_db_states(ext_database *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "size", "distance", "min_distance", "max_distance", "goal",
	                          "chunk", "metric", NULL };
	PyObject *size = Py_None, *dist_obj = Py_None, *min_obj = Py_None, *max_obj = Py_None,
	         *goal_obj = Py_None, *chunk_obj = Py_None, *metric_obj = Py_None;
	int w, h, lo, hi, metric;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O$OOOOOO:states", kwlist, &size, &dist_obj,
	                                 &min_obj, &max_obj, &goal_obj, &chunk_obj, &metric_obj) ||
	    ext_metric_arg(&metric, metric_obj))
		return NULL;
	uint64_t chunk = 0;
	sdb_random_request req = SDB_RANDOM_REQUEST_INIT;
	if (ext_size_arg(size, &w, &h) || ext_request_args(&req, dist_obj, min_obj, max_obj, NULL) ||
	    (chunk_obj != Py_None &&
	     ext_uint_arg(&chunk, chunk_obj, "chunk", 1, PY_SSIZE_T_MAX, "None: one array")))
		return NULL;
	if (!w && goal_obj == Py_None)
		return ext_invalid("states() needs a size ('3x3') or a goal");
	sdb_random_range(&req, &lo, &hi);
	const sdb_db *db = ext_pin(self);
	if (!db)
		return NULL;
	sdb_board goal;
	sdb_states *s = NULL;
	PyObject *result = NULL;
	if (ext_goal(&goal, db, goal_obj, w, h) == 0) {
		int err;
		Py_BEGIN_ALLOW_THREADS
		err = sdb_states_open_metric(&s, db, &goal, lo, hi, metric);
		Py_END_ALLOW_THREADS
		if (err)
			ext_raise(err, -1, 0);
		else if (chunk)
			result = states_new(self, s, &goal, (Py_ssize_t)chunk);
		else {
			result = whole(s, &goal);
			sdb_states_close(s);
		}
	}
	ext_unpin(self);
	return result;
}

static PyMethodDef st_methods[] = {
	{ "close", (PyCFunction)st_close, METH_NOARGS,
	  "close($self, /)\n--\n\nEnd the listing (and its hold on the database): iteration stops.\n"
	  "A chunk being listed in another thread is finished first." },
	{ "__enter__", (PyCFunction)st_enter, METH_NOARGS, "__enter__($self, /)\n--\n\n" },
	{ "__exit__", (PyCFunction)st_exit, METH_VARARGS, "__exit__($self, *exc_info, /)\n--\n\nClose." },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef st_getset[] = {
	{ "count", (getter)get_count, NULL, "How many states the listing holds in all.", NULL },
	{ "chunk", (getter)get_chunk, NULL, "The most rows of one chunk.", NULL },
	{ "goal", (getter)get_goal, NULL, "The goal the distances lead to.", NULL },
	{ "size", (getter)get_size, NULL, "The board size, 'WxH'.", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject ext_states_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "slidedb.States",
	.tp_basicsize = sizeof(states_object),
	.tp_dealloc = (destructor)st_dealloc,
	.tp_repr = (reprfunc)st_repr,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "The states of a table in chunks, made by Database.states(..., chunk=N): an\n"
	          "iterator of (states, distances) tuples, each of up to N rows (the last may be\n"
	          "shorter), in the order of one whole listing. states is a uint8 array (k, W*H),\n"
	          "distances an int16 array (k,), or None when the listing has none. A context\n"
	          "manager; it keeps its database open until it is listed to the end or closed.\n"
	          "Threads may share it: each chunk goes to one of them (a thread that asks while\n"
	          "another lists gets ValueError).",
	.tp_iter = PyObject_SelfIter,
	.tp_iternext = (iternextfunc)st_next,
	.tp_methods = st_methods,
	.tp_getset = st_getset,
};
