/* SPDX-License-Identifier: MIT */
/* Prometheus counters; see metrics.h. */
#include "serve/endpoint.h"
#include "serve/metrics.h"

/* The statuses the server answers with; any other counts as the last. */
static const unsigned statuses[] = { 200, 204, 400, 403, 404, 405, 413, 414, 422, 429, 500, 503, 0 };
enum { NSTATUS = sizeof statuses / sizeof *statuses };
/* Latency buckets, seconds. */
static const double bounds[] = { 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
	                         0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10 };
enum { NBOUNDS = sizeof bounds / sizeof *bounds };

static unsigned long requests[EP_COUNT][NSTATUS];
static unsigned long buckets[EP_COUNT][NBOUNDS + 1];
static double seconds_sum[EP_COUNT];
static unsigned long answers;
static long open_connections;

void metrics_request(int ep, unsigned status, double seconds)
{
	int s = 0;
	while (s < NSTATUS - 1 && statuses[s] != status)
		s++;
	__atomic_fetch_add(&requests[ep][s], 1, __ATOMIC_RELAXED);
	int b = 0;
	while (b < NBOUNDS && seconds > bounds[b])
		b++;
	__atomic_fetch_add(&buckets[ep][b], 1, __ATOMIC_RELAXED);
	/* a sum of doubles: compare and swap */
	double old, sum;
	__atomic_load(&seconds_sum[ep], &old, __ATOMIC_RELAXED);
	do
		sum = old + seconds;
	while (!__atomic_compare_exchange(&seconds_sum[ep], &old, &sum, 1, __ATOMIC_RELAXED,
	                                  __ATOMIC_RELAXED));
}

void metrics_answers(unsigned long n)
{
	__atomic_fetch_add(&answers, n, __ATOMIC_RELAXED);
}

void metrics_connection(int delta)
{
	__atomic_fetch_add(&open_connections, delta, __ATOMIC_RELAXED);
}

long metrics_open_connections(void)
{
	return __atomic_load_n(&open_connections, __ATOMIC_RELAXED);
}

void metrics_text(out *o, const metrics_gauges *g)
{
	out_str(o, "# HELP slidedb_requests_total HTTP requests answered, by endpoint and status.\n"
	           "# TYPE slidedb_requests_total counter\n");
	for (int e = 0; e < EP_COUNT; e++)
		for (int s = 0; s < NSTATUS; s++) {
			unsigned long n = __atomic_load_n(&requests[e][s], __ATOMIC_RELAXED);
			if (n && statuses[s])
				out_printf(o, "slidedb_requests_total{endpoint=\"%s\",status=\"%u\"} %lu\n",
				           endpoint_metric(e), statuses[s], n);
			else if (n)
				out_printf(o, "slidedb_requests_total{endpoint=\"%s\",status=\"other\"} %lu\n",
				           endpoint_metric(e), n);
		}
	out_str(o, "# HELP slidedb_request_duration_seconds Time from a request's first byte to "
	           "its answer.\n# TYPE slidedb_request_duration_seconds histogram\n");
	for (int e = 0; e < EP_COUNT; e++) {
		unsigned long total = 0;
		for (int b = 0; b <= NBOUNDS; b++)
			total += __atomic_load_n(&buckets[e][b], __ATOMIC_RELAXED);
		if (!total)
			continue;
		unsigned long cum = 0;
		for (int b = 0; b <= NBOUNDS; b++) {
			cum += __atomic_load_n(&buckets[e][b], __ATOMIC_RELAXED);
			if (b < NBOUNDS)
				out_printf(o, "slidedb_request_duration_seconds_bucket{endpoint=\"%s\",le=\"%g\"} "
				           "%lu\n", endpoint_metric(e), bounds[b], cum);
			else
				out_printf(o, "slidedb_request_duration_seconds_bucket{endpoint=\"%s\","
				           "le=\"+Inf\"} %lu\n", endpoint_metric(e), cum);
		}
		double sum;
		__atomic_load(&seconds_sum[e], &sum, __ATOMIC_RELAXED);
		out_printf(o, "slidedb_request_duration_seconds_sum{endpoint=\"%s\"} %.6f\n"
		           "slidedb_request_duration_seconds_count{endpoint=\"%s\"} %lu\n",
		           endpoint_metric(e), sum, endpoint_metric(e), cum);
	}
	out_printf(o, "# HELP slidedb_answers_total Queries answered (every line of a batch).\n"
	           "# TYPE slidedb_answers_total counter\nslidedb_answers_total %lu\n"
	           "# HELP slidedb_open_connections HTTP connections open now.\n"
	           "# TYPE slidedb_open_connections gauge\nslidedb_open_connections %ld\n"
	           "# HELP slidedb_snapshot_age_seconds Age of the database snapshot answering now.\n"
	           "# TYPE slidedb_snapshot_age_seconds gauge\nslidedb_snapshot_age_seconds %.3f\n"
	           "# HELP slidedb_snapshots_total Snapshots of the database taken (1 + reloads).\n"
	           "# TYPE slidedb_snapshots_total counter\nslidedb_snapshots_total %lu\n"
	           "# HELP slidedb_memory_held_bytes Request bodies and whole answers held now "
	           "(bounded by --max-memory).\n"
	           "# TYPE slidedb_memory_held_bytes gauge\nslidedb_memory_held_bytes %zu\n"
	           "# HELP slidedb_searches Searches on the search threads now, by state.\n"
	           "# TYPE slidedb_searches gauge\nslidedb_searches{state=\"running\"} %ld\n"
	           "slidedb_searches{state=\"queued\"} %ld\n"
	           "# HELP slidedb_searches_refused_total Searches refused: the queue full (503) "
	           "or the client at --client-searches (429).\n"
	           "# TYPE slidedb_searches_refused_total counter\n"
	           "slidedb_searches_refused_total{why=\"full\"} %lu\n"
	           "slidedb_searches_refused_total{why=\"client\"} %lu\n",
	           __atomic_load_n(&answers, __ATOMIC_RELAXED), metrics_open_connections(),
	           g->snapshot_age, g->snapshots, g->held, g->searches_running, g->searches_queued,
	           g->refused_full, g->refused_client);
}
