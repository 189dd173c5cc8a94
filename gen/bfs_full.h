/* The breadth-first search that fills a full table. */
#ifndef SLIDEDB_BFS_FULL_H
#define SLIDEDB_BFS_FULL_H

#include <stdint.h>

#include "slidedb.h"

/* Called by the search between levels and a few times a second inside long
 * ones: level being expanded, entries scanned so far in it, states reached. */
typedef void bfs_progress_fn(void *ctx, int level, uint64_t states_reached);

typedef struct bfs_result {
	uint64_t counts[SDB_MAX_DISTANCE];   /* states at each distance */
	int max_distance;
} bfs_result;

/* Fill table (sdb_rank_count(w, h) bytes) with the distance and best move of
 * every state reachable from the canonical goal with the blank in goal_blank,
 * in the format SDB_ENTRY_DIST6_MOVE2. threads <= 0 uses every core. The
 * bytes are the same for any thread count. Returns 0 or SDB_ETOOBIG when a
 * distance would not fit in 6 bits. */
int bfs_full(bfs_result *res, uint8_t *table, int w, int h, int goal_blank, int threads,
             bfs_progress_fn *progress, void *ctx);

#endif
