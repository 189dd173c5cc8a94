/* Answering queries; see answer.h.
 *
 * A batch goes in three steps: parse every line and pick its heuristic (one
 * thread: heuristics are opened once per class of goals and cached), answer
 * (in parallel: tables and heuristics are read-only), report (in order). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"

extern const char *prog;

enum { MAX_HEURISTICS = 16 };

struct answerer {
	const sdb_db *db;
	answer_opts opts;
	int nh;
	struct cached {
		int w, h, rep;
		sdb_heuristic *heuristic;
	} cache[MAX_HEURISTICS];
};

typedef struct job {
	const char *text;
	int line, err, searched;
	query q;
	const sdb_heuristic *h;
	sdb_answer a;
	sdb_solve_stats stats;
	char why[512];
} job;

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
	if (!a)
		return;
	for (int i = 0; i < a->nh; i++)
		sdb_heuristic_close(a->cache[i].heuristic);
	free(a);
}

/* The heuristic for goals like this one: the strongest pattern-database set,
 * else (said once on stderr) Manhattan distance with linear conflicts. */
static const sdb_heuristic *heuristic_for(answerer *a, const sdb_board *goal)
{
	int rep = sdb_sym_representative(goal->w, goal->h, goal->blank);
	for (int i = 0; i < a->nh; i++)
		if (a->cache[i].w == goal->w && a->cache[i].h == goal->h && a->cache[i].rep == rep)
			return a->cache[i].heuristic;
	sdb_heuristic *h = NULL;
	int err = sdb_heuristic_open(&h, a->db, goal, NULL);
	if (err == SDB_ENOTFOUND) {
		fprintf(stderr, "%s: %s; searching with Manhattan distance and linear conflicts "
		        "instead (far slower)\n", prog, sdb_errdetail());
		err = sdb_heuristic_open_manhattan(&h, goal);
	}
	if (err)
		return NULL;
	if (a->nh == MAX_HEURISTICS) {   /* many classes in one run: start over */
		for (int i = 0; i < a->nh; i++)
			sdb_heuristic_close(a->cache[i].heuristic);
		a->nh = 0;
	}
	a->cache[a->nh++] = (struct cached){ goal->w, goal->h, rep, h };
	return h;
}

/* Step 1: parse, and pick the way to answer. */
static void prepare(answerer *a, job *j)
{
	j->err = query_parse(&j->q, j->text, a->opts.w, a->opts.h, a->db, j->why, sizeof j->why);
	if (j->err)
		return;
	j->searched = j->q.goal.n > SDB_MAX_FULL_CELLS;
	if (j->searched && sdb_board_solvable(&j->q.start, &j->q.goal) == 1 &&
	    !(j->h = heuristic_for(a, &j->q.goal))) {
		j->err = SDB_ENOTFOUND;
		snprintf(j->why, sizeof j->why, "%s", sdb_errdetail());
	}
}

/* Step 2: the answer. A table answer always walks the path: the walk checks
 * every step, so a damaged table gives an error, never a wrong answer. */
static void solve(answerer *a, job *j)
{
	if (j->err)
		return;
	if (!j->searched)
		j->err = sdb_answer_query(&j->a, a->db, &j->q.start, &j->q.goal, 1);
	else if (!j->h)   /* unsolvable: answered without a table or a search */
		j->err = sdb_answer_query(&j->a, a->db, &j->q.start, &j->q.goal, 0);
	else
		j->err = sdb_solve(&j->a, &j->stats, j->h, &j->q.start, &j->q.goal, &a->opts.limits);
	if (j->err)
		snprintf(j->why, sizeof j->why, "%s", sdb_errdetail());
}

/* Step 3: the report. */
static int report(answerer *a, out *o, const job *j)
{
	if (j->err) {
		char shown[96], reason[400];
		out_printable(shown, sizeof shown, j->text, 60);
		out_printable(reason, sizeof reason, j->why, 300);
		if (j->line)
			fprintf(stderr, "%s: line %d: '%s': %s\n", prog, j->line, shown, reason);
		else
			fprintf(stderr, "%s: '%s': %s\n", prog, shown, reason);
		report_error(o, &a->opts.report, j->line, j->text, j->why);
		return 1;
	}
	report_answer(o, &a->opts.report, &j->q, &j->a, j->searched ? &j->stats : NULL);
	return 0;
}

int answer_batch(answerer *a, out *o, char **lines, const int *linenos, int n)
{
	job *jobs = calloc((size_t)n, sizeof *jobs);
	if (!jobs) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	int searches = 0;
	for (int i = 0; i < n; i++) {
		jobs[i].text = lines[i];
		jobs[i].line = linenos ? linenos[i] : 0;
		prepare(a, &jobs[i]);
		searches += jobs[i].searched && !jobs[i].err;
	}
	/* Threads only pay for searches; table answers take well under a microsecond. */
	int threads = searches > 1 ? a->opts.threads : 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
	for (int i = 0; i < n; i++)
		solve(a, &jobs[i]);
	int failed = 0;
	for (int i = 0; i < n; i++)
		failed |= report(a, o, &jobs[i]);
	free(jobs);
	return failed;
}
