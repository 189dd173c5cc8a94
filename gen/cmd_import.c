/* SPDX-License-Identifier: MIT */
/* slidedb-gen import: an export verified, every table proved against its
 * neighbours (a min-mode group built again), and stored in one transaction. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/progress.h"
#include "gen/gen.h"
#include "gen/bfs.h"
#include "gen/bigmem.h"
#include "gen/pdb_group.h"

/* An import's proofs: their progress, how far each table was proved. */
typedef struct import_proofs {
	const gen_options *o;
	progress bar;
	int exact, local, rebuilt;
} import_proofs;

static void prove_progress(void *ctx, uint64_t done, uint64_t total)
{
	import_proofs *ip = ctx;
	progress_update(&ip->bar, -1, done, total);
}

/* A two-bit table in the multi-tile metric, built again and compared. */
static int check_mtm_rebuilt(const sdb_table_info *info, const uint8_t *data, int threads,
                             progress *bar, char *why, size_t cap)
{
	const int w = info->goal.w, h = info->goal.h;
	if (!data) {
		snprintf(why, cap, "a two-bit multi-tile table over 4 GiB, which import does not build "
		         "again to compare: build it with `slidedb-gen full %dx%d --metric mtm`", w, h);
		return SDB_EINVAL;
	}
	bfs_full_ctx ctx;
	bfs_space space;
	bfs_full_space_metric(&space, &ctx, w, h, info->goal.blank, SDB_METRIC_MTM);
	const uint64_t bytes = bfs_2bit_bytes(space.size);
	uint8_t *again = bigmem_alloc(bytes);
	if (!again) {
		snprintf(why, cap, "out of memory to build it again (%llu bytes), which proves a two-bit "
		         "multi-tile table", (unsigned long long)bytes);
		return SDB_ENOMEM;
	}
	bfs_result res;
	run_level_ctx levels = { bar, space.size };
	progress_begin(bar, info->name);
	int err = bfs_run_2bit(&res, again, &space, threads, run_on_level, &levels, NULL);
	progress_end(bar);
	if (err)
		snprintf(why, cap, "building it again failed (%s)", sdb_strerror(err));
	else if (memcmp(again, data, bytes)) {
		err = SDB_ECORRUPT;
		snprintf(why, cap, "its entries are not the distances: built again, they differ");
	}
	bigmem_free(again, bytes);
	return err;
}

/* After the library's proof of each table: a min-mode group or a two-bit
 * MTM table, which it cannot prove, is built again and compared. */
static int check_table(void *ctx, const sdb_table_info *info, const uint8_t *data, int proof,
                       char *why, size_t cap)
{
	import_proofs *ip = ctx;
	if (proof == SDB_PROOF_NONE) {
		int err = sdb_kind_is_full(info->kind)
		          ? check_mtm_rebuilt(info, data, ip->o->threads, &ip->bar, why, cap)
		          : data ? pdb_group_check_min(info, data, ip->o->threads, &ip->bar, why, cap)
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
		snprintf(rebuilt, sizeof rebuilt, " (%d built again to compare)", ip->rebuilt);
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

int cmd_import(void *opts, int nargs, char **args)
{
	const gen_options *o = opts;
	(void)nargs;
	/* A failed import into a database that did not exist leaves none. */
	const char *path = o->db_path ? o->db_path : sdb_db_default_path();
	struct stat st;
	int existed = stat(path, &st) == 0;
	sdb_db *db;
	import_proofs ip = { .o = o };
	progress_init(&ip.bar, o->progress_mode);
	progress_begin(&ip.bar, "prove");
	sdb_import_opts how = SDB_IMPORT_OPTS_INIT;
	how.flags = o->replace ? SDB_REPLACE : 0;
	how.prove.threads = o->threads;
	how.prove.progress = prove_progress;
	how.prove.ctx = &ip;
	how.check = check_table;
	how.ctx = &ip;
	int n = 0, err = sdb_db_open(&db, o->db_path, SDB_CREATE);
	if (!err)
		err = sdb_db_import(db, args[0], &how, &n);
	progress_end(&ip.bar);
	if (err)
		cli_fail("import: %s; nothing was imported", sdb_error_detail());
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
