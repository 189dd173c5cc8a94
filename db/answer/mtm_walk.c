/* SPDX-License-Identifier: MIT */
/* Takahashi's walking distance, counted in multi-tile moves.
 *
 * Seen by rows, a position is a matrix of counts, count[r][g] the tiles in
 * row r whose goal is in row g, and the blank's row: columns forgotten. A
 * vertical slide of k cells moves one tile of each of the k rows it crosses
 * one row towards the blank's, and in the matrix any tile of a crossed row
 * may be the one: the fewest slides in this relaxation never pass the
 * vertical slides of any solution. Horizontal slides leave it unchanged,
 * and the same by columns counts them: the two add up to an admissible
 * bound. The search takes the larger of it and the split tables': on
 * Korf's 100 it is 16.2 at the start alone, 16.55 as the larger of both
 * (bench/mtm15.c; doc/design.md "The multi-tile metric").
 *
 * Each part is a breadth-first search from the goal's matrix over every
 * matrix a slide reaches, kept in a hash table of keys (the 4x4's rows:
 * 24,964 states). */
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "answer/mtm_walk.h"

typedef struct state {
	uint8_t count[SDBI_WALK_MAX_LINES][SDBI_WALK_MAX_LINES];
	int blank;
} state;

static uint64_t key_of(const sdbi_walk_part *p, const state *s)
{
	uint64_t k = p->blank_weight * (uint64_t)s->blank;
	for (int l = 0; l < p->lines; l++)
		for (int c = 0; c < p->lines; c++)
			k += p->weight[l][c] * s->count[l][c];
	return k;
}

static void decode(const sdbi_walk_part *p, uint64_t k, state *s)
{
	const uint64_t base = (uint64_t)p->cells + 1;
	for (int l = 0; l < p->lines; l++)
		for (int c = 0; c < p->lines; c++) {
			s->count[l][c] = (uint8_t)(k % base);
			k /= base;
		}
	s->blank = (int)k;
}

static uint64_t slot_of(const sdbi_walk_part *p, uint64_t key)
{
	uint64_t i = (key * 0x9E3779B97F4A7C15ull) >> 17 & p->mask;
	while (p->key[i] && p->key[i] != key + 1)
		i = (i + 1) & p->mask;
	return i;
}

/* Room for twice the states: the table doubled and refilled. */
static int grow(sdbi_walk_part *p)
{
	const uint64_t old_slots = p->key ? p->mask + 1 : 0, slots = old_slots ? 2 * old_slots : 4096;
	uint64_t *old_key = p->key;
	uint8_t *old_dist = p->dist;
	p->key = calloc(slots, sizeof *p->key);
	p->dist = malloc(slots);
	if (!p->key || !p->dist) {
		free(p->key);
		free(p->dist);
		p->key = old_key;
		p->dist = old_dist;
		return SDB_ENOMEM;
	}
	p->mask = slots - 1;
	for (uint64_t i = 0; i < old_slots; i++)
		if (old_key[i]) {
			const uint64_t j = slot_of(p, old_key[i] - 1);
			p->key[j] = old_key[i];
			p->dist[j] = old_dist[i];
		}
	free(old_key);
	free(old_dist);
	return SDB_OK;
}

typedef struct queue {
	uint64_t *v;
	size_t n, cap, head;
} queue;

/* key at distance d, if new: 0, or SDB_ENOMEM. */
static int reach(sdbi_walk_part *p, queue *q, uint64_t key, int d)
{
	uint64_t i = slot_of(p, key);
	if (p->key[i])
		return SDB_OK;
	if (2 * (p->states + 1) > p->mask + 1) {
		if (grow(p))
			return SDB_ENOMEM;
		i = slot_of(p, key);
	}
	if (q->n == q->cap) {
		const size_t cap = q->cap ? 2 * q->cap : 4096;
		uint64_t *more = realloc(q->v, cap * sizeof *more);
		if (!more)
			return SDB_ENOMEM;
		q->v = more;
		q->cap = cap;
	}
	p->key[i] = key + 1;
	p->dist[i] = (uint8_t)d;
	p->states++;
	q->v[q->n++] = key;
	return SDB_OK;
}

/* Every way the slide of the blank from line b, k lines the s way, can
 * shift one tile of each crossed line (from the j-th on) one line back. */
static int expand(sdbi_walk_part *p, queue *q, state *s, int b, int step, int k, int j, int d)
{
	if (j > k) {
		const int was = s->blank;
		s->blank = b + step * k;
		const int err = reach(p, q, key_of(p, s), d);
		s->blank = was;
		return err;
	}
	const int from = b + step * j, to = from - step;
	for (int c = 0; c < p->lines; c++) {
		if (!s->count[from][c])
			continue;
		s->count[from][c]--;
		s->count[to][c]++;
		const int err = expand(p, q, s, b, step, k, j + 1, d);
		s->count[to][c]--;
		s->count[from][c]++;
		if (err)
			return err;
	}
	return SDB_OK;
}

/* Part p of goal (lines, cells a line, the lines of t->line[p]): its
 * weights, then its states from the goal's. */
static int build_part(sdbi_mtm_walk *t, int pi, const sdb_board *goal)
{
	sdbi_walk_part *p = &t->part[pi];
	p->lines = pi ? goal->w : goal->h;
	p->cells = pi ? goal->h : goal->w;
	const unsigned __int128 limit = (unsigned __int128)1 << 63;
	unsigned __int128 wgt = 1;
	for (int l = 0; l < p->lines; l++)
		for (int c = 0; c < p->lines; c++) {
			p->weight[l][c] = (uint64_t)wgt;
			wgt *= (unsigned)p->cells + 1;
			if (wgt * (unsigned)p->lines >= limit)
				return SDB_ETOOBIG;
		}
	p->blank_weight = (uint64_t)wgt;
	state s;
	memset(&s, 0, sizeof s);
	for (int c = 0; c < goal->n; c++)
		if (goal->cell[c])
			s.count[t->line[pi][c]][t->line[pi][c]]++;
	s.blank = t->line[pi][goal->blank];
	queue q = { 0 };
	int err = grow(p);
	if (!err)
		err = reach(p, &q, key_of(p, &s), 0);
	while (!err && q.head < q.n) {
		const uint64_t key = q.v[q.head++];
		const int d = p->dist[slot_of(p, key)];
		decode(p, key, &s);
		for (int step = -1; step <= 1 && !err; step += 2)
			for (int k = 1; !err && s.blank + step * k >= 0 && s.blank + step * k < p->lines; k++)
				err = expand(p, &q, &s, s.blank, step, k, 1, d + 1);
	}
	free(q.v);
	t->bytes += (p->mask + 1) * (sizeof *p->key + 1);
	return err;
}

int sdbi_mtm_walk_build(sdbi_mtm_walk **out, const sdb_board *goal)
{
	*out = NULL;
	if (goal->w > SDBI_WALK_MAX_LINES || goal->h > SDBI_WALK_MAX_LINES)
		return SDB_ETOOBIG;
	sdbi_mtm_walk *t = calloc(1, sizeof *t);
	if (!t)
		return SDB_ENOMEM;
	t->w = goal->w;
	t->h = goal->h;
	for (int c = 0; c < goal->n; c++) {
		t->line[0][c] = (uint8_t)(c / goal->w);
		t->line[1][c] = (uint8_t)(c % goal->w);
		t->goal_line[0][goal->cell[c]] = t->line[0][c];
		t->goal_line[1][goal->cell[c]] = t->line[1][c];
	}
	int err = build_part(t, 0, goal);
	if (!err)
		err = build_part(t, 1, goal);
	if (err) {
		sdbi_mtm_walk_free(t);
		return err;
	}
	*out = t;
	return SDB_OK;
}

void sdbi_mtm_walk_free(sdbi_mtm_walk *t)
{
	if (!t)
		return;
	for (int p = 0; p < 2; p++) {
		free(t->part[p].key);
		free(t->part[p].dist);
	}
	free(t);
}

uint64_t sdbi_mtm_walk_key(const sdbi_mtm_walk *t, int p, const uint8_t *pos, int n, int blank)
{
	const sdbi_walk_part *part = &t->part[p];
	uint64_t k = part->blank_weight * t->line[p][blank];
	for (int tile = 1; tile < n; tile++)
		k += part->weight[t->line[p][pos[tile]]][t->goal_line[p][tile]];
	return k;
}
