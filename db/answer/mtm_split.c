/* SPDX-License-Identifier: MIT */
/* The multi-tile metric's heuristic past the full tables: each tile a slide
 * of k cells moves pays 1/k of the move.
 *
 * Additive pattern databases of the single-tile metric are not admissible
 * in this metric: one move may carry tiles of several groups, and each
 * group's table would count it. Here a group pays for a slide only its
 * tiles' share of it, (its tiles in the slide) / k, so that the groups'
 * payments for one slide sum to at most one move: the sum of their tables,
 * rounded up, never overestimates. A group's table is a shortest-path
 * search over its tiles' cells and the region of free cells that holds the
 * blank (slides that move none of its tiles are free, and keep the blank
 * in its region), from the goal, in 1/unit of a move, unit = lcm(1 .. run)
 * (6 on a 4x4, whose slides are 1 to 3 cells). The search also reads the
 * tables on the position reflected about the main diagonal where the goal
 * allows (engine_mtm.c).
 *
 * The choice was measured (bench/mtm15.c, doc/design.md "The multi-tile
 * metric"): on Korf's 100 the split 5-5-5 tables bound 15.3 of about 33
 * moves at the start, 15.5 with the mirror; a group paying 1 for every
 * slide of its tiles and the groups maxed bound 11.2, the group of the
 * first tile moved paying the whole slide 11.5. Tables are built in memory
 * on the first search of a database handle that needs them, every group on
 * every thread in turn: 5-5-5 on a 4x4 in under a second (2 MB), or 7-8
 * (sdb_tuning's mtm_split_7_8, heuristic.c) in minutes (1.6 GB), which
 * expands a ninetieth of 5-5-5's nodes (bench/RESULTS.md). The region
 * form makes 7-8 fit: its group of 8 with the blank's exact cell has 4.2
 * billion states, with the blank's region 1.4 billion. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "answer/mtm_split.h"

enum { CHUNK = 4096, AHEAD = 16, MAX_THREADS = 64 };

/* A growing list of indices: one bucket of the queue. */
typedef struct bucket {
	uint32_t *v;
	size_t n, cap;
} bucket;

static int push(bucket *b, uint32_t v)
{
	if (b->n == b->cap) {
		const size_t cap = b->cap ? 2 * b->cap : 4096;
		uint32_t *more = realloc(b->v, cap * sizeof *more);
		if (!more)
			return -1;
		b->v = more;
		b->cap = cap;
	}
	b->v[b->n++] = v;
	return 0;
}

/* One group's search, shared by its threads: a ring of unit + 1 buckets a
 * thread (costs 1 .. unit: a slide moves at least one of the group's
 * tiles, or it stays in the state), a level at a time; every thread takes
 * chunks of the level's buckets, all threads', and pushes what it improves
 * into its own. */
typedef struct search {
	const sdbi_mtm_split *t;
	const sdbi_mtm_group *g;
	uint16_t *dist;
	int threads, nb;
	bucket *q;                      /* q[thread * nb + slot] */
	pthread_barrier_t level;         /* between levels, for the threads that began */
	unsigned d;                     /* the level under way */
	size_t claimed;                 /* chunks of the level taken (atomic) */
	int done, err;
	pthread_mutex_t gate;           /* threads wait here until open */
	pthread_cond_t opened;
	int open;
} search;

typedef struct member {
	search *s;
	int id;
} member;

/* Lower u's entry to nd if that is lower; push it when it is. */
static int relax(search *s, int id, uint32_t u, unsigned nd)
{
	uint16_t old = __atomic_load_n(&s->dist[u], __ATOMIC_RELAXED);
	while (nd < old)
		if (__atomic_compare_exchange_n(&s->dist[u], &old, (uint16_t)nd, 1, __ATOMIC_RELAXED,
		                                __ATOMIC_RELAXED))
			return push(&s->q[id * s->nb + nd % (unsigned)s->nb], u);
	return 0;
}

/* Every slide from state u, whose entry is d: the blank from any cell of
 * its region, 1 .. run cells in a direction, the tiles on the way shifted
 * one cell towards where it was (slides are undone by the same tiles, so
 * the search from the goal outwards finds the distances to it). A slide
 * with a free cell (one of the region's) just past either end is left
 * out where it could take that cell too: the same state at a smaller
 * share, the same of the group's tiles over more cells. Each state's
 * entries are fetched together before any is read: the search waits on
 * memory (a table of 2.9 GB for 7-8's group of 8). */
static int expand(search *s, int id, uint32_t u, unsigned d)
{
	const sdbi_mtm_group *g = s->g;
	const sdb_pattern *p = g->p;
	const int run = s->t->run;
	const uint32_t block = u / p->kfact;
	const uint64_t mask = p->comb_mask[p->block_comb[block]], region = p->block_cells[block];
	uint8_t seq[SDB_MAX_PATTERN], at[SDBI_MTM_MAX_CELLS];
	sdbi_pattern_order_slots(p, u - (uint64_t)block * p->kfact, seq);
	int j = 0;
	for (uint64_t rest = mask; rest; rest &= rest - 1)
		at[__builtin_ctzll(rest)] = g->tile[seq[j++]];
	uint32_t to[SDBI_MTM_MAX_CELLS * 4 * SDBI_MTM_MAX_CELLS];   /* the slides' states, */
	uint16_t cost[SDBI_MTM_MAX_CELLS * 4 * SDBI_MTM_MAX_CELLS];  /* and their entries */
	int n = 0;
	for (uint64_t free = region; free; free &= free - 1) {
		const int x = __builtin_ctzll(free);
		for (int m = 0; m < 4; m++) {
			const int back = p->nbr[x][m ^ 1];   /* (u d, l r: opposite pairs) */
			const int shortest = back >= 0 && (region >> back & 1) ? run : 1;
			uint8_t nat[SDBI_MTM_MAX_CELLS];
			memcpy(nat, at, sizeof nat);
			uint64_t nmask = mask;
			int prev = x, inside = 0;
			for (int len = 1; len <= run; len++) {
				const int y = p->nbr[prev][m];
				if (y < 0)
					break;
				if (nmask >> y & 1) {   /* one of the group's tiles: y to prev */
					nmask ^= 1ull << y | 1ull << prev;
					nat[prev] = nat[y];
					inside++;
				}
				prev = y;
				const int next = p->nbr[y][m];
				if (!inside || len < shortest ||
				    (len < run && next >= 0 && !(mask >> next & 1)))
					continue;   /* the same state, or it again at less */
				const unsigned nd = d + (unsigned)(s->t->unit * inside / len);
				if (nd >= UINT16_MAX)
					return SDB_ETOOBIG;
				uint32_t comb, order;
				sdbi_pattern_rank_parts(p, nat, nmask, &comb, &order);
				to[n] = (uint32_t)sdbi_pattern_index_of(p, comb, order, y);
				__builtin_prefetch(&s->dist[to[n]]);
				cost[n++] = (uint16_t)nd;
			}
		}
	}
	for (int i = 0; i < n; i++)   /* (fetched: one wait for all, not one each) */
		if (relax(s, id, to[i], cost[i]))
			return SDB_ENOMEM;
	return SDB_OK;
}

static void *run_search(void *arg)
{
	const member *me = arg;
	search *s = me->s;
	pthread_mutex_lock(&s->gate);
	while (!s->open)
		pthread_cond_wait(&s->opened, &s->gate);
	const int failed = s->err;
	pthread_mutex_unlock(&s->gate);
	if (failed)
		return NULL;
	for (;;) {
		const unsigned slot = s->d % (unsigned)s->nb;
		for (;;) {   /* chunks of the level's buckets, every thread's in turn */
			size_t chunk = __atomic_fetch_add(&s->claimed, 1, __ATOMIC_RELAXED);
			int owner = 0, err = SDB_OK;
			for (; owner < s->threads; owner++) {
				const size_t chunks = (s->q[owner * s->nb + slot].n + CHUNK - 1) / CHUNK;
				if (chunk < chunks)
					break;
				chunk -= chunks;
			}
			if (owner == s->threads || __atomic_load_n(&s->err, __ATOMIC_RELAXED))
				break;
			const bucket *b = &s->q[owner * s->nb + slot];
			const size_t at = chunk * CHUNK, end = at + CHUNK < b->n ? at + CHUNK : b->n;
			for (size_t i = at; i < end && !err; i++) {
				if (i + AHEAD < end)   /* the entries are scattered: fetch ahead */
					__builtin_prefetch(&s->dist[b->v[i + AHEAD]]);
				if (__atomic_load_n(&s->dist[b->v[i]], __ATOMIC_RELAXED) == s->d)
					err = expand(s, me->id, b->v[i], s->d);   /* else improved since pushed */
			}
			if (err)
				__atomic_store_n(&s->err, err, __ATOMIC_RELAXED);
		}
		if (pthread_barrier_wait(&s->level) == PTHREAD_BARRIER_SERIAL_THREAD) {
			size_t pending = 0;
			for (int i = 0; i < s->threads; i++) {
				s->q[i * s->nb + slot].n = 0;
				for (int k = 0; k < s->nb; k++)
					pending += s->q[i * s->nb + k].n;
			}
			s->done = !pending || s->err;
			s->d++;
			s->claimed = 0;
		}
		pthread_barrier_wait(&s->level);
		if (s->done)
			return NULL;
	}
}

/* Group g's table, from the goal outwards, on up to threads threads. */
static int build_group(const sdbi_mtm_split *t, sdbi_mtm_group *g, int threads)
{
	const uint64_t size = sdb_pattern_size(g->p);
	if (size > UINT32_MAX)
		return SDB_ETOOBIG;
	if (!(g->dist = malloc(size * sizeof *g->dist)))
		return SDB_ENOMEM;
	memset(g->dist, 0xff, size * sizeof *g->dist);
	if (threads > (int)(size / 65536) + 1)   /* small tables: fewer threads than levels' barriers */
		threads = (int)(size / 65536) + 1;
	threads = threads > MAX_THREADS ? MAX_THREADS : threads;
	search s = { .t = t, .g = g, .dist = g->dist, .threads = threads, .nb = t->unit + 1,
	             .gate = PTHREAD_MUTEX_INITIALIZER, .opened = PTHREAD_COND_INITIALIZER };
	if (!(s.q = calloc((size_t)threads * (size_t)s.nb, sizeof *s.q)))
		return SDB_ENOMEM;
	const uint32_t goal = (uint32_t)sdb_pattern_goal_index(g->p);
	g->dist[goal] = 0;
	int err = push(&s.q[0], goal) ? SDB_ENOMEM : SDB_OK;
	/* the threads wait at a gate until the count that began is known: the
	 * barrier is made for that count */
	pthread_t tid[MAX_THREADS];
	member who[MAX_THREADS];
	int began = 1;
	pthread_mutex_lock(&s.gate);
	for (; !err && began < threads; began++) {
		who[began] = (member){ &s, began };
		if (pthread_create(&tid[began], NULL, run_search, &who[began]))
			break;
	}
	s.threads = began;
	if (!err && pthread_barrier_init(&s.level, NULL, (unsigned)began))
		err = s.err = SDB_ENOMEM;   /* the threads begun see it and end at once */
	s.open = 1;
	pthread_cond_broadcast(&s.opened);
	pthread_mutex_unlock(&s.gate);
	who[0] = (member){ &s, 0 };
	if (!err)
		run_search(&who[0]);
	for (int i = 1; i < began; i++)
		pthread_join(tid[i], NULL);
	if (!err)
		pthread_barrier_destroy(&s.level);
	err = err ? err : s.err;
	for (int i = 0; i < threads * s.nb; i++)
		free(s.q[i].v);
	free(s.q);
	return err;
}

static int gcd(int a, int b)
{
	return b ? gcd(b, a % b) : a;
}

/* The groups, given as cells of the goal with the blank top left (tile t
 * home at cell t) and turned with the corner where the goal's blank is home:
 * 5-5-5, the measured best of its size (bench/mtm15.c), and 7-8, the blank's
 * two rows and the others (as the single-tile metric's strongest 4x4 set). */
static const struct corner_spec {
	const char *name;
	int groups, size[3];
	int cell[15];
} corner_specs[] = {
	{ "5-5-5", 3, { 5, 5, 5 }, { 1, 2, 3, 6, 7, 4, 5, 8, 9, 12, 10, 11, 13, 14, 15 } },
	{ "7-8", 2, { 7, 8 }, { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 } },
};
enum { DEFAULT_GROUP = 5 };   /* tiles a group elsewhere: reading order */
/* Tables past this many bytes miss the caches on most reads: the search
 * then fetches every child's entries first (7-8's 1.5 GB; 5-5-5's 2 MB are
 * read from the caches, where the fetches would only cost) */
#define FETCH_AHEAD_BYTES (64u << 20)

static int partition(sdbi_mtm_split *t, const sdb_board *goal, const char *spec)
{
	const struct corner_spec *cs = NULL;
	for (size_t i = 0; i < sizeof corner_specs / sizeof *corner_specs; i++)
		if (!strcmp(spec ? spec : corner_specs[0].name, corner_specs[i].name))
			cs = &corner_specs[i];
	if (!cs)
		return sdbi_fail(SDB_EINVAL, "'%s': the multi-tile split tables are %s (the default) or "
		                 "%s", spec, corner_specs[0].name, corner_specs[1].name);
	int cells[SDBI_MTM_MAX_CELLS], n = 0, size[SDBI_MTM_MAX_GROUPS];
	int s = -1;
	for (int sym = 0; goal->w == 4 && goal->h == 4 && sym < 8 && s < 0; sym++)
		if (sdb_sym_cell(4, 4, sym, 0) == goal->blank)
			s = sym;
	if (s >= 0) {
		for (int i = 0; i < 15; i++)
			cells[n++] = sdb_sym_cell(4, 4, s, cs->cell[i]);
		t->ngroups = cs->groups;
		memcpy(size, cs->size, sizeof cs->size);
	} else {   /* (the named groups are a 4x4 corner's: other goals have these) */
		for (int c = 0; c < goal->n; c++)
			if (c != goal->blank)
				cells[n++] = c;
		t->ngroups = (n + DEFAULT_GROUP - 1) / DEFAULT_GROUP;
		for (int g = 0, at = 0; g < t->ngroups; at += size[g++])
			size[g] = (n - at) / (t->ngroups - g);
	}
	char *p = t->partition;
	for (int g = 0, at = 0; g < t->ngroups; g++) {
		uint8_t tiles[SDB_MAX_PATTERN];
		for (int i = 0; i < size[g]; i++)
			tiles[i] = goal->cell[cells[at++]];
		for (int i = 0; i < size[g]; i++)
			p += sprintf(p, "%s%d", i ? "," : g ? "/" : "", tiles[i]);
		uint64_t mask = 0;   /* slot i is the i-th smallest tile (sdb_pattern's) */
		for (int i = 0; i < size[g]; i++)
			mask |= 1ull << tiles[i];
		t->g[g].k = size[g];
		for (int i = 0; mask; mask &= mask - 1)
			t->g[g].tile[i++] = (uint8_t)__builtin_ctzll(mask);
	}
	return SDB_OK;
}

/* Group g's table in bytes if every entry fits one. */
static int narrow(sdbi_mtm_split *t, sdbi_mtm_group *g)
{
	const uint64_t size = sdb_pattern_size(g->p);
	for (uint64_t i = 0; i < size; i++)
		if (g->dist[i] == UINT16_MAX)
			g->dist[i] = 0;   /* no state of the board has it: never read */
		else if (g->dist[i] > UINT8_MAX)
			return SDB_OK;
	uint8_t *b = malloc(size);
	if (!b)
		return SDB_ENOMEM;
	for (uint64_t i = 0; i < size; i++)
		b[i] = (uint8_t)g->dist[i];
	free(g->dist);
	g->dist = NULL;
	g->narrow = b;
	t->bytes -= size;
	return SDB_OK;
}

int sdbi_mtm_split_build(sdbi_mtm_split **out, const sdb_board *goal, const char *spec,
                         int threads)
{
	*out = NULL;
	if (goal->n > SDBI_MTM_MAX_CELLS)
		return sdbi_fail(SDB_ETOOBIG, "%dx%d has %d cells: the multi-tile search stops at %d",
		                 goal->w, goal->h, goal->n, SDBI_MTM_MAX_CELLS);
	sdbi_mtm_split *t = calloc(1, sizeof *t);
	if (!t)
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	t->w = goal->w;
	t->h = goal->h;
	t->n = goal->n;
	t->run = sdb_mtm_run(goal->w, goal->h);
	t->unit = 1;
	for (int k = 2; k <= t->run; k++)
		t->unit = t->unit / gcd(t->unit, k) * k;
	int err = partition(t, goal, spec);
	if (err) {
		free(t);
		return err;
	}
	for (int i = 0; i < t->ngroups && !err; i++) {
		sdbi_mtm_group *g = &t->g[i];
		uint64_t tiles = 0;
		for (int j = 0; j < g->k; j++)
			tiles |= 1ull << g->tile[j];
		if ((err = sdb_pattern_new(&g->p, goal, tiles, SDB_BLANK_REGION))) {
			sdbi_mtm_split_free(t);
			return err;   /* (its detail said) */
		}
		t->bytes += sdb_pattern_size(g->p) * sizeof *g->dist;
		if (!(err = build_group(t, g, threads < 1 ? 1 : threads)))
			err = narrow(t, g);
	}
	t->fetch_ahead = t->bytes > FETCH_AHEAD_BYTES;
	if (err) {
		sdbi_mtm_split_free(t);
		return err == SDB_ETOOBIG
		       ? sdbi_fail(err, "a multi-tile split table of %dx%d passes its limits", goal->w, goal->h)
		       : sdbi_fail(err, "out of memory");
	}
	*out = t;
	return SDB_OK;
}

void sdbi_mtm_split_free(sdbi_mtm_split *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->ngroups; i++) {
		sdb_pattern_free(t->g[i].p);
		free(t->g[i].dist);
		free(t->g[i].narrow);
	}
	free(t);
}
