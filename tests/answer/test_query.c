/* SPDX-License-Identifier: MIT */
/* Answers through the library: any goal, through symmetry and relabelling,
 * checked against the simple BFS run from that goal; every move sequence
 * replayed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kit/boards.h"
#include "kit/oracle.h"
#include "kit/run.h"
#include "kit/tables.h"

/* Answers without the move sequence: the distance and best move only. */
static const sdb_answer_opts NO_MOVES = { .version = SDB_ANSWER_OPTS_VERSION };

/* For goals with the blank in every cell, random starts: distance, best move
 * and moves agree with a BFS from that very goal. */
Test(query, any_goal_matches_bfs_from_that_goal, .timeout = 300)
{
	sdb_db *db = tk_open_classes(NULL, 0, 3, 3, "q.lmdb");
	unsigned seed = 99;
	sdb_board standard;
	sdb_board_goal(&standard, 3, 3, 8);
	for (int g = 0; g < 12; g++) {
		sdb_board goal;
		tk_random_walk(&goal, &standard, 100 + g, &seed);
		if (g < 9)   /* make sure every blank cell is a goal cell once */
			while (goal.blank != g)
				sdb_board_apply(&goal, rand_r(&seed) % 4);
		simple_bfs s;
		simple_bfs_run(&s, &goal);
		for (int k = 0; k < 400; k++) {
			sdb_board start;
			tk_random_walk(&start, &goal, 1 + k % 80, &seed);
			sdb_answer a;
			cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, NULL), 0, "%s", sdb_error_detail());
			cr_assert_eq(a.solvable, 1);
			cr_assert_eq(a.distance, simple_bfs_dist(&s, &start));
			cr_assert_eq((int)strlen(a.moves), a.distance);
			cr_assert(tk_replay(&start, a.moves, &goal), "moves %s do not reach the goal", a.moves);
			if (a.distance) {
				cr_assert_eq(sdb_move_letter(a.best_move), a.moves[0]);
			} else {
				cr_assert_eq(a.best_move, -1);
			}
			sdb_answer b;
			cr_assert_eq(sdb_answer_query(&b, db, &start, &goal, &NO_MOVES), 0);
			cr_assert_eq(b.distance, a.distance);
			cr_assert_eq(b.best_move, a.best_move);
		}
		simple_bfs_free(&s);
	}
	sdb_db_close(db);
}

Test(query, unsolvable_and_goal)
{
	sdb_db *db = tk_open_classes(NULL, 0, 3, 3, "q.lmdb");
	sdb_board start, goal;
	sdb_board_parse(&goal, "1 2 3 4 5 6 7 8 0", 0, 0);
	sdb_board_parse(&start, "2 1 3 4 5 6 7 8 0", 0, 0);
	sdb_answer a;
	cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, NULL), 0);
	cr_assert_eq(a.solvable, 0);
	cr_assert_eq(a.distance, -1);
	cr_assert_eq(a.best_move, -1);
	cr_assert_str_eq(a.moves, "");
	cr_assert_eq(sdb_answer_query(&a, db, &goal, &goal, NULL), 0);
	cr_assert_eq(a.solvable, 1);
	cr_assert_eq(a.distance, 0);
	cr_assert_eq(a.best_move, -1);
	cr_assert_str_eq(a.moves, "");
	sdb_db_close(db);
}

/* Options start from SDB_ANSWER_OPTS_INIT; options of another version (a
 * zeroed struct, or one from a newer header) are refused with the reason,
 * by every call that takes them, not read as something else. */
Test(query, options_carry_their_version)
{
	sdb_db *db = tk_open_classes(NULL, 0, 3, 3, "q.lmdb");
	sdb_board start, goal;
	sdb_board_parse(&goal, "1 2 3 4 5 6 7 8 0", 0, 0);
	sdb_board_parse(&start, "1 2 3 4 5 6 0 7 8", 0, 0);
	sdb_answer a;
	sdb_check c;
	sdb_answer_opts o = SDB_ANSWER_OPTS_INIT;
	cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &o), 0);
	cr_assert_eq(a.distance, 2);
	cr_assert_str_eq(a.moves, "", "the INIT options want no moves");
	o.want_moves = 1;
	cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &o), 0);
	cr_assert_str_eq(a.moves, "rr");
	o.version = 2;   /* before defer_check: still read (a struct without it) */
	cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &o), 0, "%s", sdb_error_detail());
	cr_assert_str_eq(a.moves, "rr");
	cr_assert_eq(sdb_db_checked(db), 0, "no set opened: nothing to wait for");
	const unsigned other[] = { 0, 1, SDB_ANSWER_OPTS_VERSION + 1 };
	for (int i = 0; i < 3; i++) {
		o.version = other[i];
		cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &o), SDB_EINVAL);
		cr_assert(strstr(sdb_error_detail(), "SDB_ANSWER_OPTS_INIT"), "%s", sdb_error_detail());
		cr_assert_eq(sdb_answer_paths(&a, db, &start, &goal, 5, &o, NULL, NULL), SDB_EINVAL);
		cr_assert_eq(sdb_check_moves(&c, db, &start, &goal, "rr", &o), SDB_EINVAL);
	}
	sdb_db_close(db);
}

/* The seeds' samples: seed 000 (distance 2), seed 004 / POJ 1077 (19 moves). */
Test(query, seed_samples)
{
	sdb_db *db = tk_open_classes(NULL, 0, 3, 3, "q.lmdb");
	sdb_board start, goal;
	sdb_answer a;
	sdb_board_parse(&start, "1 2 3 0 8 4 7 6 5", 0, 0);
	sdb_board_parse(&goal, "1 0 3 8 2 4 7 6 5", 0, 0);
	cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, NULL), 0);
	cr_assert_eq(a.distance, 2);
	cr_assert(tk_replay(&start, a.moves, &goal));
	sdb_board_parse(&start, " 2  3  4  1  5  x  7  6  8 ", 0, 0);
	sdb_board_goal(&goal, 3, 3, 8);
	cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, NULL), 0);
	cr_assert_eq(a.distance, 19, "the seed's A* answer has 19 moves, and it is optimal");
	cr_assert(tk_replay(&start, a.moves, &goal));
	cr_assert(tk_replay(&start, "ullddrurdllurdruldr", &goal), "the seed's own answer replays");
	sdb_db_close(db);
}

Test(query, missing_tables_name_the_command)
{
	sdb_db *db = tk_open_classes(NULL, 0, 3, 3, "q.lmdb");
	sdb_board s, g;
	sdb_board_parse(&s, "1 2 3 4 5 6 7 0", 2, 4);
	sdb_board_goal(&g, 2, 4, 7);
	sdb_answer a;
	cr_assert_eq(sdb_answer_query(&a, db, &s, &g, NULL), SDB_ENOTFOUND);
	cr_assert(strstr(sdb_error_detail(), "slidedb-gen full 2x4"), "%s", sdb_error_detail());
	cr_assert_eq(sdb_db_has_size(db, 2, 4), 0);
	cr_assert_eq(sdb_db_has_size(db, 3, 3), 1);
	sdb_board_parse(&s, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", 0, 0);
	sdb_board_goal(&g, 4, 4, 15);
	/* Too large for full tables: searched, with the hint of a set to build. */
	cr_assert_eq(sdb_answer_query(&a, db, &s, &g, NULL), 0, "%s", sdb_error_detail());
	cr_assert_eq(a.method, SDB_METHOD_SEARCH);
	cr_assert_eq(a.distance, 1);
	cr_assert_str_eq(a.moves, "r");
	cr_assert(a.note && strstr(a.note, "slidedb-gen pdb 4x4 --partition 6-6-3"), "%s",
	          a.note ? a.note : "(no note)");
	cr_assert_str_empty(sdb_error_detail(), "a success leaves no stale detail");
	sdb_board_goal(&g, 3, 3, 8);
	cr_assert_eq(sdb_answer_query(&a, db, &s, &g, NULL), SDB_EINVAL, "sizes differ");
	sdb_db_close(db);
}

/* Only the corner table: corner goals are answered, others name --goal. */
Test(query, one_class_only)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "corner.lmdb");
	const int corner[1] = { 0 };
	tk_build_lib(path, 3, 3, corner, 1);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	sdb_board s, g;
	sdb_board_parse(&g, "1 2 3 4 5 6 7 8 0", 0, 0);
	sdb_board_parse(&s, "1 2 3 4 5 6 0 7 8", 0, 0);
	sdb_answer a;
	cr_assert_eq(sdb_answer_query(&a, db, &s, &g, NULL), 0);
	cr_assert_eq(a.distance, 2);
	cr_assert_str_eq(a.moves, "rr");
	sdb_board_parse(&g, "1 2 3 4 0 5 6 7 8", 0, 0);
	cr_assert_eq(sdb_answer_query(&a, db, &s, &g, NULL), SDB_ENOTFOUND);
	cr_assert(strstr(sdb_error_detail(), "--goal"), "%s", sdb_error_detail());
	sdb_db_close(db);
}

/* A damaged entry at the start is caught even without the walk: its
 * neighbours disagree with it. */
Test(query, damaged_start_entry_is_refused_without_walk)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "damaged.lmdb");
	const int corner[1] = { 0 };
	tk_build_lib(path, 3, 3, corner, 1);
	sdb_board goal, start;
	sdb_board_goal(&goal, 3, 3, 0);   /* the table's own goal: no mapping */
	unsigned seed = 3;
	tk_random_walk(&start, &goal, 60, &seed);
	uint64_t index = sdb_board_rank(&start);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	const uint8_t *data = sdb_table_data(sdb_table_at(db, 0));
	uint8_t window[48];
	uint64_t from = index > 24 ? index - 24 : 0;
	memcpy(window, data + from, sizeof window);
	sdb_db_close(db);
	FILE *f = fopen(path, "r+b");
	cr_assert(f);
	static char file[1 << 22];
	size_t len = fread(file, 1, sizeof file, f);
	char *at = NULL;
	for (size_t i = 0; i + sizeof window <= len && !at; i++)
		if (memcmp(file + i, window, sizeof window) == 0)
			at = file + i;
	cr_assert_not_null(at);
	for (int flip = 1; flip <= 2; flip++) {
		long off = (long)(at - file) + (long)(index - from);
		fseek(f, off, SEEK_SET);
		int c = fgetc(f);
		fseek(f, off, SEEK_SET);
		fputc(c ^ flip, f);   /* distance off by one, then by two */
		fflush(f);
		cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
		sdb_answer a;
		cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, &NO_MOVES), SDB_ECORRUPT,
		             "flip %d: got distance %d", flip, a.distance);
		cr_assert_eq(sdb_answer_query(&a, db, &start, &goal, NULL), SDB_ECORRUPT);
		sdb_db_close(db);
		fseek(f, off, SEEK_SET);
		fputc(c, f);
		fflush(f);
	}
	fclose(f);
}

/* A board that must parse. */
static sdb_board ck_board(const char *text)
{
	sdb_board b;
	cr_assert_eq(sdb_board_parse(&b, text, 0, 0), 0, "'%s': %s", text, sdb_error_detail());
	return b;
}

/* The one parser of queries: where the goal starts, and the size. */
static sdb_query query_ok(const char *text, int w, int h, const sdb_db *db)
{
	sdb_query q;
	cr_assert_eq(sdb_query_parse(&q, text, w, h, db), 0, "'%s': %s", text, sdb_error_detail());
	return q;
}

static void query_bad(const char *text, int w, int h, const sdb_db *db, int want,
                      const char *fragment)
{
	sdb_query q;
	cr_assert_eq(sdb_query_parse(&q, text, w, h, db), want, "'%s'", text);
	cr_assert(strstr(sdb_error_detail(), fragment), "'%s': '%s' lacks '%s'", text,
	          sdb_error_detail(), fragment);
}

Test(query, parse_every_form)
{
	sdb_board s = ck_board("1 2 3 0 8 4 7 6 5"), g = ck_board("1 0 3 8 2 4 7 6 5");
	const char *pair[] = {
		"1 2 3 0 8 4 7 6 5 1 0 3 8 2 4 7 6 5", "1 2 3 0 8 4 7 6 5 ; 1 0 3 8 2 4 7 6 5",
		"123084765 103824765", "[[1,2,3],[0,8,4],[7,6,5]] [[1,0,3],[8,2,4],[7,6,5]]",
		"1 2 3\n0 8 4\n7 6 5\n1 0 3\n8 2 4\n7 6 5\n",
	};
	for (size_t i = 0; i < sizeof pair / sizeof *pair; i++) {
		sdb_query q = query_ok(pair[i], 0, 0, NULL);
		cr_assert(sdb_board_equal(&q.start, &s) && sdb_board_equal(&q.goal, &g), "'%s'",
		          pair[i]);
		q = query_ok(pair[i], 3, 3, NULL);
		cr_assert(sdb_board_equal(&q.start, &s) && sdb_board_equal(&q.goal, &g), "'%s'",
		          pair[i]);
	}
	sdb_query q = query_ok("[[1,2,3],[4,0,5]]", 0, 0, NULL);   /* shape, not a 6-cell guess */
	cr_assert_eq(q.start.w, 3);
	cr_assert_eq(q.goal.h, 2);
	cr_assert_eq(q.goal.blank, 5, "the standard goal");
	q = query_ok("1 2\n3 0\n", 0, 0, NULL);
	cr_assert_eq(q.start.w, 2);
	cr_assert_eq(q.start.h, 2);
	query_bad("[[1,2,7],[4,3],[6,5,8,0]]", 0, 0, NULL, SDB_EINVAL, "unequal");
	query_bad("1 2 3 4 5 0", 0, 0, NULL, SDB_EAMBIGUOUS, "2x3 and 3x2");
	query_bad("1 2 3 4 4 6 7 8 0", 0, 0, NULL, SDB_EINVAL, "start: tile 4 appears twice");
	query_bad("1 2 3 4 5 6 7 8 0 ; 1 2 3 4 5 6 7 8 8", 0, 0, NULL, SDB_EINVAL, "goal: tile 8");
	query_bad("1 2 3 ; 4 5 6 ; 7 8 0", 0, 0, NULL, SDB_EINVAL, "more than two boards");
	/* the fault of the tiles before the count, each board in its role */
	query_bad("1 2 3 4 5 6 7 8", 0, 0, NULL, SDB_EINVAL, "start: no blank");
	query_bad("1 2 3 4 5 6 7 8 0 0", 0, 0, NULL, SDB_EINVAL, "start: more than one blank");
	query_bad("1 2 3 4 5 0 ; 1 2 3 4 5 5", 0, 0, NULL, SDB_EINVAL, "goal: tile 5 appears twice");
	query_bad("1 2 3 4 5 0 ; 1 2 3 4 5 6", 0, 0, NULL, SDB_EINVAL, "goal: no blank");
	query_bad("1 2 3 4 5 0 1 2 3 4 5 6 7", 0, 0, NULL, SDB_EINVAL,
	          "start: tile 1 appears twice");
	query_bad("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0", 0, 0, NULL,
	          SDB_EAMBIGUOUS, "or, for 5x5, tile 24 is missing");
	query_bad("1 2 3\n4 0 5\n", 2, 3, NULL, SDB_EINVAL, "2 rows of 3 cells");
	cr_assert_eq(sdb_query_grid_row("1 2 3", 0, 0), 3);
	cr_assert_eq(sdb_query_grid_row("1 2", 0, 0), 2);
	cr_assert_eq(sdb_query_grid_row("1 2 3 4", 0, 0), 0, "four cells may be a 2x2 board");
	cr_assert_eq(sdb_query_grid_row("1 2 3 4", 4, 4), 4);
	cr_assert_eq(sdb_query_grid_row("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", 4, 4), 0);
	cr_assert_eq(sdb_query_grid_row("[[1,2],[3,0]]", 0, 0), 0);
}

/* Sixteen cells are one 4x4 board or a start and a goal of 2x4, eighteen a
 * 3x6 board or two 3x3: the cells decide (one board holds its largest tile,
 * two boards of half the cells hold nothing above half), whatever tables the
 * database has. */
Test(query, sixteen_cells_follow_the_cells)
{
	char path[512], cmd[1024], *err;
	tk_tmp_path(path, sizeof path, "sixteen.lmdb");
	tk_build(path, "2x4", NULL);
	const char *text = "1 2 3 4 5 6 7 8 9 0 10 12 13 14 11 15";
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	sdb_query two = query_ok("1 2 3 4 5 6 0 7 1 2 3 4 5 6 7 0", 0, 0, db);
	cr_assert(two.start.w == 2 && two.start.h == 4 && two.goal.cell[7] == 0);
	sdb_query one = query_ok(text, 0, 0, db);
	cr_assert(one.start.w == 4 && one.start.h == 4);
	sdb_query nine = query_ok("1 2 3 0 8 4 7 6 5 1 0 3 8 2 4 7 6 5", 0, 0, NULL);
	cr_assert(nine.start.n == 9 && nine.goal.cell[1] == 0);
	query_bad("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 0", 0, 0, NULL, SDB_EAMBIGUOUS,
	          "3x6 and 6x3");
	query_bad("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 0", 3, 3, NULL, SDB_EINVAL, "3x3");
	sdb_db_close(db);
	snprintf(cmd, sizeof cmd, "%s pdb 4x4 --partition 5-5-5 -q --db '%s'", SLIDEDB_GEN, path);
	cr_assert_eq(tk_run(cmd, NULL, NULL, &err), 0, "%s", err);
	free(err);
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	sdb_query q = query_ok(text, 0, 0, db);
	cr_assert_eq(q.start.w, 4);
	cr_assert_eq(q.start.h, 4);
	/* and the one answer call solves it by IDA* on the set */
	sdb_answer a;
	cr_assert_eq(sdb_answer_query(&a, db, &q.start, &q.goal, NULL), 0, "%s", sdb_error_detail());
	cr_assert_eq(a.method, SDB_METHOD_SEARCH);
	cr_assert_eq(a.distance, 3);
	cr_assert_str_eq(a.moves, "rdr");
	cr_assert_str_eq(a.heuristic_name, "pdb-4x4-b0-5-5-5");
	cr_assert_null(a.note);
	const sdb_answer_opts few = { .version = SDB_ANSWER_OPTS_VERSION,
	                              .want_moves = 1, .limits = { .max_nodes = 2 } };
	cr_assert_eq(sdb_answer_query(&a, db, &q.start, &q.goal, &few), SDB_ELIMIT);
	cr_assert(strstr(sdb_error_detail(), "limit"), "%s", sdb_error_detail());
	cr_assert_eq(a.nodes, 2, "the nodes searched belong in the answer after SDB_ELIMIT");
	cr_assert_eq(a.method, SDB_METHOD_SEARCH);
	cr_assert(strstr(sdb_error_detail(), "(2 searched"), "%s", sdb_error_detail());
	/* Heuristics refuse a board of another size instead of a number. */
	sdb_heuristic *h;
	cr_assert_eq(sdb_heuristic_open(&h, db, &q.goal, NULL), 0);
	cr_assert_geq(sdb_heuristic_value(h, &q.start), 0);
	sdb_board small = ck_board("1 2 3 4 5 6 7 8 0");
	cr_assert_eq(sdb_heuristic_value(h, &small), SDB_EINVAL);
	cr_assert(strstr(sdb_error_detail(), "3x3"), "%s", sdb_error_detail());
	sdb_hstate st;
	cr_assert_eq(sdb_heuristic_start(h, &st, &small), SDB_EINVAL);
	sdb_heuristic_close(h);
	sdb_db_close(db);
	unlink(path);
}
