/* SPDX-License-Identifier: MIT */
/* slidedb-lookup verify: whether the tables are intact, and with --prove
 * every entry against its neighbours (cli/inventory.h). */
#include "cli/inventory.h"
#include "lookup/lookup.h"

int cmd_verify(void *opts, int nargs, char **args)
{
	const lookup_options *o = opts;
	sdb_db *db;
	int rc = lookup_open(&db, o, 0, NULL);
	if (rc >= 0)
		return rc;
	/* --prove's threads: those given, else every core (inventory_verify's 0) */
	const inventory_verify_opts v = { o->answer.report.json, o->prove,
	                        o->threads_given ? o->answer.threads : 0, -1 };
	rc = inventory_verify(db, (const char *const *)args, nargs, &v);
	sdb_db_close(db);
	return rc;
}
