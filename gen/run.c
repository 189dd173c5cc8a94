/* A write run of slidedb-gen: one LMDB transaction for every table the run
 * builds, a report line per table, and a summary with time and peak memory. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "gen.h"

int parse_goal(sdb_board *goal, const options *o)
{
	if (!o->goal_text)
		return sdb_board_goal(goal, o->w, o->h, o->w * o->h - 1);
	return sdb_board_parse(goal, o->goal_text, o->w, o->h);
}

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
	return run_fail(r, err, "%s", sdb_errdetail());
}

int run_begin(run *r, const options *o)
{
	memset(r, 0, sizeof *r);
	r->o = o;
	r->started = progress_now();
	progress_init(&r->bar, o->progress_mode);
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

int run_end(run *r, int err)
{
	if (err)
		sdb_writer_abort(r->wr);
	else if ((err = sdb_writer_commit(r->wr)))
		run_fail_lib(r, err);
	if (err)
		cli_fail("%s", r->why);
	if (!err && !r->o->quiet) {
		out_flush(&r->text, stdout);
		if (!r->o->json)
			printf("stored %d table%s in %s in %.3f s (peak memory %.1f MiB)\n", r->ntables,
			       r->ntables == 1 ? "" : "s", sdb_db_path(r->db), progress_now() - r->started,
			       peak_mib());
	}
	out_free(&r->text);
	sdb_db_close(r->db);
	return err ? 1 : 0;
}

void table_info_init(sdb_table_info *info, const char *name, int kind, int format,
                     const sdb_board *goal, uint64_t states)
{
	memset(info, 0, sizeof *info);
	snprintf(info->name, sizeof info->name, "%s", name);
	info->kind = kind;
	info->entry_format = format;
	info->goal = *goal;
	info->states = states;
}

typedef struct level_ctx {
	progress *bar;
	uint64_t total;
} level_ctx;

static void on_level(void *ctx, int level, uint64_t reached)
{
	level_ctx *l = ctx;
	progress_update(l->bar, level, reached, l->total);
}

int run_bfs(run *r, sdb_table_info *info, uint8_t *table, const bfs_space *space)
{
	level_ctx ctx = { &r->bar, info->states };
	progress_begin(&r->bar, info->name);
	double t0 = progress_now();
	bfs_result res;
	int err = info->entry_format == SDB_ENTRY_MOD3
	          ? bfs_run_2bit(&res, table, space, r->o->threads, on_level, &ctx)
	          : bfs_run(&res, table, space, r->o->threads, on_level, &ctx);
	info->build_seconds = progress_now() - t0;
	progress_end(&r->bar);
	if (err)
		return run_fail(r, err, "%s: distances too large for the table format", info->name);
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
	int err = sdb_writer_put_meta(r->wr, info);
	if (err)
		return run_fail_lib(r, err);
	r->ntables++;
	print_table(&r->text, info, r->o->json);
	return SDB_OK;
}
