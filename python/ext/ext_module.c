/* SPDX-License-Identifier: MIT */
/* The module slidedb._slidedb: its types, the version, and errors raised as
 * the classes of slidedb.errors. */
#define EXT_IMPORTS_NUMPY
#include "ext.h"

static PyObject *error_factory;   /* slidedb.errors._error */

/* The library's failure as the exception of its class; nodes (or None) for
 * a search stopped by a limit. */
static PyObject *raise_as(int err, Py_ssize_t index, int opening, PyObject *nodes)
{
	if (err == SDB_ELIMIT && PyErr_Occurred())
		return NULL;   /* a search stopped by a signal handler's exception (Ctrl-C) */
	const char *detail = sdb_error_detail();
	PyObject *at = index >= 0 ? PyLong_FromSsize_t(index) : Py_NewRef(Py_None);
	PyObject *e = at && nodes ? PyObject_CallFunction(error_factory, "isOOO", err,
	                                                  *detail ? detail : sdb_strerror(err), at,
	                                                  opening ? Py_True : Py_False, nodes)
	                          : NULL;
	Py_XDECREF(at);
	if (e) {
		PyErr_SetObject((PyObject *)Py_TYPE(e), e);
		Py_DECREF(e);
	}
	return NULL;
}

PyObject *ext_raise(int err, Py_ssize_t index, int opening)
{
	return raise_as(err, index, opening, Py_None);
}

PyObject *ext_raise_search(int err, const sdb_answer *a)
{
	if (err != SDB_ELIMIT || a->method != SDB_METHOD_SEARCH)
		return ext_raise(err, -1, 0);
	PyObject *nodes = PyLong_FromUnsignedLongLong(a->nodes);
	raise_as(err, -1, 0, nodes);
	Py_XDECREF(nodes);
	return NULL;
}

static PyObject *fail_va(int err, const char *fmt, va_list ap)
{
	char msg[768];
	vsnprintf(msg, sizeof msg, fmt, ap);
	PyObject *e = PyObject_CallFunction(error_factory, "isOO", err, msg, Py_None, Py_False);
	if (e) {
		PyErr_SetObject((PyObject *)Py_TYPE(e), e);
		Py_DECREF(e);
	}
	return NULL;
}

PyObject *ext_fail(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_va(err, fmt, ap);
	va_end(ap);
	return NULL;
}

PyObject *ext_invalid(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_va(SDB_EINVAL, fmt, ap);
	va_end(ap);
	return NULL;
}

int ext_dict_put(PyObject *d, const char *key, PyObject *value)
{
	if (!value)
		return -1;
	int rc = PyDict_SetItemString(d, key, value);
	Py_DECREF(value);
	return rc;
}

static PyObject *version(PyObject *self, PyObject *noargs)
{
	(void)self;
	(void)noargs;
	return PyUnicode_FromString(sdb_version());
}

static PyObject *default_path(PyObject *self, PyObject *noargs)
{
	(void)self;
	(void)noargs;
	return PyUnicode_DecodeFSDefault(sdb_db_default_path());
}

static PyMethodDef functions[] = {
	{ "version", version, METH_NOARGS,
	  "version($module, /)\n--\n\nThe version of libslidedb this module was built with, "
	  "e.g. '0.3.0'." },
	{ "default_path", default_path, METH_NOARGS,
	  "default_path($module, /)\n--\n\nThe database used when none is given: $SLIDEDB_DB "
	  "if set and not empty, else 'slidedb.lmdb' in the working directory (as the "
	  "programs)." },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT, "slidedb._slidedb",
	"The C extension under the slidedb package (import slidedb instead).", -1, functions,
	NULL, NULL, NULL, NULL
};

/* The main thread's id, whichever thread imports the module. */
static int find_main_thread(void)
{
	PyObject *threading = PyImport_ImportModule("threading");
	PyObject *main = threading ? PyObject_CallMethod(threading, "main_thread", NULL) : NULL;
	PyObject *ident = main ? PyObject_GetAttrString(main, "ident") : NULL;
	if (ident)
		ext_main_thread = PyLong_AsUnsignedLong(ident);
	Py_XDECREF(ident);
	Py_XDECREF(main);
	Py_XDECREF(threading);
	return PyErr_Occurred() ? -1 : 0;
}

PyMODINIT_FUNC PyInit__slidedb(void)
{
	import_array();
	if (find_main_thread())
		return NULL;
	PyObject *errors = PyImport_ImportModule("slidedb.errors");
	if (!errors)
		return NULL;
	error_factory = PyObject_GetAttrString(errors, "_error");
	Py_DECREF(errors);
	if (!error_factory)
		return NULL;
	PyTypeObject *types[] = { &ext_database_type, &ext_answer_type, &ext_check_type,
	                          &ext_heuristic_type, &ext_states_type };
	PyObject *m = PyModule_Create(&module);
	if (!m)
		return NULL;
	for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
		const char *name = strrchr(types[i]->tp_name, '.') + 1;
		if (PyType_Ready(types[i]) < 0 || PyModule_AddObjectRef(m, name, (PyObject *)types[i]) < 0) {
			Py_DECREF(m);
			return NULL;
		}
	}
	if (PyModule_AddStringConstant(m, "MOVES", "udlr") < 0 ||
	    PyModule_AddIntConstant(m, "MAX_CELLS", SDB_MAX_CELLS) < 0 ||
	    PyModule_AddIntConstant(m, "FORMAT_VERSION", SDB_FORMAT_VERSION) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
