/* slidedb-serve: answers over HTTP/JSON from the same memory-mapped
 * database as slidedb-lookup, and serves a web page to play on.
 * libmicrohttpd does the HTTP (epoll, a thread pool); this program routes,
 * answers, counts, and shuts down gracefully on SIGTERM or SIGINT. */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "serve/metrics.h"
#include "serve/server.h"

enum { SERVE = 1, OPT_MAX_BODY = 256, OPT_MAX_CONNECTIONS, OPT_SEARCH_TIMEOUT, OPT_IDLE_TIMEOUT, OPT_MAX_MEMORY,
       OPT_REQUEST_NODES, OPT_REQUEST_TIMEOUT, OPT_CORS, OPT_SEARCH_THREADS, OPT_SEARCH_QUEUE,
       OPT_CLIENT_SEARCHES };

/* libmicrohttpd takes this many connections beyond --max-connections, so that
 * a new client over the limit is accepted and told 503 at once while idle
 * sockets over the limit are dropped (conn.c). */
enum { SPARE_CONNECTIONS = 1024 };

static const cli_option serve_options[] = {
	{ "db", required_argument, 'd', SERVE,
	  "-d, --db PATH            database file (default $SLIDEDB_DB or slidedb.lmdb)" },
	{ "listen", required_argument, 'l', SERVE,
	  "-l, --listen ADDR:PORT   address to listen on (default 127.0.0.1:8080; [::1]:8080)" },
	{ "threads", required_argument, 't', SERVE,
	  "-t, --threads N          threads reading requests and answering from tables\n"
	  "                           (default: the cores)" },
	{ "search-threads", required_argument, OPT_SEARCH_THREADS, SERVE,
	  "    --search-threads N   threads answering the queries that search, apart\n"
	  "                           from those (default: the cores)" },
	{ "search-queue", required_argument, OPT_SEARCH_QUEUE, SERVE,
	  "    --search-queue N     searches that may wait for a search thread (default\n"
	  "                           16; 503 above)" },
	{ "client-searches", required_argument, OPT_CLIENT_SEARCHES, SERVE,
	  "    --client-searches N  searches one client address may have queued or\n"
	  "                           running (default 2; 429 above; 0: no cap)" },
	{ "max-body", required_argument, OPT_MAX_BODY, SERVE,
	  "    --max-body BYTES     largest POST body (default 16 MiB; 413 above)" },
	{ "max-memory", required_argument, OPT_MAX_MEMORY, SERVE,
	  "    --max-memory BYTES   request bodies and answers held whole, all requests\n"
	  "                           together (default 256 MiB; 503 above)" },
	{ "max-connections", required_argument, OPT_MAX_CONNECTIONS, SERVE,
	  "    --max-connections N  connections served at once (default 1000; 503 above)" },
	{ "idle-timeout", required_argument, OPT_IDLE_TIMEOUT, SERVE,
	  "    --idle-timeout S     drop a connection idle or sending slowly for S seconds\n"
	  "                           (default 30)" },
	{ "max-nodes", required_argument, 'n', SERVE,
	  "-n, --max-nodes N        nodes one searched (4x4) query may expand (default\n"
	  "                           50000000; 422 above)" },
	/* -n and -T bound one search, as in slidedb-lookup */
	{ "timeout", required_argument, 'T', SERVE,
	  "-T, --timeout S          seconds one searched query may take (default 10; 422);\n"
	  "                           a stop waits at most S seconds for requests under way" },
	{ "search-timeout", required_argument, OPT_SEARCH_TIMEOUT, SERVE,
	  "    --search-timeout S   the older name of --timeout" },
	{ "request-nodes", required_argument, OPT_REQUEST_NODES, SERVE,
	  "    --request-nodes N    search nodes one request may expand, all its queries\n"
	  "                           together (default 200000000; 429 above)" },
	{ "request-timeout", required_argument, OPT_REQUEST_TIMEOUT, SERVE,
	  "    --request-timeout S  seconds of answering one request may take (default 30;\n"
	  "                           429 above)" },
	{ "cors", required_argument, OPT_CORS, SERVE,
	  "    --cors ORIGIN        let pages of ORIGIN call the API from a browser\n"
	  "                           (repeat it, or ORIGIN,ORIGIN; * for any)" },
	{ "quiet", no_argument, 'q', SERVE, "-q, --quiet              print nothing but errors" },
	{ "help", no_argument, 'h', SERVE, "-h, --help               show this help" },
	{ "version", no_argument, 'V', SERVE, "-V, --version            show the version" },
};
enum { NOPTIONS = sizeof serve_options / sizeof *serve_options };

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s [OPTIONS]\n"
	        "Answer optimal-move questions over HTTP/JSON from a slidedb database, and serve\n"
	        "a web page to play on. Endpoints (JSON as slidedb-lookup --json):\n"
	        "  GET  /v1/solve?start=B&goal=B  (path, all_best, solutions, all, limit, tiles,\n"
	        "                                  grid, size=WxH)    one answer\n"
	        "  POST /v1/solve                 a body of query lines -> one JSON line each\n"
	        "  GET  /v1/random?distance=D&count=N&seed=S&size=WxH&goal=B   boards\n"
	        "  GET  /v1/check?start=B&goal=B&moves=M                       a verdict\n"
	        "  GET  /v1/tables   GET /healthz   GET /metrics   GET / (the page)\n"
	        "Tables built while it runs are answered within a second. Queries that search\n"
	        "(boards beyond the full tables) run on --search-threads of their own: table\n"
	        "answers and /healthz never wait for them. SIGTERM or SIGINT: stop accepting,\n"
	        "let the requests under way finish for at most --timeout seconds, then end\n"
	        "them and exit 0.\n"
	        "Errors are JSON {\"error\":...}: 400 a bad parameter, 403 an origin --cors does\n"
	        "not name, 404 no such path or table, 405 a method, 413 a body over --max-body,\n"
	        "414 a URL over 64 parameters, 422 a query over --max-nodes or --timeout, 429 a\n"
	        "request over --request-nodes or --request-timeout (in a batch: an error line\n"
	        "for each query left) or a client over --client-searches (Retry-After), 500 a\n"
	        "damaged table, 503 (Retry-After) over --max-connections, --max-memory or\n"
	        "--search-queue. A streamed answer holds about 0.5 MiB per connection beside\n"
	        "its body (at most about 4 MiB), whatever the client leaves unread.\n\nOptions:\n",
	        cli_prog);
	cli_options_help(f, serve_options, NOPTIONS, SERVE, SERVE, NULL);
	fprintf(f, "\nExit status: 0 stopped by a signal, 1 the database or the address failed, "
	        "2 usage.\nExample: %s --db slidedb.lmdb --listen 127.0.0.1:8080\n", cli_prog);
}

/* --cors ORIGIN[,ORIGIN...], kept in argv (it lives as long as the
 * program): an origin is "*", "null" or scheme://host[:port], with no path
 * (browsers send it so). The first bad one, or NULL. */
static const char *add_origins(server_opts *o, char *list)
{
	if (!*list)
		return list;
	for (char *origin = list, *next; origin; origin = next) {
		if ((next = strchr(origin, ',')))
			*next++ = '\0';
		const char *host = strstr(origin, "://");
		const int ok = !strcmp(origin, "*") || !strcmp(origin, "null") ||
		               (host && host > origin && host[3] && !strchr(host + 3, '/'));
		if (!ok || o->ncors == MAX_ORIGINS)
			return origin;
		o->cors[o->ncors++] = origin;
	}
	return NULL;
}

static int parse_options(server_opts *o, int argc, char **argv)
{
	int c;
	long n;
	double v;
	const char *bad;
	while ((c = cli_getopt(argc, argv, serve_options, NOPTIONS, SERVE)) != -1) {
		switch (c) {
		case 'd': o->db_path = optarg; break;
		case 'l': o->listen = optarg; break;
		case 't':
			if (!cli_parse_long(&n, optarg, 1, 1024))
				return cli_usage("--threads '%s' is not a number from 1 to 1024", optarg);
			o->threads = (int)n;
			break;
		case OPT_MAX_BODY:
			if (!cli_parse_double(&v, optarg, 1, 1e12) || v != (double)(size_t)v)
				return cli_usage("--max-body '%s' is not a number of bytes", optarg);
			o->max_body = (size_t)v;
			break;
		case OPT_SEARCH_THREADS:
			if (!cli_parse_long(&n, optarg, 1, 1024))
				return cli_usage("--search-threads '%s' is not a number from 1 to 1024", optarg);
			o->search_threads = (int)n;
			break;
		case OPT_SEARCH_QUEUE:
			if (!cli_parse_long(&n, optarg, 0, 100000))
				return cli_usage("--search-queue '%s' is not a number from 0 to 100000", optarg);
			o->search_queue = (int)n;
			break;
		case OPT_CLIENT_SEARCHES:
			if (!cli_parse_long(&n, optarg, 0, 100000))
				return cli_usage("--client-searches '%s' is not a number from 0 to 100000",
				                 optarg);
			o->client_searches = (int)n;
			break;
		case OPT_MAX_CONNECTIONS:
			if (!cli_parse_long(&n, optarg, 1, 100000))
				return cli_usage("--max-connections '%s' is not a number from 1 to 100000",
				                 optarg);
			o->max_connections = (unsigned)n;
			break;
		case OPT_IDLE_TIMEOUT:
			if (!cli_parse_long(&n, optarg, 1, 86400))
				return cli_usage("--idle-timeout '%s' is not a number of seconds from 1 to "
				                 "86400", optarg);
			o->idle_timeout = (unsigned)n;
			break;
		case 'n':
			if (!cli_parse_double(&v, optarg, 1, 1e18) || v != (double)(uint64_t)v)
				return cli_usage("--max-nodes '%s' is not a positive whole number", optarg);
			o->limits.max_nodes = (uint64_t)v;
			break;
		case 'T':
		case OPT_SEARCH_TIMEOUT:
			if (!cli_parse_double(&v, optarg, 1e-3, 1e6))
				return cli_usage("--timeout '%s' is not a number of seconds", optarg);
			o->limits.timeout = v;
			break;
		case OPT_MAX_MEMORY:
			if (!cli_parse_double(&v, optarg, 1, 1e15) || v != (double)(size_t)v)
				return cli_usage("--max-memory '%s' is not a number of bytes", optarg);
			o->max_memory = (size_t)v;
			break;
		case OPT_REQUEST_NODES:
			if (!cli_parse_double(&v, optarg, 1, 1e18) || v != (double)(uint64_t)v)
				return cli_usage("--request-nodes '%s' is not a positive whole number", optarg);
			o->request_nodes = (uint64_t)v;
			break;
		case OPT_REQUEST_TIMEOUT:
			if (!cli_parse_double(&v, optarg, 1e-3, 1e6))
				return cli_usage("--request-timeout '%s' is not a number of seconds", optarg);
			o->request_timeout = v;
			break;
		case OPT_CORS:
			if ((bad = add_origins(o, optarg)))
				return cli_usage("--cors: '%s' is not an origin (scheme://host[:port], null "
				                 "or *; at most %d of them)", bad, MAX_ORIGINS);
			break;
		case 'q': o->quiet = 1; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s %s\n", cli_prog, sdb_version()); return 0;
		case ':': return cli_usage("option '%s' needs a value", argv[optind - 1]);
		default: return cli_refuse(argv, c, serve_options, NOPTIONS, "slidedb-serve");
		}
	}
	if (optind < argc)
		return cli_usage("unexpected argument '%s'", argv[optind]);
	return -1;
}

/* ADDR:PORT, [IPV6]:PORT or PORT into a socket address. */
static int parse_listen(struct sockaddr_storage *sa, const char *text)
{
	char host[128];
	const char *colon = strrchr(text, ':');
	const char *port_text = colon ? colon + 1 : text;
	size_t hlen = colon ? (size_t)(colon - text) : 0;
	long port;
	if (!cli_parse_long(&port, port_text, 0, 65535) || hlen >= sizeof host)
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

/* OpenMP threads that wait for work must sleep, not spin on the cores the
 * requests need (a batch's table answers split over two of them: spinning,
 * they took half the CPU a streamed batch used). libgomp reads
 * OMP_WAIT_POLICY as it is loaded, before main: set it and start again,
 * once, as the same file (not /proc/self/exe: the process would be named
 * "exe", and pkill slidedb-serve would miss it). A policy the caller chose
 * is kept; failing, it only spins. */
static void sleep_when_idle(char **argv)
{
	char self[4096];
	if (getenv("OMP_WAIT_POLICY") || setenv("OMP_WAIT_POLICY", "passive", 0))
		return;
	const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		execv(self, argv);
	}
}

int main(int argc, char **argv)
{
	cli_prog = "slidedb-serve";
	sleep_when_idle(argv);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	server sv = { .opts = { .listen = "127.0.0.1:8080", .threads = cores > 0 ? (int)cores : 1,
	                        .search_threads = cores > 0 ? (int)cores : 1, .search_queue = 16,
	                        .client_searches = 2,
	                        .max_body = 16u << 20, .max_memory = 256u << 20,
	                        .max_connections = 1000, .idle_timeout = 30,
	                        .limits = { .max_nodes = 50000000, .timeout = 10 },
	                        .request_nodes = 200000000, .request_timeout = 30 } };
	optind = 1;
	int rc = parse_options(&sv.opts, argc, argv);
	if (rc >= 0)
		return cli_finish(rc);
	struct sockaddr_storage sa;
	if (parse_listen(&sa, sv.opts.listen))
		return cli_finish(cli_usage("--listen '%s' is not ADDR:PORT with a numeric address "
		                            "(127.0.0.1:8080, [::1]:8080, 0.0.0.0:80; no host names)",
		                            sv.opts.listen));
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
		return cli_finish(cli_fail_lib(NULL));
	int err = pool_start(&sv.searches, sv.opts.search_threads, sv.opts.search_queue,
	                     sv.opts.client_searches);
	if (err) {
		snapshot_close(sv.snaps);
		return cli_finish(cli_fail("cannot start %d search threads: %s", sv.opts.search_threads,
		                           strerror(err)));
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
		return cli_finish(cli_fail("cannot listen on %s: %s", sv.opts.listen,
		                           errno ? strerror(errno) : "libmicrohttpd refused"));
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
	return cli_finish(0);
}
