/* Batches: many boards of one size against one goal, as arrays of cells
 * (what NumPy, the Python package and other languages' bindings hand over).
 * The table and its frame are found once per batch, not once per board, and
 * nothing is allocated: a batch of full-table distances is a rank and a
 * byte read per board. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

enum { DIST_MASK = 0x3f, UNSEEN = 0x3f };

int sdb_cells_size(int *w, int *h, int count, const sdb_db *db)
{
	return sdb_done(sdb_size_for_cells(w, h, count, db));
}

/* The board of row i, or the row's failure with its index in the detail. */
static int row_board(sdb_board *b, const uint8_t *cells, int w, int h, size_t i, size_t *bad)
{
	if (sdb_board_set(b, w, h, cells + i * (size_t)(w * h)) == SDB_OK)
		return SDB_OK;
	char why[256];
	snprintf(why, sizeof why, "%s", sdb_errdetail());
	if (bad)
		*bad = i;
	return sdb_fail(SDB_EINVAL, "board %zu: %s", i, why);
}

/* Boards the answer call answers one by one: searches (over 12 cells) and
 * two-bit tables (a walk per board). */
static int batch_by_answers(int16_t *dist, int8_t *best, const sdb_db *db,
                            const sdb_board *goal, const uint8_t *cells, size_t n,
                            const sdb_solve_limits *limits, size_t *bad)
{
	sdb_answer_opts opts = { .want_moves = 0 };
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
	return sdb_done(SDB_OK);
}

int sdb_batch_distance(int16_t *dist, int8_t *best, const sdb_db *db, const sdb_board *goal,
                       const uint8_t *cells, size_t n, const sdb_solve_limits *limits,
                       size_t *bad)
{
	/* Without a byte table the answer call decides, board by board, what
	 * answers (a search, a two-bit table) or says which table is missing. */
	int err = SDB_OK;
	const sdb_table *t = goal->n > SDB_MAX_FULL_CELLS ? NULL : sdb_find_for_goal(db, goal, &err);
	if (!t || t->info.entry_format == SDB_ENTRY_MOD3)
		return batch_by_answers(dist, best, db, goal, cells, n, limits, bad);
	sdb_frame frame;
	sdb_frame_init(&frame, goal, t->blank);
	sdb_board g;
	sdb_frame_board(&frame, &g, goal);
	/* A start reaches the goal exactly when it is in the goal's parity
	 * class, which the frame keeps (a symmetry and a relabelling). */
	const int cls = sdb_rank_class(&g);
	const uint8_t *data = t->data;
	for (size_t i = 0; i < n; i++) {
		sdb_board b, cur;
		if ((err = row_board(&b, cells, goal->w, goal->h, i, bad)))
			return err;
		sdb_frame_board(&frame, &cur, &b);
		int d = -1, m = -1;
		if (sdb_rank_class(&cur) == cls) {
			const uint8_t e = data[sdb_rank(&cur)];
			d = e & DIST_MASK;
			if (d == UNSEEN) {
				if (bad)
					*bad = i;
				return sdb_fail(SDB_ECORRUPT, "%s: table '%s' has no entry for board %zu "
				                "(run `slidedb-lookup verify`)", sdb_db_path(db),
				                t->info.name, i);
			}
			m = d ? frame.move_back[e >> 6] : -1;
		}
		if (dist)
			dist[i] = (int16_t)d;
		if (best)
			best[i] = (int8_t)m;
	}
	return sdb_done(SDB_OK);
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
	return sdb_done(SDB_OK);
}
