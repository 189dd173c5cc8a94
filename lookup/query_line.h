/* One query as users write it: a start board, optionally followed by a goal
 * board, in any notation of the seeds. */
#ifndef SLIDEDB_QUERY_LINE_H
#define SLIDEDB_QUERY_LINE_H

#include <stddef.h>

#include "slidedb.h"

typedef struct query {
	sdb_board start, goal;
} query;

/* Parse one line. w, h: the size from --size, or 0, 0 to infer it from the
 * number of cells (ambiguous counts are settled by the sizes db has tables
 * for, if exactly one fits). The goal defaults to the standard goal (tiles in
 * order, blank last). Returns 0, or an SDB_E* code with a one-line reason in
 * why. */
int query_parse(query *q, const char *line, int w, int h, const sdb_db *db, char *why,
                size_t whycap);

/* Join command-line words into one query line: two words that are each a
 * whole board (compact or comma-separated) are taken as start and goal. */
void query_join_args(char *buf, size_t cap, int argc, char **argv);

#endif
