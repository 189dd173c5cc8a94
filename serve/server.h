/* SPDX-License-Identifier: MIT */
/* slidedb-serve's request handling: the endpoints, their parameters and
 * errors, on libmicrohttpd; what one request may hold and spend. */
#ifndef SLIDEDB_SERVE_SERVER_H
#define SLIDEDB_SERVE_SERVER_H

#include <stdarg.h>
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

#include "cli/answerer.h"
#include "cli/budget.h"
#include "cli/out.h"
#include "serve/pool.h"
#include "serve/snapshot.h"
#include "slidedb.h"

enum {
	MAX_ORIGINS = 32,           /* --cors */
	/* What a request holds beyond this (its body, an answer kept whole)
	 * counts against --max-memory; below it, it is the connection's share. */
	HOLD_FREE = 64 * 1024,
	/* A body refused (413, 503) is read and thrown away, up to this many
	 * bytes, before its answer is sent: a client that writes its whole body
	 * before it reads gets the answer, not a broken pipe. */
	LINGER_BYTES = 64 << 20,
};

typedef struct server_opts {
	const char *db_path;
	const char *listen;          /* ADDR:PORT */
	int threads;                 /* libmicrohttpd's threads: reading, writing, tables */
	int search_threads;          /* the search pool's (pool.h) */
	int search_queue;            /* searches waiting beside them; more get 503 */
	int client_searches;         /* searches of one address queued or running; more
	                                get 429 (0: no cap) */
	size_t max_body;             /* bytes of a POST body */
	size_t max_memory;           /* bodies and answers held by all requests together */
	unsigned max_connections;    /* more get 503 with Retry-After */
	unsigned idle_timeout;       /* seconds a connection may be idle or slow */
	sdb_solve_limits limits;     /* per searched query (4x4); a stop waits at most
	                                limits.timeout seconds for the requests under way */
	uint64_t request_nodes;      /* a request's budget: search nodes ... */
	double request_timeout;      /* ... and seconds of answering */
	const char *cors[MAX_ORIGINS];   /* origins that may call from a browser ("*": any) */
	int ncors;
	int quiet;
} server_opts;

/* An open connection, for the sweeper that drops slow senders (libmicrohttpd's
 * own timeout only measures idleness: a client sending a byte a second
 * would hold a thread's slot for ever). */
typedef struct conn {
	int fd;
	double since;                /* connection start or last answer completed */
	int busy;                    /* a request is being answered: not slow */
	int over;                    /* opened over --max-connections: dropped when idle */
	struct conn *prev, *next;
} conn;

typedef struct server {
	server_opts opts;
	snapshots *snaps;
	long inflight;               /* requests under way (atomic) */
	int stopping;                /* the drain is over: all work stops (atomic) */
	size_t held;                 /* bytes counted against --max-memory (atomic) */
	pthread_mutex_t conns_lock;
	conn *conns;                 /* every open connection */
	pool *searches;
	/* Guards every hand-off between a pool thread and a connection: the
	 * answer it computes, and whether the connection sleeps until then. */
	pthread_mutex_t handoff;
} server;

/* Whom a request answers: to see them go (a budget's wanted() context). */
typedef struct client {
	server *sv;
	int fd;                      /* the connection's socket, or -1 */
	int gone;                    /* the connection was closed (atomic): fd is not ours */
} client;

/* One request, from its headers to its completion (libmicrohttpd's con_cls). */
typedef struct request {
	server *sv;
	double started;
	int endpoint;                /* enum endpoint (endpoint.h) */
	unsigned status;             /* answered with, once queued */
	client who;
	budget budget;               /* nodes and seconds of the whole request (ctx: &who) */
	out body;                    /* a POST body as it arrives */
	size_t held;                 /* bytes of --max-memory this request holds */
	unsigned refused;            /* the status of a body refused as it came, or 0 */
	size_t discarded;            /* bytes of that body thrown away */
	char why[200];               /* the refusal's message */
	int retry;                   /* say Retry-After (a 429 that waiting cures) */
	/* An answer that searches is computed on the search pool (routes.c):
	 * the handler queues the task and suspends the connection; the task
	 * runs compute(), then resumes it; the handler, called again, sends
	 * finish()'s answer. Answers that search nothing take the same two
	 * steps at once. */
	task task;
	struct MHD_Connection *c;
	void *work;                  /* what compute() and finish() share (malloc'ed) */
	void (*compute)(struct request *rq);
	enum MHD_Result (*finish)(struct MHD_Connection *c, struct request *rq);
	void (*drop)(struct request *rq);   /* free work unanswered */
	int waiting;                 /* suspended until the task is done (under handoff) */
	int computed;                /* (under handoff) */
} request;

/* --- Connections (conn.c). */

/* Shut down every connection that has not delivered a whole request within
 * --idle-timeout seconds of its start or of its last answer, and those opened
 * over --max-connections that sit idle (main's loop calls it a few times a
 * second). */
void conn_sweep(server *sv);
/* A request is being answered (not slow), or its answer is done. */
void conn_busy(server *sv, struct MHD_Connection *c, int busy);
/* The connection's socket, or -1. */
int conn_fd(struct MHD_Connection *c);
/* Whether anyone still waits for the answers of a client (a client *): it
 * has not closed the connection and the server is not stopping (a budget's
 * wanted()). */
int conn_wanted(void *who);
/* The client's address, for the search pool's cap per client. */
void conn_address(struct MHD_Connection *c, struct sockaddr_storage *who);
/* Under sv->handoff, from one of libmicrohttpd's callbacks: suspend c until
 * conn_wake() (*waiting is set). */
void conn_sleep(struct MHD_Connection *c, int *waiting);
/* Under sv->handoff, from anywhere: resume c if it sleeps on *waiting. */
void conn_wake(struct MHD_Connection *c, int *waiting);

/* --- The memory budget (memory.c): bytes held by requests, --max-memory. */

/* Count n more bytes in *held: 1, or 0 (nothing counted) if that would pass
 * --max-memory. */
int memory_take(server *sv, size_t *held, size_t n);
/* Give back what *held counts, and zero it. */
void memory_give(server *sv, size_t *held);

/* A request's body: its headers are in (maybe refuse it: 413 over
 * --max-body, 503 over --max-memory); a part of it arrived. Both return
 * MHD_YES, or queue the refusal when the body cannot be read and thrown
 * away (too large even for that, or the client waits for 100 Continue). */
enum MHD_Result body_begin(struct MHD_Connection *c, request *rq);
enum MHD_Result body_feed(struct MHD_Connection *c, request *rq, const char *data, size_t n);
/* Refuse rq with status and a message, its body (if any) read and thrown
 * away first; announced: its Content-Length, or 0. */
enum MHD_Result body_refuse(struct MHD_Connection *c, request *rq, unsigned status,
                            unsigned long long announced, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* --- Responses (reply.c). */

/* Queue r with status: the headers every answer has (Cache-Control, CORS,
 * Retry-After and Connection: close with 503, Allow with 405). */
enum MHD_Result reply_response(struct MHD_Connection *c, request *rq, unsigned status,
                               struct MHD_Response *r);
/* Queue o's text (taken: o is emptied) with a status and type. */
enum MHD_Result reply(struct MHD_Connection *c, request *rq, unsigned status, const char *type,
                      out *o);
enum MHD_Result reply_json(struct MHD_Connection *c, request *rq, unsigned status, out *o);
/* {"error":"MESSAGE"}, the message in the API's words (params.c). */
enum MHD_Result reply_error(struct MHD_Connection *c, request *rq, unsigned status,
                            const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The status of a query that could not be answered (a library code, or
 * ANSWERER_ESPENT: 429, or 503 when nobody waits any more). */
unsigned reply_status(const request *rq, int err);
/* A search the pool did not take (why: POOL_FULL 503, POOL_CLIENT 429, both
 * with Retry-After; POOL_STOPPED 503). */
enum MHD_Result reply_no_search(struct MHD_Connection *c, request *rq, int why);

/* --- CORS (cors.c): headers and verdicts; routes.c replies. */

/* Access-Control-Allow-Origin and Vary for rq's Origin, if --cors allows it. */
void cors_headers(struct MHD_Connection *c, struct MHD_Response *r, const server *sv);
/* What an OPTIONS request is: CORS_NONE no preflight (no --cors, no
 * Access-Control-Request-Method: a 405 like any other method),
 * CORS_FORBIDDEN a preflight from an origin --cors does not name (why: the
 * 403's message), CORS_ALLOWED one to answer 204. */
enum { CORS_NONE, CORS_ALLOWED, CORS_FORBIDDEN };
int cors_preflight(struct MHD_Connection *c, const server *sv, char *why, size_t cap);
/* The headers of an allowed preflight's answer: the methods its path takes
 * (allow), Content-Type, and how long a browser may keep the answer. */
void cors_preflight_headers(struct MHD_Response *r, const char *allow);

/* --- Streamed answers (stream.c), with backpressure: the next answers are
 * computed only when the client has taken the previous ones. */

/* POST /v1/solve: the body's query lines (taken from rq), one answer line each. */
enum MHD_Result stream_batch(struct MHD_Connection *c, request *rq, const answerer_opts *a);
/* GET /v1/random: the answers (taken: malloc'ed, freed with the stream) as a
 * JSON array. */
enum MHD_Result stream_random(struct MHD_Connection *c, request *rq, const answerer_opts *a,
                              snapshot *snap, sdb_query *queries, sdb_answer *answers, int n,
                              char blank);

/* --- Routes (routes.c). */

/* libmicrohttpd's callbacks (the server is their cls). */
enum MHD_Result routes_handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **con_cls);
/* The URL as it arrives, before its parameters are parsed: a URL of more
 * parameters than any endpoint takes is answered 414 here. */
void *routes_uri(void *cls, const char *uri, struct MHD_Connection *c);
void routes_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode why);
void conn_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                 enum MHD_ConnectionNotificationCode what);

/* --- The command (cmd_serve.c): listen with the options (a server_opts),
 * answer until SIGTERM or SIGINT, stop within --timeout; the exit code. */
int cmd_serve(void *opts, int nargs, char **args);

/* The web page's files, compiled in (serve_assets.c in the build tree, generated from serve/web/). */
typedef struct asset {
	const char *path;            /* "/", "/app.js", ... */
	const char *type;            /* Content-Type */
	const unsigned char *data;
	size_t size;
} asset;
extern const asset serve_assets[];
extern const int serve_nassets;

#endif
