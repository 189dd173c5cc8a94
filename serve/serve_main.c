/* SPDX-License-Identifier: MIT */
/* slidedb-serve: answers over HTTP/JSON from the same memory-mapped
 * database as slidedb-lookup, and serves a web page to play on. Its one
 * command (cmd_serve.c) routes, answers, counts, and shuts down gracefully
 * on SIGTERM or SIGINT; here, its options (one table, cli/option.h, with
 * each value's range) and --help. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/command.h"
#include "serve/server.h"

enum { SERVE = 1 };

#define FIELD(f) offsetof(server_opts, f)

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

/* --cors: the origins read, or the usage error of the first bad one. */
static int read_cors(void *opts, char *text)
{
	const char *bad = add_origins(opts, text);
	if (bad)
		return cli_usage("--cors: '%s' is not an origin (scheme://host[:port], null or *; at "
		                 "most %d of them)", bad, MAX_ORIGINS);
	return -1;
}

static const option_spec option_table[] = {
	{ "db", 'd', SERVE, OPTION_TEXT, FIELD(db_path), .help =
	  "-d, --db PATH            database file (default $SLIDEDB_DB or slidedb.lmdb)" },
	{ "listen", 'l', SERVE, OPTION_TEXT, FIELD(listen), .help =
	  "-l, --listen ADDR:PORT   address to listen on (default 127.0.0.1:8080; [::1]:8080)" },
	{ "threads", 't', SERVE, OPTION_INT, FIELD(threads), .lo = 1, .hi = OPTION_MAX_THREADS,
	  .said = 1, .help =
	  "-t, --threads N          threads reading requests and answering from tables\n"
	  "                           (default: the cores)" },
	{ "search-threads", 0, SERVE, OPTION_INT, FIELD(search_threads), .lo = 1,
	  .hi = OPTION_MAX_THREADS, .said = 1, .help =
	  "    --search-threads N   threads answering the queries that search, apart\n"
	  "                           from those (default: the cores)" },
	{ "search-queue", 0, SERVE, OPTION_INT, FIELD(search_queue), .lo = 0, .hi = 100000,
	  .said = 1, .help =
	  "    --search-queue N     searches that may wait for a search thread (default\n"
	  "                           16; 503 above)" },
	{ "client-searches", 0, SERVE, OPTION_INT, FIELD(client_searches), .lo = 0, .hi = 100000,
	  .said = 1, .help =
	  "    --client-searches N  searches one client address may have queued or\n"
	  "                           running (default 2; 429 above; 0: no cap)" },
	{ "max-body", 0, SERVE, OPTION_BYTES, FIELD(max_body), .lo = 1, .hi = 1e12, .help =
	  "    --max-body BYTES     largest POST body (default 16 MiB; 413 above)" },
	{ "max-memory", 0, SERVE, OPTION_BYTES, FIELD(max_memory), .lo = 1, .hi = 1e15, .help =
	  "    --max-memory BYTES   request bodies and answers held whole, all requests\n"
	  "                           together (default 256 MiB; 503 above)" },
	{ "max-connections", 0, SERVE, OPTION_INT, FIELD(max_connections), .lo = 1, .hi = 100000,
	  .said = 1, .help =
	  "    --max-connections N  connections served at once (default 1000; 503 above)" },
	{ "idle-timeout", 0, SERVE, OPTION_INT, FIELD(idle_timeout), .lo = 1, .hi = 86400,
	  .said = 1, .unit = "seconds", .help =
	  "    --idle-timeout S     drop a connection idle or sending slowly for S seconds\n"
	  "                           (default 30)" },
	{ "max-nodes", 'n', SERVE, OPTION_WHOLE, FIELD(limits.max_nodes), .lo = 1, .hi = 1e18,
	  .help =
	  "-n, --max-nodes N        nodes one searched (4x4) query may expand (default\n"
	  "                           50000000; 422 above)" },
	/* -n and -T bound one search, as in slidedb-lookup */
	{ "timeout", 'T', SERVE, OPTION_SECONDS, FIELD(limits.timeout), .lo = 1e-3, .hi = 1e6,
	  .help =
	  "-T, --timeout S          seconds one searched query may take (default 10; 422);\n"
	  "                           a stop waits at most S seconds for requests under way" },
	{ "search-timeout", 0, SERVE, OPTION_SECONDS, FIELD(limits.timeout), .lo = 1e-3,
	  .hi = 1e6, .said_as = "timeout", .help =
	  "    --search-timeout S   the older name of --timeout" },
	{ "request-nodes", 0, SERVE, OPTION_WHOLE, FIELD(request_nodes), .lo = 1, .hi = 1e18,
	  .help =
	  "    --request-nodes N    search nodes one request may expand, all its queries\n"
	  "                           together (default 200000000; 429 above)" },
	{ "request-timeout", 0, SERVE, OPTION_SECONDS, FIELD(request_timeout), .lo = 1e-3,
	  .hi = 1e6, .help =
	  "    --request-timeout S  seconds of answering one request may take (default 30;\n"
	  "                           429 above)" },
	{ "cors", 0, SERVE, OPTION_READ, 0, .read = read_cors, .help =
	  "    --cors ORIGIN        let pages of ORIGIN call the API from a browser\n"
	  "                           (repeat it, or ORIGIN,ORIGIN; * for any)" },
	{ "quiet", 'q', SERVE, OPTION_FLAG, FIELD(quiet), .help =
	  "-q, --quiet              print nothing but errors" },
	{ "help", 'h', SERVE, OPTION_HELP, 0, .help =
	  "-h, --help               show this help" },
	{ "version", 'V', SERVE, OPTION_VERSION, 0, .help =
	  "-V, --version            show the version" },
};
enum { NOPTIONS = sizeof option_table / sizeof *option_table };

static void usage(FILE *f, const command *c, const void *opts)
{
	(void)c;
	(void)opts;
	fprintf(f, "Usage: %s [OPTIONS]\n"
	        "Answer optimal-move questions over HTTP/JSON from a slidedb database, and serve\n"
	        "a web page to play on. Endpoints (JSON as slidedb-lookup --json):\n"
	        "  GET  /v1/solve?start=B&goal=B  (path, all_best, solutions, all, limit, tiles,\n"
	        "                                  grid, size=WxH, metric=stm|mtm)    one answer\n"
	        "  POST /v1/solve                 a body of query lines -> one JSON line each\n"
	        "  GET  /v1/random?distance=D&count=N&seed=S&size=WxH&goal=B&metric=M   boards\n"
	        "  GET  /v1/check?start=B&goal=B&moves=M&metric=M                      a verdict\n"
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
	option_help(f, option_table, NOPTIONS, SERVE, SERVE, NULL);
	fprintf(f, "\nExit status: 0 stopped by a signal, 1 the database or the address failed, "
	        "2 usage.\nExample: %s --db slidedb.lmdb --listen 127.0.0.1:8080\n", cli_prog);
}

static const char *const bit_names[] = { "slidedb-serve" };
static const program serve_program = { option_table, NOPTIONS, bit_names, NULL, usage, NULL };
static const command serve = { NULL, SERVE, cmd_serve, 0, 0, "", "", NULL };

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
	server_opts o = { .listen = "127.0.0.1:8080", .threads = cores > 0 ? (int)cores : 1,
	                  .search_threads = cores > 0 ? (int)cores : 1, .search_queue = 16,
	                  .client_searches = 2,
	                  .max_body = 16u << 20, .max_memory = 256u << 20,
	                  .max_connections = 1000, .idle_timeout = 30,
	                  .limits = { .max_nodes = 50000000, .timeout = 10 },
	                  .request_nodes = 200000000, .request_timeout = 30 };
	return command_run(&serve_program, &serve, &o, argc, argv);
}
