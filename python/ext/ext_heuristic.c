/* SPDX-License-Identifier: MIT */
/* Heuristic: a lower bound on the distance to one goal (an additive
 * pattern-database set, or Manhattan distance with linear conflicts), for
 * solvers written in Python. It reads the tables of its Database, which it
 * keeps open (pinned) until it is released; calls pin the heuristic itself,
 * so that close() from another thread waits for them (ext_guard). */
#include "ext.h"

typedef struct {
	PyObject_HEAD
	ext_guard guard;
	ext_database *db;   /* NULL once released */
	sdb_heuristic *h;
	sdb_board goal;
	PyObject *name;
} heuristic_object;

PyObject *ext_heuristic_new(ext_database *d, sdb_heuristic *h, const sdb_board *goal)
{
	heuristic_object *o = PyObject_New(heuristic_object, &ext_heuristic_type);
	if (!o)
		return NULL;
	o->guard = (ext_guard){ 0 };
	o->h = NULL;   /* the caller closes h on failure */
	o->goal = *goal;
	o->name = NULL;
	/* the hold fails when another thread closed d while the set was opened
	 * (the caller's pin kept it open meanwhile) */
	if (ext_hold(&o->db, d) || !(o->name = PyUnicode_FromString(sdb_heuristic_name(h)))) {
		Py_DECREF(o);
		return NULL;
	}
	o->h = h;
	return (PyObject *)o;
}

/* Free the heuristic and let go of its database: once closed and no call
 * is under way. */
static void h_release(heuristic_object *o)
{
	sdb_heuristic_close(o->h);
	o->h = NULL;
	ext_let_go(&o->db);
}

static PyObject *h_close(heuristic_object *o, PyObject *noargs)
{
	(void)noargs;
	if (ext_guard_close(&o->guard))
		h_release(o);
	Py_RETURN_NONE;
}

static void h_dealloc(heuristic_object *o)
{
	/* every call under way holds a reference: no pins are left here */
	h_close(o, NULL);
	Py_XDECREF(o->name);
	PyObject_Free(o);
}

/* The heuristic, pinned for a call (its arguments may run Python code, and
 * values() releases the GIL); NULL (raised) once closed. */
static const sdb_heuristic *h_pin(heuristic_object *o)
{
	return ext_guard_pin(&o->guard, "heuristic") ? NULL : o->h;
}

static void h_unpin(heuristic_object *o)
{
	if (ext_guard_unpin(&o->guard))
		h_release(o);
}

static PyObject *h_value(heuristic_object *o, PyObject *state)
{
	const sdb_heuristic *h = h_pin(o);
	if (!h)
		return NULL;
	sdb_board b;
	PyObject *result = NULL;
	if (ext_board(&b, o->db->db, state, o->goal.w, o->goal.h, "state") == 0) {
		int v = sdb_heuristic_value(h, &b);
		result = v < 0 ? ext_raise(v, -1, 0) : PyLong_FromLong(v);
	}
	h_unpin(o);
	return result;
}

static PyObject *h_values(heuristic_object *o, PyObject *states)
{
	const sdb_heuristic *h = h_pin(o);
	if (!h)
		return NULL;
	int w = o->goal.w, ht = o->goal.h;
	PyObject *result = NULL;
	PyArrayObject *rows = ext_states(states, o->db->db, &w, &ht), *out = NULL;
	npy_intp n = rows ? PyArray_DIM(rows, 0) : 0;
	if (rows && (out = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_INT16))) {
		size_t bad = 0;
		int err;
		Py_BEGIN_ALLOW_THREADS
		err = sdb_batch_heuristic(PyArray_DATA(out), h, PyArray_DATA(rows), w, ht, (size_t)n,
		                          &bad);
		Py_END_ALLOW_THREADS
		result = err ? ext_raise(err, (Py_ssize_t)bad, 0) : Py_NewRef(out);
	}
	Py_XDECREF(rows);
	Py_XDECREF(out);
	h_unpin(o);
	return result;
}

static PyObject *h_enter(heuristic_object *o, PyObject *noargs)
{
	(void)noargs;
	if (o->guard.closing) {
		PyErr_SetString(PyExc_ValueError, "the heuristic is closed");
		return NULL;
	}
	return Py_NewRef(o);
}

static PyObject *h_exit(heuristic_object *o, PyObject *args)
{
	(void)args;
	return h_close(o, NULL);
}

static PyObject *h_repr(heuristic_object *o)
{
	char goal[3 * SDB_MAX_CELLS];
	sdb_board_format(goal, sizeof goal, &o->goal);
	return PyUnicode_FromFormat("<slidedb.Heuristic %R for %dx%d goal '%s'%s>", o->name,
	                            o->goal.w, o->goal.h, goal, o->guard.closing ? " (closed)" : "");
}

static PyObject *get_name(heuristic_object *o, void *c)
{
	(void)c;
	return Py_NewRef(o->name);
}

static PyObject *get_goal(heuristic_object *o, void *c)
{
	(void)c;
	return ext_board_str(&o->goal);
}

static PyObject *get_size(heuristic_object *o, void *c)
{
	(void)c;
	return PyUnicode_FromFormat("%dx%d", o->goal.w, o->goal.h);
}

static PyMethodDef h_methods[] = {
	{ "value", (PyCFunction)h_value, METH_O,
	  "value($self, state, /)\n--\n\n"
	  "The lower bound for one board (any notation solve() takes), an int >= 0: a few\n"
	  "table reads. Raises InvalidBoardError for a board of another size." },
	{ "values", (PyCFunction)h_values, METH_O,
	  "values($self, states, /)\n--\n\n"
	  "The lower bounds of many boards (an array as Database.distance() takes), without\n"
	  "the GIL: an int16 array." },
	{ "close", (PyCFunction)h_close, METH_NOARGS,
	  "close($self, /)\n--\n\nRelease the heuristic (and its hold on the database)." },
	{ "__enter__", (PyCFunction)h_enter, METH_NOARGS, "__enter__($self, /)\n--\n\n" },
	{ "__exit__", (PyCFunction)h_exit, METH_VARARGS, "__exit__($self, *exc_info, /)\n--\n\nClose." },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef h_getset[] = {
	{ "name", (getter)get_name, NULL,
	  "The set's name ('pdb-4x4-b0-5-5-5'), or 'manhattan+linear-conflicts'.", NULL },
	{ "goal", (getter)get_goal, NULL, "The goal the bounds lead to.", NULL },
	{ "size", (getter)get_size, NULL, "The board size, 'WxH'.", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject ext_heuristic_type = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "slidedb.Heuristic",
	.tp_basicsize = sizeof(heuristic_object),
	.tp_dealloc = (destructor)h_dealloc,
	.tp_repr = (reprfunc)h_repr,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "A lower bound on the distance of any board to one goal, made by\n"
	          "Database.heuristic(): never more than the true distance, so an A* or IDA* of\n"
	          "your own finds optimal solutions with it. A context manager; it keeps its\n"
	          "database open until it is closed.",
	.tp_methods = h_methods,
	.tp_getset = h_getset,
};
