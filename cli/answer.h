/* Answering queries with the library's one answer call: tables where the
 * board has them, IDA* otherwise; in parallel over a batch of lines, with
 * the answers kept in input order. */
#ifndef SLIDEDB_ANSWER_H
#define SLIDEDB_ANSWER_H

#include "budget.h"
#include "out.h"
#include "report.h"

/* A query that failed because its request's budget is spent (or its work
 * was abandoned): not a library code, so that a caller can tell it from a
 * search over its own limits (SDB_ELIMIT). */
enum { ANSWER_ESPENT = -1000 };

typedef struct answer_opts {
	int check;                 /* judge move sequences ("START [; GOAL] ; MOVES") */
	int w, h;                  /* --size, or 0 */
	report_opts report;
	sdb_solve_limits limits;   /* per query: its searches together */
	int threads;
	const char *sets;          /* --set: the pattern-database sets searches take, or NULL */
	int quiet;                 /* no message on stderr for a failed query */
	int progress;              /* show a search's progress on stderr (a terminal) */
	const char *limit_hint;    /* said after a search's limit error: how to lift it */
	budget *budget;            /* the request's, shared by its queries; or NULL */
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
} answer_opts;

typedef struct answerer answerer;

answerer *answerer_new(const sdb_db *db, const answer_opts *opts);
void answerer_free(answerer *a);

/* Answer queries[0..n) into o, in order, one answer line (or error line) for
 * each (the checker's verdict in check mode); linenos[i] is the input line
 * of queries[i] (NULL: the command line). Error messages go to stderr in the
 * same order (unless quiet). Returns 1 if any query failed, else 0. */
int answer_batch(answerer *a, out *o, char **queries, const int *linenos, int n);

/* A group of queries answered in steps, for a caller that streams each
 * answer as soon as it is ready and runs searches on threads of its own
 * (slidedb-serve): parse them all (cheap), then solve and report each in
 * turn. answer_batch() is these steps over a whole group. */
typedef struct answer_group answer_group;

/* The queries parsed (the texts stay the caller's until the group is freed),
 * or NULL when out of memory. */
answer_group *answer_group_new(answerer *a, char **queries, const int *linenos, int n);
/* How many of its queries search (boards beyond the full tables): the
 * others are a few table reads each. */
int answer_group_searches(const answer_group *g);
/* Answer query i (its searches within the answerer's limits and budget).
 * Queries may be solved on any thread, one thread per query at a time. */
void answer_group_solve(answerer *a, answer_group *g, int i);
/* The line of query i, solved, into o (and its message on stderr, unless
 * quiet); 0, or the library's code of its failure (ANSWER_ESPENT: the
 * request's budget; unsolvable is an answer). */
int answer_group_report(answerer *a, answer_group *g, int i, out *o);
/* Solve every query of g (on the answerer's threads where they pay) and
 * write their lines into o, in order: answer_batch() for a parsed group.
 * 1 if any failed. */
int answer_group_run(answerer *a, answer_group *g, out *o);
void answer_group_free(answer_group *g);

/* Answer a parsed query (a's limits and budget, no output): 0, the
 * library's code or ANSWER_ESPENT, with the reason in why. For a caller
 * that formats the answers itself (slidedb-serve's random boards). */
int answer_query(answerer *a, sdb_answer *ans, const sdb_query *q, char *why, size_t cap);



#endif
