/* IDA*, built for node rate: depth-first searches with a growing bound on
 * f = g + h, in the heuristic's frame.
 *
 * - The state is changed in place and changed back: a move changes one
 *   tile's cell, so one group's mask, Manhattan sum and entry per view (the
 *   plain board and, for the diagonal mirror, the transposed one) and per
 *   set (the heuristic is the largest of several sets' bounds). Nothing is
 *   copied per child but those few values, kept on the stack to undo.
 * - A group's index is ranked inline from its cell mask
 *   (sdbi_pattern_rank_cells: k steps), and every child's first entry is
 *   ranked and prefetched before the first is read, so that their cache
 *   misses overlap; the other views' and sets' entries are fetched only for
 *   the children that first bound does not cut.
 * - Duplicate move sequences are pruned beyond the parent's inverse: going
 *   around a 2x2 square six moves one way ends where six moves the other way
 *   do (three turns of the square's three tiles are none), so of each such
 *   pair the lexicographically larger is never followed. The
 *   lexicographically first optimal sequence never holds one, so it is still
 *   the answer. Counting and listing optimal sequences prune only the
 *   parent's inverse: they must see every sequence.
 * - One search on several threads: each iteration whose predecessor was
 *   large is cut into subtrees at a depth that gives a few hundred per
 *   thread, in lexicographic order; threads take them in order and share the
 *   bound. The first subtree holding a solution is the answer's, and later
 *   subtrees stop as soon as one is found: the answer is the one a single
 *   thread finds.
 * Manhattan with linear conflicts (no set for the goal) has no incremental
 * form: it follows an sdb_hstate per depth. */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "answer/heuristic.h"

enum {
	CHECK_EVERY = 1 << 14,         /* nodes between looks at the clock */
	PUBLISH_EVERY = 1 << 10,       /* nodes between updates of the shared count */
	PARALLEL_MIN = 1 << 16,        /* an iteration after one this large is split */
	SUBTREES_PER_THREAD = 256,
	MAX_THREADS = 256,
	FOUND = 1, STOPPED = 2, NEXT_FIRST = 3, LIMIT_DONE = 4, ABANDONED = 5,
};

/* What a view (plain or mirrored) keeps of the state. */
typedef struct view {
	uint8_t cell[SDB_MAX_CELLS];       /* tile of each cell, in the view's labels */
	uint64_t mask[SDB_MAX_GROUPS];     /* cells of each group's tiles */
	uint8_t md[SDB_MAX_GROUPS];        /* their Manhattan sum */
	uint8_t part[SDB_MAX_GROUPS];      /* the group's entry */
	int sum[SDB_MAX_SETS];             /* each set's bound */
} view;

/* The search's fixed facts, shared by its threads. */
typedef struct engine {
	const sdb_heuristic *h;
	int n, views, nsets;
	int manhattan;
	int8_t nbr[SDB_MAX_CELLS][4];       /* blank's cell -> its cell after move m, or -1 */
	int8_t group[SDB_MAX_SETS][SDB_MAX_CELLS];   /* set -> tile -> group, or -1 (either
	                                                view: the mirror relabels tiles) */
	uint8_t dist[SDB_MAX_CELLS][SDB_MAX_CELLS];  /* tile -> cell -> to its goal */
	uint8_t tcell[SDB_MAX_CELLS];       /* cell -> transposed cell */
	uint8_t mlabel[SDB_MAX_CELLS];      /* tile -> mirrored tile */
	uint8_t goal[SDB_MAX_CELLS];
	int goal_blank;
	uint8_t order[4];                   /* frame moves in the caller's order u d l r */
	const uint8_t *move_back;           /* frame move -> caller's move */
	uint8_t forbidden[4096 / 8];        /* last six moves (2 bits each) never followed */
} engine;

/* What the threads of one search share. */
typedef struct shared {
	const engine *e;
	const sdb_solve_limits *limits;
	uint64_t max_nodes;
	double started, deadline;
	int prune;                          /* the 2x2 rule (not when enumerating) */
	sdbi_optimal *en;                    /* enumerating every optimal sequence, or NULL */
	_Atomic uint64_t nodes;             /* published by every thread */
	atomic_int stop;                    /* STOPPED: a limit; set once */
	int polled_stop;
	/* a parallel iteration */
	const uint8_t *subtrees;             /* paths of depth `depth`, in order */
	int depth, nsubtrees;
	atomic_int next;                    /* the next subtree to take */
	atomic_int first_found;             /* the first subtree with a solution, or INT_MAX */
	pthread_mutex_t lock;
	uint8_t found_path[SDB_MAX_MOVES];
	int found_depth;
	int next_bound;                     /* the minimum over the threads */
} shared;

/* One thread's search: the state, followed in place. */
typedef struct worker {
	shared *s;
	const engine *e;
	view v[2];
	int blank;
	int bound, next_bound;
	uint64_t nodes, pending;            /* all, and not yet published */
	unsigned publishes;
	int subtree;                        /* the subtree being searched, or -1 */
	int main_thread;                    /* the caller's: it alone calls the poll */
	int found_depth;
	uint8_t path[SDB_MAX_MOVES];        /* frame moves */
	sdb_hstate *hs;                     /* Manhattan: one per depth */
} worker;

static double now(void)
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

/* The six-move words around a 2x2 square, one way and the other, as moves
 * of the blank (frame moves: u d l r = 0 1 2 3) starting from each corner. */
static void build_forbidden(engine *e)
{
	static const char pairs[4][2][7] = {
		{ "rdlurd", "druldr" }, { "dlurdl", "ldruld" },
		{ "lurdlu", "uldrul" }, { "urdlur", "ruldru" },
	};
	int rank[4];   /* frame move -> its place in the caller's order */
	for (int k = 0; k < 4; k++)
		rank[e->order[k]] = k;
	memset(e->forbidden, 0, sizeof e->forbidden);
	for (int p = 0; p < 4; p++) {
		unsigned code[2] = { 0, 0 };
		int larger = -1;
		for (int i = 0; i < 6; i++) {
			int a = sdb_move_from_letter(pairs[p][0][i]), b = sdb_move_from_letter(pairs[p][1][i]);
			code[0] = code[0] << 2 | (unsigned)a;
			code[1] = code[1] << 2 | (unsigned)b;
			if (larger < 0 && a != b)
				larger = rank[a] > rank[b] ? 0 : 1;
		}
		e->forbidden[code[larger] >> 3] |= (uint8_t)(1u << (code[larger] & 7));
	}
}

static int engine_init(engine *e, const sdb_heuristic *h, const sdb_frame *frame,
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
	e->move_back = frame->move_back;
	build_forbidden(e);
	return SDB_OK;
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
		uint64_t i = sdbi_pattern_rank_cells(e->h->pattern[g], v->cell, v->mask[g], blank);
		v->sum[e->h->set_of[g]] += v->part[g] = (uint8_t)entry(e, g, i, v->md[g]);
	}
}

/* The largest bound of a state's views and sets. */
static inline int best_of(const engine *e, const view *v)
{
	int best = 0;
	for (int vi = 0; vi < e->views; vi++)
		for (int set = 0; set < e->nsets; set++)
			best = v[vi].sum[set] > best ? v[vi].sum[set] : best;
	return best;
}

static int worker_start(worker *w, shared *s, const sdb_frame *frame, const sdb_board *start)
{
	const engine *e = s->e;
	memset(w, 0, sizeof *w);
	w->s = s;
	w->e = e;
	w->subtree = -1;
	sdb_board plain;
	sdb_frame_board(frame, &plain, start);
	w->blank = plain.blank;
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
	return best_of(e, w->v);
}

/* What a move changed in the views, to change it back. */
typedef struct undo {
	uint8_t md[2][SDB_MAX_SETS], part[2][SDB_MAX_SETS];
	int sum[2][SDB_MAX_SETS];
} undo;

/* Tile t slides from cell a into the blank's cell b of view vi; i[set] is
 * the new index of the tile's group in each set (child_index). */
static inline void view_move(const engine *e, view *v, int vi, int t, int a, int b,
                             const uint64_t *i, undo *u)
{
	v->cell[b] = (uint8_t)t;
	v->cell[a] = 0;
	for (int set = 0; set < e->nsets; set++) {
		const int g = e->group[set][t];
		u->sum[vi][set] = v->sum[set];
		if (g < 0)
			continue;
		u->md[vi][set] = v->md[g];
		u->part[vi][set] = v->part[g];
		v->mask[g] ^= 1ull << a | 1ull << b;
		v->md[g] = (uint8_t)(v->md[g] + e->dist[t][b] - e->dist[t][a]);
		const int value = entry(e, g, i[set], v->md[g]);
		v->sum[set] += value - v->part[g];
		v->part[g] = (uint8_t)value;
	}
}

static inline void view_unmove(const engine *e, view *v, int vi, int t, int a, int b,
                               const undo *u)
{
	v->cell[a] = (uint8_t)t;
	v->cell[b] = 0;
	for (int set = 0; set < e->nsets; set++) {
		const int g = e->group[set][t];
		v->sum[set] = u->sum[vi][set];
		if (g < 0)
			continue;
		v->mask[g] ^= 1ull << a | 1ull << b;
		v->md[g] = u->md[vi][set];
		v->part[g] = u->part[vi][set];
	}
}

/* The index of the moved tile's group in a view after the tile slides from
 * cell a into the blank's cell b (the cells put back after ranking), its
 * table line prefetched: the children's entries are fetched before the
 * first child is read, so that their cache misses overlap. */
static inline uint64_t child_index(const engine *e, view *v, int g, int t, int a, int b)
{
	if (g < 0)
		return 0;
	v->cell[b] = (uint8_t)t;
	v->cell[a] = 0;
	const uint64_t i = sdbi_pattern_rank_cells(e->h->pattern[g], v->cell,
	                                           v->mask[g] ^ (1ull << a | 1ull << b), a);
	v->cell[a] = (uint8_t)t;
	v->cell[b] = 0;
	__builtin_prefetch(e->h->data[g] + (e->h->nibbles[g] ? i >> 1 : i));
	return i;
}

/* A child's indices in every view and set, fetched ahead. */
typedef struct child {
	uint64_t i[2][SDB_MAX_SETS];
} child;

/* The indices of view vi's sets from set `first` on. */
static inline void child_view(worker *w, int vi, int first, int to, child *c)
{
	const engine *e = w->e;
	const int b = w->blank, t = w->v[0].cell[to];
	const int tl = vi ? e->mlabel[t] : t, a = vi ? e->tcell[to] : to, bb = vi ? e->tcell[b] : b;
	for (int set = first; set < e->nsets; set++)
		c->i[vi][set] = child_index(e, &w->v[vi], e->group[set][tl], tl, a, bb);
}

static inline void prefetch_child(worker *w, int to, child *c)
{
	for (int vi = 0; vi < w->e->views; vi++)
		child_view(w, vi, 0, to, c);
}

/* Move the blank (frame move m to cell to); the new h. */
static inline int apply(worker *w, int g, int m, int to, const child *c, undo *u)
{
	const engine *e = w->e;
	if (e->manhattan) {
		w->hs[g + 1] = w->hs[g];
		w->blank = to;
		return sdbi_heuristic_move_frame(e->h, &w->hs[g + 1], m);
	}
	const int b = w->blank, t = w->v[0].cell[to];
	view_move(e, &w->v[0], 0, t, to, b, c->i[0], u);
	if (e->views == 2)
		view_move(e, &w->v[1], 1, e->mlabel[t], e->tcell[to], e->tcell[b], c->i[1], u);
	w->blank = to;
	return best_of(e, w->v);
}

/* apply() for a move whose child was not prefetched. */
static inline int apply_now(worker *w, int g, int m, int to, undo *u)
{
	child c;
	if (!w->e->manhattan)
		prefetch_child(w, to, &c);
	return apply(w, g, m, to, &c, u);
}

static inline void unapply(worker *w, int from, const undo *u)
{
	const engine *e = w->e;
	const int to = w->blank;
	w->blank = from;
	if (e->manhattan)
		return;
	const int t = w->v[0].cell[from];
	view_unmove(e, &w->v[0], 0, t, to, from, u);
	if (e->views == 2)
		view_unmove(e, &w->v[1], 1, e->mlabel[t], e->tcell[to], e->tcell[from], u);
}

/* Every CHECK_EVERY nodes: the clock, and (calling thread only) the
 * caller's poll. 1 to stop. */
static int checkpoint(worker *w)
{
	shared *s = w->s;
	const double t = now();
	if (s->deadline > 0 && t > s->deadline)
		return 1;
	if (w->main_thread && s->limits && s->limits->poll) {
		const sdb_search_progress p = { atomic_load_explicit(&s->nodes, memory_order_relaxed) +
		                                w->pending, w->bound, t - s->started };
		if (s->limits->poll(s->limits->poll_ctx, &p))
			return s->polled_stop = 1;
	}
	return 0;
}

static int visit(worker *w, int g);

/* Count a node; STOPPED at a limit, ABANDONED when an earlier subtree has
 * found a solution. The shared count is published every PUBLISH_EVERY nodes
 * a thread, so several threads may pass max_nodes by that much each. */
static inline int count_node(worker *w)
{
	shared *s = w->s;
	if (s->max_nodes &&
	    w->pending + atomic_load_explicit(&s->nodes, memory_order_relaxed) >= s->max_nodes) {
		atomic_store(&s->stop, STOPPED);
		return STOPPED;
	}
	w->nodes++;
	if (++w->pending < PUBLISH_EVERY)
		return 0;
	atomic_fetch_add_explicit(&s->nodes, w->pending, memory_order_relaxed);
	w->pending = 0;
	if (++w->publishes % (CHECK_EVERY / PUBLISH_EVERY) == 0 && checkpoint(w))
		atomic_store(&s->stop, STOPPED);
	if (atomic_load_explicit(&s->stop, memory_order_relaxed))
		return STOPPED;
	if (w->subtree >= 0 && atomic_load_explicit(&s->first_found, memory_order_relaxed) < w->subtree)
		return ABANDONED;
	return 0;
}

static int dfs(worker *w, int g, int prev, unsigned hist)
{
	const engine *e = w->e;
	if (w->blank == e->goal_blank && (e->manhattan
	        ? !memcmp(w->hs[g].board[0].cell, e->goal, (size_t)e->n)
	        : !memcmp(w->v[0].cell, e->goal, (size_t)e->n))) {
		w->found_depth = g;
		return w->s->en ? visit(w, g) : FOUND;
	}
	if (g >= SDB_MAX_MOVES)
		return 0;
	int r = count_node(w);
	if (r)
		return r;
	const int b = w->blank;
	int to[4];
	child c[4];
	for (int k = 0; k < 4; k++) {
		const int m = e->order[k];
		to[k] = e->nbr[b][m];
		if (to[k] >= 0 && m == (prev ^ 1))
			to[k] = -1;   /* u^1 = d, l^1 = r */
		if (to[k] >= 0 && w->s->prune && g >= 5) {
			const unsigned code = (hist << 2 | (unsigned)m) & 0xfff;
			if (e->forbidden[code >> 3] >> (code & 7) & 1)
				to[k] = -1;
		}
		if (to[k] >= 0 && !e->manhattan)
			c[k].i[0][0] = child_index(e, &w->v[0], e->group[0][w->v[0].cell[to[k]]],
			                           w->v[0].cell[to[k]], to[k], b);
	}
	/* The other views' and sets' entries are read only for children the
	 * plain board's first set does not already cut: every child's first
	 * entry is fetched, then the survivors' others. (A cut by one bound
	 * offers the next iteration a lower f; with every tile in a group each
	 * bound has the distance's parity, so it is still the next bound.) */
	if (!e->manhattan && (e->views > 1 || e->nsets > 1)) {
		const view *v = &w->v[0];
		for (int k = 0; k < 4; k++) {
			if (to[k] < 0)
				continue;
			const int t = v->cell[to[k]], gr = e->group[0][t];
			int h0 = v->sum[0];
			if (gr >= 0)
				h0 += entry(e, gr, c[k].i[0][0], v->md[gr] + e->dist[t][b] - e->dist[t][to[k]]) -
				      v->part[gr];
			if (g + 1 + h0 > w->bound) {
				if (g + 1 + h0 < w->next_bound)
					w->next_bound = g + 1 + h0;
				to[k] = -1;
				continue;
			}
			child_view(w, 0, 1, to[k], &c[k]);
			if (e->views == 2)
				child_view(w, 1, 0, to[k], &c[k]);
		}
	}
	for (int k = 0; k < 4; k++) {
		if (to[k] < 0)
			continue;
		const int m = e->order[k];
		undo u;
		const int f = g + 1 + apply(w, g, m, to[k], &c[k], &u);
		if (f > w->bound) {
			if (f < w->next_bound)
				w->next_bound = f;
			unapply(w, b, &u);
			continue;
		}
		w->path[g] = (uint8_t)m;
		r = dfs(w, g + 1, m, hist << 2 | (unsigned)m);
		unapply(w, b, &u);
		if (r == NEXT_FIRST && g == 0)
			continue;   /* this first move is known to be optimal: try the next */
		if (r)
			return r;
	}
	return 0;
}

/* An optimal sequence found while enumerating at the optimal bound. */
static int visit(worker *w, int g)
{
	sdbi_optimal *en = w->s->en;
	const uint8_t *back = w->e->move_back;
	if (g > 0)
		en->best_moves |= 1u << back[w->path[0]];
	if (en->count_all && sdbi_count_add(&en->count, 1))
		return STOPPED;   /* cannot happen below 2^128 sequences; stop rather than wrap */
	if (en->emitted < en->limit) {
		char moves[SDB_MAX_MOVES + 1];
		for (int k = 0; k < g; k++)
			moves[k] = sdb_move_letter(back[w->path[k]]);
		moves[g] = '\0';
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

typedef struct frontier {
	uint8_t *paths;
	int n, cap, depth;
	int goal_at;   /* the subtree index a goal above the depth takes, or -1 */
	uint8_t goal_path[SDB_MAX_MOVES];
	int goal_depth;
} frontier;

/* The nodes at depth f->depth within the bound, in order, as paths; a goal
 * met on the way is a subtree of its own, in its place. */
static int collect(worker *w, frontier *f, int g, int prev, unsigned hist)
{
	const engine *e = w->e;
	if (f->goal_at < 0 && w->blank == e->goal_blank && !e->manhattan &&
	    !memcmp(w->v[0].cell, e->goal, (size_t)e->n)) {
		f->goal_at = f->n;
		f->goal_depth = g;
		memcpy(f->goal_path, w->path, (size_t)g);
		return 0;
	}
	if (g == f->depth) {
		if (f->n == f->cap) {
			int cap = f->cap ? 2 * f->cap : 1024;
			uint8_t *more = realloc(f->paths, (size_t)cap * (size_t)f->depth);
			if (!more)
				return SDB_ENOMEM;
			f->paths = more;
			f->cap = cap;
		}
		memcpy(f->paths + (size_t)f->n * (size_t)f->depth, w->path, (size_t)f->depth);
		f->n++;
		return 0;
	}
	w->nodes++;
	w->pending++;
	const int b = w->blank;
	for (int k = 0; k < 4; k++) {
		const int m = e->order[k], to = e->nbr[b][m];
		if (to < 0 || m == (prev ^ 1))
			continue;
		const unsigned code = (hist << 2 | (unsigned)m) & 0xfff;
		if (g >= 5 && (e->forbidden[code >> 3] >> (code & 7) & 1))
			continue;
		undo u;
		const int fv = g + 1 + apply_now(w, g, m, to, &u);
		int err = 0;
		if (fv > w->bound) {
			if (fv < w->next_bound)
				w->next_bound = fv;
		} else {
			w->path[g] = (uint8_t)m;
			err = collect(w, f, g + 1, m, hist << 2 | (unsigned)m);
		}
		unapply(w, b, &u);
		if (err)
			return err;
	}
	return 0;
}

typedef struct thread_arg {
	worker w;
	int started;   /* a thread of its own was started for it */
	int result;
} thread_arg;

/* Take subtrees in order until none is left, or an earlier one has found. */
static void *run_subtrees(void *p)
{
	thread_arg *ta = p;
	worker *w = &ta->w;
	shared *s = w->s;
	const int depth = s->depth;
	ta->result = 0;
	for (;;) {
		const int i = atomic_fetch_add(&s->next, 1);
		if (i >= s->nsubtrees || i > atomic_load(&s->first_found) || atomic_load(&s->stop))
			break;
		const uint8_t *path = s->subtrees + (size_t)i * (size_t)depth;
		undo u[64];
		int from[64], prev = -1;
		unsigned hist = 0;
		for (int g = 0; g < depth; g++) {
			const int m = path[g];
			from[g] = w->blank;
			apply_now(w, g, m, w->e->nbr[w->blank][m], &u[g]);
			w->path[g] = (uint8_t)m;
			prev = m;
			hist = hist << 2 | (unsigned)m;
		}
		w->subtree = i;
		const int r = dfs(w, depth, prev, hist);
		for (int g = depth - 1; g >= 0; g--)
			unapply(w, from[g], &u[g]);
		if (r == FOUND) {
			pthread_mutex_lock(&s->lock);
			if (i < atomic_load(&s->first_found)) {
				atomic_store(&s->first_found, i);
				memcpy(s->found_path, w->path, (size_t)w->found_depth);
				s->found_depth = w->found_depth;
			}
			pthread_mutex_unlock(&s->lock);
		} else if (r == STOPPED) {
			ta->result = STOPPED;
			break;
		}
	}
	atomic_fetch_add(&s->nodes, w->pending);
	w->pending = 0;
	return NULL;
}

/* One iteration at w's bound on `threads` threads. FOUND (the path in
 * w->path, its length in w->found_depth), STOPPED, 0, or an error. */
static int parallel_iteration(worker *w, int threads, frontier *f)
{
	shared *s = w->s;
	/* a depth that gives enough subtrees to balance the threads */
	f->depth = 0;
	for (int depth = 4;; depth += 2) {
		free(f->paths);   /* room is counted in paths of the depth */
		f->paths = NULL;
		f->n = f->cap = 0;
		f->depth = depth;
		f->goal_at = -1;
		w->next_bound = INT_MAX;
		int err = collect(w, f, 0, -1, 0);
		atomic_fetch_add(&s->nodes, w->pending);
		w->pending = 0;
		if (err)
			return sdbi_fail(err, "out of memory");
		if (f->goal_at >= 0 || f->n == 0 || f->n >= SUBTREES_PER_THREAD * threads ||
		    depth + 2 > w->bound || depth + 2 > 40)
			break;
	}
	if (f->goal_at >= 0 && f->goal_at == 0) {
		memcpy(w->path, f->goal_path, (size_t)f->goal_depth);
		w->found_depth = f->goal_depth;
		return FOUND;
	}
	const int nsub = f->goal_at >= 0 ? f->goal_at : f->n;   /* a goal ends the list */
	s->subtrees = f->paths;
	s->depth = f->depth;
	s->nsubtrees = nsub;
	atomic_store(&s->next, 0);
	atomic_store(&s->first_found, INT_MAX);
	thread_arg *ta = calloc((size_t)threads, sizeof *ta);
	pthread_t *tid = calloc((size_t)threads, sizeof *tid);
	if (!ta || !tid) {
		free(ta);
		free(tid);
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	}
	for (int i = 0; i < threads; i++) {
		ta[i].w = *w;   /* the root state, the bound */
		ta[i].w.nodes = ta[i].w.pending = 0;
		ta[i].w.next_bound = INT_MAX;
		ta[i].w.main_thread = i == 0;
	}
	/* a thread that cannot be started leaves its share to the others */
	for (int i = 1; i < threads; i++)
		ta[i].started = pthread_create(&tid[i], NULL, run_subtrees, &ta[i]) == 0;
	run_subtrees(&ta[0]);
	int result = 0, next = w->next_bound;
	uint64_t nodes = 0;
	for (int i = 0; i < threads; i++) {
		if (ta[i].started)
			pthread_join(tid[i], NULL);
		nodes += ta[i].w.nodes;
		next = ta[i].w.next_bound < next ? ta[i].w.next_bound : next;
		result = ta[i].result == STOPPED ? STOPPED : result;
	}
	free(ta);
	free(tid);
	s->subtrees = NULL;
	w->nodes += nodes;
	w->next_bound = next;
	if (atomic_load(&s->first_found) != INT_MAX) {
		memcpy(w->path, s->found_path, (size_t)s->found_depth);
		w->found_depth = s->found_depth;
		return FOUND;
	}
	if (f->goal_at >= 0) {   /* no subtree before the goal holds a solution */
		memcpy(w->path, f->goal_path, (size_t)f->goal_depth);
		w->found_depth = f->goal_depth;
		return FOUND;
	}
	return result;
}

int sdb_solve(sdb_answer *a, sdb_solve_stats *stats, const sdb_heuristic *h,
              const sdb_board *start, const sdb_board *goal, const sdb_solve_limits *limits)
{
	return sdbi_solve_optimal(a, stats, h, start, goal, limits, NULL);
}

static int limit_error(const shared *s, uint64_t nodes, double seconds, const char *what)
{
	if (s->polled_stop)
		return sdbi_fail(SDB_ELIMIT, "search stopped by its caller (%llu nodes, %.1f s, %s)",
		                (unsigned long long)nodes, seconds, what);
	if (s->max_nodes && nodes >= s->max_nodes)
		return sdbi_fail(SDB_ELIMIT, "search stopped at its limit of %llu nodes (%.1f s, %s)",
		                (unsigned long long)s->max_nodes, seconds, what);
	if (s->limits && s->limits->timeout > 0)
		return sdbi_fail(SDB_ELIMIT, "search stopped at its time limit of %g s (%llu nodes, "
		                "%s)", s->limits->timeout, (unsigned long long)nodes, what);
	return sdbi_fail(SDB_ELIMIT, "more than 2^128 optimal solutions");
}

/* Nodes an iteration must have taken for the next to be split over the
 * threads: PARALLEL_MIN, or SLIDEDB_SPLIT_NODES (tests split every
 * iteration of small searches with 0, to compare the answers). */
static uint64_t split_nodes(void)
{
	const char *env = getenv("SLIDEDB_SPLIT_NODES");
	char *end;
	unsigned long long v = env ? strtoull(env, &end, 10) : 0;
	return env && *env && !*end ? v : PARALLEL_MIN;
}

/* Iterations from w's state until one finds the goal (or a limit). */
static int iterate(worker *w, int bound, int threads, int *last_bound)
{
	shared *s = w->s;
	frontier f = { 0 };
	const uint64_t split = split_nodes();
	uint64_t last = 0;   /* nodes of the last iteration */
	int r;
	for (;;) {
		w->bound = bound;
		w->next_bound = INT_MAX;
		const uint64_t before = w->nodes;
		if (threads > 1 && last >= split && !w->e->manhattan && !s->en) {
			r = parallel_iteration(w, threads, &f);
		} else {
			r = dfs(w, 0, -1, 0);
			atomic_fetch_add(&s->nodes, w->pending);
			w->pending = 0;
		}
		last = w->nodes - before;
		if (r || w->next_bound >= SDB_MAX_MOVES + 1)
			break;
		bound = w->next_bound;
	}
	free(f.paths);
	*last_bound = bound;
	return r;
}

int sdbi_solve_optimal(sdb_answer *a, sdb_solve_stats *stats, const sdb_heuristic *h,
                      const sdb_board *start, const sdb_board *goal,
                      const sdb_solve_limits *limits, sdbi_optimal *en)
{
	double t0 = now();
	memset(stats, 0, sizeof *stats);
	int ok = sdbi_answer_begin(a, start, goal);
	if (ok <= 0)
		return sdbi_done(ok);   /* an error, or answered: unsolvable */
	sdb_frame frame;
	int err = sdbi_heuristic_frame(h, &frame, goal);
	if (err)
		return err;
	if (start->w != h->w || start->h != h->h)
		return sdbi_fail(SDB_EINVAL, "a %dx%d board given to a heuristic of %dx%d boards",
		                start->w, start->h, h->w, h->h);
	sdb_board goal_in_frame;
	sdb_frame_board(&frame, &goal_in_frame, goal);
	engine *e = malloc(sizeof *e);
	shared *s = calloc(1, sizeof *s);
	worker *w = malloc(sizeof *w);
	if (!e || !s || !w) {
		free(e);
		free(s);
		free(w);
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	}
	engine_init(e, h, &frame, &goal_in_frame);
	s->e = e;
	s->started = t0;
	s->prune = 1;
	pthread_mutex_init(&s->lock, NULL);
	atomic_init(&s->first_found, INT_MAX);
	int threads = 1;
	if (limits) {
		s->limits = limits;
		s->max_nodes = limits->max_nodes;
		s->deadline = limits->timeout > 0 ? t0 + limits->timeout : 0;
		threads = limits->threads < 1 ? 1 : limits->threads > MAX_THREADS ? MAX_THREADS
		          : limits->threads;
	}
	int bound = stats->heuristic = worker_start(w, s, &frame, start);
	w->main_thread = 1;
	int r = bound;
	if (bound >= 0)
		r = iterate(w, bound, threads, &bound);
	const uint64_t nodes = atomic_load(&s->nodes);
	stats->nodes = nodes;
	stats->seconds = now() - t0;
	char what[64];
	snprintf(what, sizeof what, "no solution within %d moves", bound - 1);
	if (r < 0)
		err = r;
	else if (r == STOPPED)
		err = limit_error(s, nodes, stats->seconds, what);
	else if (r != FOUND)
		err = sdbi_fail(SDB_ELIMIT, "no solution within %d moves", SDB_MAX_MOVES);
	if (!err) {
		/* The answer is what was found: the depth at the goal and the path
		 * to it (the bound can only differ if the heuristic overestimates). */
		const int depth = w->found_depth;
		a->solvable = 1;
		a->distance = depth;
		for (int k = 0; k < depth; k++)
			a->moves[k] = sdb_move_letter(frame.move_back[w->path[k]]);
		a->moves[depth] = '\0';
		a->best_move = depth ? frame.move_back[w->path[0]] : -1;
		a->method = SDB_METHOD_SEARCH;
		a->nodes = nodes;
		a->heuristic = stats->heuristic;
		a->heuristic_name = sdb_heuristic_name(h);
	}
	if (!err && en) {
		/* Every optimal sequence has exactly depth moves: search that bound
		 * once more, pruning only inverse moves, and visit them all (or as
		 * many as wanted). */
		s->en = en;
		s->prune = 0;
		w->bound = a->distance;
		w->next_bound = INT_MAX;
		r = dfs(w, 0, -1, 0);
		atomic_fetch_add(&s->nodes, w->pending);
		w->pending = 0;
		stats->nodes = a->nodes = atomic_load(&s->nodes);
		stats->seconds = now() - t0;
		if (r == STOPPED)
			err = limit_error(s, stats->nodes, stats->seconds, "while counting the optimal "
			                  "solutions");
	}
	pthread_mutex_destroy(&s->lock);
	free(w->hs);
	free(e);
	free(s);
	free(w);
	return err ? err : sdbi_done(SDB_OK);
}
