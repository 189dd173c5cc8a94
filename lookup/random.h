/* The `random` command: boards of a chosen difficulty. */
#ifndef SLIDEDB_RANDOM_H
#define SLIDEDB_RANDOM_H

#include <stdint.h>

#include "answer.h"

typedef struct random_opts {
	const char *db_path;
	const char *goal_text;        /* --goal, or NULL */
	int min_distance, max_distance;   /* -1, -1: any */
	int walk;                     /* --walk N, or -1 */
	uint64_t count;               /* boards to draw */
	uint64_t seed;
	int seed_given;
	answer_opts answer;           /* --size, --json and the answer's fields */
} random_opts;

/* Draw and print the boards; returns the exit code. */
int random_run(const random_opts *r);

/* The goal of random and states: --goal in the size given or its own
 * shape, else the standard goal of --size (3x3 without one). -1 to go on,
 * or an exit code (a usage error). */
int random_goal(sdb_board *goal, const random_opts *r);

/* The `states` command (states.c): every state at the distances asked
 * (all: min_distance = max_distance = -1), once each; the exit code. */
int states_run(const random_opts *r);

#endif
