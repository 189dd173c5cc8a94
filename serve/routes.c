/* The endpoints. Every answer is built by the code slidedb-lookup answers
 * with (cli/answer.c, cli/report.c), so the JSON is the same, field for
 * field. Errors are JSON objects with "error" and a status that says whose
 * fault it is: 400 a malformed board or parameter, 404 a path or a table
 * that does not exist (the message names the command that builds it), 405
 * a method, 413 a body over --max-body, 422 a search over its limits, 500
 * a damaged table, 503 too many connections. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "answer.h"
#include "batch.h"
#include "catalog.h"
#include "metrics.h"
#include "server.h"

enum { MAX_RANDOM = 1000, STREAM_CHUNK = 4096, STREAM_BLOCK = 64 * 1024, BATCH_THREADS = 2 };

typedef struct request {
	double started;
	int endpoint;
	unsigned status;
	out body;          /* a POST body as it arrives */
	int too_big;
} request;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --- Connections. */

static conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

static void conn_busy(server *sv, struct MHD_Connection *c, int busy)
{
	conn *k = conn_of(c);
	if (!k)
		return;
	pthread_mutex_lock(&sv->conns_lock);
	k->busy = busy;
	if (!busy)
		k->since = now();
	pthread_mutex_unlock(&sv->conns_lock);
}

void server_sweep(server *sv)
{
	const double deadline = now() - sv->opts.timeout;
	pthread_mutex_lock(&sv->conns_lock);
	for (conn *k = sv->conns; k; k = k->next)
		if (!k->busy && k->since < deadline && k->fd >= 0) {
			shutdown(k->fd, SHUT_RDWR);   /* libmicrohttpd sees the end and closes it */
			k->fd = -1;
		}
	pthread_mutex_unlock(&sv->conns_lock);
}

/* --- Responses. */

/* Queue o's text (taken: o is emptied) with a status and type. */
static enum MHD_Result reply(struct MHD_Connection *c, request *rq, unsigned status,
                             const char *type, out *o)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(o->len, o->buf,
	                                                         MHD_RESPMEM_MUST_FREE);
	if (!r)
		return MHD_NO;
	o->buf = NULL;
	o->len = o->cap = 0;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
		MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "1");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW,
		                        rq->endpoint == EP_SOLVE ? "GET, HEAD, POST" : "GET, HEAD");
	rq->status = status;
	enum MHD_Result ok = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ok;
}

static enum MHD_Result reply_json(struct MHD_Connection *c, request *rq, unsigned status,
                                  out *o)
{
	return reply(c, rq, status, "application/json", o);
}

/* {"error":"MESSAGE"} */
static enum MHD_Result reply_error(struct MHD_Connection *c, request *rq, unsigned status,
                                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static enum MHD_Result reply_error(struct MHD_Connection *c, request *rq, unsigned status,
                                   const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	out o = { 0 };
	out_str(&o, "{\"error\":");
	out_json_str(&o, msg);
	out_str(&o, "}\n");
	return reply_json(c, rq, status, &o);
}

/* The status of a query the library could not answer. */
static unsigned status_of(int err)
{
	switch (err) {
	case 0: return MHD_HTTP_OK;
	case SDB_EINVAL: case SDB_EAMBIGUOUS: case SDB_ETOOBIG: return MHD_HTTP_BAD_REQUEST;
	case SDB_ENOTFOUND: return MHD_HTTP_NOT_FOUND;
	case SDB_ELIMIT: return MHD_HTTP_UNPROCESSABLE_CONTENT;
	default: return MHD_HTTP_INTERNAL_SERVER_ERROR;
	}
}

/* --- Parameters. */

typedef struct params {
	struct MHD_Connection *c;
	const char *const *known;   /* the names this endpoint takes */
	char bad[160];              /* the first problem found */
	unsigned seen;              /* bit k: known[k] was given */
} params;

static enum MHD_Result check_name(void *cls, enum MHD_ValueKind kind, const char *key,
                                  const char *value)
{
	(void)kind;
	(void)value;
	params *p = cls;
	for (int k = 0; p->known[k]; k++)
		if (!strcmp(p->known[k], key)) {
			if (p->seen >> k & 1) {
				snprintf(p->bad, sizeof p->bad, "parameter '%.60s' is given twice", key);
				return MHD_NO;
			}
			p->seen |= 1u << k;
			return MHD_YES;
		}
	snprintf(p->bad, sizeof p->bad, "unknown parameter '%.60s'", key);
	return MHD_NO;
}

static int knows(const params *p, const char *name)
{
	for (const char *const *k = p->known; *k; k++)
		if (!strcmp(*k, name))
			return 1;
	return 0;
}

static const char *param(const params *p, const char *name)
{
	return MHD_lookup_connection_value(p->c, MHD_GET_ARGUMENT_KIND, name);
}

/* A yes/no flag: absent 0; "", "1", "true", "yes" 1; "0", "false", "no" 0. */
static int flag(params *p, const char *name)
{
	const char *v = param(p, name);
	int present = MHD_lookup_connection_value_n(p->c, MHD_GET_ARGUMENT_KIND, name,
	                                            strlen(name), NULL, NULL) == MHD_YES;
	if (!present)
		return 0;
	if (!v || !*v || !strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes"))
		return 1;
	if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no"))
		return 0;
	if (!p->bad[0])
		snprintf(p->bad, sizeof p->bad, "%s '%.40s': expected 1 or 0", name, v);
	return 0;
}

/* A whole number lo..hi, or dflt when absent. */
static long number(params *p, const char *name, long lo, long hi, long dflt)
{
	const char *v = param(p, name);
	if (!v)
		return dflt;
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < lo || n > hi) {
		if (!p->bad[0])
			snprintf(p->bad, sizeof p->bad, "%s '%.40s': expected a whole number from %ld to "
			         "%ld", name, v, lo, hi);
		return dflt;
	}
	return n;
}

/* The answer options every answering endpoint takes. */
static const char *const answer_params[] = { "start", "goal", "size", "path", "all_best",
	                                     "count", "all", "limit", "tiles", "grid", NULL };

/* (random's "count" is a number of boards, not this flag) */
static void answer_options(answer_opts *a, params *p, const server *sv, int count_flag)
{
	memset(a, 0, sizeof *a);
	a->report.json = 1;
	a->report.path = flag(p, "path");
	a->report.all_best = flag(p, "all_best");
	a->report.count = count_flag && flag(p, "count");
	a->report.all = flag(p, "all");
	a->report.limit = (uint64_t)number(p, "limit", 1, 100000, 100);
	if (knows(p, "limit") && param(p, "limit") && !a->report.all && !p->bad[0])
		snprintf(p->bad, sizeof p->bad, "limit bounds the sequences of all=1: give all=1 too");
	a->report.tiles = flag(p, "tiles");
	a->report.grid = flag(p, "grid");
	a->limits = sv->opts.limits;
	a->threads = 1;
	a->quiet = 1;
	const char *size = param(p, "size");
	if (size && sdb_size_parse(&a->w, &a->h, size) && !p->bad[0])
		snprintf(p->bad, sizeof p->bad, "size: %s", sdb_errdetail());
}

/* Every parameter known, every value well formed; else a 400 was queued. */
static int params_ok(params *p, struct MHD_Connection *c, request *rq, enum MHD_Result *ret)
{
	if (!p->bad[0])
		MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, check_name, p);
	if (!p->bad[0])
		return 1;
	*ret = reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "%s", p->bad);
	return 0;
}

/* --- Endpoints. */

/* GET /v1/solve and GET /v1/check: one query through the answerer. */
static enum MHD_Result one_query(server *sv, struct MHD_Connection *c, request *rq, int check)
{
	static const char *const check_params[] = { "start", "goal", "moves", "size", "grid",
		                                    NULL };
	params p = { c, check ? check_params : answer_params, "", 0 };
	answer_opts a;
	answer_options(&a, &p, sv, 1);
	a.check = check;
	enum MHD_Result ret;
	if (!params_ok(&p, c, rq, &ret))
		return ret;
	const char *start = param(&p, "start"), *goal = param(&p, "goal");
	const char *moves = param(&p, "moves");
	if (!start)
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "missing parameter 'start'");
	if (check && !moves)
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "missing parameter 'moves' (empty "
		                   "for none)");
	if (strchr(start, ';') || (goal && strchr(goal, ';')) || (moves && strchr(moves, ';')))
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "a board or moves with ';': give "
		                   "start, goal and moves as parameters of their own");
	out text = { 0 }, o = { 0 };
	out_str(&text, start);
	if (goal) {
		out_str(&text, " ; ");
		out_str(&text, goal);
	}
	if (check) {
		out_str(&text, " ; ");
		out_str(&text, moves);
	}
	out_char(&text, '\0');
	snapshot *snap = snapshot_get(sv->snaps);
	answerer *ans = answerer_new(snapshot_db(snap), &a);
	int err = ans ? answer_one(ans, &o, text.buf) : SDB_ENOMEM;
	answerer_free(ans);
	snapshot_put(sv->snaps, snap);
	out_free(&text);
	if (!err)
		metrics_answers(1);
	if (err == SDB_ENOMEM && !o.len)
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	return reply_json(c, rq, status_of(err), &o);
}

/* GET /v1/random: a JSON array of answer objects. */
static enum MHD_Result random_boards(server *sv, struct MHD_Connection *c, request *rq)
{
	static const char *const names[] = { "size", "goal", "distance", "min_distance",
		                             "max_distance", "count", "seed", "walk", "path",
		                             "all_best", "tiles", "grid", "start", NULL };
	params p = { c, names, "", 0 };
	answer_opts a;
	answer_options(&a, &p, sv, 0);
	const int count = (int)number(&p, "count", 1, MAX_RANDOM, 1);
	int lo = (int)number(&p, "min_distance", 0, SDB_MAX_DISTANCE - 1, -1);
	int hi = (int)number(&p, "max_distance", 0, SDB_MAX_DISTANCE - 1, -1);
	const int exact = (int)number(&p, "distance", 0, SDB_MAX_DISTANCE - 1, -1);
	const int walk = (int)number(&p, "walk", 0, 1000000, -1);
	const char *seed_text = param(&p, "seed");
	enum MHD_Result ret;
	if (!params_ok(&p, c, rq, &ret))
		return ret;
	if (param(&p, "start"))
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "random draws the start: give no "
		                   "'start'");
	if (exact >= 0)
		lo = hi = exact;
	else if (lo < 0 && hi >= 0)   /* one end given: the other is open */
		lo = 0;
	else if (lo >= 0 && hi < 0)
		hi = SDB_MAX_DISTANCE - 1;
	if (walk >= 0 && lo >= 0)
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "walk draws a random walk: it does "
		                   "not combine with a distance");
	if (lo > hi)
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "min_distance %d is above "
		                   "max_distance %d", lo, hi);
	uint64_t seed;
	if (seed_text) {
		char *end;
		errno = 0;
		seed = strtoull(seed_text, &end, 10);
		if (!isdigit((unsigned char)*seed_text) || *end || errno == ERANGE)
			return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "seed '%.40s': expected a whole "
			                   "number from 0 to 18446744073709551615", seed_text);
	} else {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		seed = ((uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec) >> 1;
	}
	sdb_board goal;
	const char *goal_text = param(&p, "goal");
	if (goal_text && sdb_board_parse(&goal, goal_text, a.w, a.h))
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "goal: %s", sdb_errdetail());
	if (!goal_text)
		sdb_board_goal(&goal, a.w ? a.w : 3, a.w ? a.h : 3, (a.w ? a.w * a.h : 9) - 1);
	snapshot *snap = snapshot_get(sv->snaps);
	const sdb_db *db = snapshot_db(snap);
	sdb_sampler *sampler = NULL;
	int err = walk >= 0 ? 0 : sdb_sampler_open(&sampler, db, &goal, lo, hi);
	sdb_board boards[MAX_RANDOM];
	sdb_rng rng;
	sdb_rng_seed(&rng, seed);
	if (!err && sampler)
		err = sdb_sampler_draw(sampler, boards, (size_t)count, &rng);
	for (int i = 0; !err && !sampler && i < count; i++)
		sdb_random_walk(&boards[i], &goal, walk, &rng);
	sdb_sampler_close(sampler);
	out o = { 0 };
	char why[1024] = "";
	const sdb_answer_opts opts = { .want_moves = 1, .limits = a.limits,
		                       .want_best_moves = a.report.all_best };
	const char blank = goal_text ? report_blank_of(goal_text) : '0';
	out_char(&o, '[');
	for (int i = 0; !err && i < count; i++) {
		sdb_query q = { boards[i], goal };
		sdb_answer ans;
		if ((err = sdb_answer_query(&ans, db, &q.start, &goal, &opts)))
			break;
		const answer_extra x = { "", blank };
		if (i)
			out_char(&o, ',');
		report_answer(&o, &a.report, &q, &ans, &x);
		o.len--;   /* the object's newline: inside an array */
	}
	if (err)
		snprintf(why, sizeof why, "%s", sdb_errdetail());
	snapshot_put(sv->snaps, snap);
	if (err) {
		out_free(&o);
		return reply_error(c, rq, status_of(err), "%s", why);
	}
	out_str(&o, "]\n");
	metrics_answers((unsigned long)count);
	return reply_json(c, rq, MHD_HTTP_OK, &o);
}

/* GET /v1/tables: the catalog as `slidedb-lookup info --json` prints it. */
static enum MHD_Result tables(server *sv, struct MHD_Connection *c, request *rq)
{
	static const char *const none[] = { NULL };
	params p = { c, none, "", 0 };
	enum MHD_Result ret;
	if (!params_ok(&p, c, rq, &ret))
		return ret;
	snapshot *snap = snapshot_get(sv->snaps);
	const sdb_db *db = snapshot_db(snap);
	int n = sdb_table_count(db);
	const sdb_table **list = malloc((size_t)(n ? n : 1) * sizeof *list);
	out o = { 0 };
	if (list) {
		for (int i = 0; i < n; i++)
			list[i] = sdb_table_at(db, i);
		catalog_json(&o, db, list, n);
	}
	free(list);
	snapshot_put(sv->snaps, snap);
	if (!list)
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	return reply_json(c, rq, MHD_HTTP_OK, &o);
}

/* POST /v1/solve: the body's queries (the CLI's batch format), one answer
 * line each, streamed as they are answered. */
typedef struct stream {
	server *sv;
	snapshot *snap;
	answerer *ans;
	char **queries;
	int *linenos;
	int n, next;
	out buf;
	size_t sent;     /* of buf */
} stream;

static ssize_t stream_read(void *cls, uint64_t pos, char *into, size_t max)
{
	(void)pos;
	stream *st = cls;
	while (st->sent == st->buf.len && st->next < st->n) {
		out_reset(&st->buf);
		st->sent = 0;
		int k = st->n - st->next < STREAM_CHUNK ? st->n - st->next : STREAM_CHUNK;
		answer_batch(st->ans, &st->buf, st->queries + st->next, st->linenos + st->next, k);
		metrics_answers((unsigned long)k);
		st->next += k;
	}
	if (st->sent == st->buf.len)
		return MHD_CONTENT_READER_END_OF_STREAM;
	size_t n = st->buf.len - st->sent < max ? st->buf.len - st->sent : max;
	memcpy(into, st->buf.buf + st->sent, n);
	st->sent += n;
	return (ssize_t)n;
}

static void stream_free(void *cls)
{
	stream *st = cls;
	for (int i = 0; i < st->n; i++)
		free(st->queries[i]);
	free(st->queries);
	free(st->linenos);
	out_free(&st->buf);
	answerer_free(st->ans);
	if (st->snap)
		snapshot_put(st->sv->snaps, st->snap);
	free(st);
}

/* Split the body into queries as the CLI's batch reader does. */
static int split_body(stream *st, out *body, const answer_opts *a)
{
	batch_splitter split = { .w = a->w, .h = a->h };
	int cap = 0, lineno = 0, err = 0;
	char *p = body->buf, *end = body->buf + body->len;
	for (;;) {
		char *line = NULL, *nl = NULL;
		size_t len = 0;
		if (p < end) {
			nl = memchr(p, '\n', (size_t)(end - p));
			line = p;
			len = nl ? (size_t)(nl - p) : (size_t)(end - p);
			line[len] = '\0';   /* the body has a spare byte at its end */
			p = nl ? nl + 1 : end;
			lineno++;
		}
		if (st->n + 2 > cap) {
			cap = cap ? 2 * cap : 64;
			char **q = realloc(st->queries, (size_t)cap * sizeof *q);
			int *l = q ? realloc(st->linenos, (size_t)cap * sizeof *l) : NULL;
			if (q)
				st->queries = q;
			if (!q || !l) {
				err = -1;
				break;
			}
			st->linenos = l;
		}
		int got = batch_feed(&split, line, len, lineno, st->queries + st->n,
		                     st->linenos + st->n);
		if (got < 0) {
			err = -1;
			break;
		}
		st->n += got;
		if (!line)
			break;
	}
	batch_free(&split);
	return err;
}

static enum MHD_Result batch(server *sv, struct MHD_Connection *c, request *rq)
{
	params p = { c, answer_params, "", 0 };
	answer_opts a;
	answer_options(&a, &p, sv, 1);
	enum MHD_Result ret;
	if (!params_ok(&p, c, rq, &ret))
		return ret;
	if (param(&p, "start") || param(&p, "goal"))
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "a batch takes its queries from the "
		                   "body, one per line: no 'start' or 'goal' parameter");
	stream *st = calloc(1, sizeof *st);
	out_char(&rq->body, '\0');   /* room for the last line's terminator */
	rq->body.len--;
	if (!st || split_body(st, &rq->body, &a)) {
		if (st)
			stream_free(st);
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	}
	st->sv = sv;
	a.threads = sv->opts.threads < BATCH_THREADS ? sv->opts.threads : BATCH_THREADS;
	st->snap = snapshot_get(sv->snaps);
	st->ans = answerer_new(snapshot_db(st->snap), &a);
	if (!st->ans) {
		stream_free(st);
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	}
	struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, STREAM_BLOCK,
	                                                           stream_read, st, stream_free);
	if (!r) {
		stream_free(st);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/x-ndjson");
	rq->status = MHD_HTTP_OK;
	enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ok;
}

static enum MHD_Result page(struct MHD_Connection *c, request *rq, const asset *a)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(a->size, (void *)a->data,
	                                                         MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, a->type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
	rq->status = MHD_HTTP_OK;
	enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ok;
}

/* --- Routing. */

static const asset *asset_of(const char *url)
{
	for (int i = 0; i < serve_nassets; i++)
		if (!strcmp(serve_assets[i].path, url))
			return &serve_assets[i];
	return NULL;
}

static int endpoint_of(const char *url)
{
	static const struct { const char *path; int ep; } routes[] = {
		{ "/v1/solve", EP_SOLVE }, { "/v1/random", EP_RANDOM }, { "/v1/check", EP_CHECK },
		{ "/v1/tables", EP_TABLES }, { "/healthz", EP_HEALTHZ }, { "/metrics", EP_METRICS },
	};
	for (size_t i = 0; i < sizeof routes / sizeof *routes; i++)
		if (!strcmp(routes[i].path, url))
			return routes[i].ep;
	return asset_of(url) ? EP_PAGE : EP_OTHER;
}

static enum MHD_Result dispatch(server *sv, struct MHD_Connection *c, request *rq,
                                const char *url, const char *method)
{
	const int get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
	const int post = !strcmp(method, "POST");
	if (rq->endpoint == EP_OTHER)
		return reply_error(c, rq, MHD_HTTP_NOT_FOUND, "no such path: %.200s", url);
	if (rq->endpoint == EP_SOLVE_BATCH && post)
		return batch(sv, c, rq);
	if (!get)
		return reply_error(c, rq, MHD_HTTP_METHOD_NOT_ALLOWED, "%s is not allowed on %.200s",
		                   method, url);
	if (rq->body.len)
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "GET takes no body");
	out o = { 0 };
	switch (rq->endpoint) {
	case EP_SOLVE: return one_query(sv, c, rq, 0);
	case EP_CHECK: return one_query(sv, c, rq, 1);
	case EP_RANDOM: return random_boards(sv, c, rq);
	case EP_TABLES: return tables(sv, c, rq);
	case EP_HEALTHZ:
		out_str(&o, "ok\n");
		return reply(c, rq, MHD_HTTP_OK, "text/plain; charset=utf-8", &o);
	case EP_METRICS:
		metrics_text(&o, snapshots_age(sv->snaps), snapshots_taken(sv->snaps));
		return reply(c, rq, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8", &o);
	default:
		return page(c, rq, asset_of(url));
	}
}

enum MHD_Result server_handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
	(void)version;
	server *sv = cls;
	request *rq = *con_cls;
	if (!rq) {   /* the headers are in: a new request */
		if (!(rq = calloc(1, sizeof *rq)))
			return MHD_NO;
		rq->started = now();
		rq->endpoint = endpoint_of(url);
		if (rq->endpoint == EP_SOLVE && !strcmp(method, "POST"))
			rq->endpoint = EP_SOLVE_BATCH;
		*con_cls = rq;
		__atomic_fetch_add(&sv->inflight, 1, __ATOMIC_RELAXED);
		if (metrics_open_connections() > (long)sv->opts.max_connections)
			return reply_error(c, rq, MHD_HTTP_SERVICE_UNAVAILABLE, "busy: more than %u "
			                   "connections are open; retry in a second",
			                   sv->opts.max_connections);
		const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
		                                                 MHD_HTTP_HEADER_CONTENT_LENGTH);
		if (length && strtoull(length, NULL, 10) > sv->opts.max_body)
			return reply_error(c, rq, MHD_HTTP_CONTENT_TOO_LARGE, "the body of %s bytes is over "
			                   "the limit of %zu (--max-body)", length, sv->opts.max_body);
		return MHD_YES;
	}
	if (rq->status)   /* answered already (an early error): drop the rest */
		return MHD_YES;
	if (*upload_size) {
		if (rq->body.len + *upload_size > sv->opts.max_body)
			rq->too_big = 1;
		else
			out_mem(&rq->body, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	if (rq->too_big)
		return reply_error(c, rq, MHD_HTTP_CONTENT_TOO_LARGE, "the body is over the limit of "
		                   "%zu bytes (--max-body)", sv->opts.max_body);
	conn_busy(sv, c, 1);   /* the whole request is in: answering takes what it takes */
	return dispatch(sv, c, rq, url, method);
}

void server_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode why)
{
	(void)c;
	(void)why;
	server *sv = cls;
	request *rq = *con_cls;
	if (!rq)
		return;
	metrics_request(rq->endpoint, rq->status ? rq->status : 500, now() - rq->started);
	out_free(&rq->body);
	free(rq);
	*con_cls = NULL;
	conn_busy(sv, c, 0);
	__atomic_fetch_sub(&sv->inflight, 1, __ATOMIC_RELAXED);
}

void server_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                       enum MHD_ConnectionNotificationCode what)
{
	server *sv = cls;
	metrics_connection(what == MHD_CONNECTION_NOTIFY_STARTED ? 1 : -1);
	if (what == MHD_CONNECTION_NOTIFY_STARTED) {
		conn *k = calloc(1, sizeof *k);
		const union MHD_ConnectionInfo *ci =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		if (!k || !ci) {
			free(k);
			return;   /* not watched: libmicrohttpd's idle timeout still applies */
		}
		k->fd = ci->connect_fd;
		k->since = now();
		pthread_mutex_lock(&sv->conns_lock);
		k->next = sv->conns;
		if (sv->conns)
			sv->conns->prev = k;
		sv->conns = k;
		pthread_mutex_unlock(&sv->conns_lock);
		*socket_context = k;
		return;
	}
	conn *k = *socket_context;
	if (!k)
		return;
	pthread_mutex_lock(&sv->conns_lock);
	if (k->prev)
		k->prev->next = k->next;
	else
		sv->conns = k->next;
	if (k->next)
		k->next->prev = k->prev;
	pthread_mutex_unlock(&sv->conns_lock);
	free(k);
	*socket_context = NULL;
}
