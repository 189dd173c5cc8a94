/* SPDX-License-Identifier: MIT */
/* Streamed answers, with backpressure. libmicrohttpd calls the reader when
 * the client has taken what was given before (the socket can take more),
 * and only then are the next answers computed: a client that stops reading
 * stops the work and holds one group of answers, never the whole response.
 *
 * A batch goes a group of lines at a time. A group that searches nothing
 * (table answers, well under a microsecond each) is answered in the reader,
 * on libmicrohttpd's thread; a group with a search goes to the search pool
 * (pool.h), whose thread hands each line over as soon as it is answered and
 * wakes the connection, which sleeps meanwhile (suspended: not timed out,
 * not read). A batch is admitted to the pool, or refused (503, 429), on its
 * first group; its later groups are not refused.
 *
 * Memory per streamed response, beyond the request's body: one group of
 * answer lines and its query texts. A group takes queries while the most
 * their lines can take stays within GROUP_BYTES: an answer line is bounded
 * by the options (the longest board, 4x4, 80 moves, and its path, grids,
 * tiles and all=1 sequences), an error line by the query's text (echoed up
 * to REPORT_INPUT_MAX bytes, and quoted in the reason, each byte escaped in
 * at most 6) and the database's path (named in some reasons). Only a single
 * query may go over: all=1 with a large limit (up to limit x 84 bytes) is a
 * group alone. The body (counted against --max-memory) stays counted until
 * the stream ends. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/splitter.h"
#include "serve/metrics.h"
#include "serve/server.h"

enum { MAX_GROUP = 2048, GROUP_BYTES = 2 << 20, STREAM_BLOCK = 64 * 1024 };

/* What every stream has. */
typedef struct stream {
	server *sv;
	struct MHD_Connection *c;
	snapshot *snap;
	client who;
	budget budget;           /* the request's (its wanted() watches who) */
	size_t held;             /* of --max-memory: the body's */
	out buf;                 /* answered, not yet sent (under sv->handoff while busy) */
	size_t sent;             /* of buf */
	int done;                /* nothing more to compute */
	int busy;                /* a pool thread answers into buf (under sv->handoff) */
	int waiting;             /* the connection sleeps until it has (under sv->handoff) */
	int orphaned;            /* its response was freed while busy: the task frees it */
	/* the next part of buf (maybe handed to the pool: busy); 0, or -1 to stop
	 * with an error */
	int (*refill)(struct stream *st);
	void (*release)(struct stream *st);   /* what its kind holds */
} stream;

/* POST /v1/solve: query lines from the body, a group at a time. */
typedef struct batch_stream {
	stream s;
	answerer *ans;
	out body;                /* its queries, split as they are answered */
	size_t pos;              /* of the next line in body */
	int lineno;
	splitter split;
	char *queries[MAX_GROUP + 2];
	int linenos[MAX_GROUP + 2];
	int n;                   /* queries in the group */
	int eof;                 /* every line of the body is in a group */
	answerer_group *group;     /* the group to answer next, or NULL */
	out line;                /* the pool thread's line under way */
	task task;               /* the group on the search pool */
	size_t most;             /* bytes an answer line may take at most, for the options */
	size_t named;            /* bytes of the reasons that name the database */
} batch_stream;

/* GET /v1/random: answers computed, formatted as the client takes them. */
typedef struct random_stream {
	stream s;
	report_opts report;
	sdb_query *queries;
	sdb_answer *answers;
	int n, next;
	char blank;
} random_stream;

static ssize_t stream_read(void *cls, uint64_t pos, char *into, size_t max)
{
	(void)pos;
	stream *st = cls;
	server *sv = st->sv;
	if (__atomic_load_n(&sv->stopping, __ATOMIC_RELAXED))
		return MHD_CONTENT_READER_END_WITH_ERROR;   /* the drain is over */
	pthread_mutex_lock(&sv->handoff);
	for (;;) {
		if (st->sent < st->buf.len) {
			size_t n = st->buf.len - st->sent < max ? st->buf.len - st->sent : max;
			memcpy(into, st->buf.buf + st->sent, n);
			st->sent += n;
			pthread_mutex_unlock(&sv->handoff);
			return (ssize_t)n;
		}
		out_reset(&st->buf);
		st->sent = 0;
		if (st->busy) {   /* answers to come: sleep until the pool has one */
			conn_sleep(st->c, &st->waiting);
			pthread_mutex_unlock(&sv->handoff);
			return 0;
		}
		if (st->done) {
			pthread_mutex_unlock(&sv->handoff);
			return MHD_CONTENT_READER_END_OF_STREAM;
		}
		pthread_mutex_unlock(&sv->handoff);   /* not busy: buf is the reader's */
		if (st->refill(st))
			return MHD_CONTENT_READER_END_WITH_ERROR;
		pthread_mutex_lock(&sv->handoff);
	}
}

/* The most bytes an answer line takes with options r (see above). */
static size_t answer_most(const report_opts *r)
{
	enum { BOARDS = SDB_MAX_MOVES + 1, BOARD = 64, GRID = 80 };
	size_t most = 1024;   /* the fields, two boards, 80 moves, the heuristic */
	most += r->grid ? 2 * GRID : 0;
	most += r->path ? BOARDS * (r->grid ? GRID : BOARD) : 0;
	most += r->tiles ? SDB_MAX_MOVES * 3 : 0;
	most += r->all ? (size_t)r->limit * (SDB_MAX_MOVES + 4) : 0;
	return most;
}

/* The most bytes the line of a query of this text may take. */
static size_t line_most(const batch_stream *b, const char *text)
{
	enum { WORDS = 512 };   /* an error line's own words */
	const size_t len = strlen(text);
	const size_t quoted = len < REPORT_INPUT_MAX ? len : REPORT_INPUT_MAX;
	const size_t error = 2 * 6 * quoted + b->named + WORDS;
	return error > b->most ? error : b->most;
}

static void group_free(batch_stream *b)
{
	answerer_group_free(b->group);
	b->group = NULL;
	for (int i = 0; i < b->n; i++)
		free(b->queries[i]);
	b->n = 0;
}

/* Split the body's next lines into the queries of a group (a grid's rows
 * make one) and parse them into b->group (NULL when none are left): 0, or
 * -1 when out of memory. */
static int next_group(batch_stream *b)
{
	int n = 0;
	size_t bytes = 0;
	while (n < MAX_GROUP && bytes < GROUP_BYTES && !b->eof) {
		char *line = NULL;
		size_t len = 0;
		if (b->pos < b->body.len) {
			line = b->body.buf + b->pos;
			char *nl = memchr(line, '\n', b->body.len - b->pos);
			len = nl ? (size_t)(nl - line) : b->body.len - b->pos;
			line[len] = '\0';   /* the body has a spare byte at its end */
			b->pos += len + 1;
			b->lineno++;
		}
		int got = splitter_feed(&b->split, line, len, b->lineno, b->queries + n, b->linenos + n);
		if (got < 0) {
			b->n = n;
			group_free(b);
			return -1;
		}
		for (int i = 0; i < got; i++)
			bytes += line_most(b, b->queries[n + i]);
		n += got;
		b->eof = !line;
	}
	b->n = n;
	if (n && !(b->group = answerer_group_new(b->ans, b->queries, b->linenos, n))) {
		group_free(b);
		return -1;
	}
	return 0;
}

static void stream_destroy(stream *st);

/* A group with a search, on a pool thread: each line handed to the reader
 * as soon as it is answered. */
static void group_run(task *t)
{
	batch_stream *b = (batch_stream *)((char *)t - offsetof(batch_stream, task));
	stream *st = &b->s;
	server *sv = st->sv;
	const int n = b->n;
	budget_resume(&st->budget);
	for (int i = 0; i < n; i++) {
		answerer_group_solve(b->ans, b->group, i);
		out_reset(&b->line);
		answerer_group_report(b->ans, b->group, i, &b->line);
		pthread_mutex_lock(&sv->handoff);
		out_mem(&st->buf, b->line.buf, b->line.len);
		conn_wake(st->c, &st->waiting);
		pthread_mutex_unlock(&sv->handoff);
	}
	budget_pause(&st->budget);
	group_free(b);
	metrics_answers((unsigned long)n);
	pthread_mutex_lock(&sv->handoff);
	st->busy = 0;
	const int orphaned = st->orphaned;
	if (!orphaned)
		conn_wake(st->c, &st->waiting);
	pthread_mutex_unlock(&sv->handoff);
	if (orphaned)
		stream_destroy(st);
}

/* Answer b->group: here when it searches nothing, else on the search pool
 * (admit: a new request, refused past the pool's bounds). 0, or a POOL_*
 * reason (nothing taken). */
static int answer_next_group(batch_stream *b, int admit)
{
	stream *st = &b->s;
	if (!answerer_group_searches(b->group)) {
		budget_resume(&st->budget);
		answerer_group_run(b->ans, b->group, &st->buf);
		budget_pause(&st->budget);
		metrics_answers((unsigned long)b->n);
		group_free(b);
		st->done = b->eof;
		return 0;
	}
	b->task.run = group_run;
	conn_address(st->c, &b->task.who);
	pthread_mutex_lock(&st->sv->handoff);
	const int why = pool_submit(st->sv->searches, &b->task, admit);
	st->busy = !why;
	st->done = b->eof;   /* (once it is not busy) */
	pthread_mutex_unlock(&st->sv->handoff);
	return why;
}

static int batch_refill(stream *st)
{
	batch_stream *b = (batch_stream *)st;
	if (budget_check(&st->budget) == BUDGET_ABANDONED)
		return -1;   /* nobody reads: stop, and let the connection go */
	if (!b->group && next_group(b))
		return -1;
	if (!b->group) {   /* the body's end: nothing left */
		st->done = 1;
		return 0;
	}
	return answer_next_group(b, 0) ? -1 : 0;
}

static int random_refill(stream *st)
{
	random_stream *r = (random_stream *)st;
	if (r->next == 0)
		out_char(&st->buf, '[');
	for (; r->next < r->n && st->buf.len < STREAM_BLOCK; r->next++) {
		const report_extra x = { "", r->blank };
		if (r->next)
			out_char(&st->buf, ',');
		report_answer(&st->buf, &r->report, &r->queries[r->next], &r->answers[r->next], &x);
		st->buf.len--;   /* the object's newline: inside an array */
	}
	if (r->next == r->n) {
		out_str(&st->buf, "]\n");
		st->done = 1;
	}
	return 0;
}

static void batch_release(stream *st)
{
	batch_stream *b = (batch_stream *)st;
	group_free(b);
	answerer_free(b->ans);
	splitter_free(&b->split);
	out_free(&b->body);
	out_free(&b->line);
}

static void random_release(stream *st)
{
	random_stream *r = (random_stream *)st;
	free(r->queries);
	free(r->answers);
}

static void stream_destroy(stream *st)
{
	st->release(st);
	out_free(&st->buf);
	memory_give(st->sv, &st->held);
	if (st->snap)
		snapshot_put(st->sv->snaps, st->snap);
	free(st);
}

/* libmicrohttpd lets the response go (its connection closed). A pool
 * thread answering into it keeps it until its group ends, and stops
 * searching at its next poll (the client is gone). */
static void stream_free(void *cls)
{
	stream *st = cls;
	pthread_mutex_lock(&st->sv->handoff);
	const int busy = st->busy;
	if (busy) {
		st->orphaned = 1;
		__atomic_store_n(&st->who.gone, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&st->sv->handoff);
	if (!busy)
		stream_destroy(st);
}

/* What a stream takes from its request, before its first part. */
static void take(stream *st, struct MHD_Connection *c, request *rq)
{
	st->sv = rq->sv;
	st->c = c;
	st->who = rq->who;
	st->budget = rq->budget;
	st->budget.ctx = &st->who;
	st->held = rq->held;
	rq->held = 0;
}

/* Queue the stream's response. */
static enum MHD_Result start(struct MHD_Connection *c, request *rq, stream *st,
                             const char *type)
{
	struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, STREAM_BLOCK,
	                                                           stream_read, st, stream_free);
	if (!r) {
		stream_free(st);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return reply_response(c, rq, MHD_HTTP_OK, r);
}

enum MHD_Result stream_batch(struct MHD_Connection *c, request *rq, const answerer_opts *a)
{
	batch_stream *b = calloc(1, sizeof *b);
	if (!b)
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	take(&b->s, c, rq);
	b->s.refill = batch_refill;
	b->s.release = batch_release;
	b->s.snap = snapshot_get(rq->sv->snaps);
	b->body = rq->body;
	memset(&rq->body, 0, sizeof rq->body);
	b->split.w = a->w;
	b->split.h = a->h;
	b->most = answer_most(&a->report);
	b->named = 2 * 6 * strlen(sdb_db_path(snapshot_db(b->s.snap)));
	answerer_opts opts = *a;
	opts.budget = &b->s.budget;
	b->ans = answerer_new(snapshot_db(b->s.snap), &opts);
	/* The first group now: with a search, the pool admits the batch or
	 * refuses it before its 200 is sent. */
	int why = 0;
	if (!b->ans || next_group(b)) {
		stream_destroy(&b->s);
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	}
	if (b->group && answerer_group_searches(b->group) && (why = answer_next_group(b, 1))) {
		stream_destroy(&b->s);
		return reply_no_search(c, rq, why);
	}
	return start(c, rq, &b->s, "application/x-ndjson");
}

enum MHD_Result stream_random(struct MHD_Connection *c, request *rq, const answerer_opts *a,
                              snapshot *snap, sdb_query *queries, sdb_answer *answers, int n,
                              char blank)
{
	random_stream *r = calloc(1, sizeof *r);
	if (!r) {
		free(queries);
		free(answers);
		snapshot_put(rq->sv->snaps, snap);
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	}
	take(&r->s, c, rq);
	r->s.refill = random_refill;
	r->s.release = random_release;
	r->s.snap = snap;
	r->report = a->report;
	r->queries = queries;
	r->answers = answers;
	r->n = n;
	r->blank = blank;
	return start(c, rq, &r->s, "application/json");
}
