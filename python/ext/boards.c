/* Arguments: sizes, boards in every form Python callers hold them, search
 * limits. Boards become text for the library's one parser, so that a board
 * means here exactly what it means to slidedb-lookup. */
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

int ext_size_arg(PyObject *obj, int *w, int *h)
{
	*w = *h = 0;
	if (obj == NULL || obj == Py_None)
		return 0;
	if (PyUnicode_Check(obj)) {
		const char *text = ext_text(obj, "size");
		if (!text)
			return -1;
		if (sdb_size_parse(w, h, text) == 0)
			return 0;
		ext_invalid("size: '%.40s' is not a board size (write it WxH, e.g. '3x3')", text);
		return -1;
	}
	if (PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) == 2) {
		long a = PyLong_AsLong(PyTuple_GET_ITEM(obj, 0));
		long b = PyLong_AsLong(PyTuple_GET_ITEM(obj, 1));
		if (PyErr_Occurred())
			return -1;
		if (a > 0 && b > 0 && a < 100 && b < 100 && sdb_size_valid((int)a, (int)b)) {
			*w = (int)a;
			*h = (int)b;
			return 0;
		}
		ext_invalid("size: (%ld, %ld) is not a board slidedb models (2 <= W, H and W*H <= 16)",
		            a, b);
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
		ext_invalid("%s: tiles must be integers, not %s", what,
		            PyArray_DESCR(raw)->typeobj->tp_name);
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
		if (sdb_cells_parse(cells, &count, SDB_MAX_CELLS, text) == 0 &&
		    (err = sdb_cells_size(&w, &h, count, db)) == 0)
			err = sdb_board_parse(b, text, w, h);
	}
	if (err) {
		ext_fail(err, "%s: %s", what, sdb_errdetail());
		return -1;
	}
	return 0;
}

PyObject *ext_board_str(const sdb_board *b)
{
	char text[3 * SDB_MAX_CELLS];
	sdb_board_format(text, sizeof text, b);
	return PyUnicode_FromString(text);
}

int ext_limits(sdb_solve_limits *l, PyObject *max_nodes, PyObject *timeout)
{
	*l = (sdb_solve_limits){ 0 };   /* every field: no poll unless one is set */
	if (max_nodes && max_nodes != Py_None) {
		l->max_nodes = PyLong_AsUnsignedLongLong(max_nodes);
		if (PyErr_Occurred())
			return -1;
		if (l->max_nodes == 0) {
			ext_invalid("max_nodes must be at least 1 (None: no limit)");
			return -1;
		}
	}
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
