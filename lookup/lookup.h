/* SPDX-License-Identifier: MIT */
/* What the commands of slidedb-lookup share: their options, the goal of
 * --goal, the database opened with advice that fits the query, and the
 * command line's words as a query. lookup.c reads the options (one table,
 * cli/option.h) and runs the command the words name; each command is a
 * cmd_x() in a file of its own. */
#ifndef SLIDEDB_LOOKUP_LOOKUP_H
#define SLIDEDB_LOOKUP_LOOKUP_H

#include "cli/answerer.h"
#include "lookup/lookup_mpi.h"
#include "slidedb.h"

/* The options of one command (lookup.c reads only those that apply to it). */
typedef struct lookup_options {
	const char *db_path;
	const char *goal_text;       /* --goal, or NULL */
	sdb_board goal;              /* --goal read, for answers and checks */
	sdb_random_request req;      /* random and states: distance or range, walk, count,
	                                seed (the library's rules: sdb_random_check) */
	int histogram;               /* info --histogram */
	int prove;                   /* verify --prove */
	int threads_given;           /* whether --threads was given (verify's default
	                                differs) */
	lookup_mpi_run run;          /* slidedb-lookup-mpi's */
	answerer_opts answer;        /* --size, --json, the answer's fields, the limits */
	const lookup_mpi *mpi;       /* slidedb-lookup-mpi's ranks, or NULL */
} lookup_options;

/* slidedb-lookup, or with mpi slidedb-lookup-mpi's rank program (only
 * answers and checks): the command argv names, run; the exit code. */
int lookup_main(int argc, char **argv, const lookup_mpi *mpi);

/* The goal of random and states: --goal in the size given or its own
 * shape, else the standard goal of --size (3x3 without one). -1 to go on,
 * or an exit code (a usage error). */
int lookup_goal(sdb_board *goal, const lookup_options *o);

/* The database read-only: -1, or the exit code with the failure said (when
 * it is missing, advice that fits the board the words ask about). */
int lookup_open(sdb_db **db, const lookup_options *o, int nargs, char **args);

/* The command-line words as one query (malloc'ed, NULL when out of memory):
 * two words that are each a whole board are a start and a goal; with
 * moves, the last word is a move sequence ("START [; GOAL] ; MOVES"). */
char *lookup_words(int nargs, char **args, int moves);

/* The commands, each in its file: the options (a lookup_options) and the
 * words after them; each returns the exit code. */
int cmd_answer(void *opts, int nargs, char **args);
int cmd_check(void *opts, int nargs, char **args);
int cmd_random(void *opts, int nargs, char **args);
int cmd_info(void *opts, int nargs, char **args);
int cmd_verify(void *opts, int nargs, char **args);
int cmd_states(void *opts, int nargs, char **args);

#endif
