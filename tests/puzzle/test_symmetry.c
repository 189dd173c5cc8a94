/* SPDX-License-Identifier: MIT */
/* Board symmetries: each maps cells one-to-one, keeps adjacency, and maps
 * moves consistently with cells; distances are invariant under them. */
#include <criterion/criterion.h>
#include "kit/boards.h"
#include "kit/oracle.h"

Test(symmetry, counts_and_bijections)
{
	for (int w = 2; w <= 4; w++)
		for (int h = 2; h <= 4; h++) {
			int ns = sdb_sym_count(w, h);
			cr_assert_eq(ns, w == h ? 8 : 4);
			for (int s = 0; s < ns; s++) {
				unsigned hit = 0;
				for (int c = 0; c < w * h; c++) {
					int d = sdb_sym_cell(w, h, s, c);
					cr_assert(d >= 0 && d < w * h);
					hit |= 1u << d;
				}
				cr_assert_eq(hit, (1u << (w * h)) - 1, "symmetry %d of %dx%d not onto", s, w, h);
			}
		}
}

/* Moving the blank then mapping the board equals mapping then moving the
 * mapped direction. */
Test(symmetry, moves_commute_with_cells)
{
	const int sizes[][2] = { { 3, 3 }, { 3, 4 }, { 2, 5 }, { 4, 4 }, { 6, 2 } };
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		int w = sizes[k][0], h = sizes[k][1];
		for (int s = 0; s < sdb_sym_count(w, h); s++)
			for (int c = 0; c < w * h; c++) {
				sdb_board b, mb;
				sdb_board_goal(&b, w, h, c);
				sdb_sym_board(&mb, &b, s);
				cr_assert_eq(mb.blank, sdb_sym_cell(w, h, s, c));
				for (int m = 0; m < 4; m++) {
					sdb_board moved = b, mapped_moved = mb;
					int ok = sdb_board_apply(&moved, m) == 0;
					int ok2 = sdb_board_apply(&mapped_moved, sdb_sym_move(w, h, s, m)) == 0;
					cr_assert_eq(ok, ok2);
					if (!ok)
						continue;
					sdb_board check;
					sdb_sym_board(&check, &moved, s);
					cr_assert(sdb_board_equal(&check, &mapped_moved));
				}
			}
	}
}

Test(symmetry, representatives)
{
	/* 3x3: corners -> 0, edges -> 1, centre -> 4 */
	const int want3[9] = { 0, 1, 0, 1, 4, 1, 0, 1, 0 };
	for (int c = 0; c < 9; c++)
		cr_assert_eq(sdb_sym_representative(3, 3, c), want3[c]);
	/* 3x4 (3 columns, 4 rows): 4 classes */
	int classes = 0;
	for (int c = 0; c < 12; c++)
		classes += sdb_sym_representative(3, 4, c) == c;
	cr_assert_eq(classes, 4);
	classes = 0;
	for (int c = 0; c < 12; c++)
		classes += sdb_sym_representative(2, 6, c) == c;
	cr_assert_eq(classes, 3);
}

/* Distances are the same after a symmetry maps both boards. */
Test(symmetry, distances_invariant)
{
	sdb_board goal;
	sdb_board_goal(&goal, 3, 3, 8);
	simple_bfs s;
	simple_bfs_run(&s, &goal);
	unsigned seed = 7;
	for (int sym = 0; sym < 8; sym++) {
		sdb_board mg;
		sdb_sym_board(&mg, &goal, sym);
		simple_bfs ms;
		simple_bfs_run(&ms, &mg);
		for (int k = 0; k < 2000; k++) {
			sdb_board b, mb;
			tk_random_walk(&b, &goal, 60, &seed);
			sdb_sym_board(&mb, &b, sym);
			cr_assert_eq(simple_bfs_dist(&ms, &mb), simple_bfs_dist(&s, &b));
		}
		simple_bfs_free(&ms);
	}
	simple_bfs_free(&s);
}

/* A frame brings its goal onto the canonical one: through every symmetry
 * that moves the goal's blank, on every size up to 8x8 and with the tiles
 * shuffled, the goal seen in the frame reads 1, 2, 3, ... in cell order
 * with the blank on the cell asked for, and the frame takes it back. */
Test(symmetry, frames_read_their_goal_in_order)
{
	unsigned seed = 7;
	for (int w = 2; w <= 8; w++)
		for (int h = 2; h <= 8; h++)
			for (int blank = 0; blank < w * h; blank++) {
				sdb_board goal;
				cr_assert_eq(sdb_board_goal(&goal, w, h, blank), 0);
				for (int c = goal.n - 1; c > 0; c--) {   /* shuffle the tiles */
					const int d = (int)(rand_r(&seed) % (unsigned)(c + 1));
					if (c != blank && d != blank) {
						const uint8_t t = goal.cell[c];
						goal.cell[c] = goal.cell[d];
						goal.cell[d] = t;
					}
				}
				for (int s = 0; s < sdb_sym_count(w, h); s++) {
					const int rep = sdb_sym_cell(w, h, s, blank);
					sdb_frame f;
					cr_assert_eq(sdb_frame_init(&f, &goal, rep), 0);
					sdb_board in, back;
					sdb_frame_board(&f, &in, &goal);
					cr_assert_eq(in.blank, rep, "%dx%d blank %d symmetry %d", w, h, blank, s);
					for (int c = 0, next = 1; c < in.n; c++)
						if (c != rep)
							cr_assert_eq(in.cell[c], next++, "%dx%d blank %d symmetry %d: "
							             "cell %d", w, h, blank, s, c);
					sdb_frame_unboard(&f, &back, &in);
					cr_assert_eq(memcmp(back.cell, goal.cell, (size_t)goal.n), 0);
					cr_assert_eq(back.blank, goal.blank);
				}
			}
}
