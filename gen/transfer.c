/* slidedb-gen export, import, rm and compact: the library's upkeep
 * functions, as commands. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"
#include "progress.h"

static void export_progress(void *ctx, uint64_t done, uint64_t total)
{
	progress_update(ctx, -1, done, total);
}

int cmd_export(const options *o)
{
	if (!o->output)
		return cli_usage("export: -o FILE.gz is required ('-' for standard output)");
	sdb_db *db;
	progress bar;
	progress_init(&bar, o->progress_mode);
	progress_begin(&bar, "export");
	snprintf(bar.unit, sizeof bar.unit, "MB");
	int n = 0, err = sdb_db_open(&db, o->db_path, SDB_RDONLY);
	if (!err)
		err = sdb_export_progress(db, (const char *const *)o->args, o->nargs, o->output, &n,
		                          export_progress, &bar);
	progress_end(&bar);
	sdb_db_close(db);
	if (err)
		return cli_fail_lib("export");
	if (!o->quiet && strcmp(o->output, "-"))
		printf("exported %d table%s to %s\n", n, n == 1 ? "" : "s", o->output);
	return 0;
}

int cmd_import(const options *o)
{
	/* A failed import into a database that did not exist leaves none. */
	const char *path = o->db_path ? o->db_path : sdb_db_default_path();
	struct stat st;
	int existed = stat(path, &st) == 0;
	sdb_db *db;
	int n = 0, err = sdb_db_open(&db, o->db_path, SDB_CREATE);
	if (!err)
		err = sdb_import(db, o->args[0], o->replace ? SDB_REPLACE : 0, &n);
	if (err) {
		cli_fail("import: %s; nothing was imported", sdb_errdetail());
	} else if (!o->quiet) {
		printf("stored %d table%s in %s\n", n, n == 1 ? "" : "s", sdb_db_path(db));
	}
	sdb_db_close(db);
	if (err && !existed) {
		char lock[4096];
		snprintf(lock, sizeof lock, "%s-lock", path);
		unlink(path);
		unlink(lock);
	}
	return err ? 1 : 0;
}

int cmd_rm(const options *o)
{
	sdb_db *db;
	int n = 0, err = sdb_db_open(&db, o->db_path, 0);
	if (!err)
		err = sdb_remove(db, (const char *const *)o->args, o->nargs, &n);
	if (err) {
		cli_fail("rm: %s; nothing was removed", sdb_errdetail());
	} else if (!o->quiet) {
		printf("removed %d table%s from %s\n", n, n == 1 ? "" : "s", sdb_db_path(db));
	}
	sdb_db_close(db);
	return err ? 1 : 0;
}

int cmd_compact(const options *o)
{
	const char *path = o->db_path ? o->db_path : sdb_db_default_path();
	uint64_t before, after;
	if (sdb_compact(path, &before, &after))
		return cli_fail_lib("compact");
	if (!o->quiet)
		printf("compacted %s: %llu bytes -> %llu bytes\n", path, (unsigned long long)before,
		       (unsigned long long)after);
	return 0;
}
