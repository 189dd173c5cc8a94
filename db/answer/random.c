/* SPDX-License-Identifier: MIT */
/* Random boards: a seeded generator, boards drawn uniformly at chosen
 * distances from a goal (from its full table), uniformly among all states
 * reachable from it (no table), and random walks. */
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "store/blocks.h"

enum { REJECTION_ODDS = 16 };

/* splitmix64 (Steele, Lea, Flood): spreads a seed over the state. */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void sdbi_rng_seed(sdbi_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna). */
uint64_t sdbi_rng_next(sdbi_rng *r)
{
	uint64_t *s = r->s;
	const uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

/* Lemire's multiply-shift, with the rejection that removes its bias. */
uint64_t sdbi_rng_below(sdbi_rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)sdbi_rng_next(r) * n;
	if ((uint64_t)m < n) {
		const uint64_t floor = -n % n;
		while ((uint64_t)m < floor)
			m = (unsigned __int128)sdbi_rng_next(r) * n;
	}
	return (uint64_t)(m >> 64);
}

struct sdbi_sampler {
	sdb_board goal;            /* the caller's */
	const sdb_table *t;        /* NULL: uniform over the goal's parity class */
	int cls;                   /* the table's class */
	sdb_frame frame;           /* the goal's, onto the table's */
	int min_d, max_d;
	uint64_t population;
	uint32_t *list;            /* the states in range, when they are rare (byte
	                              tables stop at 12 cells: indices fit 32 bits) */
};

uint64_t sdbi_sampler_population(const sdbi_sampler *s)
{
	return s->population;
}

void sdbi_sampler_close(sdbi_sampler *s)
{
	if (s) {
		free(s->list);
		free(s);
	}
}

/* List the indices of the states in range: one pass over the table. */
static int list_states(sdbi_sampler *s)
{
	const uint64_t states = s->t->info.states;
	const unsigned lo = (unsigned)s->min_d, span = (unsigned)(s->max_d - s->min_d);
	if (!(s->list = malloc(s->population * sizeof *s->list)))
		return sdbi_fail(SDB_ENOMEM, "out of memory listing %llu states",
		                (unsigned long long)s->population);
	uint64_t n = 0;
	sdbi_damage_reset();
	for (uint64_t i = 0; i < states; i++)
		if ((unsigned)(sdbi_entry_dist(s->t, i) - lo) <= span) {
			if (n == s->population)
				break;
			s->list[n++] = (uint32_t)i;
		}
	int err = sdbi_damage_check();
	if (err)
		return err;
	if (n != s->population || n == 0)
		return sdbi_fail(SDB_ECORRUPT, "%s: table '%s' does not hold the states its counts "
		                "say (run `slidedb-lookup verify`)", sdb_db_path(s->t->db),
		                s->t->info.name);
	return SDB_OK;
}

static int open_table(sdbi_sampler *s, const sdb_db *db, int metric)
{
	const sdb_board *goal = &s->goal;
	if (goal->n > SDB_MAX_FULL_CELLS)
		return sdbi_fail(SDB_ETOOBIG, "%dx%d has no full tables (they stop at %d cells), so "
		                "boards at a chosen distance cannot be drawn; draw among all "
		                "boards, or scramble by a random walk", goal->w, goal->h,
		                SDB_MAX_FULL_CELLS);
	int err = SDB_OK;
	if (!(s->t = sdbi_find_for_goal(db, goal, metric, &err)))
		return err;
	const sdb_table_info *in = &s->t->info;
	if (in->entry_format == SDB_ENTRY_MOD3)
		return sdbi_fail_mod3_distance(s->t, goal);
	if (s->min_d > s->max_d)
		return sdbi_fail(SDB_EINVAL, "distances %d to %d: the least is above the most",
		                s->min_d, s->max_d);
	for (int d = s->min_d; d <= s->max_d && d <= in->max_distance; d++)
		s->population += in->counts[d];
	if (s->population == 0) {
		if (s->min_d == s->max_d)
			return sdbi_fail(SDB_EINVAL, "no %dx%d state is %d moves from the goal: "
			                "distances run from 0 to %d", goal->w, goal->h, s->min_d,
			                in->max_distance);
		return sdbi_fail(SDB_EINVAL, "no %dx%d state is %d to %d moves from the goal: "
		                "distances run from 0 to %d", goal->w, goal->h, s->min_d, s->max_d,
		                in->max_distance);
	}
	sdb_frame_init(&s->frame, goal, s->t->blank);
	sdb_board canonical;
	sdb_frame_board(&s->frame, &canonical, goal);
	s->cls = sdb_rank_class(&canonical);
	/* Rare distances: list them once rather than read ~REJECTION_ODDS
	 * random entries (page faults, on a large table) per board. */
	if (s->population * REJECTION_ODDS < in->states)
		return list_states(s);
	return SDB_OK;
}

int sdbi_sampler_open(sdbi_sampler **out, const sdb_db *db, const sdb_board *goal,
                     int min_distance, int max_distance, int metric)
{
	*out = NULL;
	const int any = min_distance == -1 && max_distance == -1;
	if (!any && (min_distance < 0 || max_distance < 0))
		return sdbi_fail(SDB_EINVAL, "distance %d is negative",
		                min_distance < 0 ? min_distance : max_distance);
	sdbi_sampler *s = calloc(1, sizeof *s);
	if (!s)
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	s->goal = *goal;
	s->min_d = min_distance;
	s->max_d = max_distance;
	s->population = sdb_rank_count(goal->w, goal->h);   /* UINT64_MAX past 20 cells */
	int err = SDB_OK;
	if (!any) {
		s->population = 0;
		err = open_table(s, db, metric);
	}
	if (err) {
		sdbi_sampler_close(s);
		return err;
	}
	*out = s;
	return sdbi_done(SDB_OK);
}

/* A uniform board of the goal's parity class: a uniform permutation, and if
 * it cannot reach the goal, the tiles of its first two tile cells swapped.
 * The swap keeps the blank's cell, so it pairs the permutations off one to
 * one, and each class gets exactly half. */
static void draw_any(const sdbi_sampler *s, sdb_board *b, sdbi_rng *rng)
{
	*b = s->goal;
	for (int i = b->n - 1; i > 0; i--) {
		int j = (int)sdbi_rng_below(rng, (uint64_t)i + 1);
		uint8_t t = b->cell[i];
		b->cell[i] = b->cell[j];
		b->cell[j] = t;
	}
	for (int c = 0; c < b->n; c++)
		if (!b->cell[c])
			b->blank = (uint8_t)c;
	if (!sdb_board_solvable(b, &s->goal)) {
		const int x = b->cell[0] ? 0 : 1, y = b->cell[x + 1] ? x + 1 : x + 2;
		uint8_t t = b->cell[x];
		b->cell[x] = b->cell[y];
		b->cell[y] = t;
	}
}

/* The table's state i seen in the caller's frame. */
static void draw_state(const sdbi_sampler *s, sdb_board *b, uint64_t i)
{
	sdb_board f;
	sdb_board_unrank(&f, s->goal.w, s->goal.h, s->cls, i);
	sdb_frame_unboard(&s->frame, b, &f);
}

int sdbi_fail_mod3_distance(const sdb_table *t, const sdb_board *goal)
{
	char dbarg[700], goalarg[80];
	return sdbi_fail(SDB_EINVAL, "%s: table '%s' keeps distances mod 3 (built with --bits "
	                "2): boards at a chosen distance need a table of whole distances: "
	                "build it with `slidedb-gen full %dx%d --bits 8%s%s%s`",
	                sdb_db_path(t->db), t->info.name, t->info.goal.w, t->info.goal.h,
	                sdb_table_metric(&t->info) == SDB_METRIC_MTM ? " --metric mtm" : "",
	                sdbi_hint_goal(goal, goalarg, sizeof goalarg),
	                sdbi_hint_db(t->db, dbarg, sizeof dbarg));
}

int sdbi_sampler_draw(const sdbi_sampler *s, sdb_board *out, size_t n, sdbi_rng *rng)
{
	const unsigned lo = (unsigned)s->min_d, span = (unsigned)(s->max_d - s->min_d);
	sdbi_damage_reset();
	for (size_t k = 0; k < n; k++) {
		if (!s->t) {
			draw_any(s, &out[k], rng);
		} else if (s->list) {
			draw_state(s, &out[k], s->list[sdbi_rng_below(rng, s->population)]);
		} else {
			/* At least one entry in REJECTION_ODDS fits: 4096 misses in a row
			 * (odds under 1e-114) mean the table is not what its counts say. */
			const uint64_t states = s->t->info.states;
			uint64_t i;
			int misses = 0;
			do
				i = sdbi_rng_below(rng, states);
			while ((unsigned)(sdbi_entry_dist(s->t, i) - lo) > span && ++misses < 4096);
			int err = sdbi_damage_check();
			if (err)
				return err;
			if (misses == 4096)
				return sdbi_fail(SDB_ECORRUPT, "%s: table '%s' does not hold the states its "
				                "counts say (run `slidedb-lookup verify`)",
				                sdb_db_path(s->t->db), s->t->info.name);
			draw_state(s, &out[k], i);
		}
	}
	return sdbi_done(SDB_OK);
}

int sdbi_random_walk(sdb_board *out, const sdb_board *goal, int steps, int metric,
                     sdbi_rng *rng)
{
	if (steps < 0)
		return sdbi_fail(SDB_EINVAL, "a walk of %d steps", steps);
	*out = *goal;
	const int mtm = metric == SDB_METRIC_MTM;
	int prev = -1;
	for (int k = 0; k < steps; k++) {
		int choice[4], n = 0;
		unsigned legal = sdb_board_moves(out);
		for (int m = 0; m < 4; m++)
			if ((legal >> m & 1) && (prev < 0 || (m != (prev ^ 1) && (!mtm || m != prev))))
				choice[n++] = m;
		if (!n)
			break;   /* (never: a direction across the last one is always open) */
		prev = choice[sdbi_rng_below(rng, (uint64_t)n)];
		int len = 1;
		if (mtm) {   /* (STM draws nothing more: a seed's walks stay as they were) */
			const int x = out->blank % out->w, y = out->blank / out->w;
			const int far = prev == SDB_UP ? y : prev == SDB_DOWN ? out->h - 1 - y
			                : prev == SDB_LEFT ? x : out->w - 1 - x;
			len += (int)sdbi_rng_below(rng, (uint64_t)far);
		}
		for (; len > 0; len--)
			sdb_board_apply(out, prev);
	}
	return sdbi_done(SDB_OK);
}
