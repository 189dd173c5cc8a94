/* SPDX-License-Identifier: MIT */
/* The full-table BFS engine against a second, simple BFS, entry by entry, on
 * every board of up to 10 cells and every class of goal blank cells; and
 * against the published counts per distance. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/progress.h"
#include "gen/bfs.h"
#include "kit/oracle.h"

/* OEIS A090036: 5x2 (and 2x5) states by distance from a corner-blank goal. */
static const uint64_t a090036[] = { 1, 2, 3, 6, 11, 19, 30, 44, 68, 112, 176, 271, 411, 602,
	851, 1232, 1783, 2530, 3567, 4996, 6838, 9279, 12463, 16597, 21848, 28227, 35682, 44464,
	54597, 65966, 78433, 91725, 104896, 116966, 126335, 131998, 133107, 128720, 119332,
	106335, 91545, 75742, 60119, 45840, 33422, 23223, 15140, 9094, 5073, 2605, 1224, 528, 225,
	75, 20, 2 };

static uint8_t *build(bfs_result *res, int w, int h, int blank, int threads)
{
	uint8_t *t = malloc(sdb_rank_count(w, h));
	cr_assert(t);
	cr_assert_eq(bfs_full(res, t, w, h, blank, threads, NULL, NULL), 0);
	return t;
}

/* Every entry: the distance equals the simple BFS, and the best move leads to
 * a state one closer. */
static void agrees_with_simple_bfs(int w, int h, int blank)
{
	bfs_result res;
	uint8_t *t = build(&res, w, h, blank, 0);
	sdb_board goal;
	sdb_board_goal(&goal, w, h, blank);
	simple_bfs s;
	simple_bfs_run(&s, &goal);
	uint64_t total = sdb_rank_count(w, h);
	cr_assert_eq(s.count, total, "the simple BFS reached %llu states",
	             (unsigned long long)s.count);
	cr_assert_eq(res.max_distance, s.max);
	for (int d = 0; d <= s.max; d++)
		cr_assert_eq(res.counts[d], s.counts[d], "%dx%d b%d: count at distance %d", w, h,
		             blank, d);
	int cls = sdb_rank_class(&goal);
	for (uint64_t i = 0; i < total; i++) {
		sdb_board b;
		sdb_board_unrank(&b, w, h, cls, i);
		int d = t[i] & 0x3f;
		cr_assert_eq(d, simple_bfs_dist(&s, &b), "%dx%d b%d index %llu", w, h, blank,
		             (unsigned long long)i);
		if (d == 0)
			continue;
		for (int m = 0; m < t[i] >> 6; m++) {   /* it is the first move that gets closer */
			sdb_board n = b;
			cr_assert(sdb_board_apply(&n, m) || simple_bfs_dist(&s, &n) != d - 1,
			          "move %c also gets closer and comes first", sdb_move_letter(m));
		}
		cr_assert_eq(sdb_board_apply(&b, t[i] >> 6), 0, "best move leaves the board");
		cr_assert_eq(simple_bfs_dist(&s, &b), d - 1, "best move does not get closer");
	}
	simple_bfs_free(&s);
	free(t);
}

static void every_goal_class(int w, int h)
{
	for (int c = 0; c < w * h; c++)
		if (sdb_sym_representative(w, h, c) == c)
			agrees_with_simple_bfs(w, h, c);
}

Test(bfs, all_goals_2x2) { every_goal_class(2, 2); }
Test(bfs, all_goals_2x3) { every_goal_class(2, 3); }
Test(bfs, all_goals_3x2) { every_goal_class(3, 2); }
Test(bfs, all_goals_2x4) { every_goal_class(2, 4); }
Test(bfs, all_goals_4x2) { every_goal_class(4, 2); }
Test(bfs, all_goals_3x3) { every_goal_class(3, 3); }
Test(bfs, corner_goal_2x5, .timeout = 300) { agrees_with_simple_bfs(2, 5, 0); }
Test(bfs, corner_goal_5x2, .timeout = 300) { agrees_with_simple_bfs(5, 2, 0); }

static void published_counts(int w, int h, const uint64_t *want, int len)
{
	bfs_result res;
	uint8_t *t = build(&res, w, h, 0, 0);
	cr_assert_eq(res.max_distance, len - 1);
	for (int d = 0; d < len; d++)
		cr_assert_eq(res.counts[d], want[d], "%dx%d distance %d", w, h, d);
	free(t);
}

Test(bfs, oeis_a089473_3x3)
{
	published_counts(3, 3, tk_a089473, TK_A089473_LEN);
}

Test(bfs, oeis_a090036_5x2_and_2x5)
{
	published_counts(5, 2, a090036, (int)(sizeof a090036 / sizeof *a090036));
	published_counts(2, 5, a090036, (int)(sizeof a090036 / sizeof *a090036));
}

/* The same bytes for 1 and 2 threads, on a board big enough to split. */
Test(bfs, deterministic_across_threads)
{
	bfs_result r1, r2;
	uint8_t *a = build(&r1, 5, 2, 4, 1), *b = build(&r2, 5, 2, 4, 2);
	cr_assert_eq(memcmp(a, b, sdb_rank_count(5, 2)), 0);
	free(a);
	free(b);
}

/* Two bits per state (issue #11): every entry is the byte table's distance
 * mod 3, the counts are the same, and the bytes are the same for 1 and 2
 * threads; every board of up to 10 cells, every goal class. */
static void two_bits_agree(int w, int h, int blank)
{
	bfs_result rb, r1, r2;
	uint8_t *bytes = build(&rb, w, h, blank, 1);
	const uint64_t total = sdb_rank_count(w, h), size = bfs_2bit_bytes(total);
	uint8_t *one = malloc(size), *two = malloc(size);
	cr_assert(one && two);
	cr_assert_eq(bfs_full_2bit(&r1, one, w, h, blank, 1, NULL, NULL), 0);
	cr_assert_eq(bfs_full_2bit(&r2, two, w, h, blank, 2, NULL, NULL), 0);
	cr_assert_eq(memcmp(one, two, size), 0, "%dx%d b%d: 1 and 2 threads differ", w, h, blank);
	cr_assert_eq(r1.max_distance, rb.max_distance);
	cr_assert_eq(r1.reached, total);
	for (int d = 0; d <= rb.max_distance; d++)
		cr_assert_eq(r1.counts[d], rb.counts[d], "%dx%d b%d: count at %d", w, h, blank, d);
	for (uint64_t i = 0; i < total; i++) {
		unsigned v = one[i >> 2] >> ((i & 3) * 2) & 3u;
		cr_assert_eq(v, (unsigned)((bytes[i] & 0x3f) % 3), "%dx%d b%d index %llu: %u", w, h,
		             blank, (unsigned long long)i, v);
	}
	for (uint64_t i = total; i < size * 4; i++)   /* the last byte's spare entries */
		cr_assert_eq(one[i >> 2] >> ((i & 3) * 2) & 3u, 3u);
	free(bytes);
	free(one);
	free(two);
}

/* Restartable levels (bfs_restart): a search whose state is kept after
 * level `at` and put back into a fresh search gives the bytes and counts
 * of one that never stopped. The kept state lives in memory here; the
 * file of `slidedb-gen --checkpoint` is tested in test_cli_checkpoint. */
typedef struct kept_state {
	int at, saved;
	bfs_state st;   /* copies */
} kept_state;

static int keep_at(void *ctx, const bfs_state *st)
{
	kept_state *k = ctx;
	if (st->res.max_distance != k->at)
		return SDB_OK;
	k->st = *st;
	k->st.table = malloc(st->table_bytes);
	k->st.marks = st->marks ? malloc(st->mark_bytes) : NULL;
	cr_assert(k->st.table && (!st->marks || k->st.marks));
	memcpy(k->st.table, st->table, st->table_bytes);
	if (st->marks)
		memcpy(k->st.marks, st->marks, st->mark_bytes);
	k->saved = 1;
	return SDB_EIO;   /* stop here, as a killed build would */
}

static int put_back(void *ctx, bfs_state *st)
{
	const kept_state *k = ctx;
	cr_assert_eq(st->table_bytes, k->st.table_bytes);
	cr_assert_eq(st->mark_bytes, k->st.mark_bytes);
	memcpy(st->table, k->st.table, st->table_bytes);
	if (st->marks)
		memcpy(st->marks, k->st.marks, st->mark_bytes);
	st->res = k->st.res;
	return 1;
}

static void restart_agrees(int w, int h, int two_bit, int at, int threads)
{
	bfs_full_ctx f;
	bfs_space sp;
	bfs_full_space(&sp, &f, w, h, 0);
	const uint64_t bytes = two_bit ? bfs_2bit_bytes(sp.size) : sp.size;
	uint8_t *whole = malloc(bytes), *parts = malloc(bytes);
	cr_assert(whole && parts);
	bfs_result rw, rp;
	kept_state k = { .at = at };
	const bfs_restart stop = { NULL, keep_at, &k }, go_on = { put_back, NULL, &k };
	int (*run)(bfs_result *, uint8_t *, const bfs_space *, int, bfs_progress_fn *, void *,
	           const bfs_restart *) = two_bit ? bfs_run_2bit : bfs_run;
	cr_assert_eq(run(&rw, whole, &sp, threads, NULL, NULL, NULL), 0);
	cr_assert_eq(run(&rp, parts, &sp, threads, NULL, NULL, &stop), SDB_EIO);
	cr_assert(k.saved, "%dx%d: level %d never came", w, h, at);
	cr_assert_eq(run(&rp, parts, &sp, threads, NULL, NULL, &go_on), 0);
	cr_assert_eq(memcmp(whole, parts, bytes), 0, "%dx%d %s, stopped after level %d: bytes differ",
	             w, h, two_bit ? "two bits" : "bytes", at);
	cr_assert_eq(memcmp(&rw, &rp, sizeof rw), 0, "%dx%d after level %d: counts differ", w, h, at);
	free(k.st.table);
	free(k.st.marks);
	free(whole);
	free(parts);
}

Test(bfs, a_restarted_search_gives_the_same_bytes, .timeout = 120)
{
	/* 2x3: a table ending inside a word; 3x3: the walk; 5x2, 2x5: the
	 * sweep; levels from the first to the last push and into the pulls */
	static const struct { int w, h, at; } cases[] = {
		{ 2, 3, 1 }, { 2, 3, 15 }, { 3, 3, 1 }, { 3, 3, 14 }, { 3, 3, 24 }, { 3, 3, 30 },
		{ 5, 2, 2 }, { 5, 2, 33 }, { 5, 2, 40 }, { 2, 5, 36 },
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
		for (int two_bit = 0; two_bit < 2; two_bit++)
			restart_agrees(cases[c].w, cases[c].h, two_bit, cases[c].at, 1 + (int)(c % 2));
}

Test(bfs, two_bits_are_the_distance_mod_3, .timeout = 300)
{
	static const int sizes[][2] = { { 2, 2 }, { 2, 3 }, { 3, 2 }, { 2, 4 }, { 4, 2 }, { 3, 3 },
		                        { 2, 5 }, { 5, 2 } };
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		const int w = sizes[k][0], h = sizes[k][1];
		for (int c = 0; c < w * h; c++)
			if (sdb_sym_representative(w, h, c) == c && (w * h < 10 || c == 0))
				two_bits_agree(w, h, c);
	}
}

/* The progress bar's estimate: none from the first instants or the first few
 * percent (a first estimate of "ETA 8465872 s" was seen), then the time the
 * rate so far gives. */
Test(progress, no_estimate_until_there_is_enough_to_base_one_on)
{
	char eta[32];
	progress_eta(eta, sizeof eta, 0.001, 1, 181440);
	cr_assert_str_empty(eta, "after 1 ms and one state: '%s'", eta);
	progress_eta(eta, sizeof eta, 60, 1000, 1000000000);
	cr_assert_str_empty(eta, "after 0.0001%% of the states: '%s'", eta);
	progress_eta(eta, sizeof eta, 1, 500000, 1000000);
	cr_assert_str_empty(eta, "after 1 s: '%s'", eta);
	progress_eta(eta, sizeof eta, 10, 500000, 1000000);
	cr_assert_str_eq(eta, "  ETA 10 s");
	progress_eta(eta, sizeof eta, 10, 1000000, 1000000);
	cr_assert_str_empty(eta, "done: '%s'", eta);
}

/* A pattern set's bar: which group of how many, and the bar, rate and ETA
 * of the whole set (each group's share its entries), timed from the set's
 * start; a group resumed from a checkpoint counts only what this run did. */
Test(progress, a_set_s_bar_is_the_whole_set_s)
{
	progress p;
	progress_init(&p, 0);
	progress_job(&p, 4000000);
	p.started = 100.0;   /* the set's start, on a clock of our own */
	progress_begin(&p, "group 2/4: 6 tiles");
	progress_within(&p, 1000000);
	char line[256];
	/* 1.5 M of 4 M entries in 10 s: 2.5 M left at 0.15 M/s (the group's
	 * own half left would say 4 s) */
	progress_line(line, sizeof line, &p, 17, 500000, 1000000, 110.0);
	cr_assert_str_eq(line, "group 2/4: 6 tiles  level 17  [#######.............]  37.5%  "
	                 "0.1 M states/s  ETA 17 s");
	progress_begin(&p, "group 3/4: 6 tiles");
	progress_within(&p, 2000000);
	progress_rebase(&p, 800000);   /* resumed: 0.8 M from a checkpoint, 2.2 M done in 20 s */
	progress_line(line, sizeof line, &p, 20, 1000000, 1000000, 120.0);
	cr_assert_str_eq(line, "group 3/4: 6 tiles  level 20  [###############.....]  75.0%  "
	                 "0.1 M states/s  ETA 9 s");
}

/* The library's proof (sdb_table_prove_entries(), what a resumed build runs
 * before it commits, and import and verify --prove as sdb_table_prove()):
 * every table the engine builds is proved, and any one entry changed to any
 * other value (a blanked one, a wrong distance, a wrong best move) is not,
 * nor are counts that do not match the table. */
static int prove_table(const bfs_space *sp, int two_bit, const uint8_t *t,
                       const bfs_result *res, int threads)
{
	sdb_table_info in;
	memset(&in, 0, sizeof in);
	snprintf(in.name, sizeof in.name, "test");
	in.kind = sp->pattern ? SDB_KIND_PATTERN : SDB_KIND_FULL;
	in.entry_format = two_bit ? SDB_ENTRY_MOD3 : sp->pattern ? SDB_ENTRY_DIST8
	                                                         : SDB_ENTRY_DIST6_MOVE2;
	in.states = sp->size;
	in.max_distance = res->max_distance;
	memcpy(in.counts, res->counts, sizeof in.counts);
	if (!sp->pattern) {
		const bfs_full_ctx *f = sp->ctx;
		sdb_board_unrank(&in.goal, f->w, f->h, f->cls, sp->start);
	}
	sdb_prove_opts opts = SDB_PROVE_OPTS_INIT;
	opts.threads = threads;
	int proof, err = sdb_table_prove_entries(&proof, &in, sp->pattern, t, &opts);
	cr_assert(err || proof == (two_bit ? SDB_PROOF_LOCAL : SDB_PROOF_EXACT));
	return err;
}

static void prove_space(const bfs_space *sp, int two_bit)
{
	const uint64_t bytes = two_bit ? bfs_2bit_bytes(sp->size) : sp->size;
	uint8_t *t = malloc(bytes);
	bfs_result res;
	cr_assert_eq((two_bit ? bfs_run_2bit : bfs_run)(&res, t, sp, 2, NULL, NULL, NULL), 0);
	cr_assert_eq(prove_table(sp, two_bit, t, &res, 2), 0, "%s", sdb_error_detail());
	unsigned seed = 5;
	for (uint64_t i = 0; i < sp->size; i++) {
		const int per = two_bit ? 3 : 6;
		for (int k = 0; k < per; k++) {
			uint8_t *p = &t[two_bit ? i / 4 : i];
			const uint8_t keep = *p;
			if (two_bit) {
				const unsigned shift = 2 * (unsigned)(i % 4), v = keep >> shift & 3;
				*p = (uint8_t)((keep & ~(3u << shift)) | ((v + 1 + (unsigned)k) % 4) << shift);
			} else {
				*p = (uint8_t)(k == 0 ? 0xff : keep ^ (1u << (rand_r(&seed) % 8)));
			}
			cr_assert_eq(prove_table(sp, two_bit, t, &res, 1), SDB_ECORRUPT,
			             "entry %llu changed from %#x to %#x was proved",
			             (unsigned long long)i, keep, *p);
			const char *why = sdb_error_detail();
			cr_assert(strstr(why, "fails the proof") || strstr(why, "catalog"), "%s", why);
			*p = keep;
		}
	}
	if (!two_bit && !sp->pattern) {   /* the goal's byte is 0, move bits too */
		t[sp->start] = sdb_dist6_move2(0, SDB_LEFT);
		cr_assert_eq(prove_table(sp, two_bit, t, &res, 1), SDB_ECORRUPT);
		cr_assert(strstr(sdb_error_detail(), "goal"), "%s", sdb_error_detail());
		t[sp->start] = 0;
	}
	bfs_result off = res;   /* counts that do not match the table */
	off.counts[3]++;
	cr_assert_eq(prove_table(sp, two_bit, t, &off, 2), SDB_ECORRUPT);
	free(t);
}

Test(bfs, prove_accepts_the_engine_s_tables_and_no_changed_entry, .timeout = 300)
{
	bfs_space sp;
	bfs_full_ctx f;
	bfs_full_space(&sp, &f, 2, 3, 0);
	prove_space(&sp, 0);
	prove_space(&sp, 1);
	bfs_full_space(&sp, &f, 3, 2, 1);
	prove_space(&sp, 0);
	sdb_board goal;
	sdb_board_goal(&goal, 3, 3, 0);
	sdb_pattern *p;
	cr_assert_eq(sdb_pattern_new(&p, &goal, (1u << 1) | (1u << 2) | (1u << 3), SDB_BLANK_REGION),
	             0);
	bfs_pattern_space(&sp, p);
	prove_space(&sp, 0);
	sdb_pattern_free(p);
}
