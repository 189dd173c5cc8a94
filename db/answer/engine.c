/* SPDX-License-Identifier: MIT */
/* IDA*'s node level, built for node rate: one thread's depth-first search
 * under a bound on f = g + h, in the heuristic's frame (engine.h).
 *
 * - The state is changed in place and changed back: a move changes one
 *   tile's cell, so one group's mask, Manhattan sum and entry per view (the
 *   plain board and, for the diagonal mirror, the transposed one) and per
 *   set (the heuristic is the largest of several sets' bounds). Nothing is
 *   copied per child but those few values, kept on the stack to undo.
 * - A group's index is kept in its two parts (colex rank of the cells,
 *   Lehmer code of the tiles). A slide that passes none of the group's
 *   tiles (every horizontal move, a vertical one with none of them on the
 *   cells between) keeps the code and changes the colex rank by two terms;
 *   only the rest rank the group anew (sdbi_pattern_rank_parts: k steps).
 *   Every child's first entry is ranked and prefetched before the first is
 *   read, so that their cache misses overlap; the other views' and sets'
 *   entries are fetched only for the children that first bound does not
 *   cut, except where the first set has two groups (others_early below:
 *   there all are fetched at once, and each child's bounds read in its
 *   turn).
 * - Duplicate move sequences are pruned beyond the parent's inverse: of two
 *   walks of the blank of up to 14 moves that leave every tile in the same
 *   place (going around a 2x2 square six moves one way or the other, ...),
 *   the one later in the caller's order u < d < l < r is never followed
 *   when the other stays within the rectangle of its cells (prune.c,
 *   prune_words.h: 18,031 words, an automaton read once per move). The lexicographically first
 *   optimal sequence never holds one, so it is still the answer. Counting
 *   and listing optimal sequences prune only the parent's inverse: they
 *   must see every sequence.
 * Manhattan with linear conflicts (no set for the goal) has no incremental
 * form: it follows an sdb_hstate per depth. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "answer/engine.h"
#include "answer/prune.h"

double sdbi_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int entry(const engine *e, int g, uint64_t i, int md)
{
	const sdb_heuristic *h = e->h;
	return h->nibbles[g] ? md + 2 * (int)sdb_nibble(h->data[g], i) : h->data[g][i];
}

/* With two groups a view (4x4's 7-8), every other move changes a group's
 * entry, in tables of hundreds of megabytes: the reads miss the cache, and a
 * surviving child's second read, fetched only after its first entry is read,
 * costs a second wait. There the other entries are fetched with the first,
 * for every child, though many are for children the first bound cuts: the
 * waits overlap. With three or more groups (6-6-3, 5x5's 6-6-6-6) a group's
 * entries repeat within a subtree and hit the cache, and the wasted work
 * costs more than the overlap gives: there they stay fetched after the
 * first cut (bench/RESULTS.md has the runs). */
static int first_set_groups(const sdb_heuristic *h)
{
	int n = 0;
	for (int g = 0; g < h->ngroups; g++)
		n += h->set_of[g] == 0;
	return n;
}

void sdbi_engine_init(engine *e, const sdb_heuristic *h, const sdb_frame *frame,
                      const sdb_board *goal_in_frame)
{
	memset(e, 0, sizeof *e);
	e->h = h;
	e->n = h->n;
	e->manhattan = h->manhattan;
	e->views = h->manhattan ? 1 : 1 + h->mirror;
	e->nsets = h->nsets;
	const int w = h->w;
	for (int c = 0; c < h->n; c++) {
		const int x = c % w, y = c / w;
		e->nbr[c][SDB_UP] = (int8_t)(y > 0 ? c - w : -1);
		e->nbr[c][SDB_DOWN] = (int8_t)(y < h->h - 1 ? c + w : -1);
		e->nbr[c][SDB_LEFT] = (int8_t)(x > 0 ? c - 1 : -1);
		e->nbr[c][SDB_RIGHT] = (int8_t)(x < w - 1 ? c + 1 : -1);
		e->tcell[c] = (uint8_t)sdb_sym_cell(h->w, h->h, SDBI_TRANSPOSE, c);
	}
	memset(e->group, -1, sizeof e->group);
	for (int t = 1; t < h->n; t++) {
		e->mlabel[t] = h->mirror_label[t];
		for (int set = 0; set < h->nsets; set++)
			e->group[set][t] = h->group_of[set][t];
		for (int c = 0; c < h->n; c++) {
			const int g = h->goal_cell[t];
			e->dist[t][c] = (uint8_t)(abs(c % w - g % w) + abs(c / w - g / w));
		}
	}
	memcpy(e->goal, goal_in_frame->cell, goal_in_frame->n);
	e->goal_blank = goal_in_frame->blank;
	memcpy(e->order, frame->move_in, sizeof e->order);
	memcpy(e->back, frame->move_back, sizeof e->back);
	e->dup = sdbi_prune_automaton();
	e->others = !h->manhattan && (e->views > 1 || h->nsets > 1);
	e->others_early = e->others && first_set_groups(h) == 2;
	if ((e->mtm = h->mtm)) {
		e->walk = h->walk;
		e->run = h->mtm->run;
		e->others = e->others_early = 0;
	}
}

/* A view's sums from its cells. */
static void view_start(const engine *e, view *v, int blank)
{
	memset(v->mask, 0, sizeof v->mask);
	memset(v->md, 0, sizeof v->md);
	memset(v->sum, 0, sizeof v->sum);
	for (int c = 0; c < e->n; c++)
		for (int set = 0; set < e->nsets; set++) {
			const int t = v->cell[c], g = t ? e->group[set][t] : -1;
			if (g >= 0) {
				v->mask[g] |= 1ull << c;
				v->md[g] = (uint8_t)(v->md[g] + e->dist[t][c]);
			}
		}
	for (int g = 0; g < e->h->ngroups; g++) {
		const sdb_pattern *p = e->h->pattern[g];
		sdbi_pattern_rank_parts(p, v->cell, v->mask[g], &v->comb[g], &v->order[g]);
		const uint64_t i = sdbi_pattern_index_of(p, v->comb[g], v->order[g], blank);
		v->sum[e->h->set_of[g]] += v->part[g] = (uint8_t)entry(e, g, i, v->md[g]);
	}
}

/* The shape a search's node level is compiled for (sdbi_dfs): the number
 * of sets and views as constants in the common cases, so that their loops
 * unroll and the Manhattan branches vanish, and whether the other entries
 * are fetched early (1 yes, -1 no); 0 reads them from the engine. */
typedef struct shape {
	int nsets, views, early;
} shape;

static const shape ANY_SHAPE = { 0, 0, 0 };

static inline int nsets_of(const engine *e, shape sh)
{
	return sh.nsets ? sh.nsets : e->nsets;
}

static inline int views_of(const engine *e, shape sh)
{
	return sh.views ? sh.views : e->views;
}

static inline int early_in(const engine *e, shape sh)
{
	return sh.early ? sh.early > 0 : e->others_early;
}

/* A fixed shape never searches by Manhattan distance. */
static inline int manhattan_in(const engine *e, shape sh)
{
	return sh.nsets ? 0 : e->manhattan;
}

/* The largest bound of a state's views and sets. */
static inline int best_of(const engine *e, const view *v, shape sh)
{
	int best = 0;
	for (int vi = 0; vi < views_of(e, sh); vi++)
		for (int set = 0; set < nsets_of(e, sh); set++)
			best = v[vi].sum[set] > best ? v[vi].sum[set] : best;
	return best;
}

int sdbi_worker_start(worker *w, shared *s, const sdb_frame *frame, const sdb_board *start)
{
	const engine *e = s->e;
	memset(w, 0, sizeof *w);
	w->s = s;
	w->e = e;
	w->subtree = -1;
	sdb_board plain;
	sdb_frame_board(frame, &plain, start);
	w->blank = plain.blank;
	if (e->mtm)
		return sdbi_mtm_worker_start(w, &plain);
	if (e->manhattan) {
		if (!(w->hs = malloc((SDB_MAX_MOVES + 1) * sizeof *w->hs)))
			return sdbi_fail(SDB_ENOMEM, "out of memory");
		return sdbi_heuristic_start_in(e->h, frame, &w->hs[0], start);
	}
	memcpy(w->v[0].cell, plain.cell, plain.n);
	view_start(e, &w->v[0], w->blank);
	if (e->views == 2) {
		for (int c = 0; c < e->n; c++)
			w->v[1].cell[e->tcell[c]] = e->mlabel[plain.cell[c]];
		view_start(e, &w->v[1], e->tcell[w->blank]);
	}
	return best_of(e, w->v, ANY_SHAPE);
}


/* A child's indices in every view and set, fetched ahead, and their parts. */
typedef struct child {
	uint64_t i[2][SDB_MAX_SETS];
	uint32_t comb[2][SDB_MAX_SETS], order[2][SDB_MAX_SETS];
} child;

/* Tile t slides from cell a into the blank's cell b of view vi; c holds
 * the new index of the tile's group in each set and its parts
 * (child_index), the old ones go to u. */
static inline void view_move(const engine *e, view *v, int vi, int t, int a, int b,
                             const child *c, undo *u, shape sh)
{
	v->cell[b] = (uint8_t)t;
	v->cell[a] = 0;
	for (int set = 0; set < nsets_of(e, sh); set++) {
		const int g = e->group[set][t];
		u->sum[vi][set] = v->sum[set];
		if (g < 0)
			continue;
		u->md[vi][set] = v->md[g];
		u->part[vi][set] = v->part[g];
		u->comb[vi][set] = v->comb[g];
		u->order[vi][set] = v->order[g];
		v->mask[g] ^= 1ull << a | 1ull << b;
		v->comb[g] = c->comb[vi][set];
		v->order[g] = c->order[vi][set];
		v->md[g] = (uint8_t)(v->md[g] + e->dist[t][b] - e->dist[t][a]);
		const int value = entry(e, g, c->i[vi][set], v->md[g]);
		v->sum[set] += value - v->part[g];
		v->part[g] = (uint8_t)value;
	}
}

/* u's fields are read for the groups view_move() wrote them for (the
 * tile's group in each set); GCC cannot see that through some inlinings and
 * warns that they may be unset. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
static inline void view_unmove(const engine *e, view *v, int vi, int t, int a, int b,
                               const undo *u, shape sh)
{
	v->cell[a] = (uint8_t)t;
	v->cell[b] = 0;
	for (int set = 0; set < nsets_of(e, sh); set++) {
		const int g = e->group[set][t];
		v->sum[set] = u->sum[vi][set];
		if (g < 0)
			continue;
		v->mask[g] ^= 1ull << a | 1ull << b;
		v->md[g] = u->md[vi][set];
		v->part[g] = u->part[vi][set];
		v->comb[g] = u->comb[vi][set];
		v->order[g] = u->order[vi][set];
	}
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* The index of the moved tile's group in a view after the tile slides from
 * cell a into the blank's cell b, and its parts (*comb, *order), its table
 * line prefetched: the children's entries are fetched before the first
 * child is read, so that their cache misses overlap. A slide passing none
 * of the group's tiles keeps their order and changes the colex rank by two
 * terms; only a vertical move past some of them ranks the group anew (the
 * cells put back after). */
static inline uint64_t child_index(const engine *e, view *v, int g, int t, int a, int b,
                                   uint32_t *comb, uint32_t *order)
{
	if (g < 0)
		return 0;
	const sdb_pattern *p = e->h->pattern[g];
	const uint64_t mask = v->mask[g];
	if (!(mask & sdbi_cells_between(a, b))) {
		*comb = sdbi_pattern_comb_slide(v->comb[g], mask, a, b);
		*order = v->order[g];
	} else {
		v->cell[b] = (uint8_t)t;
		v->cell[a] = 0;
		sdbi_pattern_rank_parts(p, v->cell, mask ^ (1ull << a | 1ull << b), comb, order);
		v->cell[a] = (uint8_t)t;
		v->cell[b] = 0;
	}
	const uint64_t i = sdbi_pattern_index_of(p, *comb, *order, a);
	__builtin_prefetch(e->h->data[g] + (e->h->nibbles[g] ? i >> 1 : i));
	return i;
}

/* The indices of view vi's sets first to end - 1. */
static inline void child_view(worker *w, int vi, int first, int end, int to, child *c)
{
	const engine *e = w->e;
	const int b = w->blank, t = w->v[0].cell[to];
	const int tl = vi ? e->mlabel[t] : t, a = vi ? e->tcell[to] : to, bb = vi ? e->tcell[b] : b;
	for (int set = first; set < end; set++)
		c->i[vi][set] = child_index(e, &w->v[vi], e->group[set][tl], tl, a, bb,
		                            &c->comb[vi][set], &c->order[vi][set]);
}

static inline void prefetch_child(worker *w, int to, child *c, shape sh)
{
	for (int vi = 0; vi < views_of(w->e, sh); vi++)
		child_view(w, vi, 0, nsets_of(w->e, sh), to, c);
}

/* Move the blank (frame move m to cell to); the new h. */
static inline int apply(worker *w, int g, int m, int to, const child *c, undo *u, shape sh)
{
	const engine *e = w->e;
	if (manhattan_in(e, sh)) {
		w->hs[g + 1] = w->hs[g];
		w->blank = to;
		return sdbi_heuristic_move_frame(e->h, &w->hs[g + 1], m);
	}
	const int b = w->blank, t = w->v[0].cell[to];
	view_move(e, &w->v[0], 0, t, to, b, c, u, sh);
	if (views_of(e, sh) == 2)
		view_move(e, &w->v[1], 1, e->mlabel[t], e->tcell[to], e->tcell[b], c, u, sh);
	w->blank = to;
	return best_of(e, w->v, sh);
}

/* apply() for a move whose child was not prefetched. */
static inline int apply_now(worker *w, int g, int m, int to, undo *u)
{
	child c;
	if (!w->e->manhattan)
		prefetch_child(w, to, &c, ANY_SHAPE);
	return apply(w, g, m, to, &c, u, ANY_SHAPE);
}

static inline void unapply(worker *w, int from, const undo *u, shape sh)
{
	const engine *e = w->e;
	const int to = w->blank;
	w->blank = from;
	if (manhattan_in(e, sh))
		return;
	const int t = w->v[0].cell[from];
	view_unmove(e, &w->v[0], 0, t, to, from, u, sh);
	if (views_of(e, sh) == 2)
		view_unmove(e, &w->v[1], 1, e->mlabel[t], e->tcell[to], e->tcell[from], u, sh);
}

/* (The tables' check: heuristic.h; the poll: the calling thread's only.) */
int sdbi_checkpoint(worker *w)
{
	shared *s = w->s;
	const double t = sdbi_now();
	if (s->deadline > 0 && t > s->deadline)
		return 1;
	if (sdbi_heuristic_check_failed(s->e->h))
		return 1;   /* a damaged table: the caller's check says so */
	if (w->main_thread && s->limits && s->limits->poll) {
		const sdb_search_progress p = { atomic_load_explicit(&s->nodes, memory_order_relaxed) +
		                                w->pending, w->bound, t - s->started };
		if (s->limits->poll(s->limits->poll_ctx, &p))
			return s->polled_stop = 1;
	}
	return 0;
}

static int visit(worker *w, int g);

/* The duplicate automaton's state after frame move m from state (the
 * automaton reads the caller's moves); SDBI_PRUNE_DEAD when m ends a word.
 * Without pruning (enumerating) the state stays 0 and nothing dies. */
static inline unsigned prune_step(const worker *w, unsigned state, int m)
{
	return w->s->prune ? w->e->dup[state][w->e->back[m]] : 0;
}

/* Whether the plain board's first set cuts the child whose blank goes to
 * cell `to` (c: its indices; b: the blank's cell now), the f it offers the
 * next iteration kept. */
static inline int first_cut(worker *w, int g, int b, int to, child *c)
{
	const engine *e = w->e;
	const view *v = &w->v[0];
	const int t = v->cell[to], gr = e->group[0][t];
	int h0 = v->sum[0];
	if (gr >= 0)
		h0 += entry(e, gr, c->i[0][0], v->md[gr] + e->dist[t][b] - e->dist[t][to]) - v->part[gr];
	if (g + 1 + h0 <= w->bound)
		return 0;
	if (g + 1 + h0 < w->next_bound)
		w->next_bound = g + 1 + h0;
	return 1;
}

typedef int dfs_fn(worker *w, int g, int prev, unsigned dup);

/* sdbi_dfs for a shape; self: the function compiled for it, to recurse. */
static inline __attribute__((always_inline)) int
dfs_in(worker *w, int g, int prev, unsigned dup, shape sh, dfs_fn *self)
{
	const engine *e = w->e;
	if (w->blank == e->goal_blank && (manhattan_in(e, sh)
	        ? !memcmp(w->hs[g].board[0].cell, e->goal, (size_t)e->n)
	        : !memcmp(w->v[0].cell, e->goal, (size_t)e->n))) {
		w->found_depth = g;
		return w->s->en ? visit(w, g) : FOUND;
	}
	if (g >= SDB_MAX_MOVES)
		return 0;
	int r = sdbi_count_node(w);
	if (r)
		return r;
	const int b = w->blank;
	int to[4];
	unsigned next[4];   /* the automaton's state after each move */
	child c[4];
	for (int k = 0; k < 4; k++) {
		const int m = e->order[k];
		to[k] = e->nbr[b][m];
		if (to[k] >= 0 && m == (prev ^ 1))
			to[k] = -1;   /* u^1 = d, l^1 = r */
		next[k] = prune_step(w, dup, m);
		if (next[k] == SDBI_PRUNE_DEAD)
			to[k] = -1;
		if (to[k] < 0 || manhattan_in(e, sh))
			continue;
		child_view(w, 0, 0, 1, to[k], &c[k]);
		if (early_in(e, sh)) {
			child_view(w, 0, 1, nsets_of(e, sh), to[k], &c[k]);
			if (views_of(e, sh) == 2)
				child_view(w, 1, 0, nsets_of(e, sh), to[k], &c[k]);
		}
	}
	/* The other views' and sets' entries are read only for children the
	 * plain board's first set does not already cut: every child's first
	 * entry is fetched, then the survivors' others. Where they were fetched
	 * with the first (early), nothing is left to fetch, and each child's
	 * first bound is read only when its turn comes: the first child is
	 * searched without waiting for its siblings' entries. (A cut by one
	 * bound offers the next iteration a lower f; with
	 * every tile in a group each bound has the distance's parity, so it is
	 * still the next bound.) */
	if (e->others && !early_in(e, sh)) {
		for (int k = 0; k < 4; k++) {
			if (to[k] < 0)
				continue;
			if (first_cut(w, g, b, to[k], &c[k])) {
				to[k] = -1;
				continue;
			}
			child_view(w, 0, 1, nsets_of(e, sh), to[k], &c[k]);
			if (views_of(e, sh) == 2)
				child_view(w, 1, 0, nsets_of(e, sh), to[k], &c[k]);
		}
	}
	for (int k = 0; k < 4; k++) {
		if (to[k] < 0 || (early_in(e, sh) && first_cut(w, g, b, to[k], &c[k])))
			continue;
		const int m = e->order[k];
		undo u;
		const int f = g + 1 + apply(w, g, m, to[k], &c[k], &u, sh);
		if (f > w->bound) {
			if (f < w->next_bound)
				w->next_bound = f;
			unapply(w, b, &u, sh);
			continue;
		}
		w->path[g] = (uint8_t)m;
		r = self(w, g + 1, m, next[k]);
		unapply(w, b, &u, sh);
		if (r == NEXT_FIRST && g == 0)
			continue;   /* this first move is known to be optimal: try the next */
		if (r)
			return r;
	}
	return 0;
}

static int dfs_any(worker *w, int g, int prev, unsigned dup)
{
	return dfs_in(w, g, prev, dup, ANY_SHAPE, dfs_any);
}

static int dfs_one_set(worker *w, int g, int prev, unsigned dup)
{
	return dfs_in(w, g, prev, dup, (shape){ 1, 1, -1 }, dfs_one_set);
}

static int dfs_one_set_mirrored(worker *w, int g, int prev, unsigned dup)
{
	return dfs_in(w, g, prev, dup, (shape){ 1, 2, -1 }, dfs_one_set_mirrored);
}

static int dfs_one_set_mirrored_early(worker *w, int g, int prev, unsigned dup)
{
	return dfs_in(w, g, prev, dup, (shape){ 1, 2, 1 }, dfs_one_set_mirrored_early);
}

static int dfs_two_sets_mirrored(worker *w, int g, int prev, unsigned dup)
{
	return dfs_in(w, g, prev, dup, (shape){ 2, 2, 0 }, dfs_two_sets_mirrored);
}

int sdbi_dfs(worker *w, int g, int prev, unsigned dup)
{
	const engine *e = w->e;
	if (e->mtm)
		return sdbi_mtm_dfs(w, g, prev);
	if (e->manhattan)
		return dfs_any(w, g, prev, dup);
	if (e->nsets == 1)
		return e->views == 1         ? dfs_one_set(w, g, prev, dup)
		       : e->others_early     ? dfs_one_set_mirrored_early(w, g, prev, dup)
		                             : dfs_one_set_mirrored(w, g, prev, dup);
	if (e->nsets == 2 && e->views == 2)
		return dfs_two_sets_mirrored(w, g, prev, dup);
	return dfs_any(w, g, prev, dup);
}

/* An optimal sequence found while enumerating at the optimal bound. */
static int visit(worker *w, int g)
{
	return sdbi_visit(w, g, g > 0 ? w->e->back[w->path[0]] : -1, sdbi_path_letters);
}

int sdbi_path_letters(const worker *w, int depth, char *out)
{
	if (w->e->mtm)
		return sdbi_mtm_letters(w, depth, out);
	for (int k = 0; k < depth; k++)
		out[k] = sdb_move_letter(w->e->back[w->path[k]]);
	return depth;
}

int sdbi_visit(worker *w, int g, int first, int (*letters)(const worker *w, int g, char *out))
{
	sdbi_optimal *en = w->s->en;
	if (first >= 0)
		en->best_moves |= 1u << first;
	if (en->count_all && sdbi_count_add(&en->count, 1))
		return STOPPED;   /* cannot happen below 2^128 sequences; stop rather than wrap */
	if (en->emitted < en->limit) {
		char moves[SDB_MAX_MOVES + 1];
		moves[letters(w, g, moves)] = '\0';
		en->emitted++;
		if (en->fn(en->ctx, moves)) {
			en->limit = en->emitted;   /* the caller has enough */
			en->stopped = 1;
		}
	}
	if (en->count_all || en->emitted < en->limit)
		return 0;
	if (en->limit > 0 || en->stopped)
		return LIMIT_DONE;
	return NEXT_FIRST;   /* only first moves wanted: one sequence per first move */
}

/* --- Parallel iterations. */


void sdbi_frontier_goal(frontier *f, const uint8_t *path, int depth)
{
	f->goal_at = f->n;
	f->goal_depth = depth;
	memcpy(f->goal_path, path, (size_t)depth);
}

int sdbi_frontier_add(frontier *f, const uint8_t *path)
{
	if (f->n == f->cap) {
		const int cap = f->cap ? 2 * f->cap : 1024;
		uint8_t *more = realloc(f->paths, (size_t)cap * (size_t)f->depth);
		if (!more)
			return SDB_ENOMEM;
		f->paths = more;
		f->cap = cap;
	}
	memcpy(f->paths + (size_t)f->n * (size_t)f->depth, path, (size_t)f->depth);
	f->n++;
	return 0;
}

/* The nodes at depth f->depth within the bound, in order, as paths; a goal
 * met on the way is a subtree of its own, in its place. */
static int collect(worker *w, frontier *f, int g, int prev, unsigned dup)
{
	const engine *e = w->e;
	if (f->goal_at < 0 && w->blank == e->goal_blank && !e->manhattan &&
	    !memcmp(w->v[0].cell, e->goal, (size_t)e->n)) {
		sdbi_frontier_goal(f, w->path, g);
		return 0;
	}
	if (g == f->depth)
		return sdbi_frontier_add(f, w->path);
	w->nodes++;
	w->pending++;
	const int b = w->blank;
	for (int k = 0; k < 4; k++) {
		const int m = e->order[k], to = e->nbr[b][m];
		if (to < 0 || m == (prev ^ 1))
			continue;
		const unsigned next = prune_step(w, dup, m);
		if (next == SDBI_PRUNE_DEAD)
			continue;
		undo u;
		const int fv = g + 1 + apply_now(w, g, m, to, &u);
		int err = 0;
		if (fv > w->bound) {
			if (fv < w->next_bound)
				w->next_bound = fv;
		} else {
			w->path[g] = (uint8_t)m;
			err = collect(w, f, g + 1, m, next);
		}
		unapply(w, b, &u, ANY_SHAPE);
		if (err)
			return err;
	}
	return 0;
}

int sdbi_collect(worker *w, frontier *f)
{
	free(f->paths);   /* room is counted in paths of one depth */
	f->paths = NULL;
	f->n = f->cap = 0;
	f->goal_at = -1;
	if (w->e->mtm)
		return sdbi_mtm_collect(w, f);
	return collect(w, f, 0, -1, 0);
}

void sdbi_descend(worker *w, const uint8_t *path, int depth, descent *d)
{
	if (w->e->mtm) {
		sdbi_mtm_descend(w, path, depth, d);
		return;
	}
	d->depth = depth;
	d->prev = -1;
	d->dup = 0;
	for (int g = 0; g < depth; g++) {
		const int m = path[g];
		d->from[g] = w->blank;
		apply_now(w, g, m, w->e->nbr[w->blank][m], &d->u[g]);
		w->path[g] = (uint8_t)m;
		d->prev = m;
		d->dup = prune_step(w, d->dup, m);
	}
}

void sdbi_ascend(worker *w, const descent *d)
{
	if (w->e->mtm) {
		sdbi_mtm_ascend(w, d);
		return;
	}
	for (int g = d->depth - 1; g >= 0; g--)
		unapply(w, d->from[g], &d->u[g], ANY_SHAPE);
}
