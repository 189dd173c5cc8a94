/* SPDX-License-Identifier: MIT */
/* The simple BFS and the published counts; see oracle.h. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kit/oracle.h"

const uint64_t tk_a089473[TK_A089473_LEN] = { 1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396,
	748, 1024, 1893, 2512, 4485, 5638, 9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578,
	14560, 6274, 3910, 760, 221, 2 };

uint64_t tk_pack(const sdb_board *b)
{
	uint64_t key = 0;
	for (int i = 0; i < b->n; i++)
		key |= (uint64_t)b->cell[i] << (4 * i);
	return key;
}

void tk_unpack(sdb_board *b, int w, int h, uint64_t key)
{
	uint8_t cells[SDB_MAX_CELLS];
	for (int i = 0; i < w * h; i++)
		cells[i] = (uint8_t)(key >> (4 * i) & 15);
	cr_assert_eq(sdb_board_set(b, w, h, cells), 0);
}

static uint64_t slot_of(const simple_bfs *s, uint64_t key)
{
	uint64_t i = (key * 0x9E3779B97F4A7C15ull) >> 20 & (s->cap - 1);
	while (s->keys[i] && s->keys[i] != key)
		i = (i + 1) & (s->cap - 1);
	return i;
}

/* The boards one move from b in metric: each direction, then further that
 * way in the multi-tile metric. Returns how many. */
static int neighbours(sdb_board *out, const sdb_board *b, int metric)
{
	int n = 0;
	for (int m = 0; m < 4; m++) {
		sdb_board nb = *b;
		while (sdb_board_apply(&nb, m) == 0) {
			out[n++] = nb;
			if (metric != SDB_METRIC_MTM)
				break;
		}
	}
	return n;
}

void simple_bfs_run(simple_bfs *s, const sdb_board *goal)
{
	simple_bfs_run_metric(s, goal, SDB_METRIC_STM);
}

void simple_bfs_run_metric(simple_bfs *s, const sdb_board *goal, int metric)
{
	memset(s, 0, sizeof *s);
	s->metric = metric;
	s->w = goal->w;
	s->h = goal->h;
	uint64_t states = sdb_rank_count(goal->w, goal->h);
	s->cap = 1;
	while (s->cap < 2 * states)
		s->cap *= 2;
	s->keys = calloc(s->cap, sizeof *s->keys);
	s->dist = calloc(s->cap, 1);
	uint64_t *queue = malloc(states * sizeof *queue);
	cr_assert(s->keys && s->dist && queue);
	uint64_t head = 0, tail = 0;
	uint64_t k = tk_pack(goal);
	uint64_t slot = slot_of(s, k);
	s->keys[slot] = k;
	s->dist[slot] = 0;
	queue[tail++] = k;
	while (head < tail) {
		uint64_t cur = queue[head++];
		int d = s->dist[slot_of(s, cur)];
		s->counts[d]++;
		if (d > s->max)
			s->max = d;
		sdb_board b, next[4 * SDB_MAX_SIDE];
		tk_unpack(&b, s->w, s->h, cur);
		const int count = neighbours(next, &b, metric);
		for (int j = 0; j < count; j++) {
			uint64_t nk = tk_pack(&next[j]);
			uint64_t ns = slot_of(s, nk);
			if (s->keys[ns])
				continue;
			s->keys[ns] = nk;
			s->dist[ns] = (uint8_t)(d + 1);
			cr_assert_lt(tail, states, "more states than (W*H)!/2");
			queue[tail++] = nk;
		}
	}
	s->count = tail;
	free(queue);
}

int simple_bfs_dist(const simple_bfs *s, const sdb_board *b)
{
	uint64_t slot = slot_of(s, tk_pack(b));
	return s->keys[slot] ? s->dist[slot] : -1;
}

uint64_t simple_bfs_slot(const simple_bfs *s, const sdb_board *b)
{
	uint64_t slot = slot_of(s, tk_pack(b));
	return s->keys[slot] ? slot : UINT64_MAX;
}

sdb_board simple_bfs_farthest(const simple_bfs *s, int k)
{
	uint64_t n = s->counts[s->max];
	cr_assert_gt(n, 0);
	k = (int)((uint64_t)k % n);
	sdb_board b = { 0 };
	for (uint64_t i = 0; i < s->cap; i++)
		if (s->keys[i] && s->dist[i] == s->max && k-- == 0) {
			tk_unpack(&b, s->w, s->h, s->keys[i]);
			break;
		}
	cr_assert_gt(b.n, 0, "no state at distance %d", s->max);
	return b;
}

void simple_bfs_free(simple_bfs *s)
{
	free(s->keys);
	free(s->dist);
	memset(s, 0, sizeof *s);
}

void tk_oracle_init(tk_oracle *o, const sdb_board *goal)
{
	tk_oracle_init_metric(o, goal, SDB_METRIC_STM);
}

void tk_oracle_init_metric(tk_oracle *o, const sdb_board *goal, int metric)
{
	o->goal = *goal;
	simple_bfs *s = &o->bfs;
	simple_bfs_run_metric(s, goal, metric);
	o->paths = calloc(s->cap, sizeof *o->paths);
	uint64_t *order = malloc(s->count * sizeof *order);
	cr_assert(o->paths && order);
	/* Slots sorted by distance, so that every state comes after the states
	 * one step closer. */
	uint64_t fill[65] = { 0 };
	for (int d = 0; d < s->max; d++)
		fill[d + 1] = fill[d] + s->counts[d];
	for (uint64_t i = 0; i < s->cap; i++)
		if (s->keys[i])
			order[fill[s->dist[i]]++] = i;
	for (uint64_t k = 0; k < s->count; k++) {
		const uint64_t i = order[k];
		const int d = s->dist[i];
		if (d == 0) {
			o->paths[i] = 1;
			continue;
		}
		sdb_board b, next[4 * SDB_MAX_SIDE];
		tk_unpack(&b, s->w, s->h, s->keys[i]);
		const int count = neighbours(next, &b, metric);
		for (int nb = 0; nb < count; nb++) {
			const uint64_t j = simple_bfs_slot(s, &next[nb]);
			cr_assert_neq(j, UINT64_MAX);
			if (s->dist[j] == d - 1) {
				cr_assert(o->paths[j] > 0, "a state counted before the states one step closer");
				o->paths[i] += o->paths[j];
			}
		}
	}
	free(order);
}

void tk_oracle_free(tk_oracle *o)
{
	simple_bfs_free(&o->bfs);
	free(o->paths);
	o->paths = NULL;
}

tk_u128 tk_oracle_paths(const tk_oracle *o, const sdb_board *b)
{
	const uint64_t slot = simple_bfs_slot(&o->bfs, b);
	return slot == UINT64_MAX ? 0 : o->paths[slot];
}

unsigned tk_oracle_best(const tk_oracle *o, const sdb_board *b)
{
	const int d = simple_bfs_dist(&o->bfs, b);
	unsigned best = 0;
	for (int m = 0; m < 4 && d > 0; m++) {
		sdb_board n = *b;
		while (sdb_board_apply(&n, m) == 0) {
			if (simple_bfs_dist(&o->bfs, &n) == d - 1)
				best |= 1u << m;
			if (o->bfs.metric != SDB_METRIC_MTM)
				break;
		}
	}
	return best;
}
