/* Streamed answers, with backpressure. libmicrohttpd calls the reader when
 * the client has taken what was given before (the socket can take more),
 * and only then are the next answers computed: a client that stops reading
 * stops the work and holds one group of answers, never the whole response.
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
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "metrics.h"
#include "server.h"

enum { MAX_GROUP = 2048, GROUP_BYTES = 2 << 20, STREAM_BLOCK = 64 * 1024 };

/* What every stream has. */
typedef struct stream {
	server *sv;
	snapshot *snap;
	client who;
	budget budget;           /* the request's (its wanted() watches who) */
	size_t held;             /* of --max-memory: the body's */
	out buf;
	size_t sent;             /* of buf */
	int done;                /* nothing more to compute */
	/* the next part of buf; 0, or -1 to stop with an error */
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
	batch_splitter split;
	char *queries[MAX_GROUP + 2];
	int linenos[MAX_GROUP + 2];
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
	if (__atomic_load_n(&st->sv->stopping, __ATOMIC_RELAXED))
		return MHD_CONTENT_READER_END_WITH_ERROR;   /* the drain is over */
	while (st->sent == st->buf.len) {
		if (st->done)
			return MHD_CONTENT_READER_END_OF_STREAM;
		out_reset(&st->buf);
		st->sent = 0;
		if (st->refill(st))
			return MHD_CONTENT_READER_END_WITH_ERROR;
	}
	size_t n = st->buf.len - st->sent < max ? st->buf.len - st->sent : max;
	memcpy(into, st->buf.buf + st->sent, n);
	st->sent += n;
	return (ssize_t)n;
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

/* Split the body's next lines into the queries of a group (a grid's rows
 * make one); their count. */
static int next_queries(batch_stream *b)
{
	int n = 0;
	size_t bytes = 0;
	while (n < MAX_GROUP && bytes < GROUP_BYTES && !b->s.done) {
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
		int got = batch_feed(&b->split, line, len, b->lineno, b->queries + n, b->linenos + n);
		if (got < 0)
			return -1;
		for (int i = 0; i < got; i++)
			bytes += line_most(b, b->queries[n + i]);
		n += got;
		b->s.done = !line;
	}
	return n;
}

static int batch_refill(stream *st)
{
	batch_stream *b = (batch_stream *)st;
	if (budget_check(&st->budget) == BUDGET_ABANDONED)
		return -1;   /* nobody reads: stop, and let the connection go */
	int n = next_queries(b);
	if (n < 0)
		return -1;
	budget_resume(&st->budget);
	if (n)
		answer_batch(b->ans, &st->buf, b->queries, b->linenos, n);
	budget_pause(&st->budget);
	for (int i = 0; i < n; i++)
		free(b->queries[i]);
	metrics_answers((unsigned long)n);
	return 0;
}

static int random_refill(stream *st)
{
	random_stream *r = (random_stream *)st;
	if (r->next == 0)
		out_char(&st->buf, '[');
	for (; r->next < r->n && st->buf.len < STREAM_BLOCK; r->next++) {
		const answer_extra x = { "", r->blank };
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
	answerer_free(b->ans);
	batch_free(&b->split);
	out_free(&b->body);
}

static void random_release(stream *st)
{
	random_stream *r = (random_stream *)st;
	free(r->queries);
	free(r->answers);
}

static void stream_free(void *cls)
{
	stream *st = cls;
	st->release(st);
	out_free(&st->buf);
	memory_give(st->sv, &st->held);
	if (st->snap)
		snapshot_put(st->sv->snaps, st->snap);
	free(st);
}

/* What a stream takes from its request, and queueing it. */
static enum MHD_Result start(struct MHD_Connection *c, request *rq, stream *st,
                             const char *type)
{
	st->sv = rq->sv;
	st->who = rq->who;
	st->budget = rq->budget;
	st->budget.ctx = &st->who;
	st->held = rq->held;
	rq->held = 0;
	struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, STREAM_BLOCK,
	                                                           stream_read, st, stream_free);
	if (!r) {
		stream_free(st);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return reply_response(c, rq, MHD_HTTP_OK, r);
}

enum MHD_Result stream_batch(struct MHD_Connection *c, request *rq, const answer_opts *a)
{
	batch_stream *b = calloc(1, sizeof *b);
	if (!b)
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	b->s.refill = batch_refill;
	b->s.release = batch_release;
	b->s.snap = snapshot_get(rq->sv->snaps);
	b->body = rq->body;
	memset(&rq->body, 0, sizeof rq->body);
	b->split.w = a->w;
	b->split.h = a->h;
	b->most = answer_most(&a->report);
	b->named = 2 * 6 * strlen(sdb_db_path(snapshot_db(b->s.snap)));
	answer_opts opts = *a;
	opts.budget = &b->s.budget;
	b->ans = answerer_new(snapshot_db(b->s.snap), &opts);
	if (!b->ans) {
		b->s.sv = rq->sv;
		stream_free(b);
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	}
	return start(c, rq, &b->s, "application/x-ndjson");
}

enum MHD_Result stream_random(struct MHD_Connection *c, request *rq, const answer_opts *a,
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
