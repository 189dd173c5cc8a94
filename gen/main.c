/* slidedb-gen: build distance tables and store them in the database. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bfs_full.h"
#include "out.h"
#include "progress.h"
#include "slidedb.h"

enum { EXIT_USAGE = 2 };

static const char *prog = "slidedb-gen";

static void usage(FILE *f)
{
	fprintf(f,
	        "Usage: %s full WxH [--goal STATE | --all-goals] [OPTIONS]\n"
	        "Build exact distance tables by breadth-first search and store them in\n"
	        "the database (one transaction: all tables appear at once, or none).\n"
	        "\n"
	        "  full WxH          one byte per reachable state (distance and best move)\n"
	        "                    for a board of W columns and H rows, W*H <= 12.\n"
	        "                    With no --goal: every goal when W*H <= 10, else the\n"
	        "                    standard goal (blank last).\n"
	        "\n"
	        "Options:\n"
	        "  -g, --goal STATE  build the table that serves goals with STATE's blank cell\n"
	        "  -a, --all-goals   build one table per class of blank cells: every goal\n"
	        "  -d, --db PATH     database file (default $SLIDEDB_DB or slidedb.lmdb)\n"
	        "  -t, --threads N   threads (default: all cores)\n"
	        "  -j, --json        print one JSON object per table built\n"
	        "  -q, --quiet       print nothing on success\n"
	        "      --progress    show progress even when stderr is not a terminal\n"
	        "      --no-progress never show progress\n"
	        "  -h, --help        show this help\n"
	        "  -V, --version     show the version\n"
	        "\n"
	        "Example: %s full 3x3 && slidedb-lookup 1 2 3 0 8 4 7 6 5\n",
	        prog, prog);
}

typedef struct options {
	const char *db_path;
	const char *goal_text;
	int all_goals, threads, json, quiet, progress_mode;
	int w, h;
} options;

static int fail_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (try '%s --help')\n", prog);
	return EXIT_USAGE;
}

/* Parse options after the subcommand; returns -1 to go on or an exit code. */
static int parse_options(options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "goal", required_argument, NULL, 'g' },
		{ "all-goals", no_argument, NULL, 'a' },
		{ "db", required_argument, NULL, 'd' },
		{ "threads", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "progress", no_argument, NULL, 'P' },
		{ "no-progress", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":g:ad:t:jqhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'g': o->goal_text = optarg; break;
		case 'a': o->all_goals = 1; break;
		case 'd': o->db_path = optarg; break;
		case 't': {
			char *end;
			long n = strtol(optarg, &end, 10);
			if (*end || n < 1 || n > 1024)
				return fail_usage("--threads '%s' is not a number from 1 to 1024", optarg);
			o->threads = (int)n;
			break;
		}
		case 'j': o->json = 1; break;
		case 'q': o->quiet = 1; break;
		case 'P': o->progress_mode = 1; break;
		case 'N': o->progress_mode = 0; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s %s\n", prog, sdb_version()); return 0;
		case ':': return fail_usage("option '%s' needs a value", argv[optind - 1]);
		default: return fail_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	return -1;
}

typedef struct build_ctx {
	progress bar;
	uint64_t total;
} build_ctx;

static void on_bfs_level(void *ctx, int level, uint64_t reached)
{
	build_ctx *b = ctx;
	progress_update(&b->bar, level, reached, b->total);
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

/* Build one full table inside the writer's transaction, straight into the
 * database's reserved pages. */
static int build_one(sdb_writer *wr, const options *o, int blank, progress *bar, out *o_out)
{
	sdb_table_info info;
	memset(&info, 0, sizeof info);
	sdb_table_name_full(info.name, sizeof info.name, o->w, o->h, blank);
	info.kind = SDB_KIND_FULL;
	info.entry_format = SDB_ENTRY_DIST6_MOVE2;
	sdb_board_goal(&info.goal, o->w, o->h, blank);
	info.states = sdb_rank_count(o->w, o->h);
	uint8_t *data;
	int err = sdb_writer_reserve(wr, &data, info.name, info.states);
	if (err)
		return err;
	build_ctx ctx = { *bar, info.states };
	progress_begin(&ctx.bar, info.name);
	double t0 = progress_now();
	bfs_result res;
	err = bfs_full(&res, data, o->w, o->h, blank, o->threads, on_bfs_level, &ctx);
	info.build_seconds = progress_now() - t0;
	progress_end(&ctx.bar);
	if (err) {
		fprintf(stderr, "%s: %s: distances beyond %d do not fit the table format\n", prog,
		        info.name, SDB_MAX_DISTANCE - 2);
		return err;
	}
	memcpy(info.counts, res.counts, sizeof info.counts);
	info.max_distance = res.max_distance;
	info.built_at = (int64_t)time(NULL);
	info.threads = o->threads;
	snprintf(info.tool_version, sizeof info.tool_version, "%s", sdb_version());
	err = sdb_writer_put_meta(wr, &info);
	if (!err)
		print_table(o_out, &info, o->json);
	return err;
}

/* The blank cells to build tables for: representatives only. */
static int target_cells(int *cells, const options *o)
{
	int n = o->w * o->h, count = 0;
	if (o->goal_text) {
		sdb_board goal;
		int err = sdb_board_parse(&goal, o->goal_text, o->w, o->h);
		if (err) {
			fprintf(stderr, "%s: --goal '%s': %s\n", prog, o->goal_text, sdb_errdetail());
			return -1;
		}
		cells[count++] = sdb_sym_representative(o->w, o->h, goal.blank);
		return count;
	}
	if (o->all_goals || n <= 10) {
		for (int c = 0; c < n; c++)
			if (sdb_sym_representative(o->w, o->h, c) == c)
				cells[count++] = c;
		return count;
	}
	cells[count++] = sdb_sym_representative(o->w, o->h, n - 1);
	return count;
}

static int cmd_full(options *o)
{
	int cells[SDB_MAX_CELLS];
	int count = target_cells(cells, o);
	if (count < 0)
		return -count;
	if (o->goal_text && o->all_goals)
		return fail_usage("%s", "--goal and --all-goals exclude each other");
	sdb_db *db;
	int err = sdb_db_open(&db, o->db_path, SDB_CREATE);
	if (err) {
		fprintf(stderr, "%s: %s\n", prog, sdb_errdetail());
		return 1;
	}
	sdb_writer *wr;
	if ((err = sdb_writer_begin(&wr, db))) {
		fprintf(stderr, "%s: %s\n", prog, sdb_errdetail());
		sdb_db_close(db);
		return 1;
	}
	progress bar;
	progress_init(&bar, o->progress_mode);
	out text = { 0 };
	double t0 = progress_now();
	for (int i = 0; i < count && !err; i++)
		err = build_one(wr, o, cells[i], &bar, &text);
	if (err) {
		if (err != SDB_ETOOBIG)
			fprintf(stderr, "%s: %s\n", prog, sdb_errdetail());
		sdb_writer_abort(wr);
	} else if ((err = sdb_writer_commit(wr))) {
		fprintf(stderr, "%s: %s\n", prog, sdb_errdetail());
	}
	if (!err && !o->quiet) {
		out_flush(&text, stdout);
		if (!o->json) {
			struct rusage ru;
			getrusage(RUSAGE_SELF, &ru);
			printf("stored %d table%s in %s in %.3f s (peak memory %.1f MiB)\n", count,
			       count == 1 ? "" : "s", sdb_db_path(db), progress_now() - t0,
			       (double)ru.ru_maxrss / 1024.0);
		}
	}
	out_free(&text);
	sdb_db_close(db);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	options o = { .progress_mode = -1 };
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	o.threads = cores > 0 ? (int)cores : 1;
	if (argc < 2)
		return fail_usage("%s", "missing command");
	const char *cmd = argv[1];
	if (cmd[0] == '-') {
		int rc = parse_options(&o, argc, argv);
		return rc >= 0 ? rc : fail_usage("%s", "missing command");
	}
	if (strcmp(cmd, "full") != 0)
		return fail_usage("unknown command '%s'", cmd);
	int rc = parse_options(&o, argc - 1, argv + 1);
	if (rc >= 0)
		return rc;
	if (optind + 1 >= argc)
		return fail_usage("%s", "full: missing the board size WxH");
	if (optind + 2 < argc)
		return fail_usage("unexpected argument '%s'", argv[optind + 2]);
	const char *size = argv[optind + 1];
	if (sdb_size_parse(&o.w, &o.h, size))
		return fail_usage("%s", sdb_errdetail());
	if (o.w * o.h > SDB_MAX_FULL_CELLS) {
		fprintf(stderr, "%s: %s has %d cells and %llu states: too many for a full table "
		        "(up to %d cells); larger boards are answered with pattern databases\n",
		        prog, size, o.w * o.h, (unsigned long long)sdb_rank_count(o.w, o.h),
		        SDB_MAX_FULL_CELLS);
		return 1;
	}
	return cmd_full(&o);
}
