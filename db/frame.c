/* Frames: how a goal is brought onto the canonical goal of its class (a
 * symmetry of the board, then labels that make the goal read 1, 2, 3, ...),
 * and how moves go back. The one place this idea is written; full tables,
 * pattern sets, heuristics and the generator all use it. */
#include <string.h>

#include "internal.h"

int sdb_frame_init(sdb_frame *f, const sdb_board *goal, int rep)
{
	const int w = goal->w, h = goal->h, nsym = sdb_sym_count(w, h);
	int s = 0;
	while (s < nsym && sdb_sym_cell(w, h, s, goal->blank) != rep)
		s++;
	if (s == nsym)
		return sdb_fail(SDB_EINVAL, "no symmetry of %dx%d moves cell %d onto cell %d", w, h,
		                goal->blank, rep);
	memset(f, 0, sizeof *f);
	f->w = (uint8_t)w;
	f->h = (uint8_t)h;
	f->sym = (uint8_t)s;
	f->rep = (uint8_t)rep;
	sdb_board g;
	sdb_sym_board(&g, goal, s);
	for (int c = 0, next = 1; c < g.n; c++)
		if (g.cell[c])
			f->label[g.cell[c]] = (uint8_t)next++;
	for (int m = 0; m < 4; m++) {
		int fm = sdb_sym_move(w, h, s, m);
		f->move_in[m] = (uint8_t)fm;
		f->move_back[fm] = (uint8_t)m;
	}
	return SDB_OK;
}

void sdb_frame_board(const sdb_frame *f, sdb_board *out, const sdb_board *in)
{
	sdb_board s;
	sdb_sym_board(&s, in, f->sym);
	*out = s;
	for (int c = 0; c < s.n; c++)
		out->cell[c] = f->label[s.cell[c]];
}
