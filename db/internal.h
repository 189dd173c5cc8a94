/* Declarations shared by the library's own files; not installed. */
#ifndef SLIDEDB_INTERNAL_H
#define SLIDEDB_INTERNAL_H

#include "slidedb.h"

/* Record a one-line detail for sdb_errdetail() and return err, so that a
 * failing function can end with `return sdb_fail(SDB_EINVAL, "...", ...)`. */
int sdb_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Permutation parity (0 or 1) of the tiles of b read row-major, blank skipped. */
int sdb_board_parity(const sdb_board *b);

/* A full table's catalog entry, kept inside the library. */
struct sdb_table {
	sdb_table_info info;
	const sdb_db *db;
	const uint8_t *data;   /* resolved lazily by sdb_table_data() */
	int blank;             /* blank cell of the table's goal */
};

#endif
