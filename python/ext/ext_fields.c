/* SPDX-License-Identifier: MIT */
/* The library's fields (sdb_answer_fields, sdb_check_fields,
 * sdb_table_fields) as a dict: to_dict() and Database.tables() are this
 * visitor, so their keys, order and values are the CLI's JSON by
 * construction. */
#include "ext.h"

static PyObject *value_of(const sdb_field *f)
{
	char count[48];
	switch (f->type) {
	case SDB_VALUE_BOOL: return PyBool_FromLong((long)f->i);
	case SDB_VALUE_INT: return PyLong_FromLongLong(f->i);
	case SDB_VALUE_REAL: return PyFloat_FromDouble(f->real);
	case SDB_VALUE_TEXT:
		/* names and sets are what their writer stored: never refuse one */
		return PyUnicode_DecodeUTF8(f->text, (Py_ssize_t)strlen(f->text), "replace");
	case SDB_VALUE_COUNT:
		sdb_count_format(count, sizeof count, &f->count);
		return PyLong_FromString(count, NULL, 10);
	case SDB_VALUE_LIST: return PyList_New(0);
	case SDB_VALUE_OBJECT: return PyDict_New();
	default: Py_RETURN_NONE;
	}
}

int ext_field_put(void *ctx, const sdb_field *f)
{
	ext_fields *b = ctx;
	if (f->type == SDB_VALUE_END) {
		b->depth--;
		return 0;
	}
	PyObject *v = value_of(f);
	PyObject *into = b->open[b->depth];
	int rc = !v ? -1 : f->name ? PyDict_SetItemString(into, f->name, v) : PyList_Append(into, v);
	if (!rc && (f->type == SDB_VALUE_LIST || f->type == SDB_VALUE_OBJECT)) {
		if (b->depth + 1 == EXT_FIELDS_DEPTH)
			rc = -1;   /* (the library nests no deeper) */
		else
			b->open[++b->depth] = v;   /* borrowed: its container holds it */
	}
	Py_XDECREF(v);
	if (rc) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_RuntimeError, "fields nested too deep");
		b->failed = 1;
	}
	return rc;
}

PyObject *ext_fields_begin(ext_fields *b)
{
	memset(b, 0, sizeof *b);
	b->open[0] = PyDict_New();
	return b->open[0];
}

PyObject *ext_fields_end(ext_fields *b)
{
	if (b->failed)
		Py_CLEAR(b->open[0]);
	return b->open[0];
}
