/* The catalog as dicts: the fields and values of `slidedb-lookup info
 * --json`, with the library's names for kinds and formats. */
#include <time.h>

#include "ext.h"

/* The numbers of the bits set in mask: tiles, or cells. */
static PyObject *bit_list(uint32_t mask)
{
	PyObject *list = PyList_New(0);
	for (int t = 0; list && t < 32; t++)
		if (mask >> t & 1) {
			PyObject *v = PyLong_FromLong(t);
			if (!v || PyList_Append(list, v))
				Py_CLEAR(list);
			Py_XDECREF(v);
		}
	return list;
}

/* The cells whose goals a table serves: its blank cell's class. */
static uint32_t served_cells(const sdb_table_info *in)
{
	uint32_t cells = 0;
	for (int c = 0; c < in->goal.n; c++)
		if (sdb_sym_representative(in->goal.w, in->goal.h, c) == in->goal.blank)
			cells |= 1u << c;
	return cells;
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

static int pattern_fields(PyObject *d, const sdb_table_info *in)
{
	uint32_t tiles, left;
	sdb_board ordered;
	sdb_table_tiles(&tiles, &left, &ordered, in);
	return ext_dict_put(d, "set", PyUnicode_FromString(in->set)) ||
	       ext_dict_put(d, "group", PyLong_FromLong(in->group)) ||
	       ext_dict_put(d, "groups", PyLong_FromLong(in->ngroups)) ||
	       ext_dict_put(d, "blank", PyUnicode_FromString(in->blank_mode == SDB_BLANK_REGION ? "region"
	                                                                                : "min")) ||
	       ext_dict_put(d, "tiles", bit_list(tiles)) || ext_dict_put(d, "left_out", bit_list(left)) ||
	       ext_dict_put(d, "tiles_of", ext_board_str(&ordered));
}

PyObject *ext_table_dict(const sdb_table *table)
{
	const sdb_table_info *in = sdb_table_meta(table);
	const int chunks = sdb_table_chunks(table);   /* 1 when whole, or unreadable (as info) */
	char when[32], crc[16];
	const time_t t = (time_t)in->built_at;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(crc, sizeof crc, "%08x", in->crc32);
	PyObject *d = PyDict_New();
	if (!d)
		return NULL;
	if (ext_dict_put(d, "name", PyUnicode_FromString(in->name)) ||
	    ext_dict_put(d, "kind", PyUnicode_FromString(sdb_kind_name(in->kind))) ||
	    ext_dict_put(d, "size", PyUnicode_FromFormat("%dx%d", in->goal.w, in->goal.h)) ||
	    ext_dict_put(d, "goal", ext_board_str(&in->goal)) || ext_dict_put(d, "blank_cells", bit_list(served_cells(in))) ||
	    ext_dict_put(d, "entry_format", PyUnicode_FromString(sdb_format_name(in->entry_format))) ||
	    ext_dict_put(d, "states", PyLong_FromUnsignedLongLong(in->states)) ||
	    ext_dict_put(d, "bytes", PyLong_FromUnsignedLongLong(sdb_table_bytes(in))) ||
	    ext_dict_put(d, "chunks", PyLong_FromLong(chunks > 0 ? chunks : 1)) ||
	    ext_dict_put(d, "max_distance", PyLong_FromLong(in->max_distance)) ||
	    ext_dict_put(d, "crc32", PyUnicode_FromString(crc)) ||
	    ext_dict_put(d, "built_at", PyUnicode_FromString(when)) ||
	    ext_dict_put(d, "build_seconds", PyFloat_FromDouble(in->build_seconds)) ||
	    ext_dict_put(d, "threads", PyLong_FromLong(in->threads)) ||
	    ext_dict_put(d, "tool_version", PyUnicode_FromString(in->tool_version)) ||
	    (in->kind == SDB_KIND_PATTERN && pattern_fields(d, in)) ||
	    ext_dict_put(d, "format_version", PyLong_FromUnsignedLong(in->format_version)) ||
	    ext_dict_put(d, "counts", counts(in)))
		Py_CLEAR(d);
	return d;
}
