/* SPDX-License-Identifier: MIT */
/* Symmetries of a W x H board that keep its size.
 *
 * Symmetry s is three bits: bit 2 transposes (square boards only), then bit 0
 * mirrors left-right and bit 1 mirrors top-bottom. Cells and move directions
 * are mapped by the same rule, so a move found on a mapped board is mapped
 * back by the inverse symmetry. The maps are tabled once at load time: the
 * answer path applies them to every query. */
#include "puzzle/puzzle.h"

enum {
	SIDE = 9,   /* sides 2..8 */
	/* every size's cell maps, size after size: w*h cells for each of its 4
	 * symmetries (8 when square); the sides sum to 35, the squares of the
	 * sides to 203. Packed, they are 2 pages: indexed [w][h][s][64], 10,
	 * and every process that loads the library touched them all. */
	MAPPED_CELLS = 4 * 35 * 35 + 4 * 203,
};

_Static_assert(SIDE == SDB_MAX_SIDE + 1, "MAPPED_CELLS counts sides 2..8");

static uint8_t cell_maps[MAPPED_CELLS];
static uint16_t maps_at[SIDE][SIDE];   /* where w x h's maps start; symmetry s at + s*w*h */
static uint8_t move_map[SIDE][SIDE][8][4];
static uint8_t representative[MAPPED_CELLS];   /* w x h's at maps_at[w][h] */

static inline uint8_t *cell_map(int w, int h, int s)
{
	return cell_maps + maps_at[w][h] + s * w * h;
}

int sdb_sym_count(int w, int h)
{
	return w == h ? 8 : 4;
}

static void map_xy(int w, int h, int s, int *x, int *y, int vector)
{
	if (s & 4) {
		int t = *x;
		*x = *y;
		*y = t;
	}
	if (s & 1)
		*x = vector ? -*x : w - 1 - *x;
	if (s & 2)
		*y = vector ? -*y : h - 1 - *y;
}

__attribute__((constructor)) static void symmetry_tables_init(void)
{
	static const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { -1, 1, 0, 0 };
	unsigned at = 0;
	for (int w = 2; w < SIDE; w++)
		for (int h = 2; h < SIDE; h++) {
			if (!sdb_board_size_valid(w, h))
				continue;
			maps_at[w][h] = (uint16_t)at;
			at += (unsigned)(sdb_sym_count(w, h) * w * h);
			for (int s = 0; s < sdb_sym_count(w, h); s++) {
				for (int c = 0; c < w * h; c++) {
					int x = c % w, y = c / w;
					map_xy(w, h, s, &x, &y, 0);
					cell_map(w, h, s)[c] = (uint8_t)(y * w + x);
				}
				for (int m = 0; m < 4; m++) {
					int x = dx[m], y = dy[m];
					map_xy(w, h, s, &x, &y, 1);
					for (int k = 0; k < 4; k++)
						if (dx[k] == x && dy[k] == y)
							move_map[w][h][s][m] = (uint8_t)k;
				}
			}
			for (int c = 0; c < w * h; c++) {
				int best = c;
				for (int s = 1; s < sdb_sym_count(w, h); s++)
					if (cell_map(w, h, s)[c] < best)
						best = cell_map(w, h, s)[c];
				representative[maps_at[w][h] + c] = (uint8_t)best;
			}
		}
}

const uint8_t *sdbi_sym_map_back(int w, int h, int s)
{
	/* Mirrors are their own inverses and commute. A transposition before
	 * mirror x is undone by transposing after it, which is mirroring y
	 * after a transposition: the inverse swaps the mirror bits. */
	const int inverse = s & 4 ? 4 | (s & 1) << 1 | (s & 2) >> 1 : s;
	return cell_map(w, h, inverse);
}

int sdb_sym_cell(int w, int h, int s, int cell)
{
	return cell_map(w, h, s)[cell];
}

int sdb_sym_move(int w, int h, int s, int move)
{
	return move_map[w][h][s][move];
}

void sdb_sym_board(sdb_board *out, const sdb_board *in, int s)
{
	const uint8_t *map = cell_map(in->w, in->h, s);
	if (out == in) {   /* in place: through a copy */
		sdb_board b = *in;
		sdb_sym_board(out, &b, s);
		return;
	}
	/* the cells only (a board is 68 bytes, a 3x3 uses 13 of them) */
	out->w = in->w;
	out->h = in->h;
	out->n = in->n;
	for (int c = 0; c < in->n; c++)
		out->cell[map[c]] = in->cell[c];
	out->blank = map[in->blank];
}

int sdb_sym_representative(int w, int h, int cell)
{
	return representative[maps_at[w][h] + cell];
}
