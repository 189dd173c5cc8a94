/* SPDX-License-Identifier: MIT */
/* IDA*'s node level in the multi-tile metric: engine.c's search where one
 * move slides the blank 1 .. run cells along its row or column, bounded by
 * the largest of the walking distance in slides (mtm_walk.c, its two keys
 * changed per tile moved), the split tables (mtm_split.c) on the plain
 * board and the same on its mirror about the main diagonal where the goal
 * allows, read in that order until one cuts (value_upto).
 *
 * The state is the same worker, changed in place and back: a slide of k
 * cells moves k tiles one cell each. A node's children are, for each
 * direction in the caller's order u < d < l < r, the slides of 1, 2, ...
 * cells: a slide's longer sibling is the shorter one and one more step, so
 * the tiles move once per cell, not once per child. Two moves in a row
 * along one line (the same way or back) are never followed: together they
 * are one move or none, so no optimal sequence holds them. The first
 * optimal sequence in that order is then the one a full table of the
 * metric gives (query.c's walk), and solve.c's cut of an iteration into
 * subtrees, its threads and its enumeration of every optimal sequence work
 * unchanged: a path holds sdbi_mtm_step() bytes. The duplicate-word
 * automaton of the single-tile search does not apply here. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "answer/engine.h"

/* The bound of the worker's state, read lazily: the walking distance (two
 * reads of small tables), the split tables on the plain board, then on its
 * mirror, stopping at the first that passes `limit` (the child is cut: what
 * it offers the next iteration may then be lower than the largest would
 * be, which costs at most an iteration that cuts the same nodes again). */
static inline int value_upto(const worker *w, int limit)
{
	const engine *e = w->e;
	int h = 0;
	if (e->walk) {
		h = sdbi_mtm_walk_dist(&e->walk->part[0], w->walk_key[0]) +
		    sdbi_mtm_walk_dist(&e->walk->part[1], w->walk_key[1]);
		if (h > limit)
			return h;
	}
	const int s = sdbi_mtm_split_value(e->mtm, w->pos[0], w->blank);
	h = s > h ? s : h;
	if (h > limit || e->views == 1)
		return h;
	const int m = sdbi_mtm_split_value(e->mtm, w->pos[1], e->tcell[w->blank]);
	return m > h ? m : h;
}

static inline int value(const worker *w)
{
	return value_upto(w, INT_MAX);
}

/* The blank one cell on, to cell `to`: one tile moves. */
static inline void step(worker *w, int to)
{
	const engine *e = w->e;
	const int b = w->blank, t = w->v[0].cell[to];
	w->v[0].cell[b] = (uint8_t)t;
	w->v[0].cell[to] = 0;
	w->pos[0][t] = (uint8_t)b;
	w->pos[1][e->mlabel[t]] = e->tcell[b];
	w->blank = to;
	if (e->walk) {   /* a vertical step changes the rows' matrix, a horizontal one the columns' */
		const sdbi_mtm_walk *k = e->walk;
		const int p = k->line[0][to] == k->line[0][b];
		w->walk_key[p] = sdbi_mtm_walk_moved(&k->part[p], w->walk_key[p], k->goal_line[p][t],
		                                      k->line[p][to], k->line[p][b]);
	}
}

/* The blank k cells in direction m, or back (k cells the other way). */
static inline void slide(worker *w, int m, int k)
{
	for (int i = 0; i < k; i++)
		step(w, w->e->nbr[w->blank][m]);
}

static inline int is_goal(const worker *w)
{
	return w->blank == w->e->goal_blank && !memcmp(w->v[0].cell, w->e->goal, (size_t)w->e->n);
}

/* Along one line: u, d (0, 1) or l, r (2, 3). */
static inline int same_line(int m, int prev)
{
	return prev >= 0 && (m >> 1) == (prev >> 1);
}

int sdbi_mtm_worker_start(worker *w, const sdb_board *plain)
{
	const engine *e = w->e;
	memcpy(w->v[0].cell, plain->cell, plain->n);
	for (int c = 0; c < e->n; c++) {
		const int t = plain->cell[c];
		w->pos[0][t] = (uint8_t)c;
		w->pos[1][e->mlabel[t]] = e->tcell[c];
	}
	for (int p = 0; e->walk && p < 2; p++)
		w->walk_key[p] = sdbi_mtm_walk_key(e->walk, p, w->pos[0], e->n, w->blank);
	return value(w);
}

/* The deepest a search goes: every move's letters must fit an answer. */
static inline int max_depth(const engine *e)
{
	return SDB_MAX_MOVES / e->run;
}

int sdbi_mtm_letters(const worker *w, int depth, char *out)
{
	int n = 0;
	for (int g = 0; g < depth; g++) {
		const char c = sdb_move_letter(w->e->back[w->path[g] & 3]);
		for (int k = 0; k <= w->path[g] >> 2; k++)
			out[n++] = c;
	}
	return n;
}

/* Every child's split entries asked for before any is read, where the
 * tables miss the caches: the slides made and undone once more, for their
 * reads to wait together rather than one after another. */
static void fetch_children(worker *w, int prev)
{
	const engine *e = w->e;
	for (int m = 0; m < 4; m++) {
		if (same_line(m, prev))
			continue;
		int k = 0;
		while (k < e->run && e->nbr[w->blank][m] >= 0) {
			step(w, e->nbr[w->blank][m]);
			k++;
			sdbi_mtm_split_fetch(e->mtm, w->pos[0], w->blank);
			if (e->views > 1)
				sdbi_mtm_split_fetch(e->mtm, w->pos[1], e->tcell[w->blank]);
		}
		slide(w, m ^ 1, k);
	}
}

int sdbi_mtm_dfs(worker *w, int g, int prev)
{
	const engine *e = w->e;
	if (is_goal(w)) {
		w->found_depth = g;
		return w->s->en ? sdbi_visit(w, g, g > 0 ? e->back[w->path[0] & 3] : -1,
		                             sdbi_mtm_letters)
		                : FOUND;
	}
	if (g >= max_depth(e))
		return 0;
	int r = sdbi_count_node(w);
	if (r)
		return r;
	if (e->mtm->fetch_ahead)
		fetch_children(w, prev);
	for (int i = 0; i < 4; i++) {
		const int m = e->order[i];
		if (same_line(m, prev))
			continue;
		int k = 0;
		while (k < e->run && e->nbr[w->blank][m] >= 0) {
			step(w, e->nbr[w->blank][m]);
			k++;
			const int f = g + 1 + value_upto(w, w->bound - g - 1);
			if (f > w->bound) {
				if (f < w->next_bound)
					w->next_bound = f;
				continue;   /* (a longer slide may still be within the bound) */
			}
			w->path[g] = sdbi_mtm_step(m, k);
			r = sdbi_mtm_dfs(w, g + 1, m);
			if (r == NEXT_FIRST && g == 0)
				continue;   /* this first move is known to be optimal: try the next */
			if (r) {
				slide(w, m ^ 1, k);
				return r;
			}
		}
		slide(w, m ^ 1, k);
	}
	return 0;
}

/* The nodes at depth f->depth within the bound, in order (engine.c's
 * collect): a goal met on the way is a subtree of its own, in its place. */
static int collect(worker *w, frontier *f, int g, int prev)
{
	const engine *e = w->e;
	if (f->goal_at < 0 && is_goal(w)) {
		sdbi_frontier_goal(f, w->path, g);
		return 0;
	}
	if (g == f->depth)
		return sdbi_frontier_add(f, w->path);
	w->nodes++;
	w->pending++;
	for (int i = 0; i < 4; i++) {
		const int m = e->order[i];
		if (same_line(m, prev))
			continue;
		int k = 0, err = 0;
		while (!err && k < e->run && e->nbr[w->blank][m] >= 0) {
			step(w, e->nbr[w->blank][m]);
			k++;
			const int fv = g + 1 + value_upto(w, w->bound - g - 1);
			if (fv > w->bound) {
				if (fv < w->next_bound)
					w->next_bound = fv;
				continue;
			}
			w->path[g] = sdbi_mtm_step(m, k);
			err = collect(w, f, g + 1, m);
		}
		slide(w, m ^ 1, k);
		if (err)
			return err;
	}
	return 0;
}

int sdbi_mtm_collect(worker *w, frontier *f)
{
	return collect(w, f, 0, -1);
}

void sdbi_mtm_descend(worker *w, const uint8_t *path, int depth, descent *d)
{
	d->depth = depth;
	d->prev = -1;
	d->dup = 0;
	for (int g = 0; g < depth; g++) {
		slide(w, path[g] & 3, (path[g] >> 2) + 1);
		w->path[g] = path[g];
		d->prev = path[g] & 3;
	}
}

void sdbi_mtm_ascend(worker *w, const descent *d)
{
	for (int g = d->depth - 1; g >= 0; g--)
		slide(w, (w->path[g] & 3) ^ 1, (w->path[g] >> 2) + 1);
}
