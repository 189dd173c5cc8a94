/* SPDX-License-Identifier: MIT */
/* The multi-tile metric (issue #38): full tables built by the engine and
 * every answer read from them, checked against a second, deliberately
 * simple BFS (kit/oracle.h: a board's neighbours are the boards after the
 * blank moves 1, 2, ... cells one way) on every board up to 3x3 and 2x5,
 * every goal class; the notation ("r3") read and written back. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/bfs.h"
#include "kit/oracle.h"
#include "kit/run.h"

typedef tk_u128 u128;


static const char *text_of(const sdb_board *b)
{
	static __thread char buf[3 * SDB_MAX_CELLS];
	sdb_board_format(buf, sizeof buf, b);
	return buf;
}

/* The MTM table of WxH for the goal with the blank in cell blank: bytes
 * (distance and best move), or two bits a state; res its counts. */
static uint8_t *build(bfs_result *res, int w, int h, int blank, int bits, int threads)
{
	bfs_full_ctx ctx;
	bfs_space sp;
	bfs_full_space_metric(&sp, &ctx, w, h, blank, SDB_METRIC_MTM);
	const uint64_t bytes = bits == 2 ? bfs_2bit_bytes(sp.size) : sp.size;
	uint8_t *t = malloc(bytes);
	cr_assert_not_null(t);
	const int err = bits == 2 ? bfs_run_2bit(res, t, &sp, threads, NULL, NULL, NULL)
	                          : bfs_run(res, t, &sp, threads, NULL, NULL, NULL);
	cr_assert_eq(err, 0, "%dx%d b%d: %s", w, h, blank, sdb_error_detail());
	return t;
}

/* Every entry of every class's table of every size is the simple BFS's
 * distance, its best move the first direction (u d l r) of a slide one
 * closer; the counts are the BFS's; the bytes are the same on 1 and 2
 * threads, and the two-bit table holds the distances mod 3. */
static void tables_are_the_simple_bfs(const int (*sizes)[2], int nsizes)
{
	for (int s = 0; s < nsizes; s++) {
		const int w = sizes[s][0], h = sizes[s][1];
		for (int blank = 0; blank < w * h; blank++) {
			if (sdb_sym_representative(w, h, blank) != blank)
				continue;
			sdb_board goal;
			sdb_board_goal(&goal, w, h, blank);
			tk_oracle o;
			tk_oracle_init_metric(&o, &goal, SDB_METRIC_MTM);
			bfs_result r1, r2, r3;
			uint8_t *one = build(&r1, w, h, blank, 8, 1), *two = build(&r2, w, h, blank, 8, 2);
			uint8_t *mod3 = build(&r3, w, h, blank, 2, 2);
			const uint64_t n = sdb_rank_count(w, h);
			cr_assert_eq(memcmp(one, two, n), 0, "%dx%d b%d: 1 and 2 threads differ", w, h,
			             blank);
			cr_assert_eq(r1.max_distance, o.bfs.max, "%dx%d b%d: radius", w, h, blank);
			for (int d = 0; d <= o.bfs.max; d++) {
				cr_assert_eq(r1.counts[d], o.bfs.counts[d], "%dx%d b%d: count at %d", w, h,
				             blank, d);
				cr_assert_eq(r3.counts[d], o.bfs.counts[d], "%dx%d b%d: two bits, %d", w, h,
				             blank, d);
			}
			/* every entry up to 9 cells; of the 1.8 million of 10 cells,
			 * every 13th (the suite's time) */
			const int cls = sdb_rank_class(&goal), every = w * h > 9 ? 13 : 1;
			for (uint64_t i = 0; i < n; i += every) {
				sdb_board b;
				cr_assert_eq(sdb_board_unrank(&b, w, h, cls, i), 0);
				const int d = simple_bfs_dist(&o.bfs, &b);
				cr_assert_eq(sdb_dist6(one[i]), d, "%dx%d %s", w, h, text_of(&b));
				cr_assert_eq(sdb_mod3(mod3 + i / 4, i & 3), (unsigned)d % 3, "%dx%d %s", w, h,
				             text_of(&b));
				if (d > 0)
					cr_assert_eq(1u << sdb_move2(one[i]),
					             tk_oracle_best(&o, &b) & -tk_oracle_best(&o, &b),
					             "%dx%d %s: best move", w, h, text_of(&b));
			}
			free(one);
			free(two);
			free(mod3);
			tk_oracle_free(&o);
		}
	}
}

Test(mtm, tables_up_to_3x3)
{
	static const int sizes[][2] = { { 2, 2 }, { 2, 3 }, { 3, 2 }, { 2, 4 }, { 4, 2 }, { 3, 3 } };
	tables_are_the_simple_bfs(sizes, 6);
}

Test(mtm, tables_2x5_and_5x2)
{
	static const int sizes[][2] = { { 2, 5 }, { 5, 2 } };
	tables_are_the_simple_bfs(sizes, 2);
}

/* The catalog entry of the MTM table of WxH for the goal with the blank in
 * cell blank (bits 8 or 2), its counts those of res. */
static void mtm_info(sdb_table_info *info, int w, int h, int blank, int bits,
                     const bfs_result *res)
{
	memset(info, 0, sizeof *info);
	sdb_table_name_full_metric(info->name, sizeof info->name, w, h, blank, SDB_METRIC_MTM);
	info->kind = SDB_KIND_FULL_MTM;
	info->entry_format = bits == 2 ? SDB_ENTRY_MOD3 : SDB_ENTRY_DIST6_MOVE2;
	sdb_board_goal(&info->goal, w, h, blank);
	info->states = sdb_rank_count(w, h);
	memcpy(info->counts, res->counts, sizeof info->counts);
	info->max_distance = res->max_distance;
}

/* A database of the MTM tables of every class of WxH (bits 8 or 2). */
static sdb_db *open_mtm(char *path, size_t cap, int w, int h, int bits, const char *name)
{
	tk_tmp_path(path, cap, name);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_CREATE), 0, "%s", sdb_error_detail());
	sdb_writer *wr;
	cr_assert_eq(sdb_writer_begin(&wr, db), 0);
	for (int blank = 0; blank < w * h; blank++) {
		if (sdb_sym_representative(w, h, blank) != blank)
			continue;
		sdb_table_info info;
		bfs_result res;
		uint8_t *t = build(&res, w, h, blank, bits, 2), *data;
		mtm_info(&info, w, h, blank, bits, &res);
		cr_assert_eq(sdb_writer_reserve(wr, &data, info.name, sdb_table_bytes(&info)), 0);
		memcpy(data, t, sdb_table_bytes(&info));
		free(t);
		cr_assert_eq(sdb_writer_put_meta(wr, &info), 0, "%s", sdb_error_detail());
	}
	cr_assert_eq(sdb_writer_commit(wr), 0, "%s", sdb_error_detail());
	sdb_db_close(db);
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	return db;
}

static u128 count_of(const sdb_count *c)
{
	return (u128)c->hi << 64 | c->lo;
}

typedef struct listed {
	const sdb_board *start, *goal;
	int distance, n;
	char last[SDB_MAX_MOVES + 1];
} listed;

/* Each listed sequence: optimal, reaches the goal, after the one before
 * (move by move: u < d < l < r, a shorter slide first). */
static int on_path(void *ctx, const char *moves)
{
	listed *l = ctx;
	cr_assert_eq(sdb_moves_length(moves, SDB_METRIC_MTM), l->distance, "%s", moves);
	sdb_board b = *l->start;
	for (int k = 0; moves[k]; k++)
		cr_assert_eq(sdb_board_apply(&b, sdb_move_from_letter(moves[k])), 0, "%s", moves);
	cr_assert(sdb_board_equal(&b, l->goal), "%s does not reach the goal", moves);
	if (l->n) {   /* compare run by run */
		const char *a = l->last, *c = moves;
		int later = 0;
		while (*a && *c) {
			size_t ra = 1, rc = 1;
			while (a[ra] == a[0])
				ra++;
			while (c[rc] == c[0])
				rc++;
			const int ma = sdb_move_from_letter(a[0]), mc = sdb_move_from_letter(c[0]);
			if (ma != mc || ra != rc) {
				later = mc > ma || (mc == ma && rc > ra);
				break;
			}
			a += ra;
			c += rc;
		}
		cr_assert(later, "%s listed after %s", moves, l->last);
	}
	snprintf(l->last, sizeof l->last, "%s", moves);
	l->n++;
	return 0;
}

/* Answers in MTM, on tables of bytes and of two bits, for starts spread
 * over every distance and goals of every class (most not in the table's
 * frame): the distance, every best move and the number of optimal
 * solutions are the oracle's; the moves, and every listed sequence, replay
 * to the goal in that many moves; the checker takes them back in the
 * notation. Goals with the blank in every cell up to 9 cells, in three
 * (a corner, the middle, the last) above. */
static void answers_like_oracle(int w, int h, int bits)
{
	char path[512];
	sdb_db *db = open_mtm(path, sizeof path, w, h, bits, bits == 2 ? "mtm-2bit" : "mtm-bytes");
	const sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION, .want_moves = 1,
	                               .want_best_moves = 1, .want_count = 1,
	                               .metric = SDB_METRIC_MTM };
	const int n = w * h;
	int cells[SDB_MAX_CELLS], ncells = 0;
	for (int c = 0; c < n; c++)
		if (n <= 9 || c == 0 || c == n / 2 || c == n - 1)
			cells[ncells++] = c;
	for (int gi = 0; gi < ncells; gi++) {
		const int g = cells[gi];
		/* a goal with the blank in cell g, tiles shuffled (any goal is one) */
		sdb_board goal;
		sdb_board_goal(&goal, w, h, g);
		for (int c = 0; c + 1 < n; c++)
			if (goal.cell[c] && goal.cell[c + 1] && (c + g) % 3 == 0) {
				const uint8_t t = goal.cell[c];
				goal.cell[c] = goal.cell[c + 1];
				goal.cell[c + 1] = t;
			}
		tk_oracle o;
		tk_oracle_init_metric(&o, &goal, SDB_METRIC_MTM);
		int tried = 0;
		for (uint64_t i = 0; i < o.bfs.cap; i += 1 + o.bfs.cap / 400) {
			if (!o.bfs.keys[i])
				continue;
			sdb_board start;
			tk_unpack(&start, w, h, o.bfs.keys[i]);
			sdb_answer a;
			cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &opts), 0, "%s",
			             sdb_error_detail());
			const int d = o.bfs.dist[i];
			cr_assert_eq(a.distance, d, "%s -> %s", text_of(&start), text_of(&goal));
			cr_assert_eq(a.best_moves, tk_oracle_best(&o, &start), "%s: best moves",
			             text_of(&start));
			cr_assert(d == 0 || (a.best_moves >> a.best_move & 1));
			cr_assert(count_of(&a.solutions) == tk_oracle_paths(&o, &start), "%s: solutions",
			          text_of(&start));
			cr_assert_eq(sdb_moves_length(a.moves, SDB_METRIC_MTM), d, "%s", a.moves);
			/* the checker replays the notation and finds it optimal */
			char runs[2 * SDB_MAX_MOVES + 1];
			cr_assert_geq(sdb_moves_format_mtm(runs, sizeof runs, a.moves), 0);
			sdb_check ck;
			cr_assert_eq(sdb_check_moves(&ck, db, &start, &goal, runs, &opts), 0, "%s",
			             sdb_error_detail());
			cr_assert(ck.optimal && ck.length == d, "%s: %s judged %d moves", text_of(&start),
			          runs, ck.length);
			if (tried++ % 8 == 0 && tk_oracle_paths(&o, &start) <= 5000) {
				listed l = { &start, &goal, d, 0, "" };
				cr_assert_eq(sdb_answer_paths(&a, db, &start, &goal, 1000000, &opts, on_path,
				                              &l), 0);
				cr_assert((u128)l.n == tk_oracle_paths(&o, &start), "%s: listed %d",
				          text_of(&start), l.n);
			}
		}
		cr_assert_gt(tried, 10);
		tk_oracle_free(&o);
	}
	sdb_db_close(db);
}

Test(mtm, answers_3x3_bytes)
{
	answers_like_oracle(3, 3, 8);
}

Test(mtm, answers_3x3_two_bits)
{
	answers_like_oracle(3, 3, 2);
}

Test(mtm, answers_2x5)
{
	answers_like_oracle(2, 5, 8);
}

Test(mtm, answers_5x2_two_bits)
{
	answers_like_oracle(5, 2, 2);
}

/* A question in one metric of a database with tables of the other only is
 * an error naming the command that builds the right table. */
Test(mtm, the_other_metric_names_its_command)
{
	char path[512];
	sdb_db *db = open_mtm(path, sizeof path, 3, 3, 8, "one-metric");
	sdb_board start, goal;
	sdb_board_goal(&goal, 3, 3, 8);
	start = goal;
	sdb_board_apply(&start, SDB_LEFT);
	sdb_answer a;
	sdb_answer_opts stm = { .version = SDB_ANSWER_OPTS_VERSION };
	cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &stm), SDB_ENOTFOUND);
	cr_assert(strstr(sdb_error_detail(), "`slidedb-gen full 3x3"), "%s", sdb_error_detail());
	cr_assert(!strstr(sdb_error_detail(), "mtm"), "%s", sdb_error_detail());
	sdb_answer_opts mtm = stm;
	mtm.metric = SDB_METRIC_MTM;
	cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &mtm), 0);
	cr_assert_eq(a.distance, 1);
	sdb_board_goal(&goal, 2, 2, 3);
	sdb_board_goal(&start, 2, 2, 3);
	cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &mtm), SDB_ENOTFOUND);
	cr_assert(strstr(sdb_error_detail(), "`slidedb-gen full 2x2 --metric mtm"), "%s",
	          sdb_error_detail());
	mtm.metric = 7;
	cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &mtm), SDB_EINVAL);
	sdb_db_close(db);
}

/* The proof takes a genuine MTM table as exact and finds any two entries
 * swapped; the STM rules would not do (an MTM table fails them). */
Test(mtm, proofs)
{
	bfs_result res;
	uint8_t *t = build(&res, 3, 3, 8, 8, 2);
	sdb_table_info info;
	mtm_info(&info, 3, 3, 8, 8, &res);
	int proof;
	cr_assert_eq(sdb_table_prove_entries(&proof, &info, NULL, t, NULL), 0, "%s",
	             sdb_error_detail());
	cr_assert_eq(proof, SDB_PROOF_EXACT);
	info.kind = SDB_KIND_FULL;
	cr_assert_eq(sdb_table_prove_entries(&proof, &info, NULL, t, NULL), SDB_ECORRUPT);
	info.kind = SDB_KIND_FULL_MTM;
	/* two entries of different distances swapped: the counts stay */
	uint64_t a = 1000, b = a + 1;
	while (sdb_dist6(t[b]) == sdb_dist6(t[a]))
		b++;
	const uint8_t x = t[a];
	t[a] = t[b];
	t[b] = x;
	cr_assert_eq(sdb_table_prove_entries(&proof, &info, NULL, t, NULL), SDB_ECORRUPT);
	free(t);
}

/* The notation: a letter with a count is that many letters; runs are
 * written back with their counts; lengths in both metrics. */
Test(mtm, notation)
{
	char letters[64], runs[64];
	cr_assert_eq(sdb_moves_parse(letters, sizeof letters, "r3 U l2,d"), 7);
	cr_assert_str_eq(letters, "rrrulld");
	cr_assert_eq(sdb_moves_format_mtm(runs, sizeof runs, letters), 6);
	cr_assert_str_eq(runs, "r3ul2d");
	cr_assert_eq(sdb_moves_parse(letters, sizeof letters, runs), 7);
	cr_assert_str_eq(letters, "rrrulld");
	cr_assert_eq(sdb_moves_length("rrrulld", SDB_METRIC_MTM), 4);
	cr_assert_eq(sdb_moves_length("rrrulld", SDB_METRIC_STM), 7);
	cr_assert_eq(sdb_moves_length("", SDB_METRIC_MTM), 0);
	cr_assert_eq(sdb_moves_parse(letters, sizeof letters, "r12"), 12);
	const char *bad[] = { "r0", "x", "3r", "r256", "r99999999999999999999", "r-1" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		cr_assert_eq(sdb_moves_parse(letters, sizeof letters, bad[i]), SDB_EINVAL, "%s", bad[i]);
	cr_assert_eq(sdb_moves_parse(letters, 4, "r4"), SDB_EINVAL, "more than the room");
	cr_assert_eq(sdb_moves_format_mtm(runs, 3, "rrrrrrrrrrrr"), SDB_EINVAL);
	cr_assert_str_eq(sdb_metric_name(SDB_METRIC_MTM), "mtm");
	cr_assert_eq(sdb_metric_from_name("stm"), SDB_METRIC_STM);
	cr_assert_eq(sdb_metric_from_name("STM"), -1, "one spelling, as the options'");
	cr_assert_eq(sdb_metric_from_name("mtmx"), -1);
	cr_assert_eq(sdb_metric_from_name(""), -1);
}

/* Random boards at an MTM distance are at that distance; a walk of N slides
 * ends at most N moves away; states lists each state of a distance once, as
 * many as the oracle counts; batch distances and best directions are the
 * oracle's. */
Test(mtm, random_states_and_batches)
{
	char path[512];
	sdb_db *db = open_mtm(path, sizeof path, 3, 3, 8, "mtm-draws");
	sdb_board goal;
	sdb_board_goal(&goal, 3, 3, 8);
	tk_oracle o;
	tk_oracle_init_metric(&o, &goal, SDB_METRIC_MTM);
	sdb_random_request r = SDB_RANDOM_REQUEST_INIT;
	r.metric = SDB_METRIC_MTM;
	r.count = 200;
	r.seed = 11;
	r.seed_given = 1;
	sdb_board boards[200];
	for (int d = 0; d <= o.bfs.max; d += 4) {
		r.distance = d;
		sdb_random *rd;
		cr_assert_eq(sdb_random_open(&rd, db, &goal, &r), 0, "%s", sdb_error_detail());
		cr_assert_eq(sdb_random_draw(rd, boards, 200), 0);
		for (int i = 0; i < 200; i++)
			cr_assert_eq(simple_bfs_dist(&o.bfs, &boards[i]), d, "%s", text_of(&boards[i]));
		sdb_random_close(rd);
	}
	r.distance = -1;
	r.walk = 3;
	sdb_random *rd;
	cr_assert_eq(sdb_random_open(&rd, db, &goal, &r), 0, "%s", sdb_error_detail());
	cr_assert_eq(sdb_random_draw(rd, boards, 200), 0);
	int far = 0;
	for (int i = 0; i < 200; i++) {
		const int d = simple_bfs_dist(&o.bfs, &boards[i]);
		cr_assert(d >= 0 && d <= 3, "%s: %d", text_of(&boards[i]), d);
		far += d == 3;
	}
	cr_assert_gt(far, 0, "no walk of 3 slides went 3 moves away");
	sdb_random_close(rd);
	r.version = 1;   /* a request of before the metric: STM, whose table this is not */
	r.walk = -1;
	r.distance = 3;
	cr_assert_eq(sdb_random_open(&rd, db, &goal, &r), SDB_ENOTFOUND);
	r.version = 2;
	r.metric = 5;
	cr_assert_eq(sdb_random_check(&r), SDB_EINVAL);
	/* states */
	sdb_states *st;
	cr_assert_eq(sdb_states_open_metric(&st, db, &goal, 22, 22, SDB_METRIC_MTM), 0, "%s",
	             sdb_error_detail());
	cr_assert_eq(sdb_states_count(st), o.bfs.counts[22]);
	uint8_t cells[64 * 9];
	int16_t dist[64];
	uint64_t listed = 0;
	long n;
	while ((n = sdb_states_next(st, cells, dist, 64)) > 0)
		for (long i = 0; i < n; i++, listed++) {
			sdb_board b;
			cr_assert_eq(sdb_board_set(&b, 3, 3, cells + i * 9), 0);
			cr_assert_eq(simple_bfs_dist(&o.bfs, &b), 22);
			cr_assert_eq(dist[i], 22);
		}
	cr_assert_eq(n, 0);
	cr_assert_eq(listed, o.bfs.counts[22]);
	sdb_states_close(st);
	cr_assert_eq(sdb_states_open(&st, db, &goal, 22, 22), SDB_ENOTFOUND, "STM asked");
	cr_assert_eq(sdb_states_open_metric(&st, db, &goal, 22, 22, 9), SDB_EINVAL);
	/* batches: every 50th state of the oracle */
	size_t nb = 0;
	uint8_t rows[4000 * 9];
	for (uint64_t i = 0; i < o.bfs.cap && nb < 4000; i++)
		if (o.bfs.keys[i] && i % 50 == 0) {
			sdb_board b;
			tk_unpack(&b, 3, 3, o.bfs.keys[i]);
			memcpy(rows + nb++ * 9, b.cell, 9);
		}
	int16_t bd[4000];
	int8_t best[4000];
	cr_assert_eq(sdb_batch_distance_metric(bd, best, db, &goal, rows, nb, NULL, NULL,
	                                       SDB_METRIC_MTM), 0, "%s", sdb_error_detail());
	for (size_t i = 0; i < nb; i++) {
		sdb_board b;
		sdb_board_set(&b, 3, 3, rows + i * 9);
		cr_assert_eq(bd[i], simple_bfs_dist(&o.bfs, &b));
		cr_assert(bd[i] == 0 ? best[i] == -1 : (tk_oracle_best(&o, &b) >> best[i] & 1),
		          "%s: best %d", text_of(&b), best[i]);
	}
	cr_assert_eq(sdb_batch_distance(bd, best, db, &goal, rows, nb, NULL, NULL), SDB_ENOTFOUND);
	tk_oracle_free(&o);
	sdb_db_close(db);
}

/* A two-bit MTM table with one entry raised by one (mod 3), its counts made
 * to agree, as a forger would: the library's proof refuses it, or says it
 * has not proved it (SDB_PROOF_NONE: slidedb-gen import then builds it
 * again and compares, tests/cli/metric.md), never that it is proved.
 * (Issue #38's review: a raised entry passed the mod-3 rules and answered
 * 15 for 14.) Every 997th state of 3x3, goal in a corner. */
Test(mtm, a_raised_two_bit_entry_is_never_proved)
{
	bfs_result res;
	uint8_t *t = build(&res, 3, 3, 0, 2, 1);
	const uint64_t n = sdb_rank_count(3, 3), bytes = bfs_2bit_bytes(n);
	uint8_t *data = malloc(bytes);
	cr_assert_not_null(data);
	sdb_table_info info;
	mtm_info(&info, 3, 3, 0, 2, &res);
	int proof, refused = 0, tried = 0;
	cr_assert_eq(sdb_table_prove_entries(&proof, &info, NULL, t, NULL), 0);
	cr_assert_eq(proof, SDB_PROOF_NONE, "a genuine two-bit MTM table: checked, not proved");
	for (uint64_t i = 1; i < n; i += 997, tried++) {
		memcpy(data, t, bytes);
		const unsigned v = sdb_mod3(data + i / 4, i & 3), up = (v + 1) % 3;
		const int sh = (int)(i & 3) * 2;
		data[i / 4] = (uint8_t)((data[i / 4] & ~(3u << sh)) | up << sh);
		sdb_table_info forged = info;
		forged.counts[v]--;   /* (two-bit counts are folded mod 3) */
		forged.counts[up]++;
		const int err = sdb_table_prove_entries(&proof, &forged, NULL, data, NULL);
		cr_assert(err == SDB_ECORRUPT || (err == 0 && proof == SDB_PROOF_NONE),
		          "entry %llu raised: %d, proof %d", (unsigned long long)i, err, proof);
		refused += err != 0;
	}
	cr_log_info("%d of %d raised entries refused by the local checks", refused, tried);
	free(data);
	free(t);
}
