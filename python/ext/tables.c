/* The catalog as dicts: the fields and values of `slidedb-lookup info
 * --json`, with the library's names for kinds and formats. */
#include <time.h>

#include "ext.h"

static PyObject *tile_list(uint32_t tiles)
{
	PyObject *list = PyList_New(0);
	for (int t = 1; list && t < SDB_MAX_CELLS; t++)
		if (tiles >> t & 1) {
			PyObject *v = PyLong_FromLong(t);
			if (!v || PyList_Append(list, v))
				Py_CLEAR(list);
			Py_XDECREF(v);
		}
	return list;
}

/* The cells whose goals a table serves: its blank cell's class. */
static PyObject *served_cells(const sdb_table_info *in)
{
	PyObject *list = PyList_New(0);
	for (int c = 0; list && c < in->goal.n; c++)
		if (sdb_sym_representative(in->goal.w, in->goal.h, c) == in->goal.blank) {
			PyObject *v = PyLong_FromLong(c);
			if (!v || PyList_Append(list, v))
				Py_CLEAR(list);
			Py_XDECREF(v);
		}
	return list;
}

static PyObject *counts(const sdb_table_info *in)
{
	PyObject *list = PyList_New(in->max_distance + 1);
	for (int d = 0; list && d <= in->max_distance; d++) {
		PyObject *v = PyLong_FromUnsignedLongLong(in->counts[d]);
		if (!v)
			Py_CLEAR(list);
		else
			PyList_SET_ITEM(list, d, v);
	}
	return list;
}

static int put(PyObject *d, const char *key, PyObject *value)
{
	if (!value)
		return -1;
	int rc = PyDict_SetItemString(d, key, value);
	Py_DECREF(value);
	return rc;
}

static int pattern_fields(PyObject *d, const sdb_table_info *in)
{
	uint32_t tiles, left;
	sdb_board ordered;
	sdb_table_tiles(&tiles, &left, &ordered, in);
	return put(d, "set", PyUnicode_FromString(in->set)) ||
	       put(d, "group", PyLong_FromLong(in->group)) ||
	       put(d, "groups", PyLong_FromLong(in->ngroups)) ||
	       put(d, "blank", PyUnicode_FromString(in->blank_mode == SDB_BLANK_REGION ? "region"
	                                                                                : "min")) ||
	       put(d, "tiles", tile_list(tiles)) || put(d, "left_out", tile_list(left)) ||
	       put(d, "tiles_of", ext_board_str(&ordered));
}

PyObject *ext_table_dict(const sdb_table_info *in)
{
	char when[32], crc[16];
	const time_t t = (time_t)in->built_at;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(crc, sizeof crc, "%08x", in->crc32);
	PyObject *d = PyDict_New();
	if (!d)
		return NULL;
	if (put(d, "name", PyUnicode_FromString(in->name)) ||
	    put(d, "kind", PyUnicode_FromString(sdb_kind_name(in->kind))) ||
	    put(d, "size", PyUnicode_FromFormat("%dx%d", in->goal.w, in->goal.h)) ||
	    put(d, "goal", ext_board_str(&in->goal)) || put(d, "blank_cells", served_cells(in)) ||
	    put(d, "entry_format", PyUnicode_FromString(sdb_format_name(in->entry_format))) ||
	    put(d, "states", PyLong_FromUnsignedLongLong(in->states)) ||
	    put(d, "bytes", PyLong_FromUnsignedLongLong(sdb_table_bytes(in))) ||
	    put(d, "max_distance", PyLong_FromLong(in->max_distance)) ||
	    put(d, "crc32", PyUnicode_FromString(crc)) ||
	    put(d, "built_at", PyUnicode_FromString(when)) ||
	    put(d, "build_seconds", PyFloat_FromDouble(in->build_seconds)) ||
	    put(d, "threads", PyLong_FromLong(in->threads)) ||
	    put(d, "tool_version", PyUnicode_FromString(in->tool_version)) ||
	    (in->kind == SDB_KIND_PATTERN && pattern_fields(d, in)) ||
	    put(d, "format_version", PyLong_FromUnsignedLong(in->format_version)) ||
	    put(d, "counts", counts(in)))
		Py_CLEAR(d);
	return d;
}
