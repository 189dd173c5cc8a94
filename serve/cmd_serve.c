/* SPDX-License-Identifier: MIT */
/* slidedb-serve's one command: listen, answer until SIGTERM or SIGINT, then
 * stop gracefully. libmicrohttpd does the HTTP (epoll, a thread pool); the
 * routes (routes.c) answer. */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/option.h"
#include "serve/server.h"

/* libmicrohttpd takes this many connections beyond --max-connections, so that
 * a new client over the limit is accepted and told 503 at once while idle
 * sockets over the limit are dropped (conn.c). */
enum { SPARE_CONNECTIONS = 1024 };

/* ADDR:PORT, [IPV6]:PORT or PORT into a socket address. */
static int parse_listen(struct sockaddr_storage *sa, const char *text)
{
	char host[128];
	const char *colon = strrchr(text, ':');
	const char *port_text = colon ? colon + 1 : text;
	size_t hlen = colon ? (size_t)(colon - text) : 0;
	long port;
	if (!option_long(&port, port_text, 0, 65535) || hlen >= sizeof host)
		return -1;
	memcpy(host, text, hlen);
	host[hlen] = '\0';
	memset(sa, 0, sizeof *sa);
	if (hlen >= 2 && host[0] == '[' && host[hlen - 1] == ']') {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)sa;
		host[hlen - 1] = '\0';
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		return inet_pton(AF_INET6, host + 1, &s6->sin6_addr) == 1 ? 0 : -1;
	}
	struct sockaddr_in *s4 = (struct sockaddr_in *)sa;
	s4->sin_family = AF_INET;
	s4->sin_port = htons((uint16_t)port);
	if (!hlen)
		return inet_pton(AF_INET, "127.0.0.1", &s4->sin_addr) == 1 ? 0 : -1;
	return inet_pton(AF_INET, host, &s4->sin_addr) == 1 ? 0 : -1;
}

/* libmicrohttpd's own limit: ours and a spare above it, within the file
 * descriptors the process may open (the soft limit raised to the hard one). */
static unsigned connection_limit(unsigned max_connections)
{
	struct rlimit rl;
	unsigned limit = max_connections + SPARE_CONNECTIONS;
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return limit;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	getrlimit(RLIMIT_NOFILE, &rl);
	const rlim_t fds = rl.rlim_cur > 128 ? rl.rlim_cur - 64 : 64;   /* the database, logs... */
	return fds < limit ? (unsigned)fds : limit;
}

/* Graceful, within --timeout whatever the clients do: no new connections;
 * the requests under way finish while the time lasts (slow senders are
 * still dropped); then every request's work stops (searches at their next
 * poll, streams at their next part), the search pool ends its tasks (each
 * wakes its connection: libmicrohttpd must not stop with one asleep), and
 * the connections are closed. */
static void stop_within(server *sv, struct MHD_Daemon *d)
{
	const struct timespec tick = { 0, 10000000 };
	/* The listening socket is ours now, but MHD's threads take it out of
	 * their epoll sets in their own time: closed before MHD_stop_daemon(),
	 * one of them found it gone and aborted ("Failed to remove listen FD
	 * from epoll set"), as libmicrohttpd's manual warns. */
	MHD_socket listener = MHD_quiesce_daemon(d);
	/* Still open, it would go on taking connections into its backlog;
	 * shut down, Linux refuses them at once while the descriptor stays
	 * valid for the threads' epoll sets. */
	if (listener != MHD_INVALID_SOCKET)
		shutdown(listener, SHUT_RDWR);
	const double end = budget_now() + sv->opts.limits.timeout;
	for (unsigned n = 0; __atomic_load_n(&sv->inflight, __ATOMIC_RELAXED) > 0 &&
	     budget_now() < end; n++) {
		if (n % 25 == 0)
			conn_sweep(sv);
		nanosleep(&tick, NULL);
	}
	__atomic_store_n(&sv->stopping, 1, __ATOMIC_RELAXED);
	pool_stop(sv->searches);
	MHD_stop_daemon(d);
	if (listener != MHD_INVALID_SOCKET)
		close(listener);
}

int cmd_serve(void *opts, int nargs, char **args)
{
	(void)nargs;
	(void)args;
	server sv = { .opts = *(const server_opts *)opts };
	struct sockaddr_storage sa;
	if (parse_listen(&sa, sv.opts.listen))
		return cli_usage("--listen '%s' is not ADDR:PORT with a numeric address "
		                 "(127.0.0.1:8080, [::1]:8080, 0.0.0.0:80; no host names)",
		                 sv.opts.listen);
	/* The signals are taken by sigtimedwait() below: every thread blocks
	 * them, so blocked before any thread starts (a second signal during the
	 * drain must not reach a thread that would die of it). */
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	signal(SIGPIPE, SIG_IGN);
	pthread_mutex_init(&sv.conns_lock, NULL);
	pthread_mutex_init(&sv.handoff, NULL);
	if (snapshot_open(&sv.snaps, sv.opts.db_path))
		return cli_fail_lib(NULL);
	int err = pool_start(&sv.searches, sv.opts.search_threads, sv.opts.search_queue,
	                     sv.opts.client_searches);
	if (err) {
		snapshot_close(sv.snaps);
		return cli_fail("cannot start %d search threads: %s", sv.opts.search_threads,
		                strerror(err));
	}
	struct MHD_Daemon *d = MHD_start_daemon(
		MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME |
		(sa.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
		0, NULL, NULL, routes_handle, &sv,
		MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned)sv.opts.threads,
		MHD_OPTION_CONNECTION_LIMIT, connection_limit(sv.opts.max_connections),
		MHD_OPTION_CONNECTION_TIMEOUT, sv.opts.idle_timeout,
		MHD_OPTION_NOTIFY_COMPLETED, routes_completed, &sv,
		MHD_OPTION_NOTIFY_CONNECTION, conn_notify, &sv,
		MHD_OPTION_URI_LOG_CALLBACK, routes_uri, &sv,
		MHD_OPTION_END);
	if (!d) {
		pool_stop(sv.searches);
		snapshot_close(sv.snaps);
		return cli_fail("cannot listen on %s: %s", sv.opts.listen,
		                errno ? strerror(errno) : "libmicrohttpd refused");
	}
	if (!sv.opts.quiet)
		cli_note("answering on http://%s/ from %s (%d threads, %d for searches)", sv.opts.listen,
		         sv.opts.db_path ? sv.opts.db_path : sdb_db_default_path(), sv.opts.threads,
		         sv.opts.search_threads);
	/* Wait for a signal, dropping slow senders a few times a second. */
	int sig;
	const struct timespec tick = { 0, 250000000 };
	while ((sig = sigtimedwait(&stop, NULL, &tick)) < 0)
		conn_sweep(&sv);
	stop_within(&sv, d);
	snapshot_close(sv.snaps);
	pthread_mutex_destroy(&sv.handoff);
	pthread_mutex_destroy(&sv.conns_lock);
	if (!sv.opts.quiet)
		cli_note("stopped (%s)", sig == SIGINT ? "SIGINT" : "SIGTERM");
	return 0;
}
