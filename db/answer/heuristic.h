/* SPDX-License-Identifier: MIT */
/* A heuristic's insides: what the search engine (solve.c) reads directly
 * instead of through sdb_heuristic_move(). Only heuristic.c builds one. */
#ifndef SLIDEDB_ANSWER_HEURISTIC_H
#define SLIDEDB_ANSWER_HEURISTIC_H

#include <pthread.h>
#include <stdatomic.h>

#include "answer/answer.h"
#include "answer/mtm_split.h"
#include "answer/mtm_walk.h"

/* The symmetry that transposes a square board (the diagonal mirror). */
enum { SDBI_TRANSPOSE = 4 };

/* The check of a heuristic's tables (their CRC-32s): done before the open
 * returns, or, for the database's own heuristics (sdbi_db_heuristic), on a
 * thread of its own while the first search runs; no answer read from the
 * tables is given before it passes (sdbi_heuristic_checked). */
typedef struct heuristic_check {
	pthread_t thread;
	int started, joined;              /* the thread (joined under lock) */
	pthread_mutex_t lock;
	atomic_int state;                 /* CHECK_PENDING, CHECK_PASSED, or the error */
	atomic_int waited;                /* a caller waits: the check takes every core */
	char detail[512];                 /* the error's message */
} heuristic_check;

enum { CHECK_PENDING = 1, CHECK_PASSED = 0 };

struct sdb_heuristic {
	int w, h, n, rep;                 /* board, and the set's blank cell */
	sdb_frame frame;                  /* of the goal it was opened for */
	int mirror;                       /* the diagonal mirror applies */
	uint8_t mirror_label[SDB_MAX_CELLS];
	int manhattan;                    /* no set: Manhattan + linear conflicts */
	uint8_t goal_cell[SDB_MAX_CELLS]; /* set's tile -> its goal cell */
	int nsets;                        /* sets maxed (0: Manhattan) */
	int ngroups;                      /* the groups of every set, set after set */
	int8_t group_of[SDB_MAX_SETS][SDB_MAX_CELLS];   /* set -> tile -> group, or -1 */
	int8_t set_of[SDB_MAX_GROUPS];    /* group -> its set */
	const sdb_pattern *pattern[SDB_MAX_GROUPS];   /* its tables' (sdbi_table_pattern) */
	const uint8_t *data[SDB_MAX_GROUPS];
	int nibbles[SDB_MAX_GROUPS];      /* SDB_ENTRY_NIBBLE_MD, else one byte per entry */
	char name[SDB_MAX_SETS * SDB_NAME_MAX];   /* the sets' names joined by '+' */
	const sdb_table *table[SDB_MAX_GROUPS];
	sdbi_mtm_split *mtm;              /* the multi-tile metric's tables (owned), or NULL */
	sdbi_mtm_walk *walk;              /* and its walking distance (owned), or NULL */
	heuristic_check check;
};

#endif
