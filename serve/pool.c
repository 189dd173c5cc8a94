/* SPDX-License-Identifier: MIT */
/* The search pool; see pool.h. One lock guards the queue and the counts
 * per client: a task is taken, counted and let go in a few instructions
 * under it, and searches run outside it. */
#define _GNU_SOURCE   /* gettid */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "serve/pool.h"

/* Searches run a little below the I/O threads (nice 5): when both want a
 * core, the thread with a request to read or an answer to send gets it
 * first, and a search loses a few microseconds a request. */
enum { SEARCH_NICE = 5 };

/* Tasks of one address queued or running. */
typedef struct client_tasks {
	struct sockaddr_storage who;
	int n;
	struct client_tasks *next;
} client_tasks;

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t work;
	task *head, *tail;
	long queued, running;
	int threads, queue, per_client, stopping;
	unsigned long full, capped;
	client_tasks *clients;
	pthread_t *tids;
	int started;
};

/* Whether two addresses are one client's: the same address, whatever the port. */
static int same_client(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		               &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
	return 1;   /* (no address: one client) */
}

static client_tasks **client_slot(pool *p, const struct sockaddr_storage *who)
{
	client_tasks **c = &p->clients;
	while (*c && !same_client(&(*c)->who, who))
		c = &(*c)->next;
	return c;
}

/* One task of who's more (d 1) or less (d -1); under the lock. 0, or -1
 * when out of memory. */
static int count_client(pool *p, const struct sockaddr_storage *who, int d)
{
	client_tasks **slot = client_slot(p, who), *c = *slot;
	if (!c) {
		if (d < 0 || !(c = calloc(1, sizeof *c)))
			return -1;
		c->who = *who;
		*slot = c;
	}
	if ((c->n += d) == 0) {
		*slot = c->next;
		free(c);
	}
	return 0;
}

int pool_submit(pool *p, task *t, int admit)
{
	int why = 0;
	pthread_mutex_lock(&p->lock);
	client_tasks *c = *client_slot(p, &t->who);
	if (p->stopping)
		why = POOL_STOPPED;
	else if (admit && p->queued + p->running >= p->threads + p->queue)
		why = POOL_FULL;
	else if (admit && p->per_client && c && c->n >= p->per_client)
		why = POOL_CLIENT;
	else if (count_client(p, &t->who, 1))
		why = POOL_FULL;   /* (out of memory) */
	if (why) {
		p->full += why == POOL_FULL;
		p->capped += why == POOL_CLIENT;
		pthread_mutex_unlock(&p->lock);
		return why;
	}
	t->next = NULL;
	if (p->tail)
		p->tail->next = t;
	else
		p->head = t;
	p->tail = t;
	p->queued++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

static void *worker(void *arg)
{
	pool *p = arg;
	setpriority(PRIO_PROCESS, (id_t)gettid(), SEARCH_NICE);   /* (failing, it runs as is) */
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->head && !p->stopping)
			pthread_cond_wait(&p->work, &p->lock);
		task *t = p->head;
		if (!t)
			break;   /* stopping, and nothing left */
		if (!(p->head = t->next))
			p->tail = NULL;
		p->queued--;
		p->running++;
		const struct sockaddr_storage who = t->who;   /* t may be gone after run() */
		pthread_mutex_unlock(&p->lock);
		t->run(t);
		pthread_mutex_lock(&p->lock);
		p->running--;
		count_client(p, &who, -1);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int pool_start(pool **pp, int threads, int queue, int per_client)
{
	pool *p = calloc(1, sizeof *p);
	if (!p || !(p->tids = calloc((size_t)threads, sizeof *p->tids))) {
		free(p);
		return ENOMEM;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	p->threads = threads;
	p->queue = queue;
	p->per_client = per_client;
	int err = 0;
	for (; p->started < threads; p->started++)
		if ((err = pthread_create(&p->tids[p->started], NULL, worker, p)))
			break;
	if (err) {
		pool_stop(p);
		return err;
	}
	*pp = p;
	return 0;
}

void pool_stop(pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stopping = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (int i = 0; i < p->started; i++)
		pthread_join(p->tids[i], NULL);
	while (p->clients) {
		client_tasks *next = p->clients->next;
		free(p->clients);
		p->clients = next;
	}
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->lock);
	free(p->tids);
	free(p);
}

void pool_counts(pool *p, long *queued, long *running, unsigned long *full, unsigned long *capped)
{
	pthread_mutex_lock(&p->lock);
	*queued = p->queued;
	*running = p->running;
	*full = p->full;
	*capped = p->capped;
	pthread_mutex_unlock(&p->lock);
}
