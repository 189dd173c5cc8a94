/* SPDX-License-Identifier: MIT */
/* Frames: how a goal is brought onto the canonical goal of its class (a
 * symmetry of the board, then labels that make the goal read 1, 2, 3, ...),
 * and how moves go back. The one place this idea is written; full tables,
 * pattern sets, heuristics and the generator all use it. */
#include <string.h>

#include "puzzle/puzzle.h"

int sdb_frame_init(sdb_frame *f, const sdb_board *goal, int rep)
{
	const int w = goal->w, h = goal->h, nsym = sdb_sym_count(w, h);
	int s = 0;
	while (s < nsym && sdb_sym_cell(w, h, s, goal->blank) != rep)
		s++;
	if (s == nsym)
		return sdbi_fail(SDB_EINVAL, "no symmetry of %dx%d moves cell %d onto cell %d", w, h,
		                goal->blank, rep);
	/* the fields, not a memset of the 64-cell maps: this is on every
	 * query's path, and only the board's n labels are ever read */
	f->label[0] = f->unlabel[0] = 0;
	f->w = (uint8_t)w;
	f->h = (uint8_t)h;
	f->sym = (uint8_t)s;
	f->rep = (uint8_t)rep;
	/* The goal's tiles in the frame's cell order get labels 1, 2, ...: read
	 * through the inverse map, not written through the map and read back
	 * (each read would follow a store whose address comes from a load: a
	 * pipeline flush when the read runs first, on every query's path) */
	const uint8_t *from = sdbi_sym_map_back(w, h, s);
	for (int c = 0, next = 1; c < goal->n; c++) {
		const int t = goal->cell[from[c]];
		if (t) {
			f->label[t] = (uint8_t)next;
			f->unlabel[next++] = (uint8_t)t;
		}
	}
	for (int m = 0; m < 4; m++) {
		int fm = sdb_sym_move(w, h, s, m);
		f->move_in[m] = (uint8_t)fm;
		f->move_back[fm] = (uint8_t)m;
	}
	return SDB_OK;
}

void sdb_frame_board(const sdb_frame *f, sdb_board *out, const sdb_board *in)
{
	sdb_sym_board(out, in, f->sym);
	for (int c = 0; c < out->n; c++)
		out->cell[c] = f->label[out->cell[c]];
}

void sdb_frame_unboard(const sdb_frame *f, sdb_board *out, const sdb_board *in)
{
	*out = *in;
	for (int c = 0; c < in->n; c++) {
		out->cell[c] = f->unlabel[in->cell[sdb_sym_cell(f->w, f->h, f->sym, c)]];
		if (!out->cell[c])
			out->blank = (uint8_t)c;
	}
}

void sdb_frame_goal(sdb_board *b, int w, int h, int rep)
{
	int last = w * h - 1;
	sdb_board_goal(b, w, h, sdb_sym_representative(w, h, last) == rep ? last : rep);
}

/* Tiles of the canonical goal (labels) as tiles of the ordered goal. */
static uint64_t ordered_tiles(const sdb_table_info *in, uint64_t labels)
{
	sdb_board ordered;
	sdb_frame f;
	sdb_frame_goal(&ordered, in->goal.w, in->goal.h, in->goal.blank);
	sdb_frame_init(&f, &ordered, in->goal.blank);
	uint64_t tiles = 0;
	for (int t = 1; t < in->goal.n; t++)
		if (labels >> f.label[t] & 1)
			tiles |= 1ull << t;
	return tiles;
}

int sdb_table_tiles(uint64_t *tiles, uint64_t *left_out, sdb_board *goal,
                    const sdb_table_info *in)
{
	if (in->kind != SDB_KIND_PATTERN)
		return sdbi_fail(SDB_EINVAL, "table '%s' is not a pattern table", in->name);
	const uint64_t all = sdbi_tiles_all(in->goal.n);
	sdb_frame_goal(goal, in->goal.w, in->goal.h, in->goal.blank);
	*tiles = ordered_tiles(in, in->pattern);
	*left_out = all & ~ordered_tiles(in, in->set_tiles);
	return sdbi_done(SDB_OK);
}
