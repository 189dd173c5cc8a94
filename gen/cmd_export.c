/* SPDX-License-Identifier: MIT */
/* slidedb-gen export: tables with their metadata and CRC as a gzip stream
 * (the library's sdb_db_export), with a progress bar. */
#include <stdio.h>
#include <string.h>

#include "cli/progress.h"
#include "gen/gen.h"

static void export_progress(void *ctx, uint64_t done, uint64_t total)
{
	progress_update(ctx, -1, done, total);
}

int cmd_export(void *opts, int nargs, char **args)
{
	const gen_options *o = opts;
	if (!o->output)
		return cli_usage("export: -o FILE.gz is required ('-' for standard output)");
	sdb_db *db;
	progress bar;
	progress_init(&bar, o->progress_mode);
	progress_begin(&bar, "export");
	snprintf(bar.unit, sizeof bar.unit, "MB");
	int n = 0, err = sdb_db_open(&db, o->db_path, SDB_RDONLY);
	if (!err)
		err = sdb_db_export(db, (const char *const *)args, nargs, o->output, &n,
		                    export_progress, &bar);
	progress_end(&bar);
	sdb_db_close(db);
	if (err)
		return cli_fail_lib("export");
	if (!o->quiet && strcmp(o->output, "-"))
		printf("exported %d table%s to %s\n", n, n == 1 ? "" : "s", o->output);
	return 0;
}
