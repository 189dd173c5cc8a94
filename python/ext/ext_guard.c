/* SPDX-License-Identifier: MIT */
/* The one mechanism that lets threads share a handle: calls that run
 * without the GIL pin it, close() waits for the last of them (see ext.h).
 * Database, Heuristic and States each release their own resources; when to
 * do it is decided here only. */
#include "ext.h"

int ext_guard_pin(ext_guard *g, const char *what)
{
	if (g->closing) {
		PyErr_Format(PyExc_ValueError, "the %s is closed", what);
		return -1;
	}
	g->pins++;
	return 0;
}

int ext_guard_unpin(ext_guard *g)
{
	return --g->pins == 0 && g->closing;
}

int ext_guard_close(ext_guard *g)
{
	if (g->closing)
		return 0;
	g->closing = 1;
	return g->pins == 0;
}
