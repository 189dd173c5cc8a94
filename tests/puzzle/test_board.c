/* SPDX-License-Identifier: MIT */
/* Board model: parsing every notation, errors, formatting, moves, solvability. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "kit/oracle.h"

static sdb_board parse_ok(const char *text, int w, int h)
{
	sdb_board b;
	int err = sdb_board_parse(&b, text, w, h);
	cr_assert_eq(err, 0, "'%s' should parse: %s", text, sdb_error_detail());
	return b;
}

static void parse_bad(const char *text, int w, int h, int want, const char *fragment)
{
	sdb_board b;
	int err = sdb_board_parse(&b, text, w, h);
	cr_assert_eq(err, want, "'%s' gave %d, expected %d", text, err, want);
	cr_assert(strstr(sdb_error_detail(), fragment), "'%s': detail '%s' lacks '%s'", text,
	          sdb_error_detail(), fragment);
}

Test(board, seed_notations_agree)
{
	const char *same[] = {
		"1 2 3 x 4 6 7 5 8", "1 2 3 0 4 6 7 5 8", "1,2,3,0,4,6,7,5,8", "123x46758",
		"1 2 3 _ 4 6 7 5 8", " 1  2  3  x  4  6  7  5  8 ", "[[1,2,3],[0,4,6],[7,5,8]]",
		"1\t2\t3\tX\t4\t6\t7\t5\t8", "123046758", "123.46758",
	};
	sdb_board ref = parse_ok(same[0], 0, 0);
	cr_assert_eq(ref.w, 3);
	cr_assert_eq(ref.h, 3);
	cr_assert_eq(ref.blank, 3);
	for (size_t i = 1; i < sizeof same / sizeof *same; i++) {
		sdb_board b = parse_ok(same[i], 0, 0);
		cr_assert(sdb_board_equal(&b, &ref), "'%s' differs from '%s'", same[i], same[0]);
	}
}

Test(board, sizes_from_cell_counts)
{
	sdb_board b = parse_ok("1 2 3 0", 0, 0);
	cr_assert(b.w == 2 && b.h == 2);
	b = parse_ok("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", 0, 0);
	cr_assert(b.w == 4 && b.h == 4 && b.blank == 15);
	b = parse_ok("123456789abcdef0", 0, 0);
	cr_assert(b.w == 4 && b.cell[9] == 10 && b.cell[14] == 15);
	b = parse_ok("1 2 3 4 5 0", 3, 2);
	cr_assert(b.w == 3 && b.h == 2);
	parse_bad("1 2 3 4 5 0", 0, 0, SDB_EAMBIGUOUS, "give the size");
	parse_bad("1 2 3 4 5 6 7 0", 0, 0, SDB_EAMBIGUOUS, "2x4");
}

Test(board, bad_boards_say_what_is_wrong)
{
	parse_bad("1 2 3 4 5 6 7 0", 3, 3, SDB_EINVAL, "8 cells");
	parse_bad("1 2 3 4 5 6 0", 0, 0, SDB_EINVAL, "7 cells");
	parse_bad("1 2 3 4 4 6 7 8 0", 0, 0, SDB_EINVAL, "tile 4 appears twice");
	parse_bad("1 2 3 4 9 6 7 8 0", 0, 0, SDB_EINVAL, "tile 9 is out of range");
	parse_bad("1 2 3 4 5 6 7 8 15", 0, 0, SDB_EINVAL, "out of range");
	parse_bad("1 2 3 4 5 6 7 8 99", 0, 0, SDB_EINVAL, "out of range");
	parse_bad("0 2 3 4 5 6 7 8 0", 0, 0, SDB_EINVAL, "more than one blank");
	parse_bad("1 2 3 4 5 6 7 8 q", 0, 0, SDB_EINVAL, "unknown notation 'q'");
	parse_bad("12345678y", 0, 0, SDB_EINVAL, "unknown character 'y'");
	parse_bad("12345678q", 0, 0, SDB_EINVAL, "tile 26 is out of range 1..8");
	parse_bad("12x4 5 6 7 8 0", 0, 0, SDB_EINVAL, "mixes");
	parse_bad("1234 5 6 7 8 0", 0, 0, SDB_EINVAL, "or is a tile number out of range");
	parse_bad("", 0, 0, SDB_EINVAL, "empty");
	parse_bad("  ,, ", 0, 0, SDB_EINVAL, "empty");
	parse_bad("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 16", 0, 0, SDB_EINVAL,
	          "17 cells is not a board size");
	char many[400] = "";
	for (int t = 0; t < 65; t++)
		snprintf(many + strlen(many), sizeof many - strlen(many), "%d ", t % 60);
	parse_bad(many, 0, 0, SDB_EINVAL, "more than 64 cells");
	/* no blank: 8 distinct tiles on 3x3 cannot be, so any blank-less board repeats
	 * a tile or is out of range; on 2x2 "1 2 3 3" repeats. */
	parse_bad("1 2 3 3", 0, 0, SDB_EINVAL, "tile 3 appears twice");
	uint8_t cells[4] = { 1, 2, 3, 1 };
	sdb_board b;
	cr_assert_eq(sdb_board_set(&b, 2, 2, cells), SDB_EINVAL);
	cr_assert_eq(sdb_board_set(&b, 1, 4, cells), SDB_EINVAL);
	cr_assert_eq(sdb_board_set(&b, 5, 4, cells), SDB_EINVAL);
}

/* A board whose count of cells settles no size is told what is wrong with
 * its tiles before anything is said of the count: the count is only the
 * consequence (8 tiles and no blank are not "2x4 or 4x2"). Tiles 0..n-1 of a
 * count one short of a square are told what that square lacks. */
static void parse_says(const char *text, int want, const char *detail)
{
	sdb_board b;
	cr_assert_eq(sdb_board_parse(&b, text, 0, 0), want, "'%s': %s", text, sdb_error_detail());
	cr_assert_str_eq(sdb_error_detail(), detail, "'%s'", text);
}

/* "a b c ... z" for the tiles from..to, then the extra text. */
static const char *run_of(char *buf, size_t cap, int from, int to, const char *extra)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int t = from; t <= to; t++)
		len += (size_t)snprintf(buf + len, cap - len, "%d ", t);
	snprintf(buf + len, cap - len, "%s", extra);
	return buf;
}

Test(board, the_fault_before_the_count)
{
	char text[256];
	parse_says("1 2 3 4 5 6 7 8", SDB_EINVAL, "no blank (0, x or _)");
	parse_says(run_of(text, sizeof text, 1, 15, ""), SDB_EINVAL, "no blank (0, x or _)");
	parse_says("1 2 3 4 5 6 7 8 0 0", SDB_EINVAL, "more than one blank");
	parse_says("1 2 3 4 5 6 7 8 0 1", SDB_EINVAL, "tile 1 appears twice");
	parse_says(run_of(text, sizeof text, 1, 23, "0"), SDB_EAMBIGUOUS,
	           "24 cells fit 3x8, 4x6, 6x4 and 8x3: give the size (--size WxH); or, for 5x5, "
	           "tile 24 is missing");
	parse_says(run_of(text, sizeof text, 8, 24, "0 1 2 3 4 5 6"), SDB_EINVAL,
	           "tile 7 is missing (the tiles go up to 24)");
	parse_says("1 2 3 4 5 6 7 8 9 0 20 21", SDB_EINVAL,
	           "tiles 10, 11, 12 and 7 more are missing (the tiles go up to 21)");
	parse_says("1 2 4 5 6 7 8 9 0 10", SDB_EINVAL, "tile 3 is missing (the tiles go up to 10)");
	parse_says("1 2 4 5 6 7 8 9 0 11", SDB_EINVAL,
	           "tiles 3 and 10 are missing (the tiles go up to 11)");
	parse_says(run_of(text, sizeof text, 0, 62, ""), SDB_EINVAL,
	           "63 cells is not a board size (W x H cells with 2 <= W, H <= 8); for 8x8, "
	           "tile 63 is missing");
	parse_says("1 2 0", SDB_EINVAL, "3 cells is not a board size (W x H cells with 2 <= W, "
	           "H <= 8); for 2x2, tile 3 is missing");
	/* a count that fits no square but its own sizes says only those */
	parse_says("1 2 3 4 5 6 7 8 9 0", SDB_EAMBIGUOUS,
	           "10 cells fit 2x5 and 5x2: give the size (--size WxH)");
	/* a count that settles the size: the tiles are told against it */
	parse_says("1 2 3 4 5 6 7 8 9", SDB_EINVAL, "tile 9 is out of range 1..8 for 3x3");
	parse_says("1 2 3 4 5 6 7 8 8", SDB_EINVAL, "tile 8 appears twice");
	parse_says("0 2 3 4 5 6 7 8 0", SDB_EINVAL, "more than one blank");
	/* and so does a size given */
	sdb_board b;
	cr_assert_eq(sdb_board_parse(&b, "1 2 3 4 5 6 7 8", 2, 4), SDB_EINVAL);
	cr_assert_str_eq(sdb_error_detail(), "tile 8 is out of range 1..7 for 2x4");
	cr_assert_eq(sdb_board_parse(&b, "1 2 3 4 5 6 7 1", 2, 4), SDB_EINVAL);
	cr_assert_str_eq(sdb_error_detail(), "tile 1 appears twice");
	cr_assert_eq(sdb_board_parse(&b, "1 2 3 4 5 6 7 6", 2, 4), SDB_EINVAL);
	cr_assert_str_eq(sdb_error_detail(), "tile 6 appears twice");
	cr_assert_eq(sdb_board_parse(&b, "1 2 3 4 5 0 7 0", 2, 4), SDB_EINVAL);
	cr_assert_str_eq(sdb_error_detail(), "more than one blank");
}

/* Boards past 16 cells: numbers to 63, the compact notation to tile 32 (x is
 * the blank), 5x5 inferred from 25 cells, and tiles past the largest board
 * named plainly. */
Test(board, boards_to_8x8)
{
	sdb_board b = parse_ok("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0", 0, 0);
	cr_assert(b.w == 5 && b.h == 5 && b.blank == 24 && b.cell[15] == 16);
	sdb_board c = parse_ok("123456789abcdefghijklmnox", 0, 0);
	cr_assert(sdb_board_equal(&b, &c));
	sdb_board d = parse_ok("123456789ABCDEFGHIJKLMNO0", 5, 5);
	cr_assert(sdb_board_equal(&b, &d));
	sdb_board big;
	cr_assert_eq(sdb_board_goal(&big, 8, 8, 63), 0);
	char text[256];
	cr_assert_gt(sdb_board_format(text, sizeof text, &big), 0);
	sdb_board back = parse_ok(text, 0, 0);
	cr_assert(back.w == 8 && back.h == 8 && sdb_board_equal(&big, &back));
	cr_assert_eq(sdb_board_solvable(&big, &big), 1);
	parse_bad("1 2 3 64", 0, 0, SDB_EINVAL, "tiles 1..63");
	parse_bad("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 24", 0, 0,
	          SDB_EINVAL, "tile 24 appears twice");
	parse_bad("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 25", 0, 0,
	          SDB_EINVAL, "tile 25 is out of range 1..24 for 5x5");
	parse_bad("1 2 3 4 5 6 7 8 9 10 0", 0, 0, SDB_EINVAL, "11 cells is not a board size");
	parse_bad("123456789abcdefghijklmnop", 0, 0, SDB_EINVAL, "tile 25 is out of range");
}

Test(board, size_parse)
{
	int w, h;
	cr_assert_eq(sdb_board_size_parse(&w, &h, "3x4"), 0);
	cr_assert(w == 3 && h == 4);
	cr_assert_eq(sdb_board_size_parse(&w, &h, "4X4"), 0);
	cr_assert_eq(sdb_board_size_parse(&w, &h, "8x8"), 0);
	cr_assert(w == 8 && h == 8);
	const char *bad[] = { "3", "x3", "3x", "3x3x", "1x3", "9x2", "2x9", "axb", "3x-3", "" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		cr_assert_eq(sdb_board_size_parse(&w, &h, bad[i]), SDB_EINVAL, "'%s'", bad[i]);
	for (int a = 1; a <= 10; a++)
		for (int c = 1; c <= 10; c++)
			cr_assert_eq(sdb_board_size_valid(a, c), a >= 2 && c >= 2 && a <= 8 && c <= 8);
}

Test(board, format_round_trip)
{
	sdb_board b = parse_ok("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", 0, 0);
	char text[64];
	int len = sdb_board_format(text, sizeof text, &b);
	cr_assert_str_eq(text, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0");
	cr_assert_eq(len, (int)strlen(text));
	sdb_board again = parse_ok(text, 0, 0);
	cr_assert(sdb_board_equal(&b, &again));
	cr_assert_eq(sdb_board_format(text, 10, &b), SDB_EINVAL);
}

Test(board, goals)
{
	sdb_board g;
	cr_assert_eq(sdb_board_goal(&g, 3, 3, 8), 0);
	sdb_board want = parse_ok("1 2 3 4 5 6 7 8 0", 0, 0);
	cr_assert(sdb_board_equal(&g, &want));
	cr_assert_eq(sdb_board_goal(&g, 3, 3, 4), 0);
	want = parse_ok("1 2 3 4 0 5 6 7 8", 0, 0);
	cr_assert(sdb_board_equal(&g, &want));
	cr_assert_eq(sdb_board_goal(&g, 3, 3, 9), SDB_EINVAL);
}

Test(board, moves_at_every_cell)
{
	for (int w = 2; w <= 4; w++)
		for (int h = 2; h <= 4; h++)
			for (int c = 0; c < w * h; c++) {
				sdb_board b;
				sdb_board_goal(&b, w, h, c);
				unsigned m = sdb_board_moves(&b);
				int x = c % w, y = c / w;
				cr_assert_eq(m >> SDB_UP & 1, y > 0);
				cr_assert_eq(m >> SDB_DOWN & 1, y < h - 1);
				cr_assert_eq(m >> SDB_LEFT & 1, x > 0);
				cr_assert_eq(m >> SDB_RIGHT & 1, x < w - 1);
				for (int mv = 0; mv < 4; mv++) {
					sdb_board t = b;
					int err = sdb_board_apply(&t, mv);
					cr_assert_eq(err == 0, (int)(m >> mv & 1));
					if (err) {
						cr_assert(sdb_board_equal(&t, &b), "a refused move changed the board");
						continue;
					}
					int back = mv ^ 1;   /* u<->d, l<->r */
					cr_assert_eq(sdb_board_apply(&t, back), 0);
					cr_assert(sdb_board_equal(&t, &b));
				}
			}
	cr_assert_eq(sdb_move_letter(SDB_UP), 'u');
	cr_assert_eq(sdb_move_letter(SDB_RIGHT), 'r');
	cr_assert_eq(sdb_move_letter(7), '?');
	cr_assert_eq(sdb_move_from_letter('D'), SDB_DOWN);
	cr_assert_eq(sdb_move_from_letter('x'), -1);
}

/* Solvability agrees with reachability, checked exhaustively on small boards
 * of odd and even width with the simple BFS. */
static void solvable_matches_bfs(int w, int h, int goal_blank)
{
	sdb_board goal;
	sdb_board_goal(&goal, w, h, goal_blank);
	simple_bfs s;
	simple_bfs_run(&s, &goal);
	cr_assert_eq(s.count, sdb_rank_count(w, h));
	/* every permutation of cells: enumerate by Heap's algorithm */
	int n = w * h;
	uint8_t cells[SDB_MAX_CELLS];
	int c[SDB_MAX_CELLS] = { 0 };
	for (int i = 0; i < n; i++)
		cells[i] = (uint8_t)i;
	uint64_t reachable = 0, total = 0;
	for (int i = 0;;) {
		sdb_board b;
		cr_assert_eq(sdb_board_set(&b, w, h, cells), 0);
		int reach = simple_bfs_dist(&s, &b) >= 0;
		cr_assert_eq(sdb_board_solvable(&b, &goal), reach);
		cr_assert_eq(sdb_board_solvable(&goal, &b), reach);
		reachable += (uint64_t)reach;
		total++;
		while (i < n && c[i] >= i) {
			c[i] = 0;
			i++;
		}
		if (i >= n)
			break;
		int j = i % 2 ? c[i] : 0;
		uint8_t t = cells[j];
		cells[j] = cells[i];
		cells[i] = t;
		c[i]++;
		i = 0;
	}
	cr_assert_eq(reachable * 2, total);
	simple_bfs_free(&s);
}

Test(board, solvable_exhaustive_small)
{
	solvable_matches_bfs(2, 2, 3);
	solvable_matches_bfs(2, 3, 0);
	solvable_matches_bfs(3, 2, 4);
	solvable_matches_bfs(2, 4, 5);
	solvable_matches_bfs(3, 3, 8);
	solvable_matches_bfs(3, 3, 4);
}

Test(board, solvable_known_pairs)
{
	sdb_board a = parse_ok("1 2 3 4 5 6 8 7 0", 0, 0), g = parse_ok("1 2 3 4 5 6 7 8 0", 0, 0);
	cr_assert_eq(sdb_board_solvable(&a, &g), 0);
	/* Loyd's 14-15 swap on 4x4 is unsolvable, moving the blank up a row is solvable */
	sdb_board l = parse_ok("1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0", 0, 0);
	sdb_board g4 = parse_ok("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", 0, 0);
	sdb_board up = parse_ok("1 2 3 4 5 6 7 8 9 10 11 0 13 14 15 12", 0, 0);
	cr_assert_eq(sdb_board_solvable(&l, &g4), 0);
	cr_assert_eq(sdb_board_solvable(&up, &g4), 1);
	sdb_board small = parse_ok("1 2 3 0", 0, 0);
	cr_assert_eq(sdb_board_solvable(&small, &g), SDB_EINVAL);
}

/* Nested brackets are rows: they give the shape, whatever the count of cells
 * would suggest; rows of unequal length are refused. */
Test(board, nested_brackets_give_the_shape)
{
	sdb_board b = parse_ok("[[1,2,3],[4,0,5]]", 0, 0);
	cr_assert_eq(b.w, 3);
	cr_assert_eq(b.h, 2);
	cr_assert_eq(b.blank, 4);
	b = parse_ok("[[1,2],[3,4],[0,5]]", 0, 0);
	cr_assert_eq(b.w, 2);
	cr_assert_eq(b.h, 3);
	b = parse_ok("[[1,2,7][4,3,6][5,8,0]]", 0, 0);   /* seed 001, no commas between rows */
	cr_assert_eq(b.w, 3);
	cr_assert_eq(b.h, 3);
	b = parse_ok("((1 2 3 4) (5 6 7 0))", 0, 0);
	cr_assert_eq(b.w, 4);
	cr_assert_eq(b.h, 2);
	b = parse_ok("[1,2,3,4,0,5]", 3, 2);   /* one level is only punctuation */
	cr_assert_eq(b.w, 3);
	parse_bad("[1,2,3,4,0,5]", 0, 0, SDB_EAMBIGUOUS, "2x3");
	parse_bad("[[1,2,7],[4,3],[6,5,8,0]]", 0, 0, SDB_EINVAL, "unequal length");
	parse_bad("[[1,2,7],[4,3],[6,5,8,0]]", 0, 0, SDB_EINVAL, "row 2 has 2 cells");
	parse_bad("[[1,2,3],[4,0,5]]", 2, 3, SDB_EINVAL, "3x2");
	parse_bad("[[1,2,3],[4,0,5]] 6", 0, 0, SDB_EINVAL, "outside");
	parse_bad("[[1,2,3],[4,0,5]", 0, 0, SDB_EINVAL, "not closed");
	parse_bad("[1,2,3]],[4,0,5]", 0, 0, SDB_EINVAL, "closes no bracket");
	/* brackets pair and match: a row opened by one and closed by another is
	 * a slip, not a shape */
	parse_bad("{1 2 3)(4 5 6][7 8 0}", 0, 0, SDB_EINVAL, "'{' is closed by ')'");
	parse_bad("{(1 2 3)(4 5 6][7 8 0}", 0, 0, SDB_EINVAL, "'(' is closed by ']'");
	parse_bad("[[1,2,3),[4,0,5]]", 0, 0, SDB_EINVAL, "'[' is closed by ')'");
	parse_bad("{1 2 3 4 5 6 7 8 0]", 0, 0, SDB_EINVAL, "'{' is closed by ']'");
	b = parse_ok("{(1 2 3)[4 5 6]{7 8 0}}", 0, 0);   /* each pair its own kind */
	cr_assert_eq(b.w, 3);
	cr_assert_eq(b.h, 3);
	parse_bad("[[1],[2],[3],[0]]", 0, 0, SDB_EINVAL, "not a board");
}

/* A board over several lines, as problem statements draw it: each line a
 * row. */
Test(board, lines_are_rows)
{
	sdb_board b = parse_ok("1 2 3\nx 4 6\n7 5 8\n", 0, 0);
	sdb_board ref = parse_ok("1 2 3 x 4 6 7 5 8", 0, 0);
	cr_assert(sdb_board_equal(&b, &ref));
	b = parse_ok("1 2 3\n4 0 5", 0, 0);
	cr_assert_eq(b.w, 3);
	cr_assert_eq(b.h, 2);
	parse_bad("1 2 3\n4 0\n5 6 7", 0, 0, SDB_EINVAL, "line 2 has 2 cells");
	/* The cells, shape aside, are still read by sdb_board_cells_parse. */
	uint8_t cells[SDB_MAX_CELLS];
	int n;
	cr_assert_eq(sdb_board_cells_parse(cells, &n, SDB_MAX_CELLS, "[[1,2,7],[4,3],[6,5,8,0]]"), 0);
	cr_assert_eq(n, 9);
}

/* Sizes too large to hold are refused, never wrapped into a small board
 * (4611686018427387906x4 once built 2x4 tables). */
Test(board, huge_sizes_are_refused)
{
	static const char *const bad[] = {
		"99999999999999999999x2", "4611686018427387906x4", "4611686018427387904x4",
		"2x99999999999999999999", "1000x1000", "17x1", "+3x3", " 3x3", "3x3 ", "3x-3", "3x",
		"x3", "",
	};
	int w = 7, h = 7;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		cr_assert_eq(sdb_board_size_parse(&w, &h, bad[i]), SDB_EINVAL, "'%s'", bad[i]);
		cr_assert(w == 7 && h == 7, "'%s' changed the size", bad[i]);
	}
	cr_assert_eq(sdb_board_size_parse(&w, &h, "04x04"), 0);
	cr_assert(w == 4 && h == 4);
}
