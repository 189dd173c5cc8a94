/* SPDX-License-Identifier: MIT */
/* The server's counters, in Prometheus' text format at /metrics. Updated
 * with atomic adds from every request thread. */
#ifndef SLIDEDB_SERVE_METRICS_H
#define SLIDEDB_SERVE_METRICS_H

#include <stddef.h>

#include "cli/out.h"

/* A request finished: its endpoint (endpoint.h), status and wall time. */
void metrics_request(int endpoint, unsigned status, double seconds);
/* Queries answered (every line of a batch counts). */
void metrics_answers(unsigned long n);
/* Connections opened (+1) and closed (-1). */
void metrics_connection(int delta);
long metrics_open_connections(void);

/* What the caller measures now. */
typedef struct metrics_gauges {
	double snapshot_age;              /* seconds */
	unsigned long snapshots;          /* taken */
	size_t held;                      /* bytes against --max-memory */
	long searches_running, searches_queued;
	unsigned long refused_full, refused_client;
} metrics_gauges;

/* The whole text. */
void metrics_text(out *o, const metrics_gauges *g);

#endif
