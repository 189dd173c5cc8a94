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
 * search over its tiles' cells and the blank's cell (slides that move none
 * of its tiles are free), from the goal, in 1/unit of a move, unit =
 * lcm(1 .. run) (6 on a 4x4, whose slides are 1 to 3 cells). The search
 * also reads the tables on the position reflected about the main diagonal
 * where the goal allows (engine_mtm.c).
 *
 * The choice was measured (bench/mtm15.c, doc/design.md "The multi-tile
 * metric"): on Korf's 100 the split 5-5-5 tables bound 15.3 of about 33
 * moves at the start, 15.5 with the mirror; a group paying 1 for every
 * slide of its tiles and the groups maxed bound 11.2, the group of the
 * first tile moved paying the whole slide 11.5. Tables are built in memory
 * on the first search of a database handle that needs them: 5-5-5 on a
 * 4x4, 17.3 MB (a byte an entry), one group a thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "answer/mtm_split.h"

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

static void cells_of(int *c, int m, int n, uint32_t idx)
{
	int r[SDBI_MTM_GROUP_MAX + 1];
	for (int i = m - 1; i >= 0; i--) {
		r[i] = (int)(idx % (uint32_t)(n - i));
		idx /= (uint32_t)(n - i);
	}
	unsigned used = 0;
	for (int i = 0; i < m; i++) {
		int cell = 0;
		for (int k = r[i];; cell++)
			if (!(used >> cell & 1) && k-- == 0)
				break;
		c[i] = cell;
		used |= 1u << cell;
	}
}

typedef struct job {
	const sdbi_mtm_split *t;
	int g, goal_blank;
	const uint8_t *goal_cell;   /* tile -> its goal cell */
	int err;
} job;

static const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { -1, 1, 0, 0 };   /* u d l r */

/* Group g's table, from the goal outwards: from a state, the blank k cells
 * away in a direction, the k tiles between shifted one cell towards the
 * blank's cell, is one slide of the same k tiles (either way: slides are
 * undone by the same tiles), and costs the group its tiles among them. */
static void *build_group(void *p)
{
	job *j = p;
	const sdbi_mtm_split *t = j->t;
	const int k = t->size[j->g], m = k + 1, w = t->w, n = t->n, unit = t->unit;
	uint16_t *dist = t->dist[j->g];
	int c[SDBI_MTM_GROUP_MAX + 1];
	for (int i = 0; i < k; i++)
		c[i] = j->goal_cell[t->tile[j->g][i]];
	c[k] = j->goal_blank;
	const int nb = unit + 1;   /* costs 0 .. unit: unit + 1 buckets in turn */
	bucket *q = calloc((size_t)nb, sizeof *q);
	if (!q) {
		j->err = SDB_ENOMEM;
		return NULL;
	}
	const uint32_t start = sdbi_mtm_index(c, m, n);
	dist[start] = 0;
	size_t pending = 1;
	if (push(&q[0], start))
		j->err = SDB_ENOMEM;
	for (unsigned d = 0; pending && !j->err; d++) {
		bucket *b = &q[d % (unsigned)nb];
		for (size_t at = 0; at < b->n && !j->err; at++) {   /* (free slides land in b itself) */
			const uint32_t s = b->v[at];
			pending--;
			if (dist[s] != d)
				continue;
			cells_of(c, m, n, s);
			int owner[SDBI_MTM_MAX_CELLS];
			memset(owner, -1, sizeof owner);
			for (int i = 0; i < k; i++)
				owner[c[i]] = i;
			const int blank = c[k];
			for (int dir = 0; dir < 4; dir++) {
				int x = blank % w, y = blank / w, nc[SDBI_MTM_GROUP_MAX + 1], inside = 0;
				memcpy(nc, c, sizeof nc);
				for (int len = 1; len <= t->run; len++) {
					x += dx[dir];
					y += dy[dir];
					if (x < 0 || y < 0 || x >= w || y >= t->h)
						break;
					const int cell = y * w + x, prev = cell - (dy[dir] * w + dx[dir]);
					if (owner[cell] >= 0) {
						nc[owner[cell]] = prev;
						inside++;
					}
					nc[k] = cell;
					const unsigned nd = d + (unsigned)(unit * inside / len);
					const uint32_t u = sdbi_mtm_index(nc, m, n);
					if (nd < dist[u]) {
						dist[u] = (uint16_t)nd;
						if (push(&q[nd % (unsigned)nb], u)) {
							j->err = SDB_ENOMEM;
							break;
						}
						pending++;
					}
				}
			}
		}
		b->n = 0;
	}
	for (int i = 0; i < nb; i++)
		free(q[i].v);
	free(q);
	return NULL;
}

static int gcd(int a, int b)
{
	return b ? gcd(b, a % b) : a;
}

/* The groups: on a 4x4 whose blank is home in a corner, the 5-5-5 measured
 * best (bench/mtm15.c: 1,2,3,6,7 / 4,5,8,9,12 / 10,11,13,14,15 of the goal
 * with the blank top left, turned with the corner); elsewhere the goal's
 * cells in reading order, in groups as even as SDBI_MTM_GROUP_MAX allows. */
static void partition(sdbi_mtm_split *t, const sdb_board *goal)
{
	static const int corner[15] = { 1, 2, 3, 6, 7, 4, 5, 8, 9, 12, 10, 11, 13, 14, 15 };
	int cells[SDBI_MTM_MAX_CELLS], n = 0;
	int s = -1;
	for (int sym = 0; goal->w == 4 && goal->h == 4 && sym < 8 && s < 0; sym++)
		if (sdb_sym_cell(4, 4, sym, 0) == goal->blank)
			s = sym;
	if (s >= 0) {
		for (int i = 0; i < 15; i++)
			cells[n++] = sdb_sym_cell(4, 4, s, corner[i]);
	} else {
		for (int c = 0; c < goal->n; c++)
			if (c != goal->blank)
				cells[n++] = c;
	}
	t->ngroups = (n + SDBI_MTM_GROUP_MAX - 1) / SDBI_MTM_GROUP_MAX;
	char *p = t->partition;
	for (int g = 0, at = 0; g < t->ngroups; g++) {
		t->size[g] = (n - at) / (t->ngroups - g);
		for (int i = 0; i < t->size[g]; i++) {
			t->tile[g][i] = goal->cell[cells[at++]];
			p += sprintf(p, "%s%d", i ? "," : g ? "/" : "", t->tile[g][i]);
		}
	}
}

/* Group g's table in bytes if every entry fits one. */
static int narrow(sdbi_mtm_split *t, int g)
{
	size_t size = 1;
	for (int i = 0; i <= t->size[g]; i++)
		size *= (size_t)(t->n - i);
	for (size_t i = 0; i < size; i++)
		if (t->dist[g][i] > UINT8_MAX)
			return SDB_OK;   /* (as one no state reaches, 0xffff) */
	uint8_t *b = malloc(size);
	if (!b)
		return SDB_ENOMEM;
	for (size_t i = 0; i < size; i++)
		b[i] = (uint8_t)t->dist[g][i];
	free(t->dist[g]);
	t->dist[g] = NULL;
	t->narrow[g] = b;
	t->bytes -= size;
	return SDB_OK;
}

int sdbi_mtm_split_build(sdbi_mtm_split **out, const sdb_board *goal, int threads)
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
	partition(t, goal);
	uint8_t goal_cell[SDBI_MTM_MAX_CELLS];
	for (int c = 0; c < goal->n; c++)
		goal_cell[goal->cell[c]] = (uint8_t)c;
	job jobs[SDBI_MTM_MAX_GROUPS];
	int err = SDB_OK;
	for (int g = 0; g < t->ngroups && !err; g++) {
		size_t size = 1;
		for (int i = 0; i <= t->size[g]; i++)
			size *= (size_t)(t->n - i);
		t->dist[g] = malloc(size * sizeof *t->dist[g]);
		if (!t->dist[g])
			err = SDB_ENOMEM;
		else
			memset(t->dist[g], 0xff, size * sizeof *t->dist[g]);
		t->bytes += size * sizeof *t->dist[g];
		jobs[g] = (job){ t, g, goal->blank, goal_cell, 0 };
	}
	/* a group a thread, threads at a time */
	threads = threads < 1 ? 1 : threads;
	for (int first = 0; first < t->ngroups && !err; first += threads) {
		pthread_t tid[SDBI_MTM_MAX_GROUPS];
		int started[SDBI_MTM_MAX_GROUPS] = { 0 };
		const int end = first + threads < t->ngroups ? first + threads : t->ngroups;
		for (int g = first + 1; g < end; g++)
			started[g] = !pthread_create(&tid[g], NULL, build_group, &jobs[g]);
		build_group(&jobs[first]);
		for (int g = first + 1; g < end; g++)
			if (started[g])
				pthread_join(tid[g], NULL);
			else
				build_group(&jobs[g]);
		for (int g = first; g < end; g++)
			err = err ? err : jobs[g].err;
	}
	for (int g = 0; g < t->ngroups && !err; g++)
		err = narrow(t, g);
	if (err) {
		sdbi_mtm_split_free(t);
		return sdbi_fail(err, "out of memory");
	}
	*out = t;
	return SDB_OK;
}

void sdbi_mtm_split_free(sdbi_mtm_split *t)
{
	if (!t)
		return;
	for (int g = 0; g < t->ngroups; g++) {
		free(t->dist[g]);
		free(t->narrow[g]);
	}
	free(t);
}
