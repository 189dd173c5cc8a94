/* SPDX-License-Identifier: MIT */
/* Error codes, their texts, and the per-thread detail of the last failure. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "puzzle/puzzle.h"

static _Thread_local char detail[1024];   /* room for a path and a whole hint */

/* Texts by -code: one table, bounded by SDB_ELAST (a code added to the
 * header without a text here fails to compile). */
static const char *const texts[] = {
	[-SDB_OK] = "success",
	[-SDB_EINVAL] = "invalid input",
	[-SDB_ENOMEM] = "out of memory",
	[-SDB_EIO] = "input/output error",
	[-SDB_ENOTFOUND] = "not found",
	[-SDB_ECORRUPT] = "database corrupted",
	[-SDB_EVERSION] = "database format version mismatch",
	[-SDB_EUNSOLVABLE] = "unsolvable",
	[-SDB_ETOOBIG] = "board too large for a full table",
	[-SDB_EAMBIGUOUS] = "ambiguous board size",
	[-SDB_ELIMIT] = "search limit reached",
	[-SDB_EEXIST] = "table exists",
};
_Static_assert(sizeof texts / sizeof *texts == 1 - SDB_ELAST,
               "every error code from SDB_OK to SDB_ELAST has a text");

int sdbi_fail(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	return err;
}

int sdbi_done(int rc)
{
	if (rc >= 0)
		detail[0] = '\0';
	return rc;
}

const char *sdb_error_detail(void)
{
	return detail;
}

const char *sdb_strerror(int err)
{
	return err <= 0 && err >= SDB_ELAST && texts[-err] ? texts[-err] : "unknown error";
}

const char *sdb_version(void)
{
	return SDB_VERSION_STRING;
}
