/* SPDX-License-Identifier: MIT */
/* libFuzzer target: an export stream from a stranger, imported into a fresh
 * database. An import either stores tables that verify, or fails and leaves
 * the database empty. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "slidedb.h"

static char dir[64], input[128], dbpath[128];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/slidedb-fuzz-import-%d", (int)getpid());
		if (mkdir(dir, 0700) && access(dir, W_OK))
			abort();
		snprintf(input, sizeof input, "%s/in.gz", dir);
		snprintf(dbpath, sizeof dbpath, "%s/db.lmdb", dir);
	}
	FILE *f = fopen(input, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	unlink(dbpath);
	char lock[160];
	snprintf(lock, sizeof lock, "%s-lock", dbpath);
	unlink(lock);
	sdb_db *db;
	if (sdb_db_open(&db, dbpath, SDB_CREATE))
		abort();
	sdb_import_opts replace = SDB_IMPORT_OPTS_INIT;
	replace.flags = SDB_REPLACE;
	int n = 0, err = sdb_db_import(db, input, &replace, &n);
	sdb_db_close(db);
	if (sdb_db_open(&db, dbpath, SDB_RDONLY))
		abort();
	if (err ? sdb_table_count(db) != 0 : sdb_table_count(db) != n)
		abort();
	for (int i = 0; i < sdb_table_count(db); i++)
		if (sdb_table_verify(sdb_table_at(db, i)))
			abort();
	sdb_db_close(db);
	return 0;
}
