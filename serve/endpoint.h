/* SPDX-License-Identifier: MIT */
/* slidedb-serve's endpoints: the path of each, the methods it takes and its
 * name in /metrics, in one table (endpoint.c) that routing, the replies'
 * Allow and CORS headers, and the counters read. */
#ifndef SLIDEDB_SERVE_ENDPOINT_H
#define SLIDEDB_SERVE_ENDPOINT_H

enum endpoint { EP_SOLVE, EP_SOLVE_BATCH, EP_RANDOM, EP_CHECK, EP_TABLES, EP_HEALTHZ,
                EP_METRICS, EP_PAGE, EP_OTHER, EP_COUNT };

/* The API endpoint of a request for url by method (a POST to /v1/solve is
 * a batch), or EP_OTHER when no endpoint has that path (the web page's files
 * are EP_PAGE: the caller knows them). */
int endpoint_of(const char *url, const char *method);

/* The methods an endpoint takes, for Allow and CORS preflights (with cors:
 * OPTIONS too). */
const char *endpoint_methods(int endpoint, int cors);

/* The endpoint as the "endpoint" label of /metrics names it. */
const char *endpoint_metric(int endpoint);

#endif
