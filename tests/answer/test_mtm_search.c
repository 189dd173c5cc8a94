/* SPDX-License-Identifier: MIT */
/* The multi-tile metric's search (db/answer/engine_mtm.c on the split
 * tables of mtm_split.c), white box: linked to the library's objects, it
 * searches boards that have full tables too, and its answers are checked
 * against the simple MTM BFS of kit/oracle.c on 3x3, 2x5 and 5x2 (every
 * distance, goals of every blank cell on 3x3, three above, tiles
 * shuffled): the distance, the sequence (the first optimal one in the
 * order u < d < l < r, a shorter slide first: what a full table's walk
 * gives), every best move, the number of optimal sequences and each listed
 * one, on one thread and on two with every iteration split and every
 * child's entries fetched first. The split tables' every entry against a
 * simple search of its own. 4x4 through the public API: against a
 * brute-force search of every sequence up to the distance. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "answer/heuristic.h"
#include "kit/oracle.h"

static const char *text_of(const sdb_board *b)
{
	static __thread char buf[3 * SDB_MAX_CELLS];
	sdb_board_format(buf, sizeof buf, b);
	return buf;
}

/* The first optimal sequence by the oracle: from each board the first
 * slide in order that goes one move closer. */
static void first_sequence(char *out, const simple_bfs *s, const sdb_board *start)
{
	sdb_board b = *start;
	int n = 0;
	for (int d = simple_bfs_dist(s, &b); d > 0; d--) {
		int found = 0;
		for (int m = 0; m < 4 && !found; m++) {
			sdb_board c = b;
			for (int k = 1; !found && sdb_board_apply(&c, m) == 0; k++)
				if (simple_bfs_dist(s, &c) == d - 1) {
					for (int i = 0; i < k; i++)
						out[n++] = sdb_move_letter(m);
					b = c;
					found = 1;
				}
		}
		cr_assert(found, "no step down from %s", text_of(&b));
	}
	out[n] = '\0';
}

typedef struct listed {
	const sdb_board *start, *goal;
	int distance, n;
} listed;

static int on_path(void *ctx, const char *moves)
{
	listed *l = ctx;
	cr_assert_eq(sdb_moves_length(moves, SDB_METRIC_MTM), l->distance, "%s", moves);
	sdb_board b = *l->start;
	for (int k = 0; moves[k]; k++)
		cr_assert_eq(sdb_board_apply(&b, sdb_move_from_letter(moves[k])), 0, "%s", moves);
	cr_assert(sdb_board_equal(&b, l->goal), "%s does not reach the goal", moves);
	l->n++;
	return 0;
}

/* Each group's table against a shortest-path search written here the
 * simple way: over the cells of the group's tiles and the blank's exact
 * cell (no regions), a bucket queue in 1/unit of a move, every slide of
 * the blank from every state; every entry the region table gives for a
 * state must be that state's distance. */
static void group_like_simple(const sdbi_mtm_split *t, const sdbi_mtm_group *g,
                              const sdb_board *goal)
{
	const int n = t->n, m = g->k + 1;
	size_t size = 1;
	for (int i = 0; i < m; i++)
		size *= (size_t)n;
	uint16_t *dist = malloc(size * sizeof *dist);
	uint32_t *queue = malloc(size * 8 * sizeof *queue);   /* (pushes: at most 8 a state here) */
	uint16_t *at = malloc(size * 8 * sizeof *at);
	cr_assert(dist && queue && at);
	memset(dist, 0xff, size * sizeof *dist);
	int c[SDB_MAX_PATTERN + 1];
	for (int i = 0; i < g->k; i++)
		for (int x = 0; x < n; x++)
			if (goal->cell[x] == g->tile[i])
				c[i] = x;
	c[g->k] = goal->blank;
	uint32_t start = 0;
	for (int i = 0; i < m; i++)
		start = start * (uint32_t)n + (uint32_t)c[i];
	dist[start] = 0;
	size_t pushed = 0;
	queue[pushed] = start;
	at[pushed++] = 0;
	for (unsigned d = 0, left = 1; left; d++) {   /* every level: scan the pushes of d */
		left = 0;
		for (size_t q = 0; q < pushed; q++) {
			if (at[q] < d || dist[queue[q]] != at[q])
				continue;
			if (at[q] > d) {
				left = 1;
				continue;
			}
			uint32_t s = queue[q];
			for (int i = m - 1; i >= 0; i--, s /= (uint32_t)n)
				c[i] = (int)(s % (uint32_t)n);
			static const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { -1, 1, 0, 0 };
			for (int dir = 0; dir < 4; dir++) {
				int nc[SDB_MAX_PATTERN + 1], x = c[g->k] % t->w, y = c[g->k] / t->w, inside = 0;
				memcpy(nc, c, sizeof nc);
				for (int len = 1; len <= t->run; len++) {
					x += dx[dir];
					y += dy[dir];
					if (x < 0 || y < 0 || x >= t->w || y >= t->h)
						break;
					const int cell = y * t->w + x;
					for (int i = 0; i < g->k; i++)
						if (nc[i] == cell) {
							nc[i] = cell - (dy[dir] * t->w + dx[dir]);
							inside++;
						}
					nc[g->k] = cell;
					const unsigned nd = d + (unsigned)(t->unit * inside / len);
					uint32_t u = 0;
					for (int i = 0; i < m; i++)
						u = u * (uint32_t)n + (uint32_t)nc[i];
					if (nd < dist[u]) {
						dist[u] = (uint16_t)nd;
						cr_assert_lt(pushed, size * 8);
						queue[pushed] = u;
						at[pushed++] = (uint16_t)nd;
						left = 1;
					}
				}
			}
		}
	}
	size_t checked = 0;
	for (uint32_t s = 0; s < size; s++) {
		if (dist[s] == 0xffff)
			continue;
		uint8_t pos[SDB_MAX_CELLS];
		uint32_t r = s;
		for (int i = m - 1; i >= 0; i--, r /= (uint32_t)n)
			c[i] = (int)(r % (uint32_t)n);
		for (int i = 0; i < g->k; i++)
			pos[g->tile[i]] = (uint8_t)c[i];
		const unsigned e = sdbi_mtm_group_value(g, pos, c[g->k]);
		cr_assert_eq(e, dist[s], "%dx%d group %d, state %u: %u, the simple search %u", t->w, t->h,
		             (int)(g - t->g), s, e, dist[s]);
		checked++;
	}
	cr_assert_gt(checked, 1000);
	free(dist);
	free(queue);
	free(at);
}

Test(mtm_search, split_tables_like_a_simple_search, .timeout = 300)
{
	static const int sizes[][2] = { { 3, 3 }, { 2, 5 }, { 5, 2 }, { 3, 4 } };
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
		for (int blank = 0; blank < 2; blank++) {
			sdb_board goal;
			sdb_board_goal(&goal, sizes[i][0], sizes[i][1], blank ? sizes[i][0] + 1 : 0);
			sdbi_mtm_split *t;
			cr_assert_eq(sdbi_mtm_split_build(&t, &goal, NULL, 2), 0, "%s", sdb_error_detail());
			for (int g = 0; g < t->ngroups; g++)
				group_like_simple(t, &t->g[g], &goal);
			sdbi_mtm_split_free(t);
		}
}

static void search_like_oracle(int w, int h, int threads)
{
	sdb_db *db;
	char path[512];
	snprintf(path, sizeof path, "%s/mtm-search-%dx%d-%d.lmdb", SLIDEDB_TEST_TMP, w, h, threads);
	cr_assert_eq(sdb_db_open(&db, path, SDB_CREATE), 0, "%s", sdb_error_detail());
	sdb_tuning tuning = SDB_TUNING_INIT;
	tuning.split_nodes = threads > 1 ? 0 : -1;   /* every iteration over the threads */
	cr_assert_eq(sdb_engine_tune(&tuning), 0);
	const sdb_solve_limits limits = { .threads = threads };
	const int n = w * h;
	for (int g = 0; g < n; g++) {
		if (n > 9 && g != 0 && g != n / 2 && g != n - 1)
			continue;   /* (a corner, the middle, the last above 9 cells) */
		sdb_board goal;
		sdb_board_goal(&goal, w, h, g);
		for (int c = 0; c + 1 < n; c++)   /* tiles shuffled: any goal is one */
			if (goal.cell[c] && goal.cell[c + 1] && (c + g) % 3 == 0) {
				const uint8_t t = goal.cell[c];
				goal.cell[c] = goal.cell[c + 1];
				goal.cell[c + 1] = t;
			}
		const sdb_heuristic *heur;
		cr_assert_eq(sdbi_db_heuristic_mtm(&heur, db, &goal), 0, "%s", sdb_error_detail());
		cr_assert(strstr(sdb_heuristic_name(heur), "+walking-distance"), "%s",
		          sdb_heuristic_name(heur));
		heur->mtm->fetch_ahead = threads > 1;   /* (7-8's path: every child's fetched first) */
		tk_oracle o;
		tk_oracle_init_metric(&o, &goal, SDB_METRIC_MTM);
		int tried = 0;
		for (uint64_t i = 0; i < o.bfs.cap; i += 1 + o.bfs.cap / (n > 9 ? 60 : 150)) {
			if (!o.bfs.keys[i])
				continue;
			sdb_board start;
			tk_unpack(&start, w, h, o.bfs.keys[i]);
			const int d = o.bfs.dist[i];
			sdb_answer a;
			sdb_solve_stats st;
			sdbi_optimal en = { .count_all = 1, .limit = 100000, .fn = on_path };
			listed l = { &start, &goal, d, 0 };
			en.ctx = &l;
			cr_assert_eq(sdbi_solve_optimal(&a, &st, heur, &start, &goal, &limits, &en), 0,
			             "%s: %s", text_of(&start), sdb_error_detail());
			cr_assert_eq(a.distance, d, "%s -> %s: %d %d h %d", text_of(&start), text_of(&goal), a.distance, d, (int)st.heuristic);
			cr_assert_leq(st.heuristic, d, "%s: the bound passes the distance",
			              text_of(&start));
			char want[SDB_MAX_MOVES + 1];
			first_sequence(want, &o.bfs, &start);
			cr_assert_str_eq(a.moves, want, "%s", text_of(&start));
			cr_assert_eq(en.best_moves, tk_oracle_best(&o, &start), "%s", text_of(&start));
			cr_assert(en.count.lo == (uint64_t)tk_oracle_paths(&o, &start) && !en.count.hi,
			          "%s: solutions", text_of(&start));
			cr_assert_eq((uint64_t)l.n, en.count.lo, "%s: listed", text_of(&start));
			tried++;
		}
		cr_assert_gt(tried, 20);
		tk_oracle_free(&o);
	}
	tuning.split_nodes = -1;
	sdb_engine_tune(&tuning);
	sdb_db_close(db);
}

Test(mtm_search, like_the_oracle_3x3, .timeout = 300)
{
	search_like_oracle(3, 3, 1);
	search_like_oracle(3, 3, 2);
}

Test(mtm_search, like_the_oracle_2x5_and_5x2, .timeout = 300)
{
	search_like_oracle(2, 5, 2);
	search_like_oracle(5, 2, 1);
}

/* goal after `steps` random single-tile moves. */
static void random_walk(sdb_board *b, const sdb_board *goal, int steps, unsigned *seed)
{
	*b = *goal;
	for (int i = 0; i < steps;)
		i += sdb_board_apply(b, (int)(rand_r(seed) % 4)) == 0;
}

/* Whether start reaches goal in at most d moves (every sequence tried). */
static int reaches(sdb_board *b, const sdb_board *goal, int d, int prev)
{
	if (sdb_board_equal(b, goal))
		return 1;
	if (d == 0)
		return 0;
	for (int m = 0; m < 4; m++) {
		if (prev >= 0 && m >> 1 == prev >> 1)
			continue;
		sdb_board c = *b;
		while (sdb_board_apply(&c, m) == 0)
			if (reaches(&c, goal, d - 1, m))
				return 1;
	}
	return 0;
}

/* 4x4 through sdb_answer_query: the distance is the fewest moves every
 * sequence tried finds, the moves replay, and two threads answer as one. */
Test(mtm_search, the_15_puzzle, .timeout = 300)
{
	sdb_db *db;
	char path[512];
	snprintf(path, sizeof path, "%s/mtm-search-4x4.lmdb", SLIDEDB_TEST_TMP);
	cr_assert_eq(sdb_db_open(&db, path, SDB_CREATE), 0, "%s", sdb_error_detail());
	sdb_answer_opts opts = SDB_ANSWER_OPTS_INIT;
	opts.metric = SDB_METRIC_MTM;
	unsigned seed = 11;
	for (int blank = 0; blank < 16; blank += 5) {
		sdb_board goal;
		sdb_board_goal(&goal, 4, 4, blank);
		for (int i = 0; i < 6; i++) {
			sdb_board start;
			random_walk(&start, &goal, 6 + 2 * i, &seed);
			sdb_answer a, b;
			opts.limits.threads = 1;
			cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &opts), 0, "%s",
			             sdb_error_detail());
			cr_assert_eq(a.method, SDB_METHOD_SEARCH);
			opts.limits.threads = 2;
			cr_assert_eq(sdb_answer_query(&b, db, &start, &goal, &opts), 0);
			cr_assert_str_eq(a.moves, b.moves);
			cr_assert_eq(sdb_moves_length(a.moves, SDB_METRIC_MTM), a.distance);
			sdb_board c = start;
			for (int k = 0; a.moves[k]; k++)
				cr_assert_eq(sdb_board_apply(&c, sdb_move_from_letter(a.moves[k])), 0);
			cr_assert(sdb_board_equal(&c, &goal), "%s: %s", text_of(&start), a.moves);
			if (a.distance <= 7) {
				cr_assert(reaches(&start, &goal, a.distance, -1));
				cr_assert(a.distance == 0 || !reaches(&start, &goal, a.distance - 1, -1),
				          "%s: %d is not the fewest", text_of(&start), a.distance);
			}
		}
	}
	/* 2x8: runs of seven cells, entries past a byte (in 1/420 of a move), no
	 * walking distance (its keys pass 64 bits) */
	{
		sdb_board goal, start;
		sdb_board_goal(&goal, 8, 2, 15);
		random_walk(&start, &goal, 14, &seed);
		sdb_answer a;
		cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &opts), 0, "%s",
		             sdb_error_detail());
		sdb_board c = start;
		for (int k = 0; a.moves[k]; k++)
			cr_assert_eq(sdb_board_apply(&c, sdb_move_from_letter(a.moves[k])), 0);
		cr_assert(sdb_board_equal(&c, &goal), "%s: %s", text_of(&start), a.moves);
		cr_assert(reaches(&start, &goal, a.distance, -1));
		cr_assert(a.distance == 0 || !reaches(&start, &goal, a.distance - 1, -1),
		          "%s: %d is not the fewest", text_of(&start), a.distance);
		cr_assert(strstr(a.heuristic_name, "mtm-split-") &&
		          !strstr(a.heuristic_name, "walking"), "%s", a.heuristic_name);
	}
	/* sets count single-tile moves: not taken for a multi-tile search */
	opts.sets = "pdb-4x4-b15-5-5-5";
	sdb_board goal, start;
	sdb_board_goal(&goal, 4, 4, 15);
	random_walk(&start, &goal, 10, &seed);
	sdb_answer a;
	cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &opts), SDB_EINVAL);
	cr_assert(strstr(sdb_error_detail(), "single-tile"), "%s", sdb_error_detail());
	sdb_db_close(db);
}

typedef struct asker {
	sdb_db *db;
	sdb_board goal;
	const sdb_heuristic *got;
	int err;
} asker;

static void *ask(void *p)
{
	asker *a = p;
	a->err = sdbi_db_heuristic_mtm(&a->got, a->db, &a->goal);
	return NULL;
}

/* Threads asking for one class's tables at once (goals in two corners of
 * the class) all get the one heuristic the handle keeps. */
Test(mtm_search, threads_asking_at_once_get_one_heuristic)
{
	sdb_db *db;
	char path[512];
	snprintf(path, sizeof path, "%s/mtm-search-threads.lmdb", SLIDEDB_TEST_TMP);
	cr_assert_eq(sdb_db_open(&db, path, SDB_CREATE), 0, "%s", sdb_error_detail());
	enum { N = 6 };
	asker a[N];
	pthread_t t[N];
	for (int i = 0; i < N; i++) {
		a[i] = (asker){ db, { 0 }, NULL, -1 };
		sdb_board_goal(&a[i].goal, 3, 3, i % 2 ? 0 : 8);   /* two corners: one class */
		cr_assert_eq(pthread_create(&t[i], NULL, ask, &a[i]), 0);
	}
	for (int i = 0; i < N; i++) {
		pthread_join(t[i], NULL);
		cr_assert_eq(a[i].err, 0);
		cr_assert_eq(a[i].got, a[0].got, "thread %d got a build of its own", i);
	}
	sdb_db_close(db);
}

/* A handle builds the tables of at most four classes of goals: a fifth is
 * refused (what a server's clients can make it hold is bounded), and the
 * four kept still answer. */
Test(mtm_search, a_handle_holds_four_classes, .timeout = 300)
{
	sdb_db *db;
	char path[512];
	snprintf(path, sizeof path, "%s/mtm-search-classes.lmdb", SLIDEDB_TEST_TMP);
	cr_assert_eq(sdb_db_open(&db, path, SDB_CREATE), 0, "%s", sdb_error_detail());
	int kept = 0, refused = 0;
	const sdb_heuristic *first = NULL;
	for (int cell = 0; cell < 15; cell++) {
		if (sdb_sym_representative(3, 5, cell) != cell)
			continue;
		sdb_board goal;
		sdb_board_goal(&goal, 3, 5, cell);
		const sdb_heuristic *h;
		const int err = sdbi_db_heuristic_mtm(&h, db, &goal);
		if (kept < 4) {
			cr_assert_eq(err, 0, "%s", sdb_error_detail());
			first = first ? first : h;
			kept++;
			continue;
		}
		cr_assert_eq(err, SDB_ELIMIT, "class %d: %d", cell, err);
		cr_assert(strstr(sdb_error_detail(), "more than 4 classes"), "%s", sdb_error_detail());
		refused = 1;
		break;
	}
	cr_assert(kept == 4 && refused, "3x5 has six classes of goals");
	sdb_board goal;
	sdb_board_goal(&goal, 3, 5, 0);
	const sdb_heuristic *again;
	cr_assert_eq(sdbi_db_heuristic_mtm(&again, db, &goal), 0);
	cr_assert_eq(again, first);
	sdb_db_close(db);
}
