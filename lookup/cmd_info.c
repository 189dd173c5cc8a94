/* SPDX-License-Identifier: MIT */
/* slidedb-lookup info: what the database holds (cli/inventory.h). */
#include "cli/inventory.h"
#include "lookup/lookup.h"

int cmd_info(void *opts, int nargs, char **args)
{
	const lookup_options *o = opts;
	sdb_db *db;
	int rc = lookup_open(&db, o, 0, NULL);
	if (rc >= 0)
		return rc;
	rc = inventory_info(db, (const char *const *)args, nargs, o->answer.report.json, o->histogram);
	sdb_db_close(db);
	return rc;
}
