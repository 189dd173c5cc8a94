/* Writing answers: the text line, the JSON object, the path boards. */
#ifndef SLIDEDB_REPORT_H
#define SLIDEDB_REPORT_H

#include "out.h"
#include "slidedb.h"

enum report_only { ONLY_ALL, ONLY_DISTANCE, ONLY_MOVES, ONLY_BEST };

typedef struct report_opts {
	int json;   /* one JSON object per query and line */
	int path;   /* every board along the way */
	int only;   /* enum report_only: one field, plain (judge formats) */
} report_opts;

/* Append the answer a to query q (searched answers add their nodes and
 * heuristic in JSON). */
void report_answer(out *o, const report_opts *r, const sdb_query *q, const sdb_answer *a);

/* Append the report of a query that could not be answered, in its place:
 * one line in every mode ("error: MESSAGE" in text modes, an object with
 * "error" in JSON), so that answers stay in step with the queries; line is 0
 * for a query from the command line. */
void report_error(out *o, const report_opts *r, int line, const char *input, const char *msg);

#endif
