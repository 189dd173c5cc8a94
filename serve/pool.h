/* SPDX-License-Identifier: MIT */
/* The search pool: threads of their own for the answers that search (boards
 * beyond the full tables), apart from libmicrohttpd's threads, which only
 * read, write and answer from tables. However many searches run, a table
 * answer, /healthz and /metrics wait for none of them.
 *
 * A request whose answer searches is admitted or refused at once: refused
 * when the threads are busy and the queue holds --search-queue tasks (503),
 * or when its client (an address) has --client-searches tasks queued or
 * running already (429); both with Retry-After. Admitted, its connection is
 * suspended until its task has answered (libmicrohttpd neither times out
 * nor reads a suspended connection), then resumed to send the answer. */
#ifndef SLIDEDB_SERVE_POOL_H
#define SLIDEDB_SERVE_POOL_H

#include <sys/socket.h>

/* Why a task was not taken. */
enum { POOL_FULL = 1, POOL_CLIENT, POOL_STOPPED };

typedef struct pool pool;

/* Work for a pool thread. Embedded in what it answers; the pool copies what
 * it needs before run(), which may end with its owner freed. */
typedef struct task {
	void (*run)(struct task *t);
	struct task *next;
	struct sockaddr_storage who;   /* the client's address (the port ignored) */
} task;

/* threads >= 1 threads; at most queue tasks waiting beside them; at most
 * per_client tasks of one address (0: no cap). 0, or an errno. */
int pool_start(pool **p, int threads, int queue, int per_client);

/* Queue t: 0, or POOL_FULL, POOL_CLIENT (admit: a new request is refused
 * past either bound) or POOL_STOPPED. admit 0 is for the next part of an
 * answer already under way (a batch's next group): never refused for the
 * bounds, and counted in them. */
int pool_submit(pool *p, task *t, int admit);

/* Take no more tasks, let the threads finish what is queued (the server is
 * stopping: every search stops at its next poll), end them, and free p. */
void pool_stop(pool *p);

/* Tasks waiting and running now; tasks refused since the start for a full
 * queue and for a client at its cap. */
void pool_counts(pool *p, long *queued, long *running, unsigned long *full,
                 unsigned long *capped);

#endif
