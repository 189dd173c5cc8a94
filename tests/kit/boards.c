/* SPDX-License-Identifier: MIT */
/* Boards for the suites; see boards.h. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "kit/boards.h"

int tk_replay(const sdb_board *start, const char *moves, const sdb_board *goal)
{
	sdb_board b = *start;
	for (const char *p = moves; *p; p++)
		if (sdb_board_apply(&b, sdb_move_from_letter(*p)) != 0)
			return 0;
	return sdb_board_equal(&b, goal);
}

sdb_board tk_swap_two_tiles(const sdb_board *b)
{
	sdb_board s = *b;
	int first = -1;
	for (int i = 0; i < s.n; i++) {
		if (!s.cell[i])
			continue;
		if (first < 0) {
			first = i;
			continue;
		}
		uint8_t t = s.cell[first];
		s.cell[first] = s.cell[i];
		s.cell[i] = t;
		break;
	}
	return s;
}

void tk_random_walk(sdb_board *b, const sdb_board *goal, int steps, unsigned *seed)
{
	*b = *goal;
	for (int i = 0; i < steps; i++)
		sdb_board_apply(b, rand_r(seed) % 4);   /* illegal moves are refused: fine */
}

ck_btext ck_board_compact(const sdb_board *b)
{
	ck_btext t;
	for (int i = 0; i < b->n; i++)
		t.s[i] = "0123456789abcdef"[b->cell[i]];
	t.s[b->n] = '\0';
	return t;
}

ck_btext ck_board_text(const sdb_board *b)
{
	ck_btext t;
	cr_assert_gt(sdb_board_format(t.s, sizeof t.s, b), 0);
	return t;
}

sdb_board ck_parse_board(const char *text, int w, int h)
{
	sdb_board b;
	cr_assert_eq(sdb_board_parse(&b, text, w, h), 0, "cannot parse '%s': %s", text,
	             sdb_error_detail());
	return b;
}

sdb_board ck_std_goal(int w, int h)
{
	sdb_board g;
	cr_assert_eq(sdb_board_goal(&g, w, h, w * h - 1), 0);
	return g;
}

void ck_sb_query(ck_sbuf *b, const sdb_board *start, const sdb_board *goal)
{
	ck_sb_printf(b, "%s ; %s\n", ck_board_text(start).s, ck_board_text(goal).s);
}

char *ck_random_queries(int count, unsigned seed)
{
	ck_sbuf b = { 0 };
	ck_sb_printf(&b, "%s", "");
	const sdb_board std = ck_std_goal(3, 3);
	for (int i = 0; i < count; i++) {
		sdb_board g, s;
		tk_random_walk(&g, &std, 7 + i % 13, &seed);
		tk_random_walk(&s, &g, 1 + (int)(rand_r(&seed) % 60), &seed);
		ck_sb_query(&b, &s, &g);
	}
	return b.s;
}
