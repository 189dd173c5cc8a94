/* SPDX-License-Identifier: MIT */
/* Batches: many boards of one size against one goal, as arrays of cells
 * (what NumPy, the Python package and other languages' bindings hand over).
 * The table and its frame are found once per batch, not once per board, and
 * nothing is allocated: a batch of full-table distances is a rank and a
 * byte read per board. */
#include <stdio.h>
#include <string.h>

#include "answer/answer.h"
#include "store/blocks.h"


int sdb_board_cells_size(int *w, int *h, int count, const sdb_db *db)
{
	return sdbi_done(sdbi_size_for_cells(w, h, NULL, count, db ? sdbi_db_sizes(db) : 0));
}

/* The board of row i, or the row's failure with its index in the detail. */
static int row_board(sdb_board *b, const uint8_t *cells, int w, int h, size_t i, size_t *bad)
{
	if (sdb_board_set(b, w, h, cells + i * (size_t)(w * h)) == SDB_OK)
		return SDB_OK;
	char why[256];
	snprintf(why, sizeof why, "%s", sdb_error_detail());
	if (bad)
		*bad = i;
	return sdbi_fail(SDB_EINVAL, "board %zu: %s", i, why);
}

/* Boards the answer call answers one by one: searches (over 12 cells) and
 * two-bit tables (a walk per board). */
static int batch_by_answers(int16_t *dist, int8_t *best, const sdb_db *db,
                            const sdb_board *goal, const uint8_t *cells, size_t n,
                            const sdb_solve_limits *limits, size_t *bad, int metric)
{
	/* the searches run beside their set's check; the batch waits at the end */
	sdb_answer_opts opts = { .version = SDB_ANSWER_OPTS_VERSION, .want_moves = 0,
	                         .defer_check = 1, .metric = metric };
	if (limits)
		opts.limits = *limits;
	for (size_t i = 0; i < n; i++) {
		sdb_board b;
		sdb_answer a;
		int err = row_board(&b, cells, goal->w, goal->h, i, bad);
		if (!err)
			err = sdb_answer_query(&a, db, &b, goal, &opts);
		if (err) {
			if (bad)
				*bad = i;
			return err;
		}
		if (dist)
			dist[i] = (int16_t)a.distance;
		if (best)
			best[i] = (int8_t)a.best_move;
	}
	return sdb_db_checked(db);
}

/* One batch's view of the goal: the byte table, the frame's symmetry as a
 * cell map and its labels, and what the solvability test needs. */
typedef struct batch_frame {
	const sdb_table *t;
	sdb_frame frame;
	uint8_t map[SDB_MAX_CELLS];   /* caller's cell -> frame's cell */
	int w, h, n;
	unsigned all;                 /* the mask of tiles 0 .. n-1 */
	int goal_parity, goal_row;
} batch_frame;

static void batch_frame_init(batch_frame *f, const sdb_table *t, const sdb_board *goal)
{
	f->t = t;
	f->w = goal->w;
	f->h = goal->h;
	f->n = goal->n;
	f->all = (1u << goal->n) - 1;
	sdb_frame_init(&f->frame, goal, t->blank);
	for (int c = 0; c < goal->n; c++)
		f->map[c] = (uint8_t)sdb_sym_cell(goal->w, goal->h, f->frame.sym, c);
	f->goal_parity = sdbi_board_parity(goal);
	f->goal_row = goal->blank / goal->w;
}

/* Board `row` in the frame, into cur: what sdb_board_set(), sdb_frame_board()
 * and sdb_board_solvable() do, fused into one pass over the cells because
 * this is the whole cost of a batch: as three calls, each copied the board
 * and the parity counted inversions with a popcount (bench/RESULTS.md).
 * Returns 1 if the goal can be reached, 0 if not, -1 if the row is not a
 * board (sdb_board_set() then says why). */
static int frame_row(const batch_frame *f, sdb_board *cur, const uint8_t *row)
{
	unsigned seen = 0, odd = 0;
	int blank = 0;
	for (int c = 0; c < f->n; c++) {
		const unsigned v = row[c];
		if (v >= (unsigned)f->n || (seen >> v & 1))
			return -1;
		/* inversions: the tiles already seen that are larger (mod 2) */
		odd ^= v ? (unsigned)__builtin_parity(seen >> v) : 0;
		seen |= 1u << v;
		cur->cell[f->map[c]] = f->frame.label[v];
		blank = v ? blank : c;
	}
	if (seen != f->all)
		return -1;
	cur->w = (uint8_t)f->w;
	cur->h = (uint8_t)f->h;
	cur->n = (uint8_t)f->n;
	cur->blank = f->map[blank];
	const int rows = f->w % 2 ? 0 : (blank / f->w) ^ f->goal_row;
	return ((odd ^ (unsigned)f->goal_parity ^ (unsigned)rows) & 1) == 0;
}

int sdb_batch_distance(int16_t *dist, int8_t *best, const sdb_db *db, const sdb_board *goal,
                       const uint8_t *cells, size_t n, const sdb_solve_limits *limits,
                       size_t *bad)
{
	return sdb_batch_distance_metric(dist, best, db, goal, cells, n, limits, bad,
	                                 SDB_METRIC_STM);
}

int sdb_batch_distance_metric(int16_t *dist, int8_t *best, const sdb_db *db,
                              const sdb_board *goal, const uint8_t *cells, size_t n,
                              const sdb_solve_limits *limits, size_t *bad, int metric)
{
	if (metric != SDB_METRIC_STM && metric != SDB_METRIC_MTM)
		return sdbi_fail(SDB_EINVAL, "metric %d is not one (0 stm, 1 mtm)", metric);
	/* Without a byte table the answer call decides, board by board, what
	 * answers (a search, a two-bit table) or says which table is missing. */
	int err = SDB_OK;
	const sdb_table *t = goal->n > SDB_MAX_FULL_CELLS ? NULL
	                     : sdbi_find_for_goal(db, goal, metric, &err);
	if (!t || t->info.entry_format == SDB_ENTRY_MOD3)
		return batch_by_answers(dist, best, db, goal, cells, n, limits, bad, metric);
	batch_frame f;
	batch_frame_init(&f, t, goal);
	sdbi_damage_reset();
	for (size_t i = 0; i < n; i++) {
		sdb_board cur;
		const int solvable = frame_row(&f, &cur, cells + i * (size_t)f.n);
		int d = -1, m = -1;
		if (solvable < 0) {
			sdb_board b;
			return row_board(&b, cells, f.w, f.h, i, bad);
		}
		if (solvable) {
			const int e = sdbi_entry_byte(t, sdb_board_rank(&cur));
			d = sdb_dist6((unsigned)e);
			int err = d == SDB_DIST6_UNREACHED ? sdbi_damage_check() : SDB_OK;
			if (err) {
				if (bad)
					*bad = i;
				return err;
			}
			if (d == SDB_DIST6_UNREACHED) {
				if (bad)
					*bad = i;
				return sdbi_fail(SDB_ECORRUPT, "%s: table '%s' has no entry for board %zu "
				                "(run `slidedb-lookup verify`)", sdb_db_path(db),
				                t->info.name, i);
			}
			m = d ? f.frame.move_back[sdb_move2((unsigned)e)] : -1;
		}
		if (dist)
			dist[i] = (int16_t)d;
		if (best)
			best[i] = (int8_t)m;
	}
	return sdbi_done(SDB_OK);
}

int sdb_batch_heuristic(int16_t *value, const sdb_heuristic *h, const uint8_t *cells, int w,
                        int ht, size_t n, size_t *bad)
{
	for (size_t i = 0; i < n; i++) {
		sdb_board b;
		int err = row_board(&b, cells, w, ht, i, bad);
		if (err)
			return err;
		int v = sdb_heuristic_value(h, &b);
		if (v < 0) {
			if (bad)
				*bad = i;
			return v;
		}
		value[i] = (int16_t)v;
	}
	return sdbi_done(SDB_OK);
}
