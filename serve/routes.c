/* SPDX-License-Identifier: MIT */
/* The endpoints. Every answer is built by the code slidedb-lookup answers
 * with (cli/answerer.c, cli/report.c), so the JSON is the same, field for
 * field; the statuses of errors are reply.c's. Every request has a budget
 * (--request-nodes, --request-timeout) that its searches share, and stops
 * its work when its client goes. */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/inventory.h"
#include "serve/endpoint.h"
#include "serve/metrics.h"
#include "serve/params.h"
#include "serve/server.h"

enum { MAX_RANDOM = 1000 };

/* 1 if params_scan() and the values read so far found nothing, else 0 with
 * a 400 queued for the first problem. (Endpoints scan the names first: a
 * value is not read before its name and it are known to be whole.) */
static int params_ok(params *p, struct MHD_Connection *c, request *rq, enum MHD_Result *ret)
{
	if (!p->bad[0])
		return 1;
	*ret = reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "%s", p->bad);
	return 0;
}

static enum MHD_Result reply_busy(struct MHD_Connection *c, request *rq)
{
	return reply_error(c, rq, MHD_HTTP_SERVICE_UNAVAILABLE, "busy: the answers and bodies of "
	                   "the requests under way hold the server's memory budget (--max-memory "
	                   "%zu bytes); retry in a second", rq->sv->opts.max_memory);
}

/* Answers queued whole beyond a connection's share count against
 * --max-memory until they are sent. */
static enum MHD_Result reply_held(struct MHD_Connection *c, request *rq, unsigned status, out *o)
{
	if (o->len > HOLD_FREE && !memory_take(rq->sv, &rq->held, o->len)) {
		out_free(o);
		return reply_busy(c, rq);
	}
	return reply_json(c, rq, status, o);
}

/* --- Answers computed on the search pool (see request in server.h). */

static void request_run(task *t)
{
	request *rq = (request *)((char *)t - offsetof(request, task));
	server *sv = rq->sv;
	budget_resume(&rq->budget);
	rq->compute(rq);
	budget_pause(&rq->budget);
	pthread_mutex_lock(&sv->handoff);
	rq->computed = 1;
	conn_wake(rq->c, &rq->waiting);
	pthread_mutex_unlock(&sv->handoff);
}

/* rq->compute() then rq->finish(): on the search pool when the answer
 * searches, the connection asleep meanwhile; else here, at once. */
static enum MHD_Result answer(struct MHD_Connection *c, request *rq, int searches)
{
	server *sv = rq->sv;
	if (!searches) {
		budget_resume(&rq->budget);
		rq->compute(rq);
		budget_pause(&rq->budget);
		rq->computed = 1;
		return rq->finish(c, rq);
	}
	rq->task.run = request_run;
	rq->c = c;
	conn_address(c, &rq->task.who);
	pthread_mutex_lock(&sv->handoff);
	const int why = pool_submit(sv->searches, &rq->task, 1);
	if (!why)
		conn_sleep(c, &rq->waiting);
	pthread_mutex_unlock(&sv->handoff);
	if (why) {
		rq->drop(rq);
		return reply_no_search(c, rq, why);
	}
	return MHD_YES;
}

/* --- Endpoints. */

/* GET /v1/solve and GET /v1/check: one query through the answerer. */
typedef struct query_work {
	snapshot *snap;
	answerer *ans;
	answerer_group *group;
	out text;                    /* the query, as a batch line says it */
	out o;                       /* its answer */
	int err;
} query_work;

static void query_compute(request *rq)
{
	query_work *w = rq->work;
	answerer_group_solve(w->ans, w->group, 0);
	w->err = answerer_group_report(w->ans, w->group, 0, &w->o);
}

static void query_drop(request *rq)
{
	query_work *w = rq->work;
	answerer_group_free(w->group);
	answerer_free(w->ans);
	snapshot_put(rq->sv->snaps, w->snap);
	out_free(&w->text);
	out_free(&w->o);
	free(w);
	rq->work = NULL;
}

static enum MHD_Result query_finish(struct MHD_Connection *c, request *rq)
{
	query_work *w = rq->work;
	const int err = w->err;
	out o = w->o;
	w->o = (out){ 0 };
	query_drop(rq);
	if (!err)
		metrics_answers(1);
	if (err == SDB_ENOMEM && !o.len) {
		out_free(&o);
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	}
	return reply_held(c, rq, reply_status(rq, err), &o);
}

static enum MHD_Result one_query(server *sv, struct MHD_Connection *c, request *rq, int check)
{
	static const char *const check_params[] = { "start", "goal", "moves", "size", "grid",
		                                    "metric", NULL };
	params p = { c, check ? check_params : params_answer_names, "", 0 };
	answerer_opts a;
	if (params_scan(&p))
		params_answer_options(&a, &p, rq, 1);
	a.check = check;
	enum MHD_Result ret;
	if (!params_ok(&p, c, rq, &ret))
		return ret;
	const char *start = params_get(&p, "start"), *goal = params_get(&p, "goal");
	const char *moves = params_get(&p, "moves");
	if (!start)
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "missing parameter 'start'");
	if (check && !moves)
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "missing parameter 'moves' (empty "
		                   "for none)");
	if (strchr(start, ';') || (goal && strchr(goal, ';')) || (moves && strchr(moves, ';')))
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "a board or moves with ';': give "
		                   "start, goal and moves as parameters of their own");
	query_work *w = calloc(1, sizeof *w);
	if (!w)
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	out_str(&w->text, start);
	if (goal) {
		out_str(&w->text, " ; ");
		out_str(&w->text, goal);
	}
	if (check) {
		out_str(&w->text, " ; ");
		out_str(&w->text, moves);
	}
	out_char(&w->text, '\0');
	rq->work = w;
	rq->compute = query_compute;
	rq->finish = query_finish;
	rq->drop = query_drop;
	w->snap = snapshot_get(sv->snaps);
	w->ans = answerer_new(snapshot_db(w->snap), &a);
	char *text = w->text.buf;
	if (w->ans && w->text.buf)
		w->group = answerer_group_new(w->ans, &text, NULL, 1);
	if (!w->group) {
		query_drop(rq);
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	}
	return answer(c, rq, answerer_group_searches(w->group));
}

/* random's request from the parameters (numbers parsed here, the rules the
 * library's: sdb_random_check); 0, or a 400 queued. */
static int random_request(params *p, sdb_random_request *r, struct MHD_Connection *c,
                          request *rq, enum MHD_Result *ret)
{
	const long any = INT32_MAX;
	r->distance = (int)params_number(p, "distance", 0, any, -1);
	r->min_distance = (int)params_number(p, "min_distance", 0, any, -1);
	r->max_distance = (int)params_number(p, "max_distance", 0, any, -1);
	r->walk = (int)params_number(p, "walk", 0, any, -1);
	r->count = (uint64_t)params_number(p, "count", 1, MAX_RANDOM, 1);
	const char *text = params_get(p, "seed");
	if (!params_ok(p, c, rq, ret))
		return -1;
	if (text) {
		char *end;
		errno = 0;
		r->seed = strtoull(text, &end, 10);
		r->seed_given = 1;
		if (!isdigit((unsigned char)*text) || *end || errno == ERANGE) {
			*ret = reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "seed '%.40s': expected a whole "
			                   "number from 0 to 18446744073709551615", text);
			return -1;
		}
	}
	if (sdb_random_check(r)) {
		*ret = reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "%s", sdb_error_detail());
		return -1;
	}
	return 0;
}

/* GET /v1/random: a JSON array of answer objects, computed within the
 * request's budget, then streamed. */
typedef struct random_work {
	answerer_opts a;
	sdb_random_request req;
	sdb_board goal;
	char blank;
	snapshot *snap;
	sdb_query *queries;
	sdb_answer *answers;
	int err;
	char why[1024];
} random_work;

static void random_compute(request *rq)
{
	random_work *w = rq->work;
	const int count = (int)w->req.count;
	const sdb_db *db = snapshot_db(w->snap);
	answerer *ans = answerer_new(db, &w->a);
	sdb_random *rd = NULL;
	int err = !w->queries || !w->answers || !ans ? SDB_ENOMEM
	          : sdb_random_open(&rd, db, &w->goal, &w->req);
	snprintf(w->why, sizeof w->why, "%s", err ? sdb_error_detail() : "");
	sdb_board boards[MAX_RANDOM];
	if (!err && (err = sdb_random_draw(rd, boards, (size_t)count)))
		snprintf(w->why, sizeof w->why, "%s", sdb_error_detail());
	sdb_random_close(rd);
	for (int i = 0; !err && i < count; i++) {
		w->queries[i] = (sdb_query){ boards[i], w->goal };
		err = answerer_query(ans, &w->answers[i], &w->queries[i], w->why, sizeof w->why);
	}
	answerer_free(ans);
	w->err = err;
}

static void random_drop(request *rq)
{
	random_work *w = rq->work;
	free(w->queries);
	free(w->answers);
	if (w->snap)
		snapshot_put(rq->sv->snaps, w->snap);
	free(w);
	rq->work = NULL;
}

static enum MHD_Result random_finish(struct MHD_Connection *c, request *rq)
{
	random_work *w = rq->work;
	if (w->err) {
		const unsigned status = reply_status(rq, w->err);
		char why[sizeof w->why];
		memcpy(why, w->why, sizeof why);
		random_drop(rq);
		return reply_error(c, rq, status, "%s", why);
	}
	metrics_answers((unsigned long)w->req.count);
	rq->work = NULL;   /* the stream takes what w holds */
	const enum MHD_Result ret = stream_random(c, rq, &w->a, w->snap, w->queries, w->answers,
	                                          (int)w->req.count, w->blank);
	free(w);
	return ret;
}

static enum MHD_Result random_boards(server *sv, struct MHD_Connection *c, request *rq)
{
	static const char *const names[] = { "size", "goal", "distance", "min_distance",
		                             "max_distance", "count", "seed", "walk", "path",
		                             "all_best", "tiles", "grid", "start", "metric", NULL };
	params p = { c, names, "", 0 };
	random_work *w = calloc(1, sizeof *w);
	if (!w)
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	rq->work = w;
	rq->compute = random_compute;
	rq->finish = random_finish;
	rq->drop = random_drop;
	answerer_opts *a = &w->a;
	if (params_scan(&p))
		params_answer_options(a, &p, rq, 0);
	w->req = (sdb_random_request)SDB_RANDOM_REQUEST_INIT;
	w->req.metric = a->report.metric;
	enum MHD_Result ret;
	if (random_request(&p, &w->req, c, rq, &ret)) {
		random_drop(rq);
		return ret;
	}
	const int count = (int)w->req.count;
	const char *goal_text = params_get(&p, "goal");
	if (params_get(&p, "start")) {
		random_drop(rq);
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "random draws the start: give no "
		                   "'start'");
	}
	if (goal_text && sdb_board_parse(&w->goal, goal_text, a->w, a->h)) {
		random_drop(rq);
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "goal: %s", sdb_error_detail());
	}
	if (!goal_text)
		sdb_board_goal(&w->goal, a->w ? a->w : 3, a->w ? a->h : 3, (a->w ? a->w * a->h : 9) - 1);
	w->blank = goal_text ? report_blank_of(goal_text) : '0';
	const size_t size = (size_t)count * (sizeof(sdb_query) + sizeof(sdb_answer));
	if (size > HOLD_FREE && !memory_take(sv, &rq->held, size)) {
		random_drop(rq);
		return reply_busy(c, rq);
	}
	w->queries = malloc((size_t)count * sizeof *w->queries);
	w->answers = malloc((size_t)count * sizeof *w->answers);
	w->snap = snapshot_get(sv->snaps);
	return answer(c, rq, w->goal.n > SDB_TABLE_ONLY_CELLS);
}

/* GET /v1/tables: the catalog as `slidedb-lookup info --json` prints it. */
static enum MHD_Result tables(server *sv, struct MHD_Connection *c, request *rq)
{
	static const char *const none[] = { NULL };
	params p = { c, none, "", 0 };
	enum MHD_Result ret;
	params_scan(&p);
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
		inventory_json(&o, db, list, n);
	}
	free(list);
	snapshot_put(sv->snaps, snap);
	if (!list)
		return reply_error(c, rq, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
	return reply_json(c, rq, MHD_HTTP_OK, &o);
}

/* POST /v1/solve: the body's queries (the CLI's batch format), one answer
 * line each, streamed as the client takes them. */
static enum MHD_Result batch(struct MHD_Connection *c, request *rq)
{
	params p = { c, params_answer_names, "", 0 };
	answerer_opts a;
	if (params_scan(&p))
		params_answer_options(&a, &p, rq, 1);
	enum MHD_Result ret;
	if (!params_ok(&p, c, rq, &ret))
		return ret;
	if (params_get(&p, "start") || params_get(&p, "goal"))
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "a batch takes its queries from the "
		                   "body, one per line: no 'start' or 'goal' parameter");
	const char *nul = rq->body.len ? memchr(rq->body.buf, '\0', rq->body.len) : NULL;
	if (nul) {
		int line = 1;
		for (const char *s = rq->body.buf; s < nul; s++)
			line += *s == '\n';
		return reply_error(c, rq, MHD_HTTP_BAD_REQUEST, "line %d of the body holds a NUL byte "
		                   "(%%00)", line);
	}
	a.threads = rq->sv->opts.threads < 2 ? rq->sv->opts.threads : 2;
	return stream_batch(c, rq, &a);
}

static enum MHD_Result page(struct MHD_Connection *c, request *rq, const asset *a)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(a->size, (void *)a->data,
	                                                         MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, a->type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
	return reply_response(c, rq, MHD_HTTP_OK, r);
}

/* --- Routing. */

static const asset *asset_of(const char *url)
{
	for (int i = 0; i < serve_nassets; i++)
		if (!strcmp(serve_assets[i].path, url))
			return &serve_assets[i];
	return NULL;
}

/* An OPTIONS request that is a CORS preflight: answered (204 with the
 * methods its path takes, or 403) with 1, else 0 (a 405 like any other
 * method). */
static int preflight(struct MHD_Connection *c, request *rq, enum MHD_Result *ret)
{
	char why[256];
	const int verdict = cors_preflight(c, rq->sv, why, sizeof why);
	if (verdict == CORS_NONE)
		return 0;
	if (verdict == CORS_FORBIDDEN) {
		*ret = reply_error(c, rq, MHD_HTTP_FORBIDDEN, "%s", why);
		return 1;
	}
	struct MHD_Response *r = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
	if (!r) {
		*ret = MHD_NO;
		return 1;
	}
	cors_preflight_headers(r, endpoint_methods(rq->endpoint, rq->sv->opts.ncors));
	*ret = reply_response(c, rq, MHD_HTTP_NO_CONTENT, r);
	return 1;
}

static enum MHD_Result dispatch(server *sv, struct MHD_Connection *c, request *rq,
                                const char *url, const char *method)
{
	const int get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
	enum MHD_Result ret;
	if (rq->endpoint == EP_OTHER)
		return reply_error(c, rq, MHD_HTTP_NOT_FOUND, "no such path: %.200s", url);
	if (!strcmp(method, "OPTIONS") && preflight(c, rq, &ret))
		return ret;
	if (rq->endpoint == EP_SOLVE_BATCH)
		return batch(c, rq);
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
	case EP_METRICS: {
		metrics_gauges g = { snapshot_age(sv->snaps), snapshot_taken(sv->snaps),
		                     __atomic_load_n(&sv->held, __ATOMIC_RELAXED), 0, 0, 0, 0 };
		pool_counts(sv->searches, &g.searches_queued, &g.searches_running, &g.refused_full,
		            &g.refused_client);
		metrics_text(&o, &g);
		return reply(c, rq, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8", &o);
	}
	default:
		return page(c, rq, asset_of(url));
	}
}

/* A new request: its headers are in. */
static request *request_new(server *sv, struct MHD_Connection *c, const char *url,
                            const char *method)
{
	request *rq = calloc(1, sizeof *rq);
	if (!rq)
		return NULL;
	rq->sv = sv;
	rq->started = budget_now();
	rq->endpoint = endpoint_of(url, method);
	if (rq->endpoint == EP_OTHER && asset_of(url))
		rq->endpoint = EP_PAGE;
	rq->who = (client){ sv, conn_fd(c), 0 };
	rq->budget = (budget){ .max_nodes = sv->opts.request_nodes,
		               .seconds = sv->opts.request_timeout,
		               .wanted = conn_wanted, .ctx = &rq->who };
	return rq;
}

enum MHD_Result routes_handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
	(void)version;
	server *sv = cls;
	request *rq = *con_cls;
	if (!rq) {
		if (!(rq = request_new(sv, c, url, method)))
			return MHD_NO;
		*con_cls = rq;
		__atomic_fetch_add(&sv->inflight, 1, __ATOMIC_RELAXED);
		if (metrics_open_connections() > (long)sv->opts.max_connections)
			return body_refuse(c, rq, MHD_HTTP_SERVICE_UNAVAILABLE, 0, "busy: more than %u "
			                   "connections are open; retry in a second",
			                   sv->opts.max_connections);
		return body_begin(c, rq);
	}
	if (rq->status)   /* answered already (a body too large to read): drop the rest */
		return MHD_YES;
	if (*upload_size) {
		enum MHD_Result ret = body_feed(c, rq, upload, *upload_size);
		*upload_size = 0;
		return ret;
	}
	if (rq->refused)
		return reply_error(c, rq, rq->refused, "%s", rq->why);
	if (rq->compute) {   /* called again: the search pool has answered */
		pthread_mutex_lock(&sv->handoff);
		const int computed = rq->computed;
		pthread_mutex_unlock(&sv->handoff);
		return computed ? rq->finish(c, rq) : MHD_YES;
	}
	conn_busy(sv, c, 1);   /* the whole request is in: answering takes what it takes */
	return dispatch(sv, c, rq, url, method);
}

/* libmicrohttpd 0.9.75 keeps each query parameter in the connection's
 * memory pool; a URL of a few hundred of them (2 KB) runs the pool out, and
 * the 431 it then means to send finds no memory either: the connection
 * hangs, unanswered, until the idle timeout. No endpoint takes more than a
 * dozen parameters, so a URL with more than MAX_PARAMS is answered here,
 * as it is logged and before the parameters are parsed: a 414 written on
 * the socket (nothing else has been sent on it since the last answer went
 * whole) and the connection shut down, which libmicrohttpd then closes. */
enum { MAX_PARAMS = 64 };

void *routes_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
	(void)cls;
	const char *query = strchr(uri, '?');
	unsigned n = query ? 1 : 0;
	for (const char *s = query; s && *s && n <= MAX_PARAMS; s++)
		n += *s == '&' || *s == ';';
	if (n <= MAX_PARAMS)
		return NULL;
	static const char body[] = "{\"error\":\"the URL holds more than 64 parameters: no "
	                           "endpoint takes so many\"}\n";
	char head[256];
	const int len = snprintf(head, sizeof head, "HTTP/1.1 414 URI Too Long\r\nContent-Type: "
	                         "application/json\r\nContent-Length: %zu\r\nConnection: close\r\n"
	                         "Cache-Control: no-store\r\n\r\n%s", sizeof body - 1, body);
	const int fd = conn_fd(c);
	if (fd >= 0) {
		if (send(fd, head, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
			/* (a full socket: the shutdown alone ends it) */
		}
		shutdown(fd, SHUT_RDWR);
	}
	metrics_request(EP_OTHER, MHD_HTTP_URI_TOO_LONG, 0);
	return NULL;
}

void routes_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode why)
{
	(void)why;
	server *sv = cls;
	request *rq = *con_cls;
	if (!rq)
		return;
	metrics_request(rq->endpoint, rq->status ? rq->status : 500, budget_now() - rq->started);
	if (rq->work)
		rq->drop(rq);
	out_free(&rq->body);
	memory_give(sv, &rq->held);
	free(rq);
	*con_cls = NULL;
	conn_busy(sv, c, 0);
	__atomic_fetch_sub(&sv->inflight, 1, __ATOMIC_RELAXED);
}
