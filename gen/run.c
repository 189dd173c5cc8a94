/* SPDX-License-Identifier: MIT */
/* A write run of slidedb-gen: one LMDB transaction for every table the run
 * builds, a report line per table, and a summary with time and peak memory. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "gen/bigmem.h"
#include "gen/checkpoint.h"
#include "gen/gen.h"

int run_fail(run *r, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof r->why, fmt, ap);
	va_end(ap);
	return err;
}

int run_fail_lib(run *r, int err)
{
	return run_fail(r, err, "%s", sdb_error_detail());
}

int run_begin(run *r, const gen_options *o)
{
	memset(r, 0, sizeof *r);
	r->o = o;
	r->started = progress_now();
	progress_init(&r->bar, o->mpi && o->mpi->rank ? 0 : o->progress_mode);
	if (!gen_mpi_writes_db(o->mpi))
		return SDB_OK;   /* another rank writes, or each writes a shard */
	int err = sdb_db_open(&r->db, o->db_path, SDB_CREATE);
	if (!err)
		err = sdb_writer_begin(&r->wr, r->db);
	return err ? run_fail_lib(r, err) : SDB_OK;
}

static double peak_mib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_maxrss / 1024.0;
}

/* The memory the system can give without swapping (MemAvailable), or 0
 * when unknown. */
static uint64_t memory_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kib = 0;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return (uint64_t)kib << 10;
}

int run_check_fits(const char *what, uint64_t bytes, int two_bit)
{
	const uint64_t avail = memory_available();
	const uint64_t need = two_bit ? bytes + bytes / 8 : bytes;   /* + the frontier marks */
	if (!two_bit && bytes > UINT32_MAX)
		return cli_fail("%s: %.1f GB at one byte per state is more than a table of bytes "
		                "may hold (4 GiB, the largest LMDB value): build it with --bits 2 "
		                "(%.1f GB)", what, (double)bytes / 1e9, (double)bytes / 4e9);
	if (avail && need > avail)
		return cli_fail("%s needs %.1f GB of memory to build and this machine has %.1f GB "
		                "available%s", what, (double)need / 1e9, (double)avail / 1e9,
		                two_bit ? "" : ": build it with --bits 2 (a quarter of the bytes)");
	return 0;
}

int run_table_begin(run *r, const sdb_table_info *info, uint8_t **data)
{
	const uint64_t bytes = sdb_table_bytes(info);
	*data = NULL;
	if (!r->wr)
		return SDB_OK;   /* a rank that does not write: its slice is the engine's */
	if (bytes <= sdb_writer_max_whole(r->wr)) {
		int err = sdb_writer_reserve(r->wr, data, info->name, bytes);
		return err ? run_fail_lib(r, err) : SDB_OK;
	}
	void *p = bigmem_alloc(bytes);
	if (!p)
		return run_fail(r, SDB_ENOMEM, "%s: cannot map %.1f GB of memory", info->name,
		                (double)bytes / 1e9);
	r->own = *data = p;
	r->own_bytes = bytes;
	r->own_done = 0;
	return SDB_OK;
}

/* The run's own copy of a table into the database, each part unmapped
 * once copied: peak memory stays one table and one part. */
static int store_own(run *r, const sdb_table_info *info)
{
	const uint64_t part = (uint64_t)64 << 20;   /* a multiple of the page size */
	int err = sdb_writer_open_table(r->wr, info->name, r->own_bytes);
	while (r->own_done < r->own_bytes && !err) {
		uint64_t n = r->own_bytes - r->own_done < part ? r->own_bytes - r->own_done : part;
		err = sdb_writer_append(r->wr, r->own + r->own_done, n);
		bigmem_free(r->own + r->own_done, n);
		r->own_done += n;
	}
	if (err)
		return run_fail_lib(r, err);
	r->own = NULL;
	return SDB_OK;
}

/* Unmap what store_own has not (never a part it gave back: that address
 * range may belong to someone else by now). */
static void free_own(run *r)
{
	if (r->own && r->own_done < r->own_bytes)
		bigmem_free(r->own + r->own_done, r->own_bytes - r->own_done);
	r->own = NULL;
}

int run_end(run *r, int err)
{
	free_own(r);
	const gen_mpi *m = r->o->mpi;
	if (m && r->o->shards) {
		int e = m->finish(m, !err, r->why, sizeof r->why);
		if (e && !err)
			err = e;
	}
	if (err)
		sdb_writer_abort(r->wr);
	else if (r->wr && (err = sdb_writer_commit(r->wr)))
		run_fail_lib(r, err);
	for (int i = 0; !err && r->o->checkpoint && i < r->nbuilt; i++)
		checkpoint_remove(r->o->checkpoint, r->built[i]);   /* committed: not needed */
	free(r->built);
	if (err)
		cli_fail("%s", r->why);
	if (!err && !r->o->quiet) {
		out_flush(&r->text, stdout);
		if (r->db && !r->o->json)
			printf("stored %d table%s in %s in %.3f s (peak memory %.1f MiB)\n", r->ntables,
			       r->ntables == 1 ? "" : "s", sdb_db_path(r->db), progress_now() - r->started,
			       peak_mib());
		else if (r->o->shards)   /* rank 0 speaks for all */
			printf("wrote %d table%s as %d shards in %s in %.3f s (peak memory of rank 0 "
			       "%.1f MiB)\n", r->ntables, r->ntables == 1 ? "" : "s", m->nranks,
			       r->o->shards, progress_now() - r->started, peak_mib());
	}
	out_free(&r->text);
	sdb_db_close(r->db);
	return err ? 1 : 0;
}

void run_info_init(sdb_table_info *info, const char *name, int kind, int format,
                     const sdb_board *goal, uint64_t states)
{
	memset(info, 0, sizeof *info);
	snprintf(info->name, sizeof info->name, "%s", name);
	info->kind = kind;
	info->entry_format = format;
	info->goal = *goal;
	info->states = states;
}

void run_on_level(void *ctx, int level, uint64_t reached)
{
	run_level_ctx *l = ctx;
	progress_update(l->bar, level, reached, l->total);
}

/* A resumed search's earlier levels came from a file, which a person can
 * craft with a correct CRC: the table is proved, every entry against its
 * neighbours and its counts against the search's, before it is kept (the
 * library's proof, as an import's). A pattern group's table is still one
 * byte an entry, block by block, in region mode whatever the set's blank
 * mode: the proof takes its space from the search's. */
static int prove_resumed(const sdb_table_info *info, const uint8_t *table,
                         const bfs_space *space, const bfs_result *res, int threads)
{
	sdb_table_info searched = *info;
	memcpy(searched.counts, res->counts, sizeof searched.counts);
	searched.max_distance = res->max_distance;
	sdb_prove_opts opts = SDB_PROVE_OPTS_INIT;
	opts.threads = threads;
	int proof;
	return sdb_table_prove_entries(&proof, &searched, space->pattern, table, &opts);
}

int run_bfs(run *r, sdb_table_info *info, uint8_t *table, const bfs_space *space)
{
	run_level_ctx ctx = { &r->bar, info->states };
	progress_begin(&r->bar, r->label[0] ? r->label : info->name);
	double t0 = progress_now();
	bfs_result res;
	const int two_bit = info->entry_format == SDB_ENTRY_MOD3;
	checkpoint ck;
	bfs_restart restart;
	if (r->o->checkpoint) {
		int err = checkpoint_init(&ck, r->o->checkpoint, r->o->checkpoint_every, info,
		                          &r->bar, r->o->quiet, r->why, sizeof r->why);
		if (err)
			return err;
		restart = checkpoint_restart(&ck);
	}
	const bfs_restart *rs = r->o->checkpoint ? &restart : NULL;
	const gen_mpi *m = r->o->mpi;
	int err = m ? m->bfs(m, &res, table, space, two_bit, run_on_level, &ctx, r->why, sizeof r->why)
	          : two_bit ? bfs_run_2bit(&res, table, space, r->o->threads, run_on_level, &ctx, rs)
	          : bfs_run(&res, table, space, r->o->threads, run_on_level, &ctx, rs);
	/* a resumed search counts the runs before it too */
	info->build_seconds = r->o->checkpoint ? checkpoint_seconds(&ck) : progress_now() - t0;
	progress_end(&r->bar);
	if (err == SDB_ETOOBIG && info->entry_format == SDB_ENTRY_DIST6_MOVE2)
		return run_fail(r, err, "%s: distances go past %d, more than a byte entry holds "
		                "beside its best move: build it with --bits 2", info->name, SDB_DIST6_MAX);
	if (err == SDB_ETOOBIG)
		return run_fail(r, err, "%s: distances too large for the table format", info->name);
	if (err)
		return err;   /* the distributed engine or the checkpoint said why */
	if (r->o->checkpoint && ck.resumed && prove_resumed(info, table, space, &res, r->o->threads))
		return run_fail(r, SDB_ECORRUPT, "%s: the table resumed from %s is wrong (%s): the "
		                "checkpoint was altered; remove it and build again", info->name,
		                ck.path, sdb_error_detail());
	memcpy(info->counts, res.counts, sizeof info->counts);
	info->max_distance = res.max_distance;
	info->threads = r->o->threads;
	return SDB_OK;
}

static void print_table(out *o, const sdb_table_info *in, int json)
{
	char goal[3 * SDB_MAX_CELLS];
	sdb_board_format(goal, sizeof goal, &in->goal);
	if (json) {
		out_str(o, "{\"name\":");
		out_json_str(o, in->name);
		out_printf(o, ",\"size\":\"%dx%d\",\"goal\":", in->goal.w, in->goal.h);
		out_json_str(o, goal);
		out_printf(o, ",\"states\":%llu,\"max_distance\":%d,\"crc32\":\"%08x\","
		           "\"seconds\":%.6f,\"threads\":%d}\n",
		           (unsigned long long)in->states, in->max_distance, in->crc32,
		           in->build_seconds, in->threads);
	} else {
		out_printf(o, "%-14s %dx%d  goal %s  %llu states  max distance %d  %.3f s\n",
		           in->name, in->goal.w, in->goal.h, goal,
		           (unsigned long long)in->states, in->max_distance, in->build_seconds);
	}
}

int run_put(run *r, sdb_table_info *info)
{
	info->built_at = (int64_t)time(NULL);
	snprintf(info->tool_version, sizeof info->tool_version, "%s", sdb_version());
	if (!r->wr) {   /* slidedb-gen-mpi: rank 0 writes, or every rank its shard */
		int err = r->o->shards ? r->o->mpi->write_shard(r->o->mpi, info) : SDB_OK;
		if (err)
			return run_fail_lib(r, err);
		r->ntables++;
		return SDB_OK;
	}
	int err = r->own ? store_own(r, info) : SDB_OK;
	if (err)
		return err;
	err = sdb_writer_put_meta(r->wr, info);
	if (err)
		return run_fail_lib(r, err);
	char (*built)[SDB_NAME_MAX] = realloc(r->built, (size_t)(r->nbuilt + 1) * sizeof *built);
	if (!built)
		return run_fail(r, SDB_ENOMEM, "out of memory");
	r->built = built;
	memcpy(r->built[r->nbuilt++], info->name, SDB_NAME_MAX);
	r->ntables++;
	print_table(&r->text, info, r->o->json);
	return SDB_OK;
}
