/* SPDX-License-Identifier: MIT */
/* What the commands of slidedb-gen share: their options, one write run
 * (open, one transaction, commit, report), and the progress of a BFS. */
#ifndef SLIDEDB_GEN_GEN_H
#define SLIDEDB_GEN_GEN_H

#include "cli/cli.h"
#include "cli/out.h"
#include "cli/progress.h"
#include "gen/bfs.h"
#include "gen/gen_mpi.h"
#include "slidedb_engine.h"

/* The options of one command (gen.c reads only those that apply to it). */
typedef struct gen_options {
	const char *db_path, *goal_text, *partition, *output, *blank, *set_name;
	const char *preset;          /* pdb --preset NAME (gen/preset.h) */
	const char *shards;          /* slidedb-gen-mpi full --shards DIR */
	const char *checkpoint;      /* --checkpoint DIR: restartable levels */
	double checkpoint_every;     /* seconds between checkpoints */
	int all_goals, threads, json, quiet, progress_mode, partial, replace;
	int bits;          /* full: 8 (distance and best move) or 2 (distance mod 3) */
	int metric;        /* full: enum sdb_metric */
	int w, h;          /* the size argument of full and pdb */
	const gen_mpi *mpi;   /* slidedb-gen-mpi's ranks, or NULL */
} gen_options;

/* slidedb-gen, or with mpi slidedb-gen-mpi (only the commands that build):
 * the command argv names, run; the exit code. */
int gen_main(int argc, char **argv, const gen_mpi *mpi);

/* The goal of --goal (default: tiles in order, blank last); 0, or an
 * SDB_E* code with sdb_error_detail() saying why. */
int gen_goal(sdb_board *goal, const gen_options *o);

/* One run: every table it writes appears in one transaction. */
typedef struct run {
	const gen_options *o;
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
/* The same with the library's sdb_error_detail() as the reason. */
int run_fail_lib(run *r, int err);

/* Open the database read-write (created if missing) and begin the
 * transaction; an SDB_E* code on failure (recorded for run_end). */
int run_begin(run *r, const gen_options *o);
/* Commit (err == 0) or abandon (err != 0), print the summary or the one
 * failure message, close. Returns the exit code. The only place a write run
 * prints an error. */
int run_end(run *r, int err);

/* Before any work (the database not yet opened): 1 with the message
 * printed when a table of bytes would not fit one LMDB value or the table
 * would not fit the memory the machine has available, else 0. */
int run_check_fits(const char *what, uint64_t bytes, int two_bit);
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

/* A BFS's progress on a bar (run_on_level's ctx): the level, the states
 * reached of total. */
typedef struct run_level_ctx {
	progress *bar;
	uint64_t total;
} run_level_ctx;
void run_on_level(void *ctx, int level, uint64_t reached);

/* A catalog entry with the common fields set. */
void run_info_init(sdb_table_info *info, const char *name, int kind, int format,
                   const sdb_board *goal, uint64_t states);

/* The commands, each in its file: the options (a gen_options) and the
 * words after them; each returns the exit code. */
int cmd_full(void *opts, int nargs, char **args);
int cmd_pdb(void *opts, int nargs, char **args);
int cmd_export(void *opts, int nargs, char **args);
int cmd_import(void *opts, int nargs, char **args);
int cmd_rm(void *opts, int nargs, char **args);
int cmd_compact(void *opts, int nargs, char **args);
int cmd_assemble(void *opts, int nargs, char **args);

#endif
