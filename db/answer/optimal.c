/* SPDX-License-Identifier: MIT */
/* Every optimal sequence out of a full table: the first moves that start
 * one, how many there are, and the sequences in lexicographic order.
 *
 * The states on optimal paths from a start at distance d are exactly those
 * reached by moves that lower the table's distance by one each time, so
 * nothing here searches: counting walks them layer by layer (layer k holds
 * the states k moves from the start and d-k from the goal, each with the
 * number of optimal paths that reach it), and listing follows them depth
 * first, where every branch ends at the goal.
 *
 * In the multi-tile metric the moves out of a state are its slides (each
 * direction, 1 .. run cells), taken in that order: sequences are listed
 * move by move, u < d < l < r and a shorter slide first, and counted as
 * sequences of moves (each a run of one letter: two slides one way in a row
 * are never optimal, one longer slide being shorter). */
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "store/blocks.h"

typedef unsigned __int128 u128;

/* One layer: the states (table indices: 14-cell boards need 36 bits) and
 * how many optimal paths from the start reach each. While the next layer is
 * being gathered it is an open-addressing hash on the index. */
typedef struct layer {
	uint64_t *index;
	u128 *paths;
	size_t n, cap;   /* cap: a power of two, slots of the hash */
	size_t alloc;    /* slots allocated, >= cap */
} layer;

enum { EMPTY_BYTE = 0xff };   /* memset pattern of an empty slot: UINT64_MAX */
#define EMPTY UINT64_MAX

static int layer_reserve(layer *l, size_t want)
{
	size_t cap = 8;
	while (cap < 2 * want)
		cap *= 2;
	if (cap > l->alloc) {
		free(l->index);
		free(l->paths);
		l->index = malloc(cap * sizeof *l->index);
		l->paths = malloc(cap * sizeof *l->paths);
		l->alloc = l->index && l->paths ? cap : 0;
		if (!l->alloc)
			return SDB_ENOMEM;
	}
	l->cap = cap;
	memset(l->index, EMPTY_BYTE, cap * sizeof *l->index);
	l->n = 0;
	return SDB_OK;
}

/* Add p paths to state i; -1 if the count passes 2^128 - 1. */
static int layer_add(layer *l, uint64_t i, u128 p)
{
	size_t mask = l->cap - 1, slot = (size_t)((i * 0x9e3779b97f4a7c15u) >> 32) & mask;
	while (l->index[slot] != EMPTY && l->index[slot] != i)
		slot = (slot + 1) & mask;
	if (l->index[slot] == EMPTY) {
		l->index[slot] = i;
		l->paths[slot] = 0;
		l->n++;
	}
	u128 sum = l->paths[slot] + p;
	if (sum < p)
		return -1;
	l->paths[slot] = sum;
	return 0;
}

/* Move the hash's entries to the front: the layer as a list. */
static void layer_pack(layer *l)
{
	size_t k = 0;
	for (size_t s = 0; s < l->cap && k < l->n; s++)
		if (l->index[s] != EMPTY) {
			l->index[k] = l->index[s];
			l->paths[k++] = l->paths[s];
		}
}

static int count_paths(sdb_count *out, const sdb_table *t, const sdb_board *cur, int d)
{
	const int run = sdbi_table_run(t), slots = 4 * run;
	sdb_rank_walk walk;
	sdb_rank_walk_init(&walk, cur->w, cur->h, sdb_rank_class(cur));
	layer a = { 0 }, b = { 0 };
	layer *from = &a, *to = &b;
	int err = layer_reserve(from, 1);
	if (!err) {
		from->index[0] = sdb_board_rank(cur);
		from->paths[0] = 1;
		from->n = 1;
	}
	for (int k = 0; !err && k < d; k++) {
		const int next = sdbi_level_of(t, d - k - 1);
		if ((err = layer_reserve(to, (size_t)slots * from->n)))
			break;
		for (size_t i = 0; i < from->n && !err; i++) {
			uint64_t nbr[4 * SDB_MTM_MAX_RUN];
			if (run == 1)
				sdb_rank_walk_neighbors(&walk, nbr, NULL, from->index[i]);
			else
				sdb_rank_walk_mtm_neighbors(&walk, nbr, from->index[i]);
			for (int m = 0; m < slots; m++)
				if (nbr[m] != UINT64_MAX && sdbi_entry_level(t, nbr[m]) == next &&
				    layer_add(to, nbr[m], from->paths[i]))
					err = SDB_ETOOBIG;
		}
		layer_pack(to);
		if (!err && to->n == 0)
			err = SDB_ECORRUPT;   /* a state with no way on: the table lies */
		layer *swap = from;
		from = to;
		to = swap;
	}
	if (!err && (from->n != 1 || from->index[0] != t->goal_index))
		err = SDB_ECORRUPT;
	if (!err) {
		out->hi = (uint64_t)(from->paths[0] >> 64);
		out->lo = (uint64_t)from->paths[0];
	}
	free(a.index);
	free(a.paths);
	free(b.index);
	free(b.paths);
	return err;
}

typedef struct lister {
	const sdb_table *t;
	const sdb_frame *f;
	sdbi_optimal *en;
	char moves[SDB_MAX_MOVES + 1];
} lister;

/* Depth first from b (d from the goal, g moves made), the caller's moves in
 * the order u d l r. 1 when enough sequences were given, SDB_ECORRUPT. */
static int list_paths(lister *ls, const sdb_board *b, int d, int g)
{
	sdbi_optimal *en = ls->en;
	if (d == 0) {
		if (sdb_board_rank(b) != ls->t->goal_index)
			return SDB_ECORRUPT;
		ls->moves[g] = '\0';
		en->emitted++;
		if (en->fn(en->ctx, ls->moves))
			en->stopped = 1;
		return en->stopped || en->emitted >= en->limit;
	}
	const int run = sdbi_table_run(ls->t), down = sdbi_level_of(ls->t, d - 1);
	int ways = 0;
	for (int c = 0; c < 4; c++) {   /* the caller's directions, in order */
		const int m = ls->f->move_in[c];
		sdb_board next = *b;
		for (int k = 1; k <= run && sdbi_slide(&next, m); k++) {
			if (sdbi_entry_level(ls->t, sdb_board_rank(&next)) != down)
				continue;
			if (g + k > SDB_MAX_MOVES)
				return SDB_ECORRUPT;   /* longer than any answer: the table lies */
			ways++;
			memset(ls->moves + g, sdb_move_letter(c), (size_t)k);
			int r = list_paths(ls, &next, d - 1, g + k);
			if (r)
				return r;
		}
	}
	return ways ? 0 : SDB_ECORRUPT;
}

int sdbi_table_optimal(const sdb_table *t, const sdb_frame *f, const sdb_board *cur, int d,
                      sdbi_optimal *en)
{
	const int run = sdbi_table_run(t);
	for (int m = 0; m < 4 && d > 0; m++) {
		sdb_board next = *cur;
		for (int k = 1; k <= run && sdbi_slide(&next, m); k++)
			if (sdbi_entry_level(t, sdb_board_rank(&next)) == sdbi_level_of(t, d - 1))
				en->best_moves |= 1u << f->move_back[m];
	}
	int err = SDB_OK;
	if (en->count_all)
		err = count_paths(&en->count, t, cur, d);
	if (!err && en->limit > 0) {
		lister ls = { .t = t, .f = f, .en = en };
		err = list_paths(&ls, cur, d, 0);
		err = err < 0 ? err : SDB_OK;
	}
	return err;
}
