/* SPDX-License-Identifier: MIT */
/* Answering queries with the library's one answer call: tables where the
 * board has them, IDA* otherwise; in parallel over a batch of lines, with
 * the answers kept in input order. */
#ifndef SLIDEDB_CLI_ANSWERER_H
#define SLIDEDB_CLI_ANSWERER_H

#include <stdatomic.h>

#include "cli/budget.h"
#include "cli/out.h"
#include "cli/report.h"

/* A query that failed because its request's budget is spent (or its work
 * was abandoned): not a library code, so that a caller can tell it from a
 * search over its own limits (SDB_ELIMIT). */
enum { ANSWERER_ESPENT = -1000 };

/* A program's Ctrl-C, shared with its SIGINT handler: the answerer counts
 * the searches under way in `searching`, so that the handler can tell a
 * search to stop (setting `stop`) from a program to end as the signal
 * would. A search stopped so leaves its query, and every query after it in
 * its batch, unanswered: answerer_batch() reports those before it, and
 * answerer_interrupted() says what the search had reached. Lock-free atomics:
 * safe in a signal handler. */
typedef struct answerer_interrupt {
	atomic_int stop;
	atomic_int searching;
} answerer_interrupt;

typedef struct answerer_opts {
	int check;                 /* judge move sequences ("START [; GOAL] ; MOVES") */
	int w, h;                  /* --size, or 0 */
	const sdb_board *goal;     /* --goal: the goal of a query that gives none (its
	                              size is w x h then), or NULL: the standard goal */
	report_opts report;
	sdb_solve_limits limits;   /* per query: its searches together */
	int threads;
	const char *sets;          /* --set: the pattern-database sets searches take, or NULL */
	int quiet;                 /* no message on stderr for a failed query */
	int progress;              /* show a search's progress on stderr (a terminal) */
	const char *limit_hint;    /* said after a search's limit error: how to lift it */
	budget *budget;            /* the request's, shared by its queries; or NULL */
	answerer_interrupt *interrupt;   /* the program's Ctrl-C, or NULL */
	/* {from, to} pairs ended by {NULL, NULL}, or NULL: words of the library's
	 * messages said otherwise in a failed query's reason (slidedb-serve
	 * names its query parameters where the library names options). */
	const char *const (*words)[2];
	/* After a query's searches, on their thread: 1 when they resumed an
	 * earlier run's work, r saying what the answer rests on (its strings
	 * valid until the next call on the thread); NULL: never (all but
	 * slidedb-lookup-mpi). The answer says so: "resumed" in JSON, a note on
	 * stderr in text. */
	int (*resumed)(sdb_fields_resumed *r);
} answerer_opts;

typedef struct answerer answerer;

/* A batch of table answers goes on threads from this many lines (each is
 * parsed, answered and formatted in a microsecond or two: fewer do not pay
 * for starting them), in pieces of ANSWERER_PIECE_LINES that each thread
 * takes in turn; a reader of lines cuts its batches longer. At most
 * ANSWERER_MAX_THREADS answer a batch's lines. */
enum { ANSWERER_THREADED_LINES = 256, ANSWERER_PIECE_LINES = 64, ANSWERER_MAX_THREADS = 64 };

answerer *answerer_new(const sdb_db *db, const answerer_opts *opts);
void answerer_free(answerer *a);

/* Answer queries[0..n) into o, in order, one answer line (or error line) for
 * each (the checker's verdict in check mode); linenos[i] is the input line
 * of queries[i] (NULL: the command line). Error messages go to stderr in the
 * same order (unless quiet). Returns 1 if any query failed, else 0. */
int answerer_batch(answerer *a, out *o, char **queries, const int *linenos, int n);

/* Where answerer_batch_to() hands a batch's lines: in input order, many lines
 * at a time (the sink may take lines' buffer, or empty it). */
typedef void answerer_sink(void *ctx, out *lines);

/* answerer_batch(), with the lines handed to sink instead of appended to one
 * buffer: a long batch's lines, formatted on threads a piece at a time, go
 * out without being copied together. */
int answerer_batch_to(answerer *a, answerer_sink *sink, void *ctx, char **queries,
                    const int *linenos, int n);

/* Whether the last batch held a search: its answers waited for every search
 * of the batch, so a reader cuts its next batch short (table answers are
 * answered faster in long batches). */
int answerer_searched(const answerer *a);

/* After answerer_batch(): whether Ctrl-C (opts.interrupt) stopped the run:
 * 0, or 1 with the one-line summary in buf ("line 3: the search reached
 * bound 62, 1234567 nodes in 45.2 s"). */
int answerer_interrupted(const answerer *a, char *buf, size_t cap);

/* A group of queries answered in steps, for a caller that streams each
 * answer as soon as it is ready and runs searches on threads of its own
 * (slidedb-serve): parse them all (cheap), then solve and report each in
 * turn. answerer_batch() is these steps over a whole group. */
typedef struct answerer_group answerer_group;

/* The queries parsed (the texts stay the caller's until the group is freed),
 * or NULL when out of memory. */
answerer_group *answerer_group_new(answerer *a, char **queries, const int *linenos, int n);
/* How many of its queries search (boards beyond the full tables): the
 * others are a few table reads each. */
int answerer_group_searches(const answerer_group *g);
/* Answer query i (its searches within the answerer's limits and budget).
 * Queries may be solved on any thread, one thread per query at a time. */
void answerer_group_solve(answerer *a, answerer_group *g, int i);
/* The line of query i, solved, into o (and its message on stderr, unless
 * quiet); 0, or the library's code of its failure (ANSWERER_ESPENT: the
 * request's budget; unsolvable is an answer). */
int answerer_group_report(answerer *a, answerer_group *g, int i, out *o);
/* Solve every query of g (on the answerer's threads where they pay) and
 * write their lines into o, in order: answerer_batch() for a parsed group.
 * 1 if any failed. */
int answerer_group_run(answerer *a, answerer_group *g, out *o);
void answerer_group_free(answerer_group *g);

/* Answer a parsed query (a's limits and budget, no output): 0, the
 * library's code or ANSWERER_ESPENT, with the reason in why. For a caller
 * that formats the answers itself (slidedb-serve's random boards). */
int answerer_query(answerer *a, sdb_answer *ans, const sdb_query *q, char *why, size_t cap);



#endif
