/* Answering queries; see answer.h.
 *
 * A batch goes in three steps: parse every query (one thread), answer (in
 * parallel: the library's answer call is thread-safe and opens each
 * heuristic once), report (in order). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "opts.h"

enum { MAX_NOTES = 16 };

struct answerer {
	const sdb_db *db;
	answer_opts opts;
	const char *noted[MAX_NOTES];   /* notes said once already */
	int nnoted;
};

typedef struct job {
	const char *text;
	int line, err;
	sdb_query q;
	sdb_answer a;
	char *why;   /* the reason of a failed query (malloc'ed) */
} job;

/* Keep the library's reason of a failure (batches are mostly good queries:
 * no room for reasons in every job). */
static void keep_reason(job *j)
{
	j->why = strdup(sdb_errdetail());
}

answerer *answerer_new(const sdb_db *db, const answer_opts *opts)
{
	answerer *a = calloc(1, sizeof *a);
	if (a) {
		a->db = db;
		a->opts = *opts;
	}
	return a;
}

void answerer_free(answerer *a)
{
	free(a);
}

static void solve(answerer *a, job *j)
{
	if (j->err)
		return;
	const sdb_answer_opts opts = { 1, a->opts.limits };
	j->err = sdb_answer_query(&j->a, a->db, &j->q.start, &j->q.goal, &opts);
	if (j->err)
		keep_reason(j);
}

/* A note of the library (a weaker heuristic, and how to build a better
 * one) is said once per run, on stderr. */
static void say_note(answerer *a, const char *note)
{
	for (int i = 0; i < a->nnoted; i++)
		if (a->noted[i] == note)
			return;
	if (a->nnoted < MAX_NOTES)
		a->noted[a->nnoted++] = note;
	cli_note("%s; searching with Manhattan distance and linear conflicts instead (far "
	         "slower)", note);
}

static int report(answerer *a, out *o, const job *j)
{
	if (j->a.note)
		say_note(a, j->a.note);
	if (j->err) {
		char shown[96], reason[1024];
		out_printable(shown, sizeof shown, j->text, 60);
		out_printable(reason, sizeof reason, j->why ? j->why : "out of memory", 1000);
		if (j->line)
			cli_fail("line %d: '%s': %s", j->line, shown, reason);
		else
			cli_fail("'%s': %s", shown, reason);
		report_error(o, &a->opts.report, j->line, j->text, reason);
		return 1;
	}
	report_answer(o, &a->opts.report, &j->q, &j->a);
	return 0;
}

int answer_batch(answerer *a, out *o, char **queries, const int *linenos, int n)
{
	job *jobs = calloc((size_t)n, sizeof *jobs);
	if (!jobs) {
		cli_fail("out of memory");
		return 1;
	}
	int searches = 0;
	for (int i = 0; i < n; i++) {
		job *j = &jobs[i];
		j->text = queries[i];
		j->line = linenos ? linenos[i] : 0;
		j->err = sdb_query_parse(&j->q, j->text, a->opts.w, a->opts.h, a->db);
		if (j->err)
			keep_reason(j);
		searches += !j->err && j->q.goal.n > SDB_MAX_FULL_CELLS;
	}
	/* Threads only pay for searches; table answers take well under a microsecond. */
	int threads = searches > 1 ? a->opts.threads : 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
	for (int i = 0; i < n; i++)
		solve(a, &jobs[i]);
	int failed = 0;
	for (int i = 0; i < n; i++) {
		failed |= report(a, o, &jobs[i]);
		free(jobs[i].why);
	}
	free(jobs);
	return failed;
}
