/* SPDX-License-Identifier: MIT */
/* The perfect index: a bijection between the reachable states and
 * 0 .. n!/2-1, exhaustively on every board of up to 9 cells, sampled on 3x4. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/boards.h"
#include "kit/oracle.h"

/* Every reachable state of every goal class ranks to a distinct index in
 * range, and unranks back to itself. */
static void bijection(int w, int h)
{
	uint64_t total = sdb_rank_count(w, h);
	uint8_t *seen = calloc(total, 1);
	cr_assert(seen);
	for (int cls = 0; cls < 2; cls++) {
		/* A goal of this class: the canonical goal, or it with two tiles swapped. */
		sdb_board goal;
		sdb_board_goal(&goal, w, h, w * h - 1);
		if (sdb_rank_class(&goal) != cls) {
			uint8_t t = goal.cell[0];
			goal.cell[0] = goal.cell[1];
			goal.cell[1] = t;
		}
		cr_assert_eq(sdb_rank_class(&goal), cls);
		simple_bfs s;
		simple_bfs_run(&s, &goal);
		cr_assert_eq(s.count, total);
		memset(seen, 0, total);
		for (uint64_t slot = 0; slot < s.cap; slot++) {
			if (!s.keys[slot])
				continue;
			sdb_board b, back;
			tk_unpack(&b, w, h, s.keys[slot]);
			cr_assert_eq(sdb_rank_class(&b), cls, "a move changed the class");
			uint64_t r = sdb_board_rank(&b);
			cr_assert_lt(r, total);
			cr_assert_eq(seen[r], 0, "index %llu taken twice", (unsigned long long)r);
			seen[r] = 1;
			cr_assert_eq(sdb_board_unrank(&back, w, h, cls, r), 0);
			cr_assert(sdb_board_equal(&b, &back), "unrank(rank(b)) != b");
		}
		simple_bfs_free(&s);
	}
	free(seen);
}

Test(rank, counts)
{
	cr_assert_eq(sdb_rank_count(2, 2), 12);
	cr_assert_eq(sdb_rank_count(3, 3), 181440);
	cr_assert_eq(sdb_rank_count(3, 4), 239500800);
	cr_assert_eq(sdb_rank_count(7, 2), 43589145600ull);   /* OEIS A346736's total */
	cr_assert_eq(sdb_rank_count(4, 4), 10461394944000ull);
	cr_assert_eq(sdb_rank_count(1, 4), 0);
}

/* n!/2 by schoolbook arithmetic on decimal digits, the lowest first: a
 * second way to the counts, to hold sdb_rank_count_format() against. */
static void half_factorial_digits(char *out, int n)
{
	int digit[128] = { 1 }, len = 1;
	for (int k = 3; k <= n; k++) {
		int carry = 0;
		for (int i = 0; i < len; i++) {
			const int v = digit[i] * k + carry;
			digit[i] = v % 10;
			carry = v / 10;
		}
		for (; carry; carry /= 10)
			digit[len++] = carry % 10;
	}
	for (int i = 0; i < len; i++)
		out[i] = (char)('0' + digit[len - 1 - i]);
	out[len] = '\0';
}

/* A board's count of states as text, exact on every board: 21!/2 and above
 * pass 2^64 (slidedb-gen once printed 25!/2 mod 2^64 for 5x5). */
Test(rank, count_text_is_exact_on_every_board)
{
	char got[SDB_RANK_COUNT_TEXT], want[128], u64[32];
	for (int w = 2; w <= SDB_MAX_SIDE; w++)
		for (int h = 2; h <= SDB_MAX_SIDE; h++) {
			const int len = sdb_rank_count_format(got, sizeof got, w, h);
			half_factorial_digits(want, w * h);
			cr_assert_str_eq(got, want, "%dx%d", w, h);
			cr_assert_eq(len, (int)strlen(want));
			snprintf(u64, sizeof u64, "%llu", (unsigned long long)sdb_rank_count(w, h));
			if (w * h <= 20)
				cr_assert_str_eq(u64, got, "%dx%d fits 64 bits", w, h);
			else
				cr_assert_eq(sdb_rank_count(w, h), UINT64_MAX, "%dx%d: saturated, not wrapped",
				             w, h);
		}
	/* the published values, as Python's math.factorial(n) // 2 gives them */
	sdb_rank_count_format(got, sizeof got, 5, 5);
	cr_assert_str_eq(got, "7755605021665492992000000");
	sdb_rank_count_format(got, sizeof got, 6, 6);
	cr_assert_str_eq(got, "185996663394950608733999724075417600000000");
	sdb_rank_count_format(got, sizeof got, 8, 8);
	cr_assert_str_eq(got, "634434660929420820517166946675807404014327580872725960994009471876073521"
	                 "15200000000000000");
	cr_assert_eq(sdb_rank_count_format(got, 89, 8, 8), SDB_EINVAL, "89 digits need 90 bytes");
	cr_assert_eq(sdb_rank_count_format(got, 90, 8, 8), 89);
	cr_assert_eq(sdb_rank_count_format(got, sizeof got, 1, 4), SDB_EINVAL);
	cr_assert_eq(sdb_rank_count_format(got, sizeof got, 9, 9), SDB_EINVAL);
}

Test(rank, bijection_2x2) { bijection(2, 2); }
Test(rank, bijection_2x3) { bijection(2, 3); }
Test(rank, bijection_3x2) { bijection(3, 2); }
Test(rank, bijection_2x4) { bijection(2, 4); }
Test(rank, bijection_4x2) { bijection(4, 2); }
Test(rank, bijection_3x3) { bijection(3, 3); }

/* Unrank is onto as well: every index of both classes gives a board of that
 * class that ranks back (all 9!/2 * 2 for 3x3). */
Test(rank, unrank_every_index_3x3)
{
	for (int cls = 0; cls < 2; cls++)
		for (uint64_t i = 0; i < sdb_rank_count(3, 3); i++) {
			sdb_board b;
			cr_assert_eq(sdb_board_unrank(&b, 3, 3, cls, i), 0);
			cr_assert_eq(sdb_board_rank(&b), i);
			cr_assert_eq(sdb_rank_class(&b), cls);
		}
}

/* 3x4, the other 12-cell boards and the 14-cell ones (indices past 2^32):
 * random round trips from both sides. */
Test(rank, random_round_trips_12_and_14_cells)
{
	const int sizes[][2] = { { 3, 4 }, { 4, 3 }, { 2, 6 }, { 6, 2 }, { 2, 5 }, { 5, 2 },
		                 { 7, 2 }, { 2, 7 } };
	unsigned seed = 12345;
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		int w = sizes[s][0], h = sizes[s][1];
		uint64_t total = sdb_rank_count(w, h);
		sdb_board goal;
		sdb_board_goal(&goal, w, h, w * h - 1);
		for (int k = 0; k < 20000; k++) {
			sdb_board b, back;
			tk_random_walk(&b, &goal, 200, &seed);
			uint64_t r = sdb_board_rank(&b);
			cr_assert_lt(r, total);
			cr_assert_eq(sdb_board_unrank(&back, w, h, sdb_rank_class(&b), r), 0);
			cr_assert(sdb_board_equal(&b, &back));
			uint64_t i = ((uint64_t)rand_r(&seed) << 16 ^ (uint64_t)rand_r(&seed)) % total;
			cr_assert_eq(sdb_board_unrank(&back, w, h, k & 1, i), 0);
			cr_assert_eq(sdb_board_rank(&back), i);
		}
	}
}

Test(rank, unrank_refuses_bad_input)
{
	sdb_board b;
	cr_assert_eq(sdb_board_unrank(&b, 3, 3, 0, 181440), SDB_EINVAL);
	cr_assert_eq(sdb_board_unrank(&b, 4, 4, 0, 0), SDB_EINVAL);
	cr_assert_eq(sdb_board_unrank(&b, 5, 3, 0, 0), SDB_EINVAL);
	cr_assert_eq(sdb_board_unrank(&b, 7, 2, 0, 43589145600ull), SDB_EINVAL);
	cr_assert_eq(sdb_board_unrank(&b, 1, 3, 0, 0), SDB_EINVAL);
}

/* Neighbour indices equal the ranks of the moved boards: every state of every
 * board up to 9 cells, and random states of the 10- and 12-cell boards. */
static void neighbors_match(int w, int h, uint64_t step)
{
	for (int cls = 0; cls < 2; cls++)
		for (uint64_t i = 0; i < sdb_rank_count(w, h); i += step) {
			sdb_board b, plain;
			uint64_t nbr[4];
			cr_assert_eq(sdb_rank_neighbors(nbr, &b, w, h, cls, i), 0);
			cr_assert_eq(sdb_board_unrank(&plain, w, h, cls, i), 0);
			cr_assert(sdb_board_equal(&b, &plain));
			for (int m = 0; m < 4; m++) {
				sdb_board moved = b;
				if (sdb_board_apply(&moved, m) != 0) {
					cr_assert_eq(nbr[m], UINT64_MAX);
					continue;
				}
				cr_assert_eq(nbr[m], sdb_board_rank(&moved), "%dx%d index %llu move %c", w, h,
				             (unsigned long long)i, sdb_move_letter(m));
			}
		}
}

Test(rank, neighbors_small_boards)
{
	neighbors_match(2, 2, 1);
	neighbors_match(2, 3, 1);
	neighbors_match(3, 2, 1);
	neighbors_match(2, 4, 1);
	neighbors_match(4, 2, 1);
	neighbors_match(3, 3, 1);
}

Test(rank, neighbors_large_boards)
{
	neighbors_match(2, 5, 7);
	neighbors_match(5, 2, 7);
	neighbors_match(3, 4, 4099);
	neighbors_match(4, 3, 4099);
	neighbors_match(2, 6, 4099);
	neighbors_match(6, 2, 4099);
	neighbors_match(7, 2, 2178291);   /* every block of 13!/2, past 2^32 */
	neighbors_match(2, 7, 2178291);
}

/* A rank walk gives sdb_rank_neighbors()'s indices whatever the order of
 * its calls: every index in turn (as a scan does), increasing with gaps (a
 * sparse frontier), random jumps back and forth, with and without the board
 * (which decodes every digit; without it a walk decodes only what the
 * moves need). */
static void walk_matches(int w, int h, uint64_t count, unsigned seed)
{
	const uint64_t total = sdb_rank_count(w, h);
	for (int cls = 0; cls < 2; cls++) {
		sdb_rank_walk wk;
		cr_assert_eq(sdb_rank_walk_init(&wk, w, h, cls), 0);
		uint64_t i = ((uint64_t)rand_r(&seed) << 20 ^ (uint64_t)rand_r(&seed)) % total;
		for (uint64_t c = 0; c < count; c++) {
			const int mode = (int)(c / 64 % 4);   /* runs of each kind in turn */
			if (mode == 0)
				i = i + 1 < total ? i + 1 : 0;
			else if (mode == 1)
				i = (i + 1 + (uint64_t)rand_r(&seed) % 1000) % total;
			else
				i = ((uint64_t)rand_r(&seed) << 20 ^ (uint64_t)rand_r(&seed)) % total;
			uint64_t got[4], want[4];
			sdb_board b, ref;
			const int with_board = mode == 3 && c % 2;
			cr_assert_eq(sdb_rank_walk_neighbors(&wk, got, with_board ? &b : NULL, i), 0);
			cr_assert_eq(sdb_rank_neighbors(want, &ref, w, h, cls, i), 0);
			for (int m = 0; m < 4; m++)
				cr_assert_eq(got[m], want[m], "%dx%d class %d index %llu move %c", w, h, cls,
				             (unsigned long long)i, sdb_move_letter(m));
			if (with_board)
				cr_assert(sdb_board_equal(&b, &ref));
		}
	}
}

Test(rank, walk_equals_neighbors)
{
	const int sizes[][2] = { { 2, 2 }, { 2, 3 }, { 3, 2 }, { 3, 3 }, { 2, 5 }, { 5, 2 },
		                 { 3, 4 }, { 4, 3 }, { 2, 6 }, { 6, 2 }, { 7, 2 }, { 2, 7 } };
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
		walk_matches(sizes[s][0], sizes[s][1], 20000, 7u + (unsigned)s);
	/* every index of 3x3 in order, as a pass scans it; and long runs of
	 * 7x2 in order across blank cells, where a vertical move's index
	 * change is kept over up to 360 indices */
	const struct { int w, h; uint64_t from, count; } runs[] = {
		{ 3, 3, 0, 181440 },
		{ 7, 2, 3 * 3113510400ull - 100000, 200000 },   /* cells 2 and 3 */
		{ 7, 2, 7 * 3113510400ull + 123456789, 100000 },
	};
	for (size_t r = 0; r < sizeof runs / sizeof *runs; r++)
		for (int cls = 0; cls < 2; cls++) {
			sdb_rank_walk wk;
			cr_assert_eq(sdb_rank_walk_init(&wk, runs[r].w, runs[r].h, cls), 0);
			for (uint64_t i = runs[r].from; i < runs[r].from + runs[r].count; i++) {
				uint64_t got[4], want[4];
				cr_assert_eq(sdb_rank_walk_neighbors(&wk, got, NULL, i), 0);
				cr_assert_eq(sdb_rank_neighbors(want, NULL, runs[r].w, runs[r].h, cls, i), 0);
				cr_assert_arr_eq(got, want, sizeof got, "%dx%d class %d index %llu",
				                 runs[r].w, runs[r].h, cls, (unsigned long long)i);
			}
		}
}

Test(rank, walk_refuses_bad_input)
{
	sdb_rank_walk wk;
	uint64_t nbr[4];
	cr_assert_eq(sdb_rank_walk_init(&wk, 4, 4, 0), SDB_EINVAL);
	cr_assert_eq(sdb_rank_walk_init(&wk, 1, 5, 0), SDB_EINVAL);
	cr_assert_eq(sdb_rank_walk_init(&wk, 3, 3, 0), 0);
	cr_assert_eq(sdb_rank_walk_neighbors(&wk, nbr, NULL, 181440), SDB_EINVAL);
	cr_assert_eq(sdb_rank_walk_neighbors(&wk, nbr, NULL, 181439), 0);   /* still usable */
}
