/* SPDX-License-Identifier: MIT */
/* Answering queries; see answerer.h.
 *
 * A batch is parsed, answered and formatted (the library's answer call is
 * thread-safe and opens each heuristic once): a long batch of table answers
 * in pieces that threads take in turn, each formatted into a buffer of its
 * own and handed out in order; searches one at a time, each split over the
 * threads; counts and lists shared out line by line. The failures' messages
 * go to stderr last, in input order. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/answerer.h"
#include "cli/cli.h"

enum { MAX_NOTES = 16 };

struct answerer {
	const sdb_db *db;
	answerer_opts opts;
	int search_threads;             /* threads one search may use */
	const char *noted[MAX_NOTES];   /* notes said once already */
	int nnoted;
	char interrupted[256];          /* Ctrl-C stopped a search: what it reached */
	int searched;                   /* the last batch held a search */
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
	int deferred;  /* its search may end before its set's check (answerer_batch) */
	sdb_fields_resumed resumed;   /* an earlier run's work its searches resumed */
	char *from, *key;             /* resumed's strings (malloc'ed); from NULL: none */
	struct {       /* ANSWERER_EINTR: where Ctrl-C stopped its search */
		int bound;
		uint64_t nodes;
		double seconds;
	} reached;
} job;

/* A query left unanswered because Ctrl-C stopped the run (answerer_interrupt). */
enum { ANSWERER_EINTR = -1001 };

/* What stopped a query's searches, when the library's own limits did not. */
enum { QUERY_NODES = 16, QUERY_TIME, QUERY_INTERRUPTED };

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
	int bound;          /* the search's last bound */
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
	qp->bound = p->bound;
	const answerer_interrupt *in = qp->a->opts.interrupt;
	if (in && atomic_load(&in->stop))
		return qp->why = QUERY_INTERRUPTED;
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
	else if (report_reword(buf, cap, sdb_error_detail(), a->opts.words) != buf)
		snprintf(buf, cap, "%s", sdb_error_detail());
}

/* Keep the reason of a failure (batches are mostly good queries: no room
 * for reasons in every job). */
static void keep_reason(const answerer *a, job *j, const query_poll *qp)
{
	char why[1024];
	if (qp)
		stop_reason(a, qp, why, sizeof why);
	j->why = strdup(qp ? why : report_reword(why, sizeof why, sdb_error_detail(),
	                                         a->opts.words));
}

answerer *answerer_new(const sdb_db *db, const answerer_opts *opts)
{
	answerer *a = calloc(1, sizeof *a);
	if (a) {
		a->db = db;
		a->opts = *opts;
		/* counting and listing share the threads out by lines (answerer_batch) */
		a->search_threads = opts->report.count || opts->report.all ? 1 : opts->threads;
	}
	return a;
}

void answerer_free(answerer *a)
{
	free(a);
}

/* The query of text. With a default goal (--goal), a text that is one
 * board of the goal's size is that start and the goal; any other is read as
 * it is, in the goal's size (a goal of its own is kept). */
static int parse_query(const answerer *a, sdb_query *q, const char *text)
{
	const sdb_board *goal = a->opts.goal;
	if (goal && sdb_board_parse(&q->start, text, goal->w, goal->h) == SDB_OK) {
		q->goal = *goal;
		return SDB_OK;
	}
	return sdb_query_parse(q, text, a->opts.w, a->opts.h, a->db);
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
		while (word && strchr("udlrUDLR0123456789", query[word - 1]))
			word--;
		/* a word of moves begins with a letter ("r3u": digits count a move) */
		if (word == end || word == 0 || !strchr(" \t", query[word - 1]) ||
		    !strchr("udlrUDLR", query[word])) {
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
	int err = parse_query(a, &j->q, query);
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
	                         .sets = a->opts.sets, .metric = r->metric };
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
	/* (tables: at once, NULL; MTM never searches) */
	const char *note = a->opts.report.metric == SDB_METRIC_MTM ? NULL
	                   : sdb_db_search_note(a->db, &j->q.goal);
	if (note && sdb_board_solvable(&j->q.start, &j->q.goal) == 1)   /* else nothing is searched */
		say_note(a, note);
	query_poll qp = { .a = a };
	budget *b = a->opts.budget;
	answerer_interrupt *in = j->q.goal.n > SDB_TABLE_ONLY_CELLS ? a->opts.interrupt : NULL;
	if (b && budget_spent(b)) {
		j->err = ANSWERER_ESPENT;
		qp.why = budget_spent(b);
	} else if (in && atomic_load(&in->stop)) {
		j->err = ANSWERER_EINTR;   /* (not searched: no summary of its own) */
		j->reached.bound = -1;
	} else {
		if (in)
			atomic_fetch_add(&in->searching, 1);
		j->err = search(a, j, &qp);
		if (in)
			atomic_fetch_sub(&in->searching, 1);
	}
	keep_resumed(a, j);
	if (a->opts.report.all)
		out_char(&j->all, '\0');   /* a string, also when empty (else NULL: no malloc a line) */
	if (qp.drew)
		fputs("\r\033[K", stderr);   /* the progress line goes */
	if (j->err && qp.why >= BUDGET_NODES && qp.why <= BUDGET_ABANDONED)
		j->err = ANSWERER_ESPENT;
	if (j->err == SDB_ELIMIT || j->err == ANSWERER_ESPENT)
		j->nodes = qp.nodes;
	if (j->err && qp.why == QUERY_INTERRUPTED) {
		j->err = ANSWERER_EINTR;
		j->reached.bound = qp.bound;
		j->reached.nodes = qp.nodes;
		j->reached.seconds = budget_now() - qp.started;
		return;
	}
	if (j->err)
		keep_reason(a, j, j->err == SDB_ELIMIT || j->err == ANSWERER_ESPENT ? &qp : NULL);
}

/* The reason a failed query's line and message give (the limit's hint added). */
static void failure_reason(const answerer *a, const job *j, char *reason, size_t cap)
{
	out_printable(reason, cap, j->why ? j->why : "out of memory", 1000);
	if (j->err == SDB_ELIMIT && a->opts.limit_hint && strstr(reason, "time limit"))
		snprintf(reason + strlen(reason), cap - strlen(reason), " (%s)", a->opts.limit_hint);
}

/* A failed query's message on stderr (unless quiet); 1 if it failed. */
static int say_failure(const answerer *a, const job *j)
{
	if (!j->err || a->opts.quiet)
		return j->err != 0;
	char shown[96], reason[1024];
	out_printable(shown, sizeof shown, j->text, 60);
	failure_reason(a, j, reason, sizeof reason);
	if (j->line)
		cli_fail("line %d: '%s': %s", j->line, shown, reason);
	else
		cli_fail("'%s': %s", shown, reason);
	return 1;
}

/* j's answer line (or lines, with grids), or its error line, into o: no
 * message, so that lines can be written on several threads at once. */
static void format(const answerer *a, out *o, const job *j)
{
	if (j->err) {
		char reason[1024];
		if (!a->opts.quiet)
			failure_reason(a, j, reason, sizeof reason);
		report_error(o, &a->opts.report, j->line, j->text,
		             a->opts.quiet ? (j->why ? j->why : "out of memory") : reason, j->nodes);
		return;
	}
	const char blank = report_blank_of(j->text);
	const sdb_fields_resumed *resumed = j->from ? &j->resumed : NULL;
	say_resumed(a, j);   /* (searched lines only: never on table_pieces()' threads) */
	if (a->opts.check) {
		report_check(o, &a->opts.report, &j->q, j->moves, &j->c, blank, resumed);
		return;
	}
	const report_extra x = { j->all.buf, blank };
	report_answer_resumed(o, &a->opts.report, &j->q, &j->a, &x, resumed);
}

static int report(const answerer *a, out *o, const job *j)
{
	const int failed = say_failure(a, j);
	format(a, o, j);
	return failed;
}

/* The query (or check line) of j, or its failure. */
static void parse(answerer *a, job *j)
{
	j->err = a->opts.check ? parse_check(a, j) : parse_query(a, &j->q, j->text);
	if (j->err && !j->why)
		keep_reason(a, j, NULL);
}

static void job_free(job *j)   /* (twice is harmless) */
{
	free(j->why);
	free(j->from);
	free(j->key);
	free(j->moves);
	j->why = j->moves = j->from = j->key = NULL;
	out_free(&j->all);
}

int answerer_query(answerer *a, sdb_answer *ans, const sdb_query *q, char *why, size_t cap)
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

/* The first of n lines that Ctrl-C left unanswered, its summary kept in a;
 * or n. */
static int interrupted_at(answerer *a, const job *jobs, int n)
{
	int cut = 0;
	while (cut < n && jobs[cut].err != ANSWERER_EINTR)
		cut++;
	if (cut < n && !a->interrupted[0]) {
		const job *j = &jobs[cut];
		char where[32] = "";
		if (j->line)
			snprintf(where, sizeof where, "line %d: ", j->line);
		if (j->reached.bound < 0)
			snprintf(a->interrupted, sizeof a->interrupted, "%snot searched", where);
		else
			snprintf(a->interrupted, sizeof a->interrupted, "%sthe search reached bound %d, "
			         "%llu nodes in %.1f s", where, j->reached.bound,
			         (unsigned long long)j->reached.nodes, j->reached.seconds);
	}
	return cut;
}

int answerer_interrupted(const answerer *a, char *buf, size_t cap)
{
	if (!a->opts.interrupt || !atomic_load(&a->opts.interrupt->stop))
		return 0;
	snprintf(buf, cap, "%s", a->interrupted[0] ? a->interrupted : "after the last answer");
	return 1;
}

/* Parse j; 1 if it searches (its answer may be deferred), else 0. */
static int parse_job(answerer *a, job *j)
{
	parse(a, j);
	return j->deferred = !j->err && j->q.goal.n > SDB_TABLE_ONLY_CELLS;
}

/* Lines [first, end) of a batch formatted into o; the jobs of those
 * answered are freed (those that failed are kept for their messages). */
static void format_range(const answerer *a, out *o, job *jobs, int first, int end)
{
	for (int i = first; i < end; i++) {
		format(a, o, &jobs[i]);
		if (!jobs[i].err)
			job_free(&jobs[i]);
	}
}

/* Each failure's message on stderr, in order, and its job freed; 1 if a
 * line failed. */
static int say_failures(const answerer *a, job *jobs, int n)
{
	int failed = 0;
	for (int i = 0; i < n; i++)
		if (jobs[i].err) {
			failed |= say_failure(a, &jobs[i]);
			job_free(&jobs[i]);
		}
	return failed;
}

/* A piece of a batch: lines [first, end), formatted into o (its own buf,
 * or for the first piece the caller's buffer). */
typedef struct piece {
	int first, end;
	out *o, buf;
	int done;   /* answered and formatted by table_pieces(): no line searches */
} piece;

/* A batch of table answers over threads: each takes the next piece not
 * taken yet (a thread the machine has set aside is left with one piece at
 * most), parses it, and answers and formats it unless a line searches (a
 * search takes every thread, one search at a time: answerer_batch does those
 * pieces after). */
typedef struct pieces {
	answerer *a;
	job *jobs;
	piece *piece;
	int npieces;
	int parsed;   /* the jobs are parsed already (an answerer_group) */
	atomic_int next;
} pieces;

static void *table_pieces(void *arg)
{
	pieces *b = arg;
	for (int k; (k = atomic_fetch_add(&b->next, 1)) < b->npieces;) {
		piece *p = &b->piece[k];
		int searches = 0;
		for (int i = p->first; i < p->end; i++)
			searches += b->parsed ? b->jobs[i].deferred : parse_job(b->a, &b->jobs[i]);
		if (searches)
			continue;
		for (int i = p->first; i < p->end; i++)
			solve(b->a, &b->jobs[i]);
		out o = *p->o;   /* (written line by line: on this thread's stack, not on a
		                    cache line beside another piece's) */
		format_range(b->a, &o, b->jobs, p->first, p->end);
		*p->o = o;
		p->done = 1;
	}
	return NULL;
}

/* table_pieces() on `threads` threads, the calling one among them (and alone
 * if none can start). The threads are started for the batch and joined: a
 * thread that waits blocks (OpenMP's spin, and on a busy machine a batch
 * every millisecond made them spin away five times the work). */
static void on_threads(pieces *b, int threads)
{
	pthread_t id[ANSWERER_MAX_THREADS];
	int started = 0;
	while (started < threads - 1 && !pthread_create(&id[started], NULL, table_pieces, b))
		started++;
	table_pieces(b);
	for (int k = 0; k < started; k++)
		pthread_join(id[k], NULL);
}

/* Lines [first, end) that table_pieces() left (parsed, when it ran): their
 * searches, each on every thread, or their counts and lists, shared out
 * line by line. 1 if a line searched (its answer waits for its set's
 * check). */
static int search_range(answerer *a, job *jobs, int first, int end, int parsed)
{
	int searches = 0;
	for (int i = first; i < end; i++)
		searches += parsed ? jobs[i].deferred : parse_job(a, &jobs[i]);
	const report_opts *r = &a->opts.report;
	const int threads = a->opts.threads;
	if ((r->count || r->all) && end - first > 1) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
		for (int i = first; i < end; i++)
			solve(a, &jobs[i]);
	} else {
		for (int i = first; i < end; i++)
			solve(a, &jobs[i]);
	}
	return searches > 0;
}

/* jobs[0..n) (their text and line set; parsed already, or not) answered
 * and formatted, the first piece into `first` when not NULL (the others
 * handed to the sink after it); every job freed. */
static int run_jobs(answerer *a, out *first, answerer_sink *sink, void *ctx, job *jobs, int n,
                    int parsed)
{
	/* Threads pay for searches, for counting or listing optimal sequences,
	 * and for batches of table answers from a few hundred lines (a
	 * microsecond or two each, parsed, answered and formatted): those go
	 * in pieces of ANSWERER_PIECE_LINES, each into a buffer of its own. */
	const report_opts *r = &a->opts.report;
	const int threads = a->opts.threads < ANSWERER_MAX_THREADS ? a->opts.threads
	                                                         : ANSWERER_MAX_THREADS;
	const int shared = threads > 1 && n >= ANSWERER_THREADED_LINES && !r->count && !r->all;
	const int npieces = shared ? (n + ANSWERER_PIECE_LINES - 1) / ANSWERER_PIECE_LINES : 1;
	piece *part = calloc((size_t)npieces, sizeof *part);
	if (!part) {
		for (int i = 0; i < n; i++)
			job_free(&jobs[i]);
		cli_fail("out of memory");
		return 1;
	}
	for (int k = 0; k < npieces; k++) {
		part[k].first = (int)((long)n * k / npieces);
		part[k].end = (int)((long)n * (k + 1) / npieces);
		part[k].o = k || !first ? &part[k].buf : first;
	}
	if (shared) {
		pieces b = { a, jobs, part, npieces, parsed, 0 };
		on_threads(&b, threads);
	}
	int searches = 0;
	for (int k = 0; k < npieces; k++)
		if (!part[k].done)
			searches |= search_range(a, jobs, part[k].first, part[k].end, shared || parsed);
	/* The searches ran beside their set's check, not after it: no answer
	 * of theirs is given before it passes. */
	if (searches && sdb_db_checked(a->db))
		for (int i = 0; i < n; i++)
			if (jobs[i].deferred && !jobs[i].err) {
				jobs[i].err = SDB_ECORRUPT;
				keep_reason(a, &jobs[i], NULL);
			}
	/* Ctrl-C: the lines from the one it stopped on go unreported */
	const int cut = interrupted_at(a, jobs, n);
	for (int k = 0; k < npieces; k++)
		if (!part[k].done)
			format_range(a, part[k].o, jobs, part[k].first,
			             part[k].end < cut ? part[k].end : cut);
	for (int i = cut; i < n; i++) {
		jobs[i].err = 0;
		job_free(&jobs[i]);
	}
	for (int k = 0; k < npieces; k++) {
		if (part[k].o == &part[k].buf && part[k].first < cut && part[k].buf.len)
			sink(ctx, &part[k].buf);
		out_free(&part[k].buf);
	}
	a->searched = searches;
	const int failed = say_failures(a, jobs, n);
	free(part);
	return failed;
}

/* answerer_batch_to(), the first piece formatted into `first` when not NULL. */
static int batch(answerer *a, out *first, answerer_sink *sink, void *ctx, char **queries,
                 const int *linenos, int n)
{
	job *jobs = calloc((size_t)n, sizeof *jobs);
	if (!jobs) {
		cli_fail("out of memory");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		jobs[i].text = queries[i];
		jobs[i].line = linenos ? linenos[i] : 0;
	}
	const int failed = run_jobs(a, first, sink, ctx, jobs, n, 0);
	free(jobs);
	return failed;
}

static void append(void *ctx, out *lines)
{
	out_mem(ctx, lines->buf, lines->len);
}

int answerer_batch(answerer *a, out *o, char **queries, const int *linenos, int n)
{
	return batch(a, o, append, o, queries, linenos, n);
}

int answerer_batch_to(answerer *a, answerer_sink *sink, void *ctx, char **queries,
                    const int *linenos, int n)
{
	return batch(a, NULL, sink, ctx, queries, linenos, n);
}

int answerer_searched(const answerer *a)
{
	return a->searched;
}

/* --- A group answered in steps (answerer.h). */

struct answerer_group {
	int n, searches;
	job jobs[];
};

answerer_group *answerer_group_new(answerer *a, char **queries, const int *linenos, int n)
{
	answerer_group *g = calloc(1, sizeof *g + (size_t)n * sizeof *g->jobs);
	if (!g)
		return NULL;
	g->n = n;
	for (int i = 0; i < n; i++) {
		g->jobs[i].text = queries[i];
		g->jobs[i].line = linenos ? linenos[i] : 0;
		g->searches += parse_job(a, &g->jobs[i]);
	}
	return g;
}

int answerer_group_searches(const answerer_group *g)
{
	return g->searches;
}

void answerer_group_solve(answerer *a, answerer_group *g, int i)
{
	job *j = &g->jobs[i];
	solve(a, j);
	/* it searched beside its set's check: no answer before the check passes */
	if (j->deferred && !j->err && sdb_db_checked(a->db)) {
		j->err = SDB_ECORRUPT;
		keep_reason(a, j, NULL);
	}
}

int answerer_group_report(answerer *a, answerer_group *g, int i, out *o)
{
	job *j = &g->jobs[i];
	report(a, o, j);
	job_free(j);
	return j->err;
}

int answerer_group_run(answerer *a, answerer_group *g, out *o)
{
	const int failed = run_jobs(a, o, append, o, g->jobs, g->n, 1);
	g->n = 0;   /* (answered and freed) */
	return failed;
}

void answerer_group_free(answerer_group *g)
{
	if (g)
		for (int i = 0; i < g->n; i++)
			job_free(&g->jobs[i]);
	free(g);
}
