/* SPDX-License-Identifier: MIT */
/* slidedb-gen rm: tables, sets or full sizes removed in one transaction. */
#include <stdio.h>

#include "gen/gen.h"

int cmd_rm(void *opts, int nargs, char **args)
{
	const gen_options *o = opts;
	sdb_db *db;
	int n = 0, err = sdb_db_open(&db, o->db_path, 0);
	if (!err)
		err = sdb_db_remove(db, (const char *const *)args, nargs, &n);
	if (err) {
		cli_fail("rm: %s; nothing was removed", sdb_error_detail());
	} else if (!o->quiet) {
		printf("removed %d table%s from %s\n", n, n == 1 ? "" : "s", sdb_db_path(db));
	}
	sdb_db_close(db);
	return err ? 1 : 0;
}
