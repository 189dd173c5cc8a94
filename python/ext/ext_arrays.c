/* SPDX-License-Identifier: MIT */
/* States arrays: any integer dtype and layout in, the library's rows of
 * uint8 cells out, with the board size decided once for the whole batch. */
#include "ext.h"

/* The size of rows of `cells` cells when none was given. */
static int size_of_cells(const sdb_db *db, int cells, int *w, int *h)
{
	int err = sdb_board_cells_size(w, h, cells, db);
	if (err) {
		ext_fail(err, "states: %s", sdb_error_detail());
		return -1;
	}
	return 0;
}

/* Refuse values outside 0..255 before a cast to uint8 could wrap them onto
 * tiles: name the first row that holds one. */
static int check_range(PyArrayObject *a, npy_intp cells)
{
	PyArrayObject *wide = (PyArrayObject *)PyArray_FROMANY((PyObject *)a, NPY_INT64, 0, 0,
	                                                       NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST);
	if (!wide)
		return -1;
	const int64_t *v = PyArray_DATA(wide);
	const npy_intp n = PyArray_SIZE(wide);
	npy_intp i = 0;
	while (i < n && v[i] >= 0 && v[i] <= 255)
		i++;
	if (i < n) {
		const long long bad = (long long)v[i];
		Py_DECREF(wide);
		PyObject *e = ext_invalid("board %ld: tile %lld is out of range", (long)(i / cells), bad);
		(void)e;
		return -1;
	}
	Py_DECREF(wide);
	return 0;
}

int ext_refuse_tiles(PyObject *obj, PyArrayObject *raw, const char *what)
{
	const char *type = PyArray_DESCR(raw)->typeobj->tp_name;
	PyArrayObject *values = NULL;
	if (!PyArray_Check(obj))   /* values as Python made them, not as NumPy cast them */
		values = (PyArrayObject *)PyArray_FromAny(obj, PyArray_DescrFromType(NPY_OBJECT), 0, 0,
		                                          NPY_ARRAY_CARRAY_RO, NULL);
	PyErr_Clear();
	const npy_intp n = values ? PyArray_SIZE(values) : 0;
	const npy_intp cells = n && PyArray_DIM(values, 0) ? n / PyArray_DIM(values, 0) : 1;
	PyObject **v = values ? PyArray_DATA(values) : NULL;
	for (npy_intp i = 0; i < n; i++) {
		if (!PyIndex_Check(v[i])) {
			type = Py_TYPE(v[i])->tp_name;
			break;
		}
		PyObject *x = PyNumber_Index(v[i]);
		int over = 0;
		const long long t = x ? PyLong_AsLongLongAndOverflow(x, &over) : 0;
		if (x && (over || t < 0 || t > 255)) {
			PyObject *r = PyObject_Repr(x);
			const char *tile = r ? PyUnicode_AsUTF8(r) : NULL;
			PyErr_Clear();
			if (what)
				ext_invalid("%s: tile %.60s is out of range", what, tile ? tile : "?");
			else
				ext_invalid("board %ld: tile %.60s is out of range", (long)(i / cells),
				            tile ? tile : "?");
			Py_XDECREF(r);
			Py_DECREF(x);
			Py_DECREF(values);
			return -1;
		}
		Py_XDECREF(x);
		PyErr_Clear();
	}
	Py_XDECREF(values);
	if (what)
		ext_invalid("%s: tiles must be integers, not %s", what, type);
	else
		ext_invalid("states must hold integers (the tiles, 0 for the blank), not %s", type);
	return -1;
}

PyArrayObject *ext_states(PyObject *obj, const sdb_db *db, int *w, int *h)
{
	PyArrayObject *a = (PyArrayObject *)PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
	if (!a)
		return NULL;
	const int nd = PyArray_NDIM(a);
	if (nd != 2 && nd != 3) {
		Py_DECREF(a);
		ext_invalid("states must be a 2-D array of boards, one per row (N, W*H), or a 3-D "
		            "array (N, H, W); got %d dimension%s (one board: wrap it as [board])", nd,
		            nd == 1 ? "" : "s");
		return NULL;
	}
	const npy_intp n = PyArray_DIM(a, 0);
	if (!PyArray_ISINTEGER(a) && !(n == 0 && PyArray_ISFLOAT(a))) {
		ext_refuse_tiles(obj, a, NULL);
		Py_DECREF(a);
		return NULL;
	}
	const npy_intp cells = nd == 2 ? PyArray_DIM(a, 1) : PyArray_DIM(a, 1) * PyArray_DIM(a, 2);
	int rc = 0;
	if (cells < 4 || cells > SDB_MAX_CELLS) {
		ext_invalid("states: rows of %ld cells are no board (boards have 4 to %d cells)",
		            (long)cells, SDB_MAX_CELLS);
		rc = -1;
	} else if (nd == 3 && *w && (*w != PyArray_DIM(a, 2) || *h != PyArray_DIM(a, 1))) {
		ext_invalid("states are %ldx%ld boards (shape (N, H, W)) but the size asked is %dx%d",
		            (long)PyArray_DIM(a, 2), (long)PyArray_DIM(a, 1), *w, *h);
		rc = -1;
	} else if (nd == 3) {
		*w = (int)PyArray_DIM(a, 2);
		*h = (int)PyArray_DIM(a, 1);
		if (!sdb_board_size_valid(*w, *h)) {
			ext_invalid("states: %dx%d is not a board slidedb models", *w, *h);
			rc = -1;
		}
	} else if (*w && *w * *h != cells) {
		ext_invalid("states have rows of %ld cells but %dx%d boards have %d", (long)cells, *w,
		            *h, *w * *h);
		rc = -1;
	} else if (!*w) {
		rc = size_of_cells(db, (int)cells, w, h);
	}
	if (!rc && PyArray_TYPE(a) != NPY_UINT8)
		rc = check_range(a, cells);
	if (rc) {
		Py_DECREF(a);
		return NULL;
	}
	/* Zero-copy for C-contiguous uint8; a cast or a copy otherwise. */
	npy_intp dims[2] = { n, cells };
	PyArrayObject *c = (PyArrayObject *)PyArray_FROMANY((PyObject *)a, NPY_UINT8, 0, 0,
	                                                    NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST);
	Py_DECREF(a);
	if (!c)
		return NULL;
	PyArray_Dims shape = { dims, 2 };
	PyArrayObject *rows = (PyArrayObject *)PyArray_Newshape(c, &shape, NPY_CORDER);
	Py_DECREF(c);
	return rows;
}
