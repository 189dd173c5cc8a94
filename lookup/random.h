/* The `random` command: boards of a chosen difficulty. */
#ifndef SLIDEDB_LOOKUP_RANDOM_H
#define SLIDEDB_LOOKUP_RANDOM_H

#include <stdint.h>

#include "cli/answerer.h"

typedef struct random_opts {
	const char *db_path;
	const char *goal_text;        /* --goal, or NULL */
	sdb_random_request req;       /* distance or range, walk, count, seed: the library's
	                                 rules (sdb_random_check) */
	answerer_opts answer;           /* --size, --json and the answer's fields */
} random_opts;

/* Draw and print the boards; returns the exit code. */
int random_run(const random_opts *r);

/* The goal of random and states: --goal in the size given or its own
 * shape, else the standard goal of --size (3x3 without one). -1 to go on,
 * or an exit code (a usage error). */
int random_goal(sdb_board *goal, const random_opts *r);

/* The `states` command (cmd_states.c): every state at the distances asked
 * (all: min_distance = max_distance = -1), once each; the exit code. */
int states_run(const random_opts *r);

#endif
