/* Error codes, their texts, and the per-thread detail of the last failure. */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

static _Thread_local char detail[256];

int sdb_fail(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	return err;
}

const char *sdb_errdetail(void)
{
	return detail;
}

const char *sdb_strerror(int err)
{
	switch (err) {
	case SDB_OK: return "success";
	case SDB_EINVAL: return "invalid input";
	case SDB_ENOMEM: return "out of memory";
	case SDB_EIO: return "input/output error";
	case SDB_ENOTFOUND: return "not found";
	case SDB_ECORRUPT: return "database corrupted";
	case SDB_EVERSION: return "database format version mismatch";
	case SDB_EUNSOLVABLE: return "unsolvable";
	case SDB_ETOOBIG: return "board too large for a full table";
	case SDB_EAMBIGUOUS: return "ambiguous board size";
	default: return "unknown error";
	}
}

const char *sdb_version(void)
{
	return SDB_VERSION_STRING;
}
