/* The `info` and `verify` commands: what the database holds, and whether it
 * is intact. */
#ifndef SLIDEDB_CATALOG_H
#define SLIDEDB_CATALOG_H

#include "slidedb.h"

/* Print every table's metadata; returns the exit code. */
int catalog_info(const sdb_db *db, int json);
/* Re-check every table's CRC and counts; returns 0, or 1 on any mismatch. */
int catalog_verify(const sdb_db *db, int json);

#endif
