/* SPDX-License-Identifier: MIT */
/* bench/hostile.sh's forger of exports (issue #35): an export with two
 * entries of one table swapped (their counts unchanged) and every checksum
 * made to match, as a careful forger would (tests/kit/forge.c, shared with the
 * test suites).
 *   forge_export DB TABLE IN.gz OUT.gz SEED
 * DB holds TABLE as IN.gz was exported from it; SEED picks where in the
 * table the two entries are. Prints them. */
#include <stdio.h>
#include <stdlib.h>

#include "kit/forge.h"

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: %s DB TABLE IN.gz OUT.gz SEED\n", argv[0]);
		return 2;
	}
	sdb_db *db;
	const sdb_table *t;
	if (sdb_db_open(&db, argv[1], SDB_RDONLY) || !(t = sdb_table_find(db, argv[2])) ||
	    !sdb_table_data(t)) {
		fprintf(stderr, "%s: %s\n", argv[0], sdb_error_detail());
		return 1;
	}
	const sdb_table_info *in = sdb_table_meta(t);
	const uint64_t from = (strtoull(argv[5], NULL, 10) * 0x9e3779b97f4a7c15ull >> 11) % in->states;
	uint64_t at[2];
	size_t len;
	char *text = forge_gunzip(argv[3], &len);
	int rc = !text || (forge_entries_to_swap(at, in, sdb_table_data(t), from) &&
	                   forge_entries_to_swap(at, in, sdb_table_data(t), 0)) ||
	         forge_export(text, len, in, at) || forge_gzip(argv[4], text, len);
	if (rc)
		fprintf(stderr, "%s: cannot forge %s of %s\n", argv[0], argv[2], argv[3]);
	else
		printf("%s: entries %llu and %llu swapped\n", argv[2], (unsigned long long)at[0],
		       (unsigned long long)at[1]);
	free(text);
	sdb_db_close(db);
	return rc;
}
