/* SPDX-License-Identifier: MIT */
/* The search engine's incremental index (db/answer/engine.c) against a
 * fresh rank: for boards at random and every move of the blank, a slide
 * that passes none of the group's tiles keeps the Lehmer code and its colex
 * rank is sdbi_pattern_comb_slide's, and the index of either the slid or
 * the re-ranked parts is the board's rank by the public sdb_pattern_rank,
 * in both layouts and every blank mode, on boards from 3x3 to 8x8. Both
 * kinds of move must occur (a check that the test sees both paths). White
 * box: built from the puzzle layer's objects. Exit 0, or 1 with a line on
 * stderr. */
#include <stdio.h>
#include <stdlib.h>

#include "puzzle/puzzle.h"

static int failures;

#define CHECK(cond, ...)                                                          \
	do {                                                                      \
		if (!(cond) && failures++ < 10) {                                 \
			fprintf(stderr, "slide_ranks: " __VA_ARGS__);             \
			fputc('\n', stderr);                                      \
		}                                                                 \
	} while (0)

/* xorshift64: the puzzle layer has no generator of its own. */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* A random board of w x h (any placement: ranks need no parity). */
static void random_board(uint64_t *rng, int w, int h, sdb_board *b)
{
	uint8_t cells[SDB_MAX_CELLS];
	const int n = w * h;
	for (int c = 0; c < n; c++)
		cells[c] = (uint8_t)c;
	for (int c = n - 1; c > 0; c--) {
		const int d = (int)(next_random(rng) % ((uint64_t)c + 1));
		const uint8_t t = cells[c];
		cells[c] = cells[d];
		cells[d] = t;
	}
	if (sdb_board_set(b, w, h, cells) != 0)
		abort();
}

/* The cells of the pattern's tiles on b. */
static uint64_t group_mask(const sdb_board *b, uint64_t tiles)
{
	uint64_t mask = 0;
	for (int c = 0; c < b->n; c++)
		if (b->cell[c] && (tiles >> b->cell[c] & 1))
			mask |= 1ull << c;
	return mask;
}

static void check_pattern(uint64_t *rng, int w, int h, uint64_t tiles, int mode, int layout,
                          long *slid, long *ranked)
{
	sdb_board goal;
	sdb_board_goal(&goal, w, h, 0);
	sdb_pattern *p;
	if (sdb_pattern_new(&p, &goal, tiles, mode) != 0 || sdb_pattern_set_layout(p, layout) != 0) {
		fprintf(stderr, "slide_ranks: no pattern %dx%d %llx\n", w, h, (unsigned long long)tiles);
		exit(1);
	}
	for (int n = 0; n < 400; n++) {
		sdb_board b;
		random_board(rng, w, h, &b);
		const uint64_t mask = group_mask(&b, tiles);
		uint32_t comb, order;
		sdbi_pattern_rank_parts(p, b.cell, mask, &comb, &order);
		CHECK(sdbi_pattern_index_of(p, comb, order, b.blank) == sdb_pattern_rank(p, &b),
		      "%dx%d: the parts' index is not the rank", w, h);
		for (int m = 0; m < 4; m++) {
			sdb_board next = b;
			if (sdb_board_apply(&next, m) != 0)
				continue;
			const int a = next.blank, to = b.blank;   /* the tile slides from a to to */
			if (!(tiles >> b.cell[a] & 1))
				continue;   /* not the group's tile: its index changes by the blank alone */
			const uint64_t want = sdb_pattern_rank(p, &next);
			uint32_t c2, o2;
			sdbi_pattern_rank_parts(p, next.cell, group_mask(&next, tiles), &c2, &o2);
			CHECK(sdbi_pattern_index_of(p, c2, o2, a) == want, "%dx%d: re-ranked index", w, h);
			if (mask & sdbi_cells_between(a, to)) {
				++*ranked;
				continue;
			}
			++*slid;
			CHECK(o2 == order, "%dx%d move %d: a slide past no group tile changed the order",
			      w, h, m);
			const uint32_t cs = sdbi_pattern_comb_slide(comb, mask, a, to);
			CHECK(cs == c2, "%dx%d move %d: slid colex %u, ranked %u", w, h, m, cs, c2);
			CHECK(sdbi_pattern_index_of(p, cs, order, a) == want, "%dx%d move %d: slid index",
			      w, h, m);
		}
	}
	sdb_pattern_free(p);
}

int main(void)
{
	static const struct {
		int w, h;
		uint64_t tiles;
	} cases[] = {
		{ 3, 3, 0x1e },                  /* 1-4 */
		{ 4, 4, 0x1fe },                 /* 1-8, 7-8's larger group */
		{ 4, 4, 0x4842 },
		{ 5, 5, 0x1000106 },
		{ 5, 5, 0x3186 },                /* a 6-6-6-6 group: 1 2 7 8 12 13 */
		{ 8, 8, 0x8000000100000042ull },
		{ 6, 6, 0x3e },
	};
	static const int modes[] = { SDB_BLANK_REGION, SDB_BLANK_MIN };
	uint64_t rng = 21;
	long slid = 0, ranked = 0;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		for (int mo = 0; mo < 2; mo++)
			for (int layout = SDB_LAYOUT_BLOCKS; layout <= SDB_LAYOUT_ORDERS; layout++)
				check_pattern(&rng, cases[i].w, cases[i].h, cases[i].tiles, modes[mo],
				              layout, &slid, &ranked);
	CHECK(slid > 1000 && ranked > 1000, "too few moves of one kind: %ld slid, %ld ranked", slid,
	      ranked);
	if (failures)
		return 1;
	printf("slide_ranks: %ld slides, %ld re-ranked moves agree\n", slid, ranked);
	return 0;
}
