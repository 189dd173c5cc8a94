/* SPDX-License-Identifier: MIT */
/* The two-bit engine on a full table, level by level: where a big build's
 * time goes. No database: the table lives in memory and is dropped.
 *
 *   bfs_levels WxH [THREADS [MAX_LEVEL]]
 *
 * Prints, per level: the level, the states that joined it, the direction
 * (push or pull, as the engine chose: the states visited in a pull are the
 * unreached ones), seconds and millions of states a second. MAX_LEVEL stops
 * the search after that level (the figures up to it are still exact). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gen/bfs.h"
#include "gen/bigmem.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct log_ctx {
	int level, max_level;
	uint64_t reached_before, reached_now, total;
	double t_level, t_start;
} log_ctx;

/* Called with the level being worked on: a new level means the last one
 * ended. */
static void on_level(void *arg, int level, uint64_t reached)
{
	log_ctx *c = arg;
	if (level == c->level) {
		c->reached_now = reached;
		return;
	}
	double t = now();   /* reached already counts some of the new level */
	reached = c->reached_now;
	uint64_t joined = reached - c->reached_before;
	printf("%3d %14llu %8.2f s %8.1f M/s  %5.1f%% done  %8.1f s total\n", c->level + 1,
	       (unsigned long long)joined, t - c->t_level, (double)joined / (t - c->t_level) / 1e6,
	       100.0 * (double)reached / (double)c->total, t - c->t_start);
	fflush(stdout);
	if (c->max_level && c->level + 1 >= c->max_level)
		exit(0);
	c->level = level;
	c->reached_before = reached;
	c->t_level = t;
}

int main(int argc, char **argv)
{
	int w, h;
	if (argc < 2 || sscanf(argv[1], "%dx%d", &w, &h) != 2) {
		fprintf(stderr, "usage: bfs_levels WxH [THREADS [MAX_LEVEL]]\n");
		return 2;
	}
	int threads = argc > 2 ? atoi(argv[2]) : 0;
	const uint64_t states = sdb_rank_count(w, h), bytes = bfs_2bit_bytes(states);
	uint8_t *t = bigmem_alloc(bytes);
	if (!states || !t) {
		fprintf(stderr, "bfs_levels: %s: no table\n", argv[1]);
		return 1;
	}
	log_ctx c = { .max_level = argc > 3 ? atoi(argv[3]) : 0, .total = states };
	c.t_start = c.t_level = now();
	c.reached_before = c.reached_now = 1;
	printf("level %13s %10s %12s\n", "states", "time", "rate");
	bfs_result res;
	int err = bfs_full_2bit(&res, t, w, h, 0, threads, on_level, &c);
	printf("%s: max distance %d, %llu states, %.1f s\n", argv[1], res.max_distance,
	       (unsigned long long)res.reached, now() - c.t_start);
	bigmem_free(t, bytes);
	return err ? 1 : 0;
}
