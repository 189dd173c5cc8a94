/* SPDX-License-Identifier: MIT */
/* Compare a table's counts per distance with a published sequence.
 *
 *   check_counts DATABASE TABLE "1 2 4 9 20 ..."
 *
 * Prints one Markdown table row; exits 1 on a mismatch. */
#include <stdio.h>
#include <stdlib.h>

#include "slidedb_engine.h"

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s DATABASE TABLE COUNTS\n", argv[0]);
		return 2;
	}
	sdb_db *db;
	const sdb_table *t;
	if (sdb_db_open(&db, argv[1], SDB_RDONLY) || !(t = sdb_table_find(db, argv[2]))) {
		fprintf(stderr, "%s: %s\n", argv[0], sdb_error_detail());
		return 1;
	}
	const sdb_table_info *in = sdb_table_meta(t);
	int d = 0, same = 1;
	char *p = argv[3], *end;
	for (;; d++) {
		unsigned long long want = strtoull(p, &end, 10);
		if (end == p)
			break;
		p = end;
		same &= d <= in->max_distance && in->counts[d] == want;
	}
	same &= d == in->max_distance + 1;
	printf("| %s | max distance %d, %llu states there | %s |\n", in->name, in->max_distance,
	       (unsigned long long)in->counts[in->max_distance], same ? "equal" : "**DIFFERENT**");
	sdb_db_close(db);
	return same ? 0 : 1;
}
