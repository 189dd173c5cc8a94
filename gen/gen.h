/* What the subcommands of slidedb-gen share: options, one write run (open,
 * one transaction, commit, report), and the progress of a BFS. */
#ifndef SLIDEDB_GEN_H
#define SLIDEDB_GEN_H

#include "bfs.h"
#include "out.h"
#include "progress.h"
#include "slidedb.h"

enum { EXIT_USAGE = 2 };

extern const char *prog;

typedef struct options {
	const char *db_path, *goal_text, *partition, *output, *blank;
	int all_goals, threads, json, quiet, progress_mode;
	int w, h;
} options;

/* Print "prog: message (try --help)" and return EXIT_USAGE. */
int fail_usage(const char *fmt, const char *arg);

/* One run: every table it writes appears in one transaction. */
typedef struct run {
	const options *o;
	sdb_db *db;
	sdb_writer *wr;
	progress bar;
	out text;
	double started;
	int ntables;
} run;

/* Open the database read-write (created if missing) and begin the
 * transaction; prints the reason and returns 1 on failure. */
int run_begin(run *r, const options *o);
/* Commit (err == 0) or abandon (err != 0), print the summary, close.
 * Returns the exit code. */
int run_end(run *r, int err);

/* A BFS filling a reserved table, with the progress bar and timings;
 * info->states must be set. Records counts, max distance, build time and
 * threads in info. */
int run_bfs(run *r, sdb_table_info *info, uint8_t *table, const bfs_space *space);
/* Record a finished table (CRC, catalog entry) and report it. */
int run_put(run *r, sdb_table_info *info);

/* A catalog entry with the common fields set. */
void table_info_init(sdb_table_info *info, const char *name, int kind, int format,
                     const sdb_board *goal, uint64_t states);

/* The goal of --goal (default: tiles in order, blank last); 0 or 1 after
 * printing why. */
int parse_goal(sdb_board *goal, const options *o);

int cmd_full(const options *o);
int cmd_pdb(const options *o);
int cmd_export(const options *o, const char *name);
int cmd_import(const options *o, const char *file);

#endif
