/* SPDX-License-Identifier: MIT */
/* A Database's handle pinned: by each call that uses it without the GIL
 * (ext_pin) and by each object that reads its tables (a Heuristic, a
 * States: ext_hold), so that close() from another thread releases it only
 * when the last of them is done (ext_guard decides when). Apart from
 * Database's own file, so that the objects that hold a Database and the
 * Database that makes them do not call each other. */
#include "ext.h"

void ext_release(ext_database *d)
{
	sdb_db_close(d->db);
	d->db = NULL;
}

const sdb_db *ext_pin(ext_database *d)
{
	if (!d->db) {   /* __init__ failed, or was never called */
		PyErr_SetString(PyExc_ValueError, "the database is closed");
		return NULL;
	}
	return ext_guard_pin(&d->guard, "database") ? NULL : d->db;
}

void ext_unpin(ext_database *d)
{
	if (ext_guard_unpin(&d->guard))
		ext_release(d);
}

int ext_hold(ext_database **slot, ext_database *d)
{
	*slot = NULL;
	if (!ext_pin(d))
		return -1;
	*slot = (ext_database *)Py_NewRef(d);
	return 0;
}

void ext_let_go(ext_database **slot)
{
	ext_database *d = *slot;
	if (d) {
		*slot = NULL;
		ext_unpin(d);
		Py_DECREF(d);
	}
}
