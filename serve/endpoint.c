/* SPDX-License-Identifier: MIT */
/* The endpoints; see endpoint.h. */
#include <string.h>

#include "serve/endpoint.h"

static const struct {
	const char *path;     /* NULL: not found by its path alone */
	const char *metric;
	int posts;            /* takes POST (a body of queries) */
} endpoints[EP_COUNT] = {
	[EP_SOLVE] = { "/v1/solve", "solve", 1 },
	[EP_SOLVE_BATCH] = { NULL, "solve_batch", 1 },   /* POST /v1/solve */
	[EP_RANDOM] = { "/v1/random", "random", 0 },
	[EP_CHECK] = { "/v1/check", "check", 0 },
	[EP_TABLES] = { "/v1/tables", "tables", 0 },
	[EP_HEALTHZ] = { "/healthz", "healthz", 0 },
	[EP_METRICS] = { "/metrics", "metrics", 0 },
	[EP_PAGE] = { NULL, "page", 0 },
	[EP_OTHER] = { NULL, "other", 0 },
};

int endpoint_of(const char *url, const char *method)
{
	for (int e = 0; e < EP_COUNT; e++)
		if (endpoints[e].path && !strcmp(endpoints[e].path, url))
			return e == EP_SOLVE && !strcmp(method, "POST") ? EP_SOLVE_BATCH : e;
	return EP_OTHER;
}

const char *endpoint_methods(int endpoint, int cors)
{
	static const char *const methods[2][2] = {
		{ "GET, HEAD", "GET, HEAD, OPTIONS" },
		{ "GET, HEAD, POST", "GET, HEAD, POST, OPTIONS" },
	};
	return methods[endpoints[endpoint].posts][cors != 0];
}

const char *endpoint_metric(int endpoint)
{
	return endpoints[endpoint].metric;
}
