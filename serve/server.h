/* slidedb-serve's request handling: the endpoints, their parameters and
 * errors, on libmicrohttpd. */
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

#include "slidedb.h"
#include "snapshot.h"

typedef struct server_opts {
	const char *db_path;
	const char *listen;          /* ADDR:PORT */
	int threads;                 /* libmicrohttpd's thread pool */
	size_t max_body;             /* bytes of a POST body */
	unsigned max_connections;    /* more get 503 with Retry-After */
	unsigned timeout;            /* seconds a connection may be idle or slow */
	sdb_solve_limits limits;     /* per searched query (4x4) */
	int quiet;
} server_opts;

/* An open connection, for the sweeper that drops slow senders (libmicrohttpd's
 * own timeout only measures idleness: a client sending a byte a second
 * would hold a thread's slot for ever). */
typedef struct conn {
	int fd;
	double since;                /* connection start or last answer completed */
	int busy;                    /* a request is being answered: not slow */
	struct conn *prev, *next;
} conn;

typedef struct server {
	server_opts opts;
	snapshots *snaps;
	long inflight;               /* requests under way (atomic) */
	pthread_mutex_t conns_lock;
	conn *conns;                 /* every open connection */
} server;

/* Shut down every connection that has not delivered a whole request within
 * --timeout seconds of its start or of its last answer (main's loop calls it
 * a few times a second). */
void server_sweep(server *sv);

/* libmicrohttpd's callbacks (the server is their cls). */
enum MHD_Result server_handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **con_cls);
void server_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode why);
void server_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                       enum MHD_ConnectionNotificationCode what);

/* The web page's files, compiled in (assets.c, generated from serve/web/). */
typedef struct asset {
	const char *path;            /* "/", "/app.js", ... */
	const char *type;            /* Content-Type */
	const unsigned char *data;
	size_t size;
} asset;
extern const asset serve_assets[];
extern const int serve_nassets;

#endif
