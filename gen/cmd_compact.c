/* SPDX-License-Identifier: MIT */
/* slidedb-gen compact: the database file rewritten without its free pages. */
#include <stdio.h>

#include "gen/gen.h"

int cmd_compact(void *opts, int nargs, char **args)
{
	const gen_options *o = opts;
	(void)nargs;
	(void)args;
	const char *path = o->db_path ? o->db_path : sdb_db_default_path();
	uint64_t before, after;
	if (sdb_db_compact(path, &before, &after))
		return cli_fail_lib("compact");
	if (!o->quiet)
		printf("compacted %s: %llu bytes -> %llu bytes\n", path, (unsigned long long)before,
		       (unsigned long long)after);
	return 0;
}
