/* SPDX-License-Identifier: MIT */
/* Batches and words for bindings (db/answer/batch.c; the verdicts in
 * db/answer/check.c): every distance and best move of a batch against the
 * simple BFS and the one answer call, for goals of every class; bad rows
 * named; the verdicts' sentences. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/boards.h"
#include "kit/oracle.h"
#include "kit/run.h"
#include "kit/tables.h"

/* Random boards of w x h, of both parity classes. */
static uint8_t *random_rows(int w, int h, size_t n, unsigned seed)
{
	const int cells = w * h;
	uint8_t *rows = malloc(n * (size_t)cells);
	cr_assert(rows);
	for (size_t i = 0; i < n; i++) {
		uint8_t *r = rows + i * (size_t)cells;
		for (int c = 0; c < cells; c++)
			r[c] = (uint8_t)c;
		for (int c = cells - 1; c > 0; c--) {
			int k = rand_r(&seed) % (c + 1);
			uint8_t t = r[c];
			r[c] = r[k];
			r[k] = t;
		}
	}
	return rows;
}

static void check_size(int w, int h, const int *reps, int nreps)
{
	char path[512], name[32];
	snprintf(name, sizeof name, "batch-%dx%d.lmdb", w, h);
	tk_tmp_path(path, sizeof path, name);
	tk_build_lib(path, w, h, reps, nreps);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	enum { N = 3000 };
	uint8_t *rows = random_rows(w, h, N, 7u * (unsigned)w + (unsigned)h);
	unsigned seed = 3;
	sdb_board standard;
	sdb_board_goal(&standard, w, h, w * h - 1);
	for (int g = 0; g < 6; g++) {
		sdb_board goal;   /* goals with the blank anywhere */
		tk_random_walk(&goal, &standard, 7 + g, &seed);
		simple_bfs bfs;
		simple_bfs_run(&bfs, &goal);
		int16_t dist[N];
		int8_t best[N];
		size_t bad = 99;
		cr_assert_eq(sdb_batch_distance(dist, best, db, &goal, rows, N, NULL, &bad), 0, "%s",
		             sdb_error_detail());
		cr_assert_eq(bad, 99, "no failure, no row named");
		for (int i = 0; i < N; i++) {
			sdb_board b;
			cr_assert_eq(sdb_board_set(&b, w, h, rows + i * w * h), 0);
			cr_assert_eq(dist[i], simple_bfs_dist(&bfs, &b), "board %d", i);
			sdb_answer a;
			sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION,
			                         .want_moves = 0 };
			cr_assert_eq(sdb_answer_query(&a, db, &b, &goal, &opts), 0);
			cr_assert_eq(best[i], a.best_move, "board %d", i);
		}
		int16_t only[N];   /* either output may be NULL */
		cr_assert_eq(sdb_batch_distance(only, NULL, db, &goal, rows, N, NULL, NULL), 0);
		cr_assert_arr_eq(only, dist, sizeof only);
		simple_bfs_free(&bfs);
	}
	free(rows);
	sdb_db_close(db);
}

Test(batch, every_answer_agrees_3x3)
{
	static const int reps[] = { 0, 1, 4 };
	check_size(3, 3, reps, 3);
}

Test(batch, every_answer_agrees_2x3)
{
	static const int reps[] = { 0, 2 };
	check_size(2, 3, reps, 2);
}

Test(batch, bad_rows_and_missing_tables)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "batch-bad.lmdb");
	static const int reps[] = { 0, 2 };
	tk_build_lib(path, 2, 3, reps, 2);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	sdb_board goal;
	sdb_board_goal(&goal, 2, 3, 5);
	uint8_t rows[3][6] = { { 1, 2, 3, 4, 5, 0 }, { 1, 2, 3, 4, 0, 5 }, { 1, 1, 3, 4, 0, 5 } };
	int16_t dist[3];
	size_t bad = 0;
	cr_assert_eq(sdb_batch_distance(dist, NULL, db, &goal, &rows[0][0], 3, NULL, &bad), SDB_EINVAL);
	cr_assert_eq(bad, 2);
	cr_assert_str_eq(sdb_error_detail(), "board 2: tile 1 appears twice");
	rows[2][1] = 9;
	cr_assert_eq(sdb_batch_distance(dist, NULL, db, &goal, &rows[0][0], 3, NULL, &bad), SDB_EINVAL);
	cr_assert_str_eq(sdb_error_detail(), "board 2: tile 9 is out of range 1..5 for 2x3");
	cr_assert_eq(sdb_batch_distance(dist, NULL, db, &goal, &rows[0][0], 2, NULL, &bad), 0);
	cr_assert(dist[0] == 0 && dist[1] == 1 && !*sdb_error_detail());
	sdb_board_goal(&goal, 3, 2, 5);   /* no 3x2 table: the command that builds it */
	cr_assert_eq(sdb_batch_distance(dist, NULL, db, &goal, &rows[0][0], 1, NULL, NULL),
	             SDB_ENOTFOUND);
	cr_assert(strstr(sdb_error_detail(), "`slidedb-gen full 3x2"), "%s", sdb_error_detail());
	int w, h;
	cr_assert_eq(sdb_board_cells_size(&w, &h, 6, db), 0);   /* settled by the 2x3 tables */
	cr_assert(w == 2 && h == 3);
	cr_assert_eq(sdb_board_cells_size(&w, &h, 6, NULL), SDB_EAMBIGUOUS);
	cr_assert_eq(sdb_board_cells_size(&w, &h, 7, NULL), SDB_EINVAL);
	cr_assert_eq(sdb_board_cells_size(&w, &h, 16, NULL), 0);
	cr_assert(w == 4 && h == 4);
	sdb_db_close(db);
}

Test(batch, heuristic_rows)
{
	sdb_board goal;
	sdb_board_goal(&goal, 4, 4, 15);
	sdb_heuristic *hs;
	cr_assert_eq(sdb_heuristic_open_manhattan(&hs, &goal), 0);
	enum { N = 500 };
	uint8_t *rows = random_rows(4, 4, N, 11);
	int16_t v[N];
	cr_assert_eq(sdb_batch_heuristic(v, hs, rows, 4, 4, N, NULL), 0);
	for (int i = 0; i < N; i++) {
		sdb_board b;
		sdb_board_set(&b, 4, 4, rows + i * 16);
		cr_assert_eq(v[i], sdb_heuristic_value(hs, &b));
	}
	rows[5 * 16] = rows[5 * 16 + 1];
	size_t bad;
	cr_assert_eq(sdb_batch_heuristic(v, hs, rows, 4, 4, N, &bad), SDB_EINVAL);
	cr_assert_eq(bad, 5);
	free(rows);
	sdb_heuristic_close(hs);
}

Test(batch, words)
{
	cr_assert_str_eq(sdb_table_kind_name(SDB_KIND_FULL), "full");
	cr_assert_str_eq(sdb_table_kind_name(SDB_KIND_PATTERN), "pattern");
	cr_assert_str_eq(sdb_table_kind_name(0), "unknown");
	cr_assert_str_eq(sdb_table_format_name(SDB_ENTRY_DIST6_MOVE2), "dist6-move2");
	cr_assert_str_eq(sdb_table_format_name(SDB_ENTRY_NIBBLE_MD), "nibble-manhattan");
	cr_assert_str_eq(sdb_table_format_name(SDB_ENTRY_MOD3), "mod3-2bit");
	cr_assert_str_eq(sdb_table_format_name(99), "unknown");
	static const struct { sdb_check c; const char *verdict; } cases[] = {
		{ { .solvable = 0 }, "unsolvable" },
		{ { .solvable = 1, .legal = 0, .illegal_step = 3, .illegal_move = SDB_UP },
		  "illegal move 'u' at step 3" },
		{ { .solvable = 1, .legal = 1, .end_distance = 1 }, "does not reach the goal (ends 1 move away)" },
		{ { .solvable = 1, .legal = 1, .end_distance = 4 }, "does not reach the goal (ends 4 moves away)" },
		{ { .solvable = 1, .legal = 1, .reaches_goal = 1, .optimal = 1 }, "optimal" },
		{ { .solvable = 1, .legal = 1, .reaches_goal = 1, .length = 6, .distance = 2 },
		  "valid, 4 moves longer than optimal" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char buf[64];
		cr_assert_eq(sdb_check_verdict(buf, sizeof buf, &cases[i].c), (int)strlen(cases[i].verdict));
		cr_assert_str_eq(buf, cases[i].verdict);
	}
	char small[4];
	cr_assert_eq(sdb_check_verdict(small, sizeof small, &cases[4].c), SDB_EINVAL);
}
