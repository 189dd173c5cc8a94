/* SPDX-License-Identifier: MIT */
/* An admissible heuristic for the multi-tile metric past the full tables:
 * the slide's cost split between the tiles it moves (mtm_split.c). Internal
 * to the answer layer; the search reads it through engine_mtm.c. */
#ifndef SLIDEDB_ANSWER_MTM_SPLIT_H
#define SLIDEDB_ANSWER_MTM_SPLIT_H

#include <stdint.h>

#include "slidedb.h"

enum {
	SDBI_MTM_GROUP_MAX = 5,      /* tiles a group (its table: 16P6 entries on a 4x4) */
	SDBI_MTM_MAX_CELLS = 16,     /* boards it is built for */
	SDBI_MTM_MAX_GROUPS = 8,
};

/* Tables of a canonical goal: per group, the fewest moves' worth of shares
 * (in 1/unit of a move) that bring the group's tiles home, indexed by the
 * cells of its tiles and of the blank. */
typedef struct sdbi_mtm_split {
	int w, h, n, run, unit;       /* unit: lcm(1 .. run), so that every share is whole */
	int ngroups;
	int size[SDBI_MTM_MAX_GROUPS];            /* tiles of each group */
	uint8_t tile[SDBI_MTM_MAX_GROUPS][SDBI_MTM_GROUP_MAX];
	uint16_t *dist[SDBI_MTM_MAX_GROUPS];   /* while built; then NULL if narrow */
	uint8_t *narrow[SDBI_MTM_MAX_GROUPS];  /* the same in a byte, where every entry fits
	                                          (the 4x4's: 48 sixths at most): half the
	                                          cache misses of the search */
	size_t bytes;
	char partition[96];           /* "1,2,3,6,7/4,5,8,9,12/..." (tiles of the goal) */
} sdbi_mtm_split;

/* Build the tables for goal (tiles 1 .. n-1, its blank anywhere) on up to
 * threads threads: 0, SDB_ENOMEM, or SDB_ETOOBIG past SDBI_MTM_MAX_CELLS. */
int sdbi_mtm_split_build(sdbi_mtm_split **out, const sdb_board *goal, int threads);
void sdbi_mtm_split_free(sdbi_mtm_split *t);

/* The index of cells c[0 .. m) (distinct; the blank's last) among the
 * ordered choices of m cells of n: each cell counted among those the
 * earlier ones leave (by comparisons: a portable build has no popcount
 * instruction, and its call cost a tenth of the search). */
static inline uint32_t sdbi_mtm_index(const int *c, int m, int n)
{
	uint32_t idx = 0;
	for (int i = 0; i < m; i++) {
		int r = c[i];
		for (int j = 0; j < i; j++)
			r -= c[j] < c[i];
		idx = idx * (uint32_t)(n - i) + (uint32_t)r;
	}
	return idx;
}

/* The bound of a position: pos[t] the cell of tile t (1 .. n-1) in the
 * tables' labels, blank its cell: the groups' shares summed, rounded up. */
static inline int sdbi_mtm_split_value(const sdbi_mtm_split *t, const uint8_t *pos, int blank)
{
	unsigned sum = 0;
	for (int g = 0; g < t->ngroups; g++) {
		int c[SDBI_MTM_GROUP_MAX + 1];
		const int k = t->size[g];
		for (int i = 0; i < k; i++)
			c[i] = pos[t->tile[g][i]];
		c[k] = blank;
		const uint32_t i = sdbi_mtm_index(c, k + 1, t->n);
		sum += t->narrow[g] ? t->narrow[g][i] : t->dist[g][i];
	}
	return (int)((sum + (unsigned)t->unit - 1) / (unsigned)t->unit);
}

#endif
