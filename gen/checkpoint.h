/* SPDX-License-Identifier: MIT */
/* Restartable levels for slidedb-gen (--checkpoint DIR): the state of a
 * table's search written to DIR/NAME.ckpt (a pattern group's SET/gN as
 * SET.gN) after a level, at most every so
 * many seconds, and read back when the same build is run again. */
#ifndef SLIDEDB_GEN_CHECKPOINT_H
#define SLIDEDB_GEN_CHECKPOINT_H

#include <stddef.h>

#include "cli/progress.h"
#include "gen/bfs.h"

typedef struct checkpoint {
	char dir[4096];
	char path[4096];        /* DIR/NAME.ckpt */
	char tmp[4096];         /* where it is written before the rename */
	const sdb_table_info *info;   /* the table being built: what a file must match */
	double every, last;     /* seconds between saves; when the last ended */
	double started;         /* when this run's search began */
	double earlier;         /* seconds of the search in the runs before (a resume) */
	int resumed;            /* the search went on from a file (its table is then proved) */
	progress *bar;          /* notes go through it (shown when it is) */
	int quiet;
	char *why;              /* the run's failure message */
	size_t why_cap;
} checkpoint;

/* Set c up for the table info describes, its file in dir; every: seconds
 * between saves (0: after every level). 0, or SDB_EINVAL (said in why)
 * when the file's path would not fit. */
int checkpoint_init(checkpoint *c, const char *dir, double every, const sdb_table_info *info,
                    progress *bar, int quiet, char *why, size_t why_cap);

/* The seconds the table's search has taken, the runs before a resume
 * included. */
double checkpoint_seconds(const checkpoint *c);

/* The engine's side (bfs_restart) of c. */
bfs_restart checkpoint_restart(checkpoint *c);

/* Hold dir for this process (flock, released when it exits, killed or
 * not): two builds sharing a folder would take each other's files. 0, or
 * -1 with errno (EWOULDBLOCK: another process holds it). */
int checkpoint_lock(const char *dir);

/* The file of a table once its build is committed: removed, with any
 * half-written one. */
void checkpoint_remove(const char *dir, const char *name);

#endif
