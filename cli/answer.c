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
	int search_threads;             /* threads one search may use */
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
	uint64_t nodes;   /* a query stopped by a limit: the nodes its searches took */
	int deferred;  /* its search may end before its set's check (answer_batch) */
	sdb_fields_resumed resumed;   /* an earlier run's work its searches resumed */
	char *from, *key;             /* resumed's strings (malloc'ed); from NULL: none */
} job;

/* What stopped a query's searches, when the library's own limits did not. */
enum { QUERY_NODES = 16, QUERY_TIME };

/* A query's poll: its searches' nodes, counted into the request's budget and
 * against the query's own limits. The library bounds each search; a query
 * may take two (the answer, then the optimal sequences of all=1) or more
 * (a checked sequence's end), and its limits bound them together. */
typedef struct query_poll {
	const answerer *a;
	uint64_t nodes;     /* of the query's searches so far */
	uint64_t seen;      /* of the search under way, already in nodes */
	double last;        /* its last progress report's seconds */
	double started;     /* when its first search began (the first poll says), or 0 */
	int why;            /* QUERY_*, a budget state, or 0 */
	double shown;       /* when the progress line was last drawn (--progress) */
	int drew;
} query_poll;

/* A search's progress, a few times a second, on one line of stderr. */
static void show_progress(query_poll *qp, const sdb_search_progress *p)
{
	const double now = budget_now() - qp->started;
	if (now - qp->shown < 0.25)
		return;
	qp->shown = now;
	qp->drew = 1;
	fprintf(stderr, "\r%s: searching: bound %d, %.3g million nodes, %.2f million/s, %.1f s   ",
	        cli_prog, p->bound, (double)qp->nodes / 1e6,
	        now > 0 ? (double)qp->nodes / now / 1e6 : 0.0, now);
}

static int poll_query(void *ctx, const sdb_search_progress *p)
{
	query_poll *qp = ctx;
	if (!qp->started)   /* (set here, not per query: most queries search nothing) */
		qp->started = budget_now() - p->seconds;
	if (p->nodes < qp->seen || p->seconds < qp->last)   /* the library's next search */
		qp->seen = 0;
	const uint64_t delta = p->nodes - qp->seen;
	qp->nodes += delta;
	qp->seen = p->nodes;
	qp->last = p->seconds;
	if (qp->a->opts.progress)
		show_progress(qp, p);
	const sdb_solve_limits *l = &qp->a->opts.limits;
	budget *b = qp->a->opts.budget;
	if (b) {
		budget_add_nodes(b, delta);
		if ((qp->why = budget_check(b)))
			return 1;
	}
	/* (strictly over: a single search meets the library's own limit first,
	 * with its own words) */
	if (l->max_nodes && qp->nodes > l->max_nodes)
		return qp->why = QUERY_NODES;
	if (l->timeout > 0 && budget_now() - qp->started > l->timeout)
		return qp->why = QUERY_TIME;
	return 0;
}

/* A search of the query ended: its nodes not yet counted (a searched
 * answer says how many it took). */
static void search_done(query_poll *qp, const sdb_answer *ans)
{
	if (ans->method == SDB_METHOD_SEARCH && ans->nodes > qp->seen) {
		qp->nodes += ans->nodes - qp->seen;
		if (qp->a->opts.budget)
			budget_add_nodes(qp->a->opts.budget, ans->nodes - qp->seen);
	}
	qp->seen = 0;
	qp->last = 0;
}

/* The reason a query's searches were stopped by its poll, or the library's. */
static void stop_reason(const answerer *a, const query_poll *qp, char *buf, size_t cap)
{
	const sdb_solve_limits *l = &a->opts.limits;
	const double s = qp->started ? budget_now() - qp->started : 0;
	if (qp->why == QUERY_NODES)
		snprintf(buf, cap, "search stopped at its limit of %llu nodes (%llu searched, %.1f s, "
		         "its searches together)", (unsigned long long)l->max_nodes,
		         (unsigned long long)qp->nodes, s);
	else if (qp->why == QUERY_TIME)
		snprintf(buf, cap, "search stopped at its time limit of %g s (%llu nodes, its searches "
		         "together)", l->timeout, (unsigned long long)qp->nodes);
	else if (qp->why)
		budget_reason(a->opts.budget, buf, cap);
	else if (report_reword(buf, cap, sdb_errdetail(), a->opts.words) != buf)
		snprintf(buf, cap, "%s", sdb_errdetail());
}

/* Keep the reason of a failure (batches are mostly good queries: no room
 * for reasons in every job). */
static void keep_reason(const answerer *a, job *j, const query_poll *qp)
{
	char why[1024];
	if (qp)
		stop_reason(a, qp, why, sizeof why);
	j->why = strdup(qp ? why : report_reword(why, sizeof why, sdb_errdetail(), a->opts.words));
}

answerer *answerer_new(const sdb_db *db, const answer_opts *opts)
{
	answerer *a = calloc(1, sizeof *a);
	if (a) {
		a->db = db;
		a->opts = *opts;
		/* counting and listing share the threads out by lines (answer_batch) */
		a->search_threads = opts->report.count || opts->report.all ? 1 : opts->threads;
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

/* The query's searches, within its limits and the request's budget. */
static int search(answerer *a, job *j, query_poll *qp)
{
	const report_opts *r = &a->opts.report;
	sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION,
	                         .want_moves = 1, .limits = a->opts.limits,
	                         .want_best_moves = r->all_best, .want_count = r->count,
	                         .sets = a->opts.sets };
	opts.limits.poll = poll_query;
	opts.limits.poll_ctx = qp;
	opts.limits.threads = a->search_threads;
	opts.defer_check = j->deferred;
	if (a->opts.check)
		return sdb_check_moves(&j->c, a->db, &j->q.start, &j->q.goal, j->moves, &opts);
	int err = sdb_answer_query(&j->a, a->db, &j->q.start, &j->q.goal, &opts);
	search_done(qp, &j->a);
	if (err || !r->all || !j->a.solvable)
		return err;
	sdb_answer again;
	err = sdb_answer_paths(&again, a->db, &j->q.start, &j->q.goal, r->limit, &opts,
	                       add_sequence, &j->all);
	if (!err)
		search_done(qp, &again);
	return err;
}

/* What the query's searches resumed, kept for its report. */
static void keep_resumed(const answerer *a, job *j)
{
	sdb_fields_resumed r;
	if (!a->opts.resumed || !a->opts.resumed(&r))
		return;
	j->from = strdup(r.checkpoint);
	j->key = strdup(r.key_file);
	j->resumed = r;
	j->resumed.checkpoint = j->from;
	j->resumed.key_file = j->key;
	if ((!j->from || !j->key) && !j->err)
		j->err = SDB_ENOMEM;   /* (an answer that cannot say what it rests on is not given) */
}

/* In text, a note on stderr says what the answer rests on besides its
 * search ("resumed" says it in JSON). */
static void say_resumed(const answerer *a, const job *j)
{
	const sdb_fields_resumed *r = &j->resumed;
	if (!j->from || a->opts.report.json || a->opts.quiet)
		return;
	char where[32] = "";
	if (j->line)
		snprintf(where, sizeof where, "line %d: ", j->line);
	cli_note("%sresumed from checkpoint '%s': bounds below %d and %d subtree%s at %d were "
	         "searched by an earlier run (%llu nodes), sealed with this user's key %s", where,
	         r->checkpoint, r->bound, r->subtrees_done, r->subtrees_done == 1 ? "" : "s",
	         r->bound, (unsigned long long)r->nodes, r->key_file);
}

static void solve(answerer *a, job *j)
{
	if (j->err)
		return;
	const char *note = sdb_search_note(a->db, &j->q.goal);   /* (tables: at once, NULL) */
	if (note && sdb_board_solvable(&j->q.start, &j->q.goal) == 1)   /* else nothing is searched */
		say_note(a, note);
	query_poll qp = { .a = a };
	budget *b = a->opts.budget;
	if (b && budget_spent(b)) {
		j->err = ANSWER_ESPENT;
		qp.why = budget_spent(b);
	} else {
		j->err = search(a, j, &qp);
	}
	keep_resumed(a, j);
	out_char(&j->all, '\0');   /* a string, also when empty */
	if (qp.drew)
		fputs("\r\033[K", stderr);   /* the progress line goes */
	if (j->err && qp.why >= BUDGET_NODES && qp.why <= BUDGET_ABANDONED)
		j->err = ANSWER_ESPENT;
	if (j->err == SDB_ELIMIT || j->err == ANSWER_ESPENT)
		j->nodes = qp.nodes;
	if (j->err)
		keep_reason(a, j, j->err == SDB_ELIMIT || j->err == ANSWER_ESPENT ? &qp : NULL);
}

static int report(answerer *a, out *o, const job *j)
{
	if (j->err && a->opts.quiet) {
		report_error(o, &a->opts.report, j->line, j->text, j->why ? j->why : "out of memory",
		             j->nodes);
		return 1;
	}
	if (j->err) {
		char shown[96], reason[1024];
		out_printable(shown, sizeof shown, j->text, 60);
		out_printable(reason, sizeof reason, j->why ? j->why : "out of memory", 1000);
		if (j->err == SDB_ELIMIT && a->opts.limit_hint && strstr(reason, "time limit"))
			snprintf(reason + strlen(reason), sizeof reason - strlen(reason), " (%s)",
			         a->opts.limit_hint);
		if (j->line)
			cli_fail("line %d: '%s': %s", j->line, shown, reason);
		else
			cli_fail("'%s': %s", shown, reason);
		report_error(o, &a->opts.report, j->line, j->text, reason, j->nodes);
		return 1;
	}
	const char blank = report_blank_of(j->text);
	const sdb_fields_resumed *resumed = j->from ? &j->resumed : NULL;
	say_resumed(a, j);
	if (a->opts.check) {
		report_check(o, &a->opts.report, &j->q, j->moves, &j->c, blank, resumed);
		return 0;
	}
	const answer_extra x = { j->all.buf, blank };
	report_answer_resumed(o, &a->opts.report, &j->q, &j->a, &x, resumed);
	return 0;
}

/* The query (or check line) of j, or its failure. */
static void parse(answerer *a, job *j)
{
	j->err = a->opts.check ? parse_check(a, j)
	         : sdb_query_parse(&j->q, j->text, a->opts.w, a->opts.h, a->db);
	if (j->err && !j->why)
		keep_reason(a, j, NULL);
}

static void job_free(job *j)
{
	free(j->why);
	free(j->from);
	free(j->key);
	free(j->moves);
	out_free(&j->all);
}

int answer_query(answerer *a, sdb_answer *ans, const sdb_query *q, char *why, size_t cap)
{
	job j;
	memset(&j, 0, sizeof j);
	j.q = *q;
	solve(a, &j);
	*ans = j.a;
	snprintf(why, cap, "%s", j.why ? j.why : "out of memory");
	int err = j.err;
	job_free(&j);
	return err;
}

struct answer_group {
	int n, searches;
	job jobs[];
};

answer_group *answer_group_new(answerer *a, char **queries, const int *linenos, int n)
{
	answer_group *g = calloc(1, sizeof *g + (size_t)n * sizeof *g->jobs);
	if (!g)
		return NULL;
	g->n = n;
	for (int i = 0; i < n; i++) {
		job *j = &g->jobs[i];
		j->text = queries[i];
		j->line = linenos ? linenos[i] : 0;
		parse(a, j);
		j->deferred = !j->err && j->q.goal.n > SDB_TABLE_ONLY_CELLS;
		g->searches += j->deferred;
	}
	return g;
}

int answer_group_searches(const answer_group *g)
{
	return g->searches;
}

/* Query i of g answered by a search that ran beside its set's check: a
 * damaged set fails it (the answer came from bytes not yet checked). */
static void after_check(answerer *a, job *j)
{
	if (j->deferred && !j->err && sdb_db_checked(a->db)) {
		j->err = SDB_ECORRUPT;
		keep_reason(a, j, NULL);
	}
}

void answer_group_solve(answerer *a, answer_group *g, int i)
{
	solve(a, &g->jobs[i]);
	after_check(a, &g->jobs[i]);
}

int answer_group_report(answerer *a, answer_group *g, int i, out *o)
{
	report(a, o, &g->jobs[i]);
	job_free(&g->jobs[i]);
	return g->jobs[i].err;
}

void answer_group_free(answer_group *g)
{
	free(g);
}

int answer_group_run(answerer *a, answer_group *g, out *o)
{
	job *jobs = g->jobs;
	const int n = g->n;
	/* Threads pay for searches, for counting or listing optimal sequences,
	 * and for long batches of table answers (well under a microsecond each:
	 * static shares then). A search splits itself over the threads, so
	 * searches go one at a time, each on every thread; counting and listing
	 * visit their sequences on one thread, so those lines share the threads
	 * out, one by one. */
	const report_opts *r = &a->opts.report;
	const int enumerate = r->count || r->all;
	const int costly = enumerate && n > 1;
	int threads = costly || (n >= 1024 && !g->searches) ? a->opts.threads : 1;
	if (costly) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
		for (int i = 0; i < n; i++)
			solve(a, &jobs[i]);
	} else {
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
		for (int i = 0; i < n; i++)
			solve(a, &jobs[i]);
	}
	/* The searches ran beside their set's check, not after it: no answer
	 * of theirs is given before it passes. */
	int failed = 0;
	for (int i = 0; i < n; i++) {
		after_check(a, &jobs[i]);
		failed |= answer_group_report(a, g, i, o) != 0;
	}
	return failed;
}

int answer_batch(answerer *a, out *o, char **queries, const int *linenos, int n)
{
	answer_group *g = answer_group_new(a, queries, linenos, n);
	if (!g) {
		cli_fail("out of memory");
		return 1;
	}
	int failed = answer_group_run(a, g, o);
	answer_group_free(g);
	return failed;
}
