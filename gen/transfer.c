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

/* An import's proofs: their progress, how far each table was proved. */
typedef struct import_proofs {
	const options *o;
	progress bar;
	int exact, local, rebuilt;
} import_proofs;

static void prove_progress(void *ctx, uint64_t done, uint64_t total)
{
	import_proofs *ip = ctx;
	progress_update(&ip->bar, -1, done, total);
}

/* After the library's proof of each table: a min-mode group, which it
 * cannot prove, is built again and compared (pdb_check_min). */
static int check_table(void *ctx, const sdb_table_info *info, const uint8_t *data, int proof,
                       char *why, size_t cap)
{
	import_proofs *ip = ctx;
	if (proof == SDB_PROOF_NONE) {
		int err = data ? pdb_check_min(info, data, ip->o->threads, &ip->bar, why, cap)
		               : SDB_EINVAL;
		progress_begin(&ip->bar, "prove");
		if (err)
			return err;
		ip->rebuilt++;
		proof = SDB_PROOF_EXACT;
	}
	ip->exact += proof == SDB_PROOF_EXACT;
	ip->local += proof == SDB_PROOF_LOCAL;
	return SDB_OK;
}

/* "stored 3 tables in PATH, each proved exact", and how far each was
 * proved when not all alike. */
static void print_stored(const import_proofs *ip, int n, const char *path)
{
	static const char local[] = "checked mod 3 against %s neighbours (two-bit tables: a local "
	                            "check, not a proof)";
	char rebuilt[96] = "";
	if (ip->rebuilt)
		snprintf(rebuilt, sizeof rebuilt, " (%d min-mode group%s built again to compare)",
		         ip->rebuilt, ip->rebuilt == 1 ? "" : "s");
	printf("stored %d table%s in %s", n, n == 1 ? "" : "s", path);
	if (ip->exact == n) {
		printf(", each proved exact%s\n", rebuilt);
	} else if (ip->local == n) {
		printf(", each ");
		printf(local, "its");
		printf("\n");
	} else if (n) {
		printf(": %d proved exact%s, %d ", ip->exact, rebuilt, ip->local);
		printf(local, "their");
		printf("\n");
	} else {
		printf("\n");
	}
}

int cmd_import(const options *o)
{
	/* A failed import into a database that did not exist leaves none. */
	const char *path = o->db_path ? o->db_path : sdb_db_default_path();
	struct stat st;
	int existed = stat(path, &st) == 0;
	sdb_db *db;
	import_proofs ip = { .o = o };
	progress_init(&ip.bar, o->progress_mode);
	progress_begin(&ip.bar, "prove");
	sdb_import_opts opts = SDB_IMPORT_OPTS_INIT;
	opts.flags = o->replace ? SDB_REPLACE : 0;
	opts.prove.threads = o->threads;
	opts.prove.progress = prove_progress;
	opts.prove.ctx = &ip;
	opts.check = check_table;
	opts.ctx = &ip;
	int n = 0, err = sdb_db_open(&db, o->db_path, SDB_CREATE);
	if (!err)
		err = sdb_import_with(db, o->args[0], &opts, &n);
	progress_end(&ip.bar);
	if (err)
		cli_fail("import: %s; nothing was imported", sdb_errdetail());
	else if (!o->quiet)
		print_stored(&ip, n, sdb_db_path(db));
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
