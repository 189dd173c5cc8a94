/* SPDX-License-Identifier: MIT */
/* Connections: the registry the sweeper walks (slow senders, idle sockets
 * over --max-connections), and whether a request's client is still there. */
#define _GNU_SOURCE   /* POLLRDHUP */
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "serve/metrics.h"
#include "serve/server.h"

/* An idle connection opened over --max-connections lives this long: long
 * enough to send a request and read its 503, short enough that idle
 * sockets cannot fill libmicrohttpd's table and keep new clients waiting. */
static const double OVER_GRACE = 1.0;

static conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

int conn_fd(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	return ci ? ci->connect_fd : -1;
}

void conn_busy(server *sv, struct MHD_Connection *c, int busy)
{
	conn *k = conn_of(c);
	if (!k)
		return;
	pthread_mutex_lock(&sv->conns_lock);
	k->busy = busy;
	if (!busy)
		k->since = budget_now();
	pthread_mutex_unlock(&sv->conns_lock);
}

void conn_sweep(server *sv)
{
	const double t = budget_now(), deadline = t - sv->opts.idle_timeout, over = t - OVER_GRACE;
	pthread_mutex_lock(&sv->conns_lock);
	for (conn *k = sv->conns; k; k = k->next)
		if (!k->busy && k->fd >= 0 && (k->since < deadline || (k->over && k->since < over))) {
			shutdown(k->fd, SHUT_RDWR);   /* libmicrohttpd sees the end and closes it */
			k->fd = -1;
		}
	pthread_mutex_unlock(&sv->conns_lock);
}

/* Gone: the client closed (or reset) its end. A client that only shuts its
 * sending side is taken as gone too, as nginx does: HTTP clients do not. A
 * pipelined next request is data, not an end. */
int conn_wanted(void *ctx)
{
	const client *who = ctx;
	if (__atomic_load_n(&who->sv->stopping, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&who->gone, __ATOMIC_RELAXED))
		return 0;
	if (who->fd < 0)
		return 1;
	struct pollfd p = { .fd = who->fd, .events = POLLIN | POLLRDHUP };
	return !(poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)));
}

void conn_address(struct MHD_Connection *c, struct sockaddr_storage *who)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	memset(who, 0, sizeof *who);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;
	if (sa && sa->sa_family == AF_INET)
		memcpy(who, sa, sizeof(struct sockaddr_in));
	else if (sa && sa->sa_family == AF_INET6)
		memcpy(who, sa, sizeof(struct sockaddr_in6));
}

/* Suspended, libmicrohttpd neither reads nor times out the connection (the
 * task's time is not the client's idleness) nor closes it, so what the task
 * answers into stays alive until it wakes it. A wake always follows the
 * sleep: both happen under sv->handoff, and the sleep in the same critical
 * section as the task's hand-over. */
void conn_sleep(struct MHD_Connection *c, int *waiting)
{
	*waiting = 1;
	MHD_suspend_connection(c);
}

void conn_wake(struct MHD_Connection *c, int *waiting)
{
	if (*waiting) {
		*waiting = 0;
		MHD_resume_connection(c);
	}
}

void conn_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                       enum MHD_ConnectionNotificationCode what)
{
	server *sv = cls;
	metrics_connection(what == MHD_CONNECTION_NOTIFY_STARTED ? 1 : -1);
	if (what == MHD_CONNECTION_NOTIFY_STARTED) {
		conn *k = calloc(1, sizeof *k);
		const int fd = conn_fd(c);
		if (!k || fd < 0) {
			free(k);
			return;   /* not watched: libmicrohttpd's idle timeout still applies */
		}
		k->fd = fd;
		k->since = budget_now();
		k->over = metrics_open_connections() > (long)sv->opts.max_connections;
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
