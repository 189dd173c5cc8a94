/* Answering queries: a full table where one is built (O(1) per step), IDA*
 * on a pattern-database set for larger boards, in parallel over a batch of
 * lines with the answers kept in input order. */
#ifndef SLIDEDB_ANSWER_H
#define SLIDEDB_ANSWER_H

#include "out.h"
#include "query_line.h"
#include "report.h"

typedef struct answer_opts {
	int w, h;                  /* --size, or 0 */
	report_opts report;
	sdb_solve_limits limits;   /* per searched query */
	int threads;
} answer_opts;

typedef struct answerer answerer;

answerer *answerer_new(const sdb_db *db, const answer_opts *opts);
void answerer_free(answerer *a);

/* Answer lines[0..n) into o, in order; linenos[i] is the input line of
 * lines[i] (NULL: the command line). Errors go to stderr in the same order.
 * Returns 1 if any line failed, else 0. */
int answer_batch(answerer *a, out *o, char **lines, const int *linenos, int n);

#endif
