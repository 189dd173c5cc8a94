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
	out all;       /* --all: the optimal sequences, each ended by '\n' */
	char *moves;   /* check mode: the sequence judged (malloc'ed with its query) */
	sdb_check c;
	char *why;     /* the reason of a failed query (malloc'ed) */
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

/* Split a check line at its last ';': the query before, the moves after
 * (blanks around them dropped). */
static int parse_check(answerer *a, job *j)
{
	char *query = strdup(j->text);
	if (!query) {
		j->why = NULL;
		return SDB_ENOMEM;
	}
	j->moves = query;   /* freed with the job */
	char *semi = strrchr(query, ';');
	if (!semi) {   /* "START MOVES": a last word of move letters */
		size_t end = strlen(query);
		while (end && strchr(" \t\r", query[end - 1]))
			end--;
		size_t word = end;
		while (word && strchr("udlrUDLR", query[word - 1]))
			word--;
		if (word == end || word == 0 || !strchr(" \t", query[word - 1])) {
			j->why = strdup("expected 'START [; GOAL] ; MOVES'");
			return SDB_EINVAL;
		}
		semi = query + word - 1;
	}
	*semi = '\0';
	char *m = semi + 1;
	m += strspn(m, " \t");
	size_t len = strlen(m);
	while (len && (m[len - 1] == ' ' || m[len - 1] == '\t' || m[len - 1] == '\r'))
		m[--len] = '\0';
	int err = sdb_query_parse(&j->q, query, a->opts.w, a->opts.h, a->db);
	memmove(query, m, len + 1);   /* the query is parsed: keep only the moves */
	return err;
}

static int add_sequence(void *ctx, const char *moves)
{
	out *all = ctx;
	out_str(all, moves);
	out_char(all, '\n');
	return 0;
}

/* A note of the library (a weaker heuristic, and how to build a better
 * one) is said once per run, on stderr, before the first search it slows. */
static void say_note(answerer *a, const char *note)
{
	if (!note || a->opts.quiet)
		return;
	int said = 0;
#pragma omp critical(answer_note)
	{
		for (int i = 0; i < a->nnoted && !said; i++)
			said = a->noted[i] == note;
		if (!said && a->nnoted < MAX_NOTES)
			a->noted[a->nnoted++] = note;
		if (!said)
			cli_note("%s; searching with Manhattan distance and linear conflicts instead (far "
			         "slower)", note);
	}
}

/* A search's progress, a few times a second, on one line of stderr. */
typedef struct progress_line {
	double shown;   /* seconds when last shown */
	int any;
} progress_line;

static int show_progress(void *ctx, const sdb_search_progress *p)
{
	progress_line *pl = ctx;
	if (p->seconds - pl->shown < 0.25)
		return 0;
	pl->shown = p->seconds;
	pl->any = 1;
	fprintf(stderr, "\r%s: searching: bound %d, %.3g million nodes, %.2f million/s, %.1f s   ",
	        cli_prog, p->bound, (double)p->nodes / 1e6,
	        p->seconds > 0 ? (double)p->nodes / p->seconds / 1e6 : 0.0, p->seconds);
	return 0;
}

static void solve(answerer *a, job *j)
{
	if (j->err)
		return;
	const report_opts *r = &a->opts.report;
	if (sdb_board_solvable(&j->q.start, &j->q.goal) == 1)   /* else nothing is searched */
		say_note(a, sdb_search_note(a->db, &j->q.goal));
	progress_line pl = { 0 };
	sdb_solve_limits limits = a->opts.limits;
	if (a->opts.progress) {
		limits.poll = show_progress;
		limits.poll_ctx = &pl;
	}
	const sdb_answer_opts opts = { .want_moves = 1, .limits = limits,
	                               .want_best_moves = r->all_best, .want_count = r->count };
	if (a->opts.check)
		j->err = sdb_check_moves(&j->c, a->db, &j->q.start, &j->q.goal, j->moves, &opts);
	else
		j->err = sdb_answer_query(&j->a, a->db, &j->q.start, &j->q.goal, &opts);
	if (!j->err && r->all && j->a.solvable)
		j->err = sdb_answer_paths(NULL, a->db, &j->q.start, &j->q.goal, r->limit, &opts,
		                          add_sequence, &j->all);
	out_char(&j->all, '\0');   /* a string, also when empty */
	if (pl.any)
		fputs("\r\033[K", stderr);   /* the progress line goes */
	if (j->err)
		keep_reason(j);
}

static int report(answerer *a, out *o, const job *j)
{
	if (j->err && a->opts.quiet) {
		report_error(o, &a->opts.report, j->line, j->text, j->why ? j->why : "out of memory");
		return 1;
	}
	if (j->err) {
		char shown[96], reason[1024];
		out_printable(shown, sizeof shown, j->text, 60);
		out_printable(reason, sizeof reason, j->why ? j->why : "out of memory", 1000);
		if (j->err == SDB_ELIMIT && a->opts.limit_hint)
			snprintf(reason + strlen(reason), sizeof reason - strlen(reason), " (%s)",
			         a->opts.limit_hint);
		if (j->line)
			cli_fail("line %d: '%s': %s", j->line, shown, reason);
		else
			cli_fail("'%s': %s", shown, reason);
		report_error(o, &a->opts.report, j->line, j->text, reason);
		return 1;
	}
	const char blank = report_blank_of(j->text);
	if (a->opts.check) {
		report_check(o, &a->opts.report, &j->q, j->moves, &j->c, blank);
		return 0;
	}
	const answer_extra x = { j->all.buf, blank };
	report_answer(o, &a->opts.report, &j->q, &j->a, &x);
	return 0;
}

/* The query (or check line) of j, or its failure. */
static void parse(answerer *a, job *j)
{
	j->err = a->opts.check ? parse_check(a, j)
	         : sdb_query_parse(&j->q, j->text, a->opts.w, a->opts.h, a->db);
	if (j->err && !j->why)
		keep_reason(j);
}

static void job_free(job *j)
{
	free(j->why);
	free(j->moves);
	out_free(&j->all);
}

int answer_one(answerer *a, out *o, const char *query)
{
	job j;
	memset(&j, 0, sizeof j);
	j.text = query;
	parse(a, &j);
	solve(a, &j);
	report(a, o, &j);
	int err = j.err;
	job_free(&j);
	return err;
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
		parse(a, j);
		searches += !j->err && j->q.goal.n > SDB_TABLE_ONLY_CELLS;
	}
	/* Threads pay for searches, for counting or listing optimal sequences,
	 * and for long batches of table answers (well under a microsecond each:
	 * static shares then, searches one by one). */
	const report_opts *r = &a->opts.report;
	const int costly = searches > 1 || ((r->count || r->all) && n > 1);
	int threads = costly || n >= 1024 ? a->opts.threads : 1;
	if (costly) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
		for (int i = 0; i < n; i++)
			solve(a, &jobs[i]);
	} else {
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
		for (int i = 0; i < n; i++)
			solve(a, &jobs[i]);
	}
	int failed = 0;
	for (int i = 0; i < n; i++) {
		failed |= report(a, o, &jobs[i]);
		job_free(&jobs[i]);
	}
	free(jobs);
	return failed;
}
