/* SPDX-License-Identifier: MIT */
/* An admissible heuristic for the multi-tile metric past the full tables:
 * the slide's cost split between the tiles it moves (mtm_split.c). Internal
 * to the answer layer; the search reads it through engine_mtm.c. */
#ifndef SLIDEDB_ANSWER_MTM_SPLIT_H
#define SLIDEDB_ANSWER_MTM_SPLIT_H

#include <stdint.h>

#include "puzzle/puzzle.h"
#include "slidedb_engine.h"

enum {
	SDBI_MTM_MAX_CELLS = 16,     /* boards it is built for */
	SDBI_MTM_MAX_GROUPS = 8,
};

/* One group's table: per state of its tiles' cells and the region of free
 * cells that holds the blank (an sdb_pattern's region index, blocks
 * layout: inside a region the blank moves for free, as in the single-tile
 * metric's sets), the fewest moves' worth of shares, in 1/unit of a move,
 * that bring the group's tiles home. */
typedef struct sdbi_mtm_group {
	sdb_pattern *p;
	int k;
	uint8_t tile[SDB_MAX_PATTERN];   /* in increasing order: tile[i] is slot i */
	uint16_t *dist;                  /* while built; then NULL if narrow */
	uint8_t *narrow;                 /* the same in a byte, where every entry fits
	                                    (the 4x4's): half the cache misses */
} sdbi_mtm_group;

/* Tables of a canonical goal. */
typedef struct sdbi_mtm_split {
	int w, h, n, run, unit;       /* unit: lcm(1 .. run), so that every share is whole */
	int ngroups;
	sdbi_mtm_group g[SDBI_MTM_MAX_GROUPS];
	size_t bytes;
	int fetch_ahead;              /* tables past the caches (7-8's): a node fetches
	                                 every child's entries before reading any */
	char partition[96];           /* "1,2,3,6,7/4,5,8,9,12/..." (tiles of the goal) */
} sdbi_mtm_split;

/* Build the tables for goal (tiles 1 .. n-1, its blank anywhere) on up to
 * threads threads, in the groups spec names ("5-5-5", the default when
 * NULL, or "7-8"), shaped by the corner where a 4x4 goal's blank is home;
 * other goals have groups of at most five tiles in reading order, whatever
 * spec says. 0, SDB_ENOMEM, SDB_EINVAL (a spec of no groups), SDB_ETOOBIG
 * past SDBI_MTM_MAX_CELLS. */
int sdbi_mtm_split_build(sdbi_mtm_split **out, const sdb_board *goal, const char *spec,
                         int threads);
void sdbi_mtm_split_free(sdbi_mtm_split *t);

/* The index of group g's entry: pos[t] the cell of tile t in the tables'
 * labels, blank the blank's cell. */
static inline uint64_t sdbi_mtm_group_index(const sdbi_mtm_group *g, const uint8_t *pos,
                                            int blank)
{
	uint8_t tile_at[SDBI_MTM_MAX_CELLS];   /* read only at the group's cells */
	uint64_t mask = 0;
	for (int i = 0; i < g->k; i++) {
		const int c = pos[g->tile[i]];
		tile_at[c] = g->tile[i];
		mask |= 1ull << c;
	}
	uint32_t comb, order;
	sdbi_pattern_rank_parts(g->p, tile_at, mask, &comb, &order);
	return sdbi_pattern_index_of(g->p, comb, order, blank);
}

/* Group g's entry. */
static inline unsigned sdbi_mtm_group_value(const sdbi_mtm_group *g, const uint8_t *pos,
                                            int blank)
{
	const uint64_t at = sdbi_mtm_group_index(g, pos, blank);
	return g->narrow ? g->narrow[at] : g->dist[at];
}

/* Ask for the cache lines of a position's entries (as sdbi_mtm_split_value). */
static inline void sdbi_mtm_split_fetch(const sdbi_mtm_split *t, const uint8_t *pos, int blank)
{
	for (int i = 0; i < t->ngroups; i++) {
		const sdbi_mtm_group *g = &t->g[i];
		const uint64_t at = sdbi_mtm_group_index(g, pos, blank);
		__builtin_prefetch(g->narrow ? (const void *)&g->narrow[at] : (const void *)&g->dist[at]);
	}
}

/* The bound of a position: pos[t] the cell of tile t (1 .. n-1) in the
 * tables' labels, blank its cell: the groups' shares summed, rounded up. */
static inline int sdbi_mtm_split_value(const sdbi_mtm_split *t, const uint8_t *pos, int blank)
{
	unsigned sum = 0;
	for (int i = 0; i < t->ngroups; i++)
		sum += sdbi_mtm_group_value(&t->g[i], pos, blank);
	return (int)((sum + (unsigned)t->unit - 1) / (unsigned)t->unit);
}

#endif
