/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* memmem */
/* Answers for people, through the library: every best move, the number of
 * optimal solutions and the solutions themselves, the move checker, and
 * random boards. Checked against a deliberately simple computation
 * (kit/oracle.h): BFS layers from the goal and paths counted by dynamic
 * programming over them, layer by layer; random boards against the
 * published counts per distance (OEIS A089473) by chi-square tests. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/boards.h"
#include "kit/files.h"
#include "kit/oracle.h"
#include "kit/run.h"
#include "kit/tables.h"

typedef tk_u128 u128;

static u128 count_of(const sdb_count *c)
{
	return (u128)c->hi << 64 | c->lo;
}

static const char *text_of(const sdb_board *b)
{
	static __thread char buf[3 * SDB_MAX_CELLS];
	sdb_board_format(buf, sizeof buf, b);
	return buf;
}

/* The library's answer for (start, goal) equals the oracle's. */
/* A seeded draw of boards at distance lo .. hi from goal (-1, -1: any
 * reachable board), as the programs ask one. */
static int draw_open(sdb_random **rd, const sdb_db *db, const sdb_board *goal, int lo, int hi,
                     uint64_t seed)
{
	sdb_random_request r = SDB_RANDOM_REQUEST_INIT;
	if (lo == hi) {
		r.distance = lo;
	} else {
		r.min_distance = lo;
		r.max_distance = hi;
	}
	r.seed = seed;
	r.seed_given = 1;
	return sdb_random_open(rd, db, goal, &r);
}

static void assert_like_oracle(const sdb_db *db, const tk_oracle *o, const sdb_board *start,
                               const sdb_board *goal)
{
	const sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION,
	                               .want_moves = 1, .want_best_moves = 1, .want_count = 1 };
	sdb_answer a;
	cr_assert_eq(sdb_answer_query(&a, db, start, goal, &opts), 0, "%s", sdb_error_detail());
	int d = simple_bfs_dist(&o->bfs, start);
	if (d < 0) {
		cr_assert_eq(a.solvable, 0, "%s: unreachable but solvable", text_of(start));
		cr_assert_eq(a.best_moves, 0u);
		cr_assert(count_of(&a.solutions) == 0);
		return;
	}
	uint64_t slot = simple_bfs_slot(&o->bfs, start);
	cr_assert_eq(a.distance, d, "%s: distance %d, BFS %d", text_of(start), a.distance, d);
	cr_assert_eq(a.best_moves, tk_oracle_best(o, start), "%s -> %s: best moves %x, BFS %x",
	             text_of(start), text_of(goal), a.best_moves, tk_oracle_best(o, start));
	cr_assert(count_of(&a.solutions) == o->paths[slot], "%s: %llu solutions, DP %llu",
	          text_of(start), (unsigned long long)count_of(&a.solutions),
	          (unsigned long long)o->paths[slot]);
	cr_assert(tk_replay(start, a.moves, goal) && (int)strlen(a.moves) == d);
	cr_assert(d == 0 || (a.best_moves >> a.best_move & 1), "the best move is a best move");
}

/* Every pair (start, goal) of a small board: 720 goals x 720 starts. */
static void every_pair(int w, int h, const char *name)
{
	char path[512];
	tk_build_classes(path, sizeof path, w, h, name);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	const int n = w * h;
	uint8_t perm[SDB_MAX_CELLS];
	for (int i = 0; i < n; i++)
		perm[i] = (uint8_t)i;
	/* Every permutation as a goal (next_permutation order). */
	int goals = 0;
	for (;;) {
		sdb_board goal;
		cr_assert_eq(sdb_board_set(&goal, w, h, perm), 0);
		tk_oracle o;
		tk_oracle_init(&o, &goal);
		uint8_t sp[SDB_MAX_CELLS];
		memcpy(sp, perm, (size_t)n);
		for (int s = 0; s < 720; s++) {   /* every start: the permutations by rotation */
			sdb_board start;
			int k = s;
			uint8_t cells[SDB_MAX_CELLS], pool[SDB_MAX_CELLS];
			for (int i = 0; i < n; i++)
				pool[i] = (uint8_t)i;
			for (int i = n; i > 0; i--) {   /* the s-th permutation (factorial base) */
				int pick = k % i;
				k /= i;
				cells[n - i] = pool[pick];
				memmove(pool + pick, pool + pick + 1, (size_t)(i - pick - 1));
			}
			cr_assert_eq(sdb_board_set(&start, w, h, cells), 0);
			assert_like_oracle(db, &o, &start, &goal);
		}
		tk_oracle_free(&o);
		goals++;
		/* next permutation */
		int i = n - 2;
		while (i >= 0 && perm[i] >= perm[i + 1])
			i--;
		if (i < 0)
			break;
		int j = n - 1;
		while (perm[j] <= perm[i])
			j--;
		uint8_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
		for (int a = i + 1, b = n - 1; a < b; a++, b--) {
			t = perm[a];
			perm[a] = perm[b];
			perm[b] = t;
		}
	}
	cr_assert_eq(goals, 720);
	sdb_db_close(db);
	remove(path);
}

Test(optimal, every_pair_of_2x3_agrees_with_bfs_and_dp, .timeout = 300)
{
	every_pair(2, 3, "opt-2x3.lmdb");
}

Test(optimal, every_pair_of_3x2_agrees_with_bfs_and_dp, .timeout = 300)
{
	every_pair(3, 2, "opt-3x2.lmdb");
}

/* Random 3x3 pairs: goals of every class, starts drawn by the library. */
Test(optimal, random_3x3_pairs_agree_with_bfs_and_dp, .timeout = 300)
{
	char path[512];
	tk_build_classes(path, sizeof path, 3, 3, "opt-3x3.lmdb");
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	const char *goals[] = { "1 2 3 4 5 6 7 8 0", "1 2 3 4 0 5 6 7 8", "8 0 7 6 5 4 3 2 1",
		                "0 1 2 3 4 5 6 7 8" };
	for (size_t g = 0; g < sizeof goals / sizeof *goals; g++) {
		sdb_board goal;
		cr_assert_eq(sdb_board_parse(&goal, goals[g], 3, 3), 0);
		tk_oracle o;
		tk_oracle_init(&o, &goal);
		sdb_random *any;
		cr_assert_eq(draw_open(&any, NULL, &goal, -1, -1, 7 + g), 0);
		for (int i = 0; i < 1500; i++) {
			sdb_board start;
			sdb_random_draw(any, &start, 1);
			assert_like_oracle(db, &o, &start, &goal);
			/* and its unsolvable twin */
			if (i % 10 == 0) {
				const sdb_board twin = tk_swap_two_tiles(&start);
				assert_like_oracle(db, &o, &twin, &goal);
			}
		}
		/* The hardest: every state at the largest distance. */
		for (uint64_t i = 0; i < o.bfs.cap; i++)
			if (o.bfs.keys[i] && o.bfs.dist[i] == o.bfs.max) {
				sdb_board start;
				tk_unpack(&start, 3, 3, o.bfs.keys[i]);
				assert_like_oracle(db, &o, &start, &goal);
			}
		sdb_random_close(any);
		tk_oracle_free(&o);
	}
	sdb_db_close(db);
	remove(path);
}

/* --- Every optimal sequence, in order. */

typedef struct seqs {
	char **v;
	size_t n, cap;
	uint64_t stop_after;   /* ask to stop after this many (0: never) */
} seqs;

static int collect(void *ctx, const char *moves)
{
	seqs *s = ctx;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		cr_assert(s->v);
	}
	s->v[s->n++] = strdup(moves);
	return s->stop_after && s->n >= s->stop_after;
}

static void seqs_free(seqs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof *s);
}

/* The oracle's sequences: depth first, moves in the order u d l r. */
static void oracle_paths(const tk_oracle *o, const sdb_board *b, char *moves, int g, seqs *out)
{
	int d = simple_bfs_dist(&o->bfs, b);
	if (d == 0) {
		moves[g] = '\0';
		collect(out, moves);
		return;
	}
	for (int m = 0; m < 4; m++) {
		sdb_board n = *b;
		if (sdb_board_apply(&n, m) == 0 && simple_bfs_dist(&o->bfs, &n) == d - 1) {
			moves[g] = sdb_move_letter(m);
			oracle_paths(o, &n, moves, g + 1, out);
		}
	}
}

/* u < d < l < r */
static int move_order_cmp(const char *a, const char *b)
{
	for (; *a && *a == *b; a++, b++)
		;
	return sdb_move_from_letter(*a) - sdb_move_from_letter(*b);
}

static void assert_paths(const sdb_db *db, const tk_oracle *o, const sdb_board *start,
                         const sdb_board *goal, uint64_t limit)
{
	seqs want = { 0 }, got = { 0 };
	char moves[SDB_MAX_MOVES + 1];
	oracle_paths(o, start, moves, 0, &want);
	sdb_answer a;
	cr_assert_eq(sdb_answer_paths(&a, db, start, goal, limit, NULL, collect, &got), 0, "%s",
	             sdb_error_detail());
	size_t expect = want.n < limit ? want.n : (size_t)limit;
	cr_assert_eq(got.n, expect, "%s: %zu sequences, expected %zu", text_of(start), got.n,
	             expect);
	for (size_t i = 0; i < got.n; i++) {
		cr_assert_str_eq(got.v[i], want.v[i], "%s: sequence %zu", text_of(start), i);
		cr_assert(tk_replay(start, got.v[i], goal) && (int)strlen(got.v[i]) == a.distance);
		cr_assert(i == 0 || move_order_cmp(got.v[i - 1], got.v[i]) < 0, "not in order");
	}
	seqs_free(&want);
	seqs_free(&got);
}

Test(optimal, every_sequence_in_order_from_tables, .timeout = 120)
{
	char path[512];
	tk_build_classes(path, sizeof path, 3, 3, "opt-seq.lmdb");
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	sdb_board goal;
	cr_assert_eq(sdb_board_parse(&goal, "1 2 3 4 0 5 6 7 8", 3, 3), 0);   /* centre class */
	tk_oracle o;
	tk_oracle_init(&o, &goal);
	sdb_random *s;
	for (int d = 0; d <= o.bfs.max; d += 3) {
		cr_assert_eq(draw_open(&s, db, &goal, d, d, 11 + (uint64_t)d), 0, "%s",
		             sdb_error_detail());
		for (int i = 0; i < 10; i++) {
			sdb_board start;
			sdb_random_draw(s, &start, 1);
			assert_paths(db, &o, &start, &goal, 100000);
			assert_paths(db, &o, &start, &goal, 3);   /* the first three */
		}
		sdb_random_close(s);
	}
	/* The callback stops the listing. */
	sdb_board start;
	cr_assert_eq(sdb_board_parse(&start, "8 6 7 2 5 4 3 0 1", 3, 3), 0);
	seqs got = { .stop_after = 2 };
	cr_assert_eq(sdb_answer_paths(NULL, db, &start, &goal, 50, NULL, collect, &got), 0);
	cr_assert_eq(got.n, 2);
	seqs_free(&got);
	/* Unsolvable: no sequence, no error. */
	cr_assert_eq(sdb_board_parse(&start, "1 2 3 4 0 5 6 8 7", 3, 3), 0);
	cr_assert_eq(sdb_answer_paths(NULL, db, &start, &goal, 50, NULL, collect, &got), 0);
	cr_assert_eq(got.n, 0);
	tk_oracle_free(&o);
	sdb_db_close(db);
	remove(path);
}

/* --- 4x4 by search, against a BFS of the states within 12 moves of the
 * goal (every shortest path from such a state stays among them). */

typedef struct ball {
	uint64_t *keys;
	uint8_t *dist;
	uint64_t cap;
} ball;

static uint64_t ball_slot(const ball *b, uint64_t key)
{
	uint64_t i = (key * 0x9E3779B97F4A7C15ull) >> 24 & (b->cap - 1);
	while (b->keys[i] && b->keys[i] != key)
		i = (i + 1) & (b->cap - 1);
	return i;
}

static int ball_dist(const ball *b, const sdb_board *s)
{
	uint64_t i = ball_slot(b, tk_pack(s));
	return b->keys[i] ? b->dist[i] : -1;
}

static u128 ball_paths(const ball *b, const sdb_board *s)
{
	int d = ball_dist(b, s);
	if (d == 0)
		return 1;
	u128 sum = 0;
	for (int m = 0; m < 4; m++) {
		sdb_board n = *s;
		if (sdb_board_apply(&n, m) == 0 && ball_dist(b, &n) == d - 1)
			sum += ball_paths(b, &n);
	}
	return sum;
}

Test(optimal, search_counts_on_4x4_agree_with_a_bfs_ball, .timeout = 300)
{
	enum { RADIUS = 12 };
	ball b = { .cap = 1 << 17 };
	b.keys = calloc(b.cap, sizeof *b.keys);
	b.dist = calloc(b.cap, 1);
	uint64_t *queue = malloc(b.cap * sizeof *queue), head = 0, tail = 0;
	cr_assert(b.keys && b.dist && queue);
	sdb_board goal;
	sdb_board_goal(&goal, 4, 4, 15);
	uint64_t k = tk_pack(&goal);
	b.keys[ball_slot(&b, k)] = k;
	queue[tail++] = k;
	while (head < tail) {
		uint64_t cur = queue[head++];
		int d = b.dist[ball_slot(&b, cur)];
		if (d == RADIUS)
			continue;
		sdb_board s;
		tk_unpack(&s, 4, 4, cur);
		for (int m = 0; m < 4; m++) {
			sdb_board n = s;
			if (sdb_board_apply(&n, m))
				continue;
			uint64_t nk = tk_pack(&n), slot = ball_slot(&b, nk);
			if (b.keys[slot])
				continue;
			b.keys[slot] = nk;
			b.dist[slot] = (uint8_t)(d + 1);
			cr_assert_lt(tail, b.cap / 2);
			queue[tail++] = nk;
		}
	}
	/* No pattern set: the search runs on Manhattan + linear conflicts. */
	char path[512];
	tk_tmp_path(path, sizeof path, "opt-4x4.lmdb");
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_CREATE), 0);
	const sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION,
	                               .want_moves = 1, .want_best_moves = 1, .want_count = 1 };
	int several = 0;
	for (uint64_t i = 0; i < tail; i += 97) {
		sdb_board start;
		tk_unpack(&start, 4, 4, queue[i]);
		sdb_answer a;
		cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &opts), 0, "%s", sdb_error_detail());
		int d = ball_dist(&b, &start);
		cr_assert_eq(a.distance, d, "%s", text_of(&start));
		cr_assert_eq(a.method, SDB_METHOD_SEARCH);
		unsigned best = 0;
		for (int m = 0; m < 4 && d > 0; m++) {
			sdb_board n = start;
			if (sdb_board_apply(&n, m) == 0 && ball_dist(&b, &n) == d - 1)
				best |= 1u << m;
		}
		cr_assert_eq(a.best_moves, best, "%s: best moves %x, BFS %x", text_of(&start),
		             a.best_moves, best);
		u128 want = ball_paths(&b, &start);
		cr_assert(count_of(&a.solutions) == want, "%s: %llu solutions, DP %llu",
		          text_of(&start), (unsigned long long)count_of(&a.solutions),
		          (unsigned long long)want);
		several += want > 1;
		/* Best moves alone (one solution per first move) say the same. */
		const sdb_answer_opts best_only = { .version = SDB_ANSWER_OPTS_VERSION,
		                                    .want_moves = 1, .want_best_moves = 1 };
		cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &best_only), 0);
		cr_assert_eq(a.best_moves, best);
		/* The sequences, in order, as many as counted. */
		seqs got = { 0 };
		cr_assert_eq(sdb_answer_paths(NULL, db, &start, &goal, 1000, NULL, collect, &got), 0);
		cr_assert_eq(got.n, want < 1000 ? (size_t)want : 1000);
		for (size_t j = 0; j < got.n; j++) {
			cr_assert(tk_replay(&start, got.v[j], &goal) && (int)strlen(got.v[j]) == d);
			cr_assert(j == 0 || move_order_cmp(got.v[j - 1], got.v[j]) < 0);
		}
		seqs_free(&got);
	}
	cr_assert_gt(several, 10, "few positions with several solutions: a weak test");
	/* A node limit stops the count with SDB_ELIMIT, not a wrong number. */
	sdb_board far;
	cr_assert_eq(sdb_board_parse(&far, "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1", 4, 4), 0);
	const sdb_answer_opts few = { .version = SDB_ANSWER_OPTS_VERSION,
	                              .want_moves = 1, .want_count = 1,
		                      .limits = { .max_nodes = 1000 } };
	sdb_answer a;
	cr_assert_eq(sdb_answer_query(&a, db, &far, &goal, &few), SDB_ELIMIT);
	sdb_db_close(db);
	ck_db_remove(path);
	free(queue);
	free(b.keys);
	free(b.dist);
}

Test(optimal, counts_format_exactly)
{
	char buf[48];
	sdb_count c = { 0, 0 };
	cr_assert_eq(sdb_count_format(buf, sizeof buf, &c), 1);
	cr_assert_str_eq(buf, "0");
	c = (sdb_count){ UINT64_MAX, UINT64_MAX };
	cr_assert_eq(sdb_count_format(buf, sizeof buf, &c), 39);
	cr_assert_str_eq(buf, "340282366920938463463374607431768211455");
	c = (sdb_count){ 1, 0 };
	sdb_count_format(buf, sizeof buf, &c);
	cr_assert_str_eq(buf, "18446744073709551616");
	cr_assert_eq(sdb_count_format(buf, 3, &c), SDB_EINVAL);
}

/* --- The checker. */

Test(optimal, checker_verdicts)
{
	char path[512];
	tk_build_classes(path, sizeof path, 3, 3, "opt-check.lmdb");
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	sdb_board start, goal, other;
	cr_assert_eq(sdb_board_parse(&start, "1 2 3 4 5 6 0 7 8", 3, 3), 0);
	sdb_board_goal(&goal, 3, 3, 8);
	sdb_check c;
	/* optimal */
	cr_assert_eq(sdb_check_moves(&c, db, &start, &goal, "rr", NULL), 0);
	cr_assert(c.solvable && c.legal && c.reaches_goal && c.optimal);
	cr_assert_eq(c.length, 2);
	cr_assert_eq(c.distance, 2);
	cr_assert_eq(c.end_distance, 0);
	cr_assert_eq(c.illegal_step, 0);
	/* longer, upper case accepted */
	cr_assert_eq(sdb_check_moves(&c, db, &start, &goal, "RLrr", NULL), 0);
	cr_assert(c.legal && c.reaches_goal && !c.optimal);
	cr_assert_eq(c.length - c.distance, 2);
	/* illegal at the first step and at the last */
	cr_assert_eq(sdb_check_moves(&c, db, &start, &goal, "d", NULL), 0);
	cr_assert(!c.legal && !c.reaches_goal && !c.optimal);
	cr_assert_eq(c.illegal_step, 1);
	cr_assert_eq(c.illegal_move, SDB_DOWN);
	cr_assert(sdb_board_equal(&c.end, &start));
	cr_assert_eq(c.end_distance, 2);
	cr_assert_eq(sdb_check_moves(&c, db, &start, &goal, "rrr", NULL), 0);
	cr_assert_eq(c.illegal_step, 3);
	cr_assert_eq(c.illegal_move, SDB_RIGHT);
	cr_assert(sdb_board_equal(&c.end, &goal), "stopped before the illegal move");
	/* short of the goal, and the empty sequence */
	cr_assert_eq(sdb_check_moves(&c, db, &start, &goal, "r", NULL), 0);
	cr_assert(c.legal && !c.reaches_goal);
	cr_assert_eq(c.end_distance, 1);
	cr_assert_eq(sdb_check_moves(&c, db, &start, &goal, "", NULL), 0);
	cr_assert(c.legal && !c.reaches_goal && c.length == 0 && c.end_distance == 2);
	cr_assert_eq(sdb_check_moves(&c, db, &goal, &goal, "", NULL), 0);
	cr_assert(c.optimal && c.reaches_goal && c.distance == 0);
	/* unsolvable pair */
	cr_assert_eq(sdb_board_parse(&other, "1 2 3 4 5 6 0 8 7", 3, 3), 0);
	cr_assert_eq(sdb_check_moves(&c, db, &other, &goal, "rr", NULL), 0);
	cr_assert(!c.solvable && !c.optimal && !c.reaches_goal);
	cr_assert_eq(c.distance, -1);
	/* malformed: a letter that is not a move, sizes that differ */
	cr_assert_eq(sdb_check_moves(&c, db, &start, &goal, "rx", NULL), SDB_EINVAL);
	cr_assert(strstr(sdb_error_detail(), "'x' at position 2"), "%s", sdb_error_detail());
	cr_assert_eq(sdb_check_moves(&c, db, &start, &goal, "r r", NULL), SDB_EINVAL);
	cr_assert(strstr(sdb_error_detail(), "one word"), "%s", sdb_error_detail());
	sdb_board small;
	sdb_board_goal(&small, 2, 2, 3);
	cr_assert_eq(sdb_check_moves(&c, db, &small, &goal, "", NULL), SDB_EINVAL);
	/* A random walk's verdict agrees with its replay and the table. */
	unsigned seed = 5;
	for (int i = 0; i < 300; i++) {
		char moves[64];
		int len = rand_r(&seed) % 40;
		for (int k = 0; k < len; k++)
			moves[k] = "udlr"[rand_r(&seed) % 4];
		moves[len] = '\0';
		cr_assert_eq(sdb_check_moves(&c, db, &start, &goal, moves, NULL), 0);
		cr_assert_eq(c.reaches_goal, tk_replay(&start, moves, &goal));
		cr_assert_eq(c.optimal, c.reaches_goal && len == 2);
	}
	sdb_db_close(db);
	remove(path);
}

/* --- Random boards. */

/* Chi-square's critical value at p = 0.001 (Wilson-Hilferty). */
static double chi2_critical(int df)
{
	const double z = 3.0902, k = 2.0 / (9.0 * df);
	return df * pow(1.0 - k + z * sqrt(k), 3.0);
}

/* Chi-square of observed against expected counts, bins with under 5
 * expected merged into their neighbour; *df receives the degrees of freedom. */
static double chi2(const uint64_t *observed, const double *expected, int n, int *df)
{
	double stat = 0, e = 0, o = 0;
	int bins = 0;
	for (int i = 0; i < n; i++) {
		e += expected[i];
		o += (double)observed[i];
		if (e >= 5 || i == n - 1) {
			stat += (o - e) * (o - e) / e;
			bins++;
			e = o = 0;
		}
	}
	*df = bins - 1;
	return stat;
}


Test(random, uniform_over_all_boards_matches_published_counts, .timeout = 120)
{
	char path[512];
	sdb_db *db = tk_open_classes(path, sizeof path, 3, 3, "rnd-all.lmdb");
	sdb_board goal;
	sdb_board_goal(&goal, 3, 3, 8);
	sdb_random *s;
	cr_assert_eq(draw_open(&s, NULL, &goal, -1, -1, 2026), 0, "no table needed");
	cr_assert_eq(sdb_random_population(s), 181440);
	enum { N = 100000 };
	static sdb_board boards[N];
	sdb_random_draw(s, boards, N);
	uint64_t seen[TK_A089473_LEN] = { 0 };
	for (int i = 0; i < N; i++) {
		sdb_answer a;
		const sdb_answer_opts no_moves = { .version = SDB_ANSWER_OPTS_VERSION,
		                                   .want_moves = 0 };
		cr_assert_eq(sdb_answer_query(&a, db, &boards[i], &goal, &no_moves), 0);
		cr_assert(a.solvable, "%s cannot reach the goal", text_of(&boards[i]));
		seen[a.distance]++;
	}
	double expected[TK_A089473_LEN];
	for (int d = 0; d < TK_A089473_LEN; d++)
		expected[d] = (double)N * (double)tk_a089473[d] / 181440.0;
	int df;
	double stat = chi2(seen, expected, TK_A089473_LEN, &df);
	cr_assert_lt(stat, chi2_critical(df), "chi-square %.1f with %d degrees of freedom", stat,
	             df);
	sdb_random_close(s);
	sdb_db_close(db);
	remove(path);
}

static int key_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* Within a distance, every state equally likely: both ways of drawing (a
 * rare distance listed, a common one read at random). With per_state draws
 * per state on average, all are drawn (a state is missed with odds
 * e^-per_state), and the counts per state pass a chi-square test. */
static void uniform_within(const sdb_db *db, const sdb_board *goal, int d, int per_state)
{
	sdb_random *s;
	cr_assert_eq(draw_open(&s, db, goal, d, d, 99), 0, "%s", sdb_error_detail());
	const uint64_t states = sdb_random_population(s);
	const uint64_t n = states * (uint64_t)per_state;
	sdb_board *boards = malloc(n * sizeof *boards);
	cr_assert(boards);
	sdb_random_draw(s, boards, n);
	/* Count each state: sort packed keys. */
	uint64_t *keys = malloc(n * sizeof *keys);
	for (uint64_t i = 0; i < n; i++) {
		sdb_answer a;
		cr_assert_eq(sdb_answer_query(&a, db, &boards[i], goal, NULL), 0);
		cr_assert_eq(a.distance, d, "drawn at %d, asked %d", a.distance, d);
		keys[i] = tk_pack(&boards[i]);
	}
	qsort(keys, n, sizeof *keys, key_cmp);
	uint64_t *seen = calloc(states, sizeof *seen), distinct = 0;
	for (uint64_t i = 0; i < n; i++) {
		if (i == 0 || keys[i] != keys[i - 1])
			distinct++;
		cr_assert_leq(distinct, states, "more distinct boards than states at %d", d);
		seen[distinct - 1]++;
	}
	cr_assert_eq(distinct, states, "distance %d: %llu of %llu states drawn", d,
	             (unsigned long long)distinct, (unsigned long long)states);
	double *expected = malloc(states * sizeof *expected);
	for (uint64_t i = 0; i < states; i++)
		expected[i] = per_state;
	int df;
	double stat = chi2(seen, expected, (int)states, &df);
	cr_assert_lt(stat, chi2_critical(df), "distance %d: chi-square %.1f, %d degrees", d, stat,
	             df);
	free(expected);
	free(seen);
	free(keys);
	free(boards);
	sdb_random_close(s);
}

Test(random, every_state_of_a_distance_equally_likely, .timeout = 120)
{
	char path[512];
	sdb_db *db = tk_open_classes(path, sizeof path, 3, 3, "rnd-within.lmdb");
	sdb_board goal;
	sdb_board_goal(&goal, 3, 3, 8);
	uniform_within(db, &goal, 30, 100);   /* 221 states: listed */
	uniform_within(db, &goal, 12, 20);    /* 748 states: listed */
	uniform_within(db, &goal, 24, 20);    /* 24047 states: read at random */
	sdb_board centre;
	cr_assert_eq(sdb_board_parse(&centre, "1 2 3 4 0 5 6 7 8", 3, 3), 0);
	uniform_within(db, &centre, 20, 20);  /* a goal of another class */
	sdb_db_close(db);
	remove(path);
}

Test(random, ranges_follow_the_counts, .timeout = 120)
{
	char path[512];
	sdb_db *db = tk_open_classes(path, sizeof path, 3, 3, "rnd-range.lmdb");
	sdb_board goal;
	sdb_board_goal(&goal, 3, 3, 8);
	const int ranges[][2] = { { 20, 24 }, { 27, 31 }, { 0, 31 }, { 3, 5 } };
	for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++) {
		const int lo = ranges[r][0], hi = ranges[r][1];
		sdb_random *s;
		cr_assert_eq(draw_open(&s, db, &goal, lo, hi, 3 + r), 0);
		uint64_t total = 0, seen[TK_A089473_LEN] = { 0 };
		for (int d = lo; d <= hi; d++)
			total += tk_a089473[d];
		cr_assert_eq(sdb_random_population(s), total);
		enum { N = 20000 };
		static sdb_board boards[N];
		sdb_random_draw(s, boards, N);
		for (int i = 0; i < N; i++) {
			sdb_answer a;
			cr_assert_eq(sdb_answer_query(&a, db, &boards[i], &goal, NULL), 0);
			cr_assert(a.distance >= lo && a.distance <= hi, "%d outside %d..%d", a.distance,
			          lo, hi);
			seen[a.distance - lo]++;
		}
		double expected[TK_A089473_LEN];
		for (int d = lo; d <= hi; d++)
			expected[d - lo] = (double)N * (double)tk_a089473[d] / (double)total;
		int df;
		double stat = chi2(seen, expected, hi - lo + 1, &df);
		cr_assert(df == 0 || stat < chi2_critical(df), "%d..%d: chi-square %.1f, %d degrees",
		          lo, hi, stat, df);
		sdb_random_close(s);
	}
	sdb_db_close(db);
	remove(path);
}

Test(random, same_seed_same_boards_and_errors_are_clear)
{
	char path[512];
	sdb_db *db = tk_open_classes(path, sizeof path, 3, 3, "rnd-seed.lmdb");
	sdb_board goal;
	sdb_board_goal(&goal, 3, 3, 8);
	sdb_random *s, *t;
	cr_assert_eq(draw_open(&s, db, &goal, 31, 31, 42), 0);
	cr_assert_eq(draw_open(&t, db, &goal, 31, 31, 42), 0);
	cr_assert_eq(sdb_random_population(s), 2);
	sdb_board a[50], b[50];
	sdb_random_draw(s, a, 50);
	sdb_random_draw(t, b, 50);
	cr_assert(!memcmp(a, b, sizeof a), "the same seed draws the same boards");
	int both = 0;
	for (int i = 1; i < 50; i++)
		both |= !sdb_board_equal(&a[0], &a[i]);
	cr_assert(both, "both states at 31 are drawn");
	sdb_random_close(s);
	sdb_random_close(t);
	/* The boards of a seed are fixed forever (xoshiro256** seeded by
	 * splitmix64): a change would change everyone's seeded boards. */
	char text[64];
	cr_assert_eq(draw_open(&s, NULL, &goal, -1, -1, 0), 0);
	sdb_random_draw(s, a, 2);
	sdb_board_format(text, sizeof text, &a[1]);
	cr_assert_str_eq(text, "4 5 2 3 6 7 1 0 8");
	sdb_random_close(s);
	sdb_random_request walk = SDB_RANDOM_REQUEST_INIT;
	walk.walk = 30;
	walk.seed_given = 1;
	cr_assert_eq(sdb_random_open(&s, NULL, &goal, &walk), 0);
	sdb_random_draw(s, a, 2);
	sdb_board_format(text, sizeof text, &a[1]);
	cr_assert_str_eq(text, "1 5 6 2 8 3 0 7 4");
	sdb_random_close(s);
	/* Distances that do not exist, and boards without tables. */
	cr_assert_eq(draw_open(&s, db, &goal, 32, 32, 1), SDB_EINVAL);
	cr_assert(strstr(sdb_error_detail(), "32") && strstr(sdb_error_detail(), "0 to 31"), "%s",
	          sdb_error_detail());
	cr_assert_null(s);
	cr_assert_eq(draw_open(&s, db, &goal, 5, 3, 1), SDB_EINVAL);
	cr_assert_eq(draw_open(&s, db, &goal, -2, 3, 1), SDB_EINVAL);
	sdb_board big, small;
	sdb_board_goal(&big, 4, 4, 15);
	cr_assert_eq(draw_open(&s, db, &big, 10, 10, 1), SDB_ETOOBIG);
	sdb_board_goal(&small, 2, 4, 7);
	cr_assert_eq(draw_open(&s, db, &small, 10, 10, 1), SDB_ENOTFOUND);
	cr_assert(strstr(sdb_error_detail(), "slidedb-gen full 2x4"), "%s", sdb_error_detail());
	/* 4x4 among all boards: every one solvable, the blank anywhere. */
	cr_assert_eq(draw_open(&s, NULL, &big, -1, -1, 1), 0);
	int cells[16] = { 0 };
	for (int i = 0; i < 4000; i++) {
		sdb_board x;
		sdb_random_draw(s, &x, 1);
		cr_assert_eq(sdb_board_solvable(&x, &big), 1);
		cells[x.blank]++;
	}
	for (int c = 0; c < 16; c++)
		cr_assert(cells[c] > 150 && cells[c] < 350, "blank in cell %d %d times", c, cells[c]);
	sdb_random_close(s);
	/* Walks: never further than their length, solvable. */
	for (int steps = 0; steps < 40; steps += 7) {
		walk.walk = steps;
		walk.seed = (uint64_t)steps;
		cr_assert_eq(sdb_random_open(&s, NULL, &goal, &walk), 0);
		cr_assert_eq(sdb_random_population(s), 0, "a walk draws no state uniformly");
		sdb_board x;
		cr_assert_eq(sdb_random_draw(s, &x, 1), 0);
		sdb_random_close(s);
		sdb_answer ans;
		cr_assert_eq(sdb_answer_query(&ans, db, &x, &goal, NULL), 0);
		cr_assert_leq(ans.distance, steps);
		cr_assert_eq(ans.distance % 2, steps % 2, "a move changes the distance by one");
	}
	walk.walk = -2;
	cr_assert_eq(sdb_random_open(&s, NULL, &goal, &walk), SDB_EINVAL);
	sdb_db_close(db);
	remove(path);
}

Test(board, the_tile_that_slides)
{
	sdb_board b;
	cr_assert_eq(sdb_board_parse(&b, "1 2 3 4 0 5 6 7 8", 3, 3), 0);
	cr_assert_eq(sdb_move_tile(&b, SDB_UP), 2);
	cr_assert_eq(sdb_move_tile(&b, SDB_DOWN), 7);
	cr_assert_eq(sdb_move_tile(&b, SDB_LEFT), 4);
	cr_assert_eq(sdb_move_tile(&b, SDB_RIGHT), 5);
	sdb_board_goal(&b, 3, 3, 8);
	cr_assert_eq(sdb_move_tile(&b, SDB_DOWN), -1);
	cr_assert_eq(sdb_move_tile(&b, SDB_RIGHT), -1);
	cr_assert_eq(sdb_move_tile(&b, 7), -1);
}

/* --- Two-bit tables (--bits 2): the same answers as the byte tables, found
 * by walking the distances mod 3. */
static void answers_equal_the_byte_tables(const char *chunk_bytes)
{
	char p8[512], p2[512];
	tk_build_classes(p8, sizeof p8, 3, 3, "mod3-bytes.lmdb");
	tk_tmp_path(p2, sizeof p2, "mod3-bits.lmdb");
	if (chunk_bytes)
		tk_knob("SLIDEDB_CHUNK_BYTES", chunk_bytes);
	tk_build(p2, "3x3", "--bits 2");
	tk_knob("SLIDEDB_CHUNK_BYTES", NULL);
	sdb_db *d8, *d2;
	cr_assert_eq(sdb_db_open(&d8, p8, SDB_RDONLY), 0);
	cr_assert_eq(sdb_db_open(&d2, p2, SDB_RDONLY), 0);
	cr_assert_eq(sdb_table_count(d2), 3);
	for (int i = 0; i < 3; i++) {
		const sdb_table *t = sdb_table_at(d2, i);
		cr_assert_eq(sdb_table_meta(t)->entry_format, SDB_ENTRY_MOD3);
		cr_assert_eq(sdb_table_bytes(sdb_table_meta(t)), (181440 + 3) / 4);
		cr_assert_eq(sdb_table_verify(t), 0);
		uint64_t got[SDB_MAX_DISTANCE], want[SDB_MAX_DISTANCE];
		cr_assert_eq(sdb_table_count_entries(got, t), 0);
		sdb_table_expected_counts(want, sdb_table_meta(t));
		cr_assert_eq(memcmp(got, want, sizeof got), 0, "counts mod 3");
		/* 45360 bytes: whole, or in chunks with no single pointer */
		cr_assert_eq(sdb_table_chunks(t), chunk_bytes ? 12 : 1);
		cr_assert_eq(sdb_table_data(t) == NULL, chunk_bytes != NULL);
		/* the catalog's counts are the byte table's */
		const sdb_table_info *b = sdb_table_meta(sdb_table_at(d8, i));
		cr_assert_eq(memcmp(b->counts, sdb_table_meta(t)->counts, sizeof b->counts), 0);
	}
	const sdb_answer_opts all = { .version = SDB_ANSWER_OPTS_VERSION,
	                              .want_moves = 1, .want_best_moves = 1, .want_count = 1 };
	const char *goals[] = { "1 2 3 4 5 6 7 8 0", "1 2 3 4 0 5 6 7 8", "0 8 7 6 5 4 3 2 1" };
	for (size_t g = 0; g < 3; g++) {
		sdb_board goal;
		cr_assert_eq(sdb_board_parse(&goal, goals[g], 3, 3), 0);
		sdb_random *any;
		cr_assert_eq(draw_open(&any, NULL, &goal, -1, -1, 3 + g), 0);
		for (int i = 0; i < 2000; i++) {
			sdb_board start;
			sdb_random_draw(any, &start, 1);
			sdb_answer a8, a2;
			cr_assert_eq(sdb_answer_query(&a8, d8, &start, &goal, &all), 0);
			cr_assert_eq(sdb_answer_query(&a2, d2, &start, &goal, &all), 0, "%s",
			             sdb_error_detail());
			cr_assert_eq(a2.distance, a8.distance, "%s", text_of(&start));
			cr_assert(tk_replay(&start, a2.moves, &goal) &&
			          (int)strlen(a2.moves) == a2.distance);
			cr_assert_eq(a2.best_moves, a8.best_moves);
			cr_assert(count_of(&a2.solutions) == count_of(&a8.solutions));
			cr_assert(a2.distance == 0 || (a2.best_moves >> a2.best_move & 1));
			const sdb_answer_opts plain = { .version = SDB_ANSWER_OPTS_VERSION,
			                                .want_moves = 0 };
			cr_assert_eq(sdb_answer_query(&a2, d2, &start, &goal, &plain), 0);
			cr_assert_eq(a2.distance, a8.distance);
			if (i % 100 == 0) {   /* the listed sequences too */
				seqs s8 = { 0 }, s2 = { 0 };
				cr_assert_eq(sdb_answer_paths(NULL, d8, &start, &goal, 50, NULL, collect,
				                              &s8), 0);
				cr_assert_eq(sdb_answer_paths(NULL, d2, &start, &goal, 50, NULL, collect,
				                              &s2), 0);
				cr_assert_eq(s2.n, s8.n);
				for (size_t k = 0; k < s2.n; k++)
					cr_assert_str_eq(s2.v[k], s8.v[k]);
				seqs_free(&s8);
				seqs_free(&s2);
			}
		}
		sdb_random_close(any);
		/* a distance cannot be drawn from distances mod 3: a clear error */
		sdb_random *s;
		cr_assert_eq(draw_open(&s, d2, &goal, 5, 5, 1), SDB_EINVAL);
		cr_assert(strstr(sdb_error_detail(), "--bits 8"), "%s", sdb_error_detail());
	}
	/* the direct read of the hot path walks too */
	const sdb_table *t2 = sdb_table_find(d2, "full-3x3-b0"), *t8 = sdb_table_find(d8, "full-3x3-b0");
	for (uint64_t i = 0; i < 181440; i += 997) {
		sdb_board b;
		sdb_board_unrank(&b, 3, 3, sdb_rank_class(&sdb_table_meta(t8)->goal), i);
		cr_assert_eq(sdb_table_distance(t2, &b), sdb_table_distance(t8, &b));
	}
	sdb_db_close(d8);
	sdb_db_close(d2);
	remove(p8);
	ck_db_remove(p2);
}

Test(mod3, answers_equal_the_byte_tables, .timeout = 300)
{
	answers_equal_the_byte_tables(NULL);
}

/* Stored in chunks, as tables over 4 GiB are (small chunks here): every
 * read of a walk crosses chunks, and nothing changes. */
Test(mod3, chunked_tables_answer_as_the_byte_tables, .timeout = 300)
{
	answers_equal_the_byte_tables("4096");
}

/* A damaged two-bit entry gives an error, never a wrong answer. */
Test(mod3, a_damaged_entry_is_an_error)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "mod3-damaged.lmdb");
	tk_build(path, "2x3", "--bits 2");
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	const sdb_table *t = sdb_table_find(db, "full-2x3-b0");
	cr_assert_not_null(t);
	uint8_t *copy = malloc(sdb_table_bytes(sdb_table_meta(t)));
	memcpy(copy, sdb_table_data(t), sdb_table_bytes(sdb_table_meta(t)));
	sdb_db_close(db);
	/* every entry of the table set to "unreached" in turn, through LMDB: too slow;
	 * instead damage a whole byte in the file, then every query that walks
	 * through it must fail or still be right */
	size_t size;
	char *file = ck_read_file(path, &size);
	char *at = memmem(file, size, copy, 90);
	cr_assert_not_null(at, "the table's bytes are in the file");
	at[10] ^= 0x3c;
	ck_write_file(path, file, size);
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	cr_assert_eq(sdb_table_verify(sdb_table_find(db, "full-2x3-b0")), SDB_ECORRUPT);
	sdb_board goal;
	sdb_board_goal(&goal, 2, 3, 5);
	simple_bfs bfs;
	simple_bfs_run(&bfs, &goal);
	int errors = 0;
	for (uint64_t i = 0; i < bfs.cap; i++) {
		if (!bfs.keys[i])
			continue;
		sdb_board start;
		tk_unpack(&start, 2, 3, bfs.keys[i]);
		sdb_answer a;
		int err = sdb_answer_query(&a, db, &start, &goal, NULL);
		if (err) {
			cr_assert_eq(err, SDB_ECORRUPT, "%s", sdb_error_detail());
			errors++;
			continue;
		}
		cr_assert(tk_replay(&start, a.moves, &goal), "%s: a wrong sequence", text_of(&start));
		cr_assert_eq(a.distance, bfs.dist[i], "%s: a wrong distance", text_of(&start));
	}
	cr_assert_gt(errors, 0, "the damage was never seen");
	simple_bfs_free(&bfs);
	sdb_db_close(db);
	free(file);
	free(copy);
	ck_db_remove(path);
}
