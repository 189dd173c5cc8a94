/* SPDX-License-Identifier: MIT */
/* The walking distance counted in slides: a second admissible bound for
 * the multi-tile search (mtm_walk.c), read beside the split tables. Internal
 * to the answer layer. */
#ifndef SLIDEDB_ANSWER_MTM_WALK_H
#define SLIDEDB_ANSWER_MTM_WALK_H

#include <stdint.h>

#include "slidedb.h"

enum { SDBI_WALK_MAX_LINES = 16 };

/* One direction's table: rows (part 0, moved by vertical slides) or columns
 * (part 1, by horizontal ones). A state is how many tiles of each line
 * belong to each line of the goal, and the blank's line; its key is
 * sum count[l][c] * weight[l][c] + blank line * blank_weight. */
typedef struct sdbi_walk_part {
	int lines;                                  /* rows (h) or columns (w) */
	int cells;                                  /* cells a line (w or h) */
	uint64_t weight[SDBI_WALK_MAX_LINES][SDBI_WALK_MAX_LINES];
	uint64_t blank_weight;
	uint64_t *key;                              /* open addressing; key + 1, 0 empty */
	uint8_t *dist;
	uint64_t mask;                              /* slots - 1 */
	uint64_t states;
} sdbi_walk_part;

typedef struct sdbi_mtm_walk {
	int w, h;
	uint8_t line[2][SDB_MAX_CELLS];             /* cell -> its row (0), column (1) */
	uint8_t goal_line[2][SDB_MAX_CELLS];        /* tile -> its goal's row, column */
	sdbi_walk_part part[2];
	size_t bytes;
} sdbi_mtm_walk;

/* The tables for goal: 0, SDB_ENOMEM, or SDB_ETOOBIG when a part's keys
 * would not fit 64 bits (2x8 and 8x2: the caller goes without). */
int sdbi_mtm_walk_build(sdbi_mtm_walk **out, const sdb_board *goal);
void sdbi_mtm_walk_free(sdbi_mtm_walk *t);

/* A position's key in part p: pos[t] the cell of tile t (1 .. n-1). */
uint64_t sdbi_mtm_walk_key(const sdbi_mtm_walk *t, int p, const uint8_t *pos, int n, int blank);

/* The fewest slides of part p's kind from the state of key (0 for a state
 * the table does not hold: none is unreachable, but 0 is never too much). */
static inline int sdbi_mtm_walk_dist(const sdbi_walk_part *p, uint64_t key)
{
	uint64_t i = (key * 0x9E3779B97F4A7C15ull) >> 17 & p->mask;
	while (p->key[i] && p->key[i] != key + 1)
		i = (i + 1) & p->mask;
	return p->key[i] ? p->dist[i] : 0;
}

/* Tile t of goal line goal_line moved from line `from` to line `to` in
 * part p, and the blank from line `to` to `from`: the key's change. */
static inline uint64_t sdbi_mtm_walk_moved(const sdbi_walk_part *p, uint64_t key, int goal_line,
                                          int from, int to)
{
	return key + p->weight[to][goal_line] - p->weight[from][goal_line] +
	       p->blank_weight * (uint64_t)from - p->blank_weight * (uint64_t)to;
}

#endif
