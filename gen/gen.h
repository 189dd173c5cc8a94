/* What the subcommands of slidedb-gen share: options, one write run (open,
 * one transaction, commit, report), and the progress of a BFS. */
#ifndef SLIDEDB_GEN_H
#define SLIDEDB_GEN_H

#include "cli/cli.h"
#include "cli/out.h"
#include "cli/progress.h"
#include "gen/bfs.h"
#include "slidedb_engine.h"

/* The options and arguments of one subcommand (gen.c parses only those
 * that apply to it). */
typedef struct options {
	const char *db_path, *goal_text, *partition, *output, *blank, *set_name;
	const char *shards;   /* slidedb-gen-mpi full --shards DIR */
	const char *checkpoint;      /* --checkpoint DIR: restartable levels */
	double checkpoint_minutes;   /* between checkpoints */
	int checkpoint_minutes_given;
	int all_goals, threads, json, quiet, progress_mode, partial, replace;
	int bits;          /* full: 8 (distance and best move) or 2 (distance mod 3) */
	int w, h;          /* the size argument of full and pdb */
	char **args;       /* positional arguments after the subcommand */
	int nargs;
} options;

/* One run: every table it writes appears in one transaction. */
typedef struct run {
	const options *o;
	sdb_db *db;
	sdb_writer *wr;
	progress bar;
	char label[64];   /* the bar's label for the next table ("": the table's name) */
	out text;
	double started;
	int ntables;
	char (*built)[SDB_NAME_MAX];   /* the tables this run stored: their checkpoints go */
	int nbuilt;
	uint8_t *own;     /* the table being built in memory of the run's own */
	uint64_t own_bytes, own_done;   /* its size, the bytes stored and unmapped */
	char why[512];   /* what failed, printed once by run_end */
} run;

/* Record why the run fails (printed by run_end) and return err. */
int run_fail(run *r, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same with the library's sdb_errdetail() as the reason. */
int run_fail_lib(run *r, int err);

/* Open the database read-write (created if missing) and begin the
 * transaction; an SDB_E* code on failure (recorded for run_end). */
int run_begin(run *r, const options *o);
/* Commit (err == 0) or abandon (err != 0), print the summary or the one
 * failure message, close. Returns the exit code. The only place a write run
 * prints an error. */
int run_end(run *r, int err);

/* Before any work (the database not yet opened): 1 with the message
 * printed when a table of bytes would not fit one LMDB value or the table
 * would not fit the memory the machine has available, else 0. */
int check_table_fits(const char *what, uint64_t bytes, int two_bit);
/* Where the entries of the table info describes are built: the database's
 * own pages (reserved) when the table fits one LMDB value, else memory of
 * the run's own (two-bit tables), which run_put() copies into the database
 * chunk by chunk, giving each part back as it goes. */
int run_table_begin(run *r, const sdb_table_info *info, uint8_t **data);
/* A BFS filling a reserved table, with the progress bar and timings;
 * info->states must be set. Records counts, max distance, build time and
 * threads in info. */
int run_bfs(run *r, sdb_table_info *info, uint8_t *table, const bfs_space *space);
/* Record a finished table (CRC, catalog entry) and report it. */
int run_put(run *r, sdb_table_info *info);

/* A BFS's progress on a bar (on_level's ctx): the level, the states
 * reached of total. */
typedef struct level_ctx {
	progress *bar;
	uint64_t total;
} level_ctx;
void on_level(void *ctx, int level, uint64_t reached);

/* A catalog entry with the common fields set. */
void table_info_init(sdb_table_info *info, const char *name, int kind, int format,
                     const sdb_board *goal, uint64_t states);

/* The goal of --goal (default: tiles in order, blank last); 0, or an
 * SDB_E* code with sdb_errdetail() saying why. */
int parse_goal(sdb_board *goal, const options *o);

/* The subcommands: each returns the exit code. */
int cmd_full(const options *o);
int cmd_pdb(const options *o);
int cmd_export(const options *o);
int cmd_import(const options *o);
int cmd_rm(const options *o);
int cmd_compact(const options *o);
int cmd_assemble(const options *o);

#endif
