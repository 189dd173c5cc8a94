/* Symmetries of a W x H board that keep its size.
 *
 * Symmetry s is three bits: bit 2 transposes (square boards only), then bit 0
 * mirrors left-right and bit 1 mirrors top-bottom. Cells and move directions
 * are mapped by the same rule, so a move found on a mapped board is mapped
 * back by the inverse symmetry. */
#include "internal.h"

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

int sdb_sym_cell(int w, int h, int s, int cell)
{
	int x = cell % w, y = cell / w;
	map_xy(w, h, s, &x, &y, 0);
	return y * w + x;
}

int sdb_sym_move(int w, int h, int s, int move)
{
	static const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { -1, 1, 0, 0 };
	int x = dx[move], y = dy[move];
	map_xy(w, h, s, &x, &y, 1);
	for (int m = 0; m < 4; m++)
		if (dx[m] == x && dy[m] == y)
			return m;
	return -1;   /* not reached: the four directions map onto themselves */
}

void sdb_sym_board(sdb_board *out, const sdb_board *in, int s)
{
	sdb_board b = *in;
	for (int c = 0; c < in->n; c++)
		b.cell[sdb_sym_cell(in->w, in->h, s, c)] = in->cell[c];
	b.blank = (uint8_t)sdb_sym_cell(in->w, in->h, s, in->blank);
	*out = b;
}

int sdb_sym_representative(int w, int h, int cell)
{
	int best = cell;
	for (int s = 1; s < sdb_sym_count(w, h); s++) {
		int c = sdb_sym_cell(w, h, s, cell);
		if (c < best)
			best = c;
	}
	return best;
}
