/* Answers: any (start, goal) pair from the full table of its size.
 *
 * A table is built for the canonical goal with the blank in a representative
 * cell. A query is brought to that form in two steps: a symmetry of the board
 * moves the goal's blank onto the representative, then the tiles are
 * relabelled so that the goal reads 1, 2, 3, ... Distances are unchanged by
 * both; moves come back through the inverse symmetry. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

enum { DIST_MASK = 0x3f, UNSEEN = 0x3f };

int sdb_table_name_full(char *buf, size_t cap, int w, int h, int blank_cell)
{
	int len = snprintf(buf, cap, "full-%dx%d-b%d", w, h, blank_cell);
	if (len < 0 || (size_t)len >= cap)
		return sdb_fail(SDB_EINVAL, "buffer too small for a table name");
	return len;
}

int sdb_table_distance(const sdb_table *t, const sdb_board *b)
{
	return t->data[sdb_rank(b)] & DIST_MASK;
}

int sdb_db_has_size(const sdb_db *db, int w, int h)
{
	for (int i = 0; i < sdb_table_count(db); i++) {
		const sdb_table_info *in = sdb_table_meta(sdb_table_at(db, i));
		if (in->kind == SDB_KIND_FULL && in->goal.w == w && in->goal.h == h)
			return 1;
	}
	return 0;
}

/* The table for goals like this one, or NULL with *err set. */
static const sdb_table *find_for_goal(const sdb_db *db, const sdb_board *goal, int *err)
{
	int w = goal->w, h = goal->h;
	if (goal->n > SDB_MAX_FULL_CELLS) {
		*err = sdb_fail(SDB_ETOOBIG, "%dx%d has %d cells: full tables stop at %d cells "
		         "(larger boards need pattern databases)", w, h, goal->n,
		         SDB_MAX_FULL_CELLS);
		return NULL;
	}
	const int rep = sdb_sym_representative(w, h, goal->blank);
	const sdb_table *t = NULL;
	for (int i = 0; i < sdb_table_count(db) && !t; i++) {   /* a handful of tables */
		const sdb_table *c = sdb_table_at(db, i);
		if (c->info.kind == SDB_KIND_FULL && c->info.goal.w == w && c->info.goal.h == h &&
		    c->blank == rep)
			t = c;
	}
	if (t && sdb_table_data(t))
		return t;
	if (t) {
		*err = SDB_ECORRUPT;   /* sdb_table_data() said why */
		return NULL;
	}
	if (sdb_db_has_size(db, w, h)) {
		char g[3 * SDB_MAX_CELLS];
		sdb_board_format(g, sizeof g, goal);
		*err = sdb_fail(SDB_ENOTFOUND, "%s: no %dx%d table for goals with the blank in cell %d: "
		         "build it with `slidedb-gen full %dx%d --goal '%s'`", sdb_db_path(db),
		         w, h, goal->blank, w, h, g);
	} else {
		*err = sdb_fail(SDB_ENOTFOUND, "%s: no table for %dx%d: build it with "
		         "`slidedb-gen full %dx%d`", sdb_db_path(db), w, h, w, h);
	}
	return NULL;
}

const sdb_table *sdb_table_for_goal(const sdb_db *db, const sdb_board *goal)
{
	int err;
	return find_for_goal(db, goal, &err);
}

/* Bring start to the table's frame: symmetry s, then goal-relative labels. */
static void to_table_frame(sdb_board *out, const sdb_board *start, const sdb_board *goal,
                           int s)
{
	sdb_board g, st;
	sdb_sym_board(&g, goal, s);
	sdb_sym_board(&st, start, s);
	uint8_t label[SDB_MAX_CELLS] = { 0 };
	for (int c = 0, next = 1; c < g.n; c++)
		if (g.cell[c])
			label[g.cell[c]] = (uint8_t)next++;
	*out = st;
	for (int c = 0; c < st.n; c++)
		out->cell[c] = label[st.cell[c]];
}

static int corrupt_path(const sdb_db *db, const sdb_table *t)
{
	return sdb_fail(SDB_ECORRUPT, "%s: table '%s' contradicts itself on the path (run "
	                "`slidedb-lookup verify`)", sdb_db_path(db), t->info.name);
}

/* Without the walk, check the start's entry against its neighbours: they are
 * all one move away, so their distances are d-1 or d+1, and the best move
 * leads to d-1. Any single damaged byte at the start breaks this. */
static int check_neighbours(const sdb_db *db, const sdb_table *t, const sdb_board *b, int d,
                            int best)
{
	if (d == 0)
		return sdb_rank(b) == t->goal_index ? SDB_OK : corrupt_path(db, t);
	unsigned moves = sdb_board_moves(b);
	for (int m = 0; m < 4; m++) {
		if (!(moves >> m & 1))
			continue;
		sdb_board n = *b;
		sdb_board_apply(&n, m);
		int dn = t->data[sdb_rank(&n)] & DIST_MASK;
		if ((dn != d - 1 && dn != d + 1) || (m == best && dn != d - 1))
			return corrupt_path(db, t);
	}
	return (moves >> best & 1) ? SDB_OK : corrupt_path(db, t);
}

int sdb_answer_begin(sdb_answer *a, const sdb_board *start, const sdb_board *goal)
{
	a->solvable = 0;
	a->distance = -1;
	a->best_move = -1;
	a->moves[0] = '\0';
	return sdb_board_solvable(start, goal);
}

int sdb_answer_query(sdb_answer *a, const sdb_db *db, const sdb_board *start,
                     const sdb_board *goal, int want_moves)
{
	int ok = sdb_answer_begin(a, start, goal);
	if (ok <= 0)
		return ok;   /* an error, or answered: unsolvable */
	int err = SDB_OK;
	const sdb_table *t = find_for_goal(db, goal, &err);
	if (!t)
		return err;
	int s = 0;
	while (sdb_sym_cell(goal->w, goal->h, s, goal->blank) != t->blank)
		s++;
	/* Moves on the mapped board come back through the inverse of s. */
	int back[4];
	for (int m = 0; m < 4; m++)
		back[sdb_sym_move(goal->w, goal->h, s, m)] = m;

	sdb_board cur;
	to_table_frame(&cur, start, goal, s);
	const uint8_t *data = t->data;
	uint64_t index = sdb_rank(&cur);
	uint8_t e = data[index];
	int d = e & DIST_MASK;
	if (d == UNSEEN)
		return sdb_fail(SDB_ECORRUPT, "%s: table '%s' has no entry for a reachable "
		                "state (run `slidedb-lookup verify`)", sdb_db_path(db), t->info.name);
	a->solvable = 1;
	a->distance = d;
	a->best_move = d ? back[e >> 6] : -1;
	if (!want_moves)
		return check_neighbours(db, t, &cur, d, e >> 6);
	/* Walk the best moves. A horizontal move keeps the tile order, so its
	 * index is one block away; only vertical moves rank the board. */
	const uint64_t block = t->info.states / cur.n;
	for (int k = 0; k < d; k++) {
		int m = data[index] >> 6;
		if (sdb_board_apply(&cur, m) != 0) {
			a->moves[0] = '\0';
			return corrupt_path(db, t);
		}
		if (m == SDB_LEFT)
			index -= block;
		else if (m == SDB_RIGHT)
			index += block;
		else
			index = sdb_rank(&cur);
		if ((data[index] & DIST_MASK) != d - k - 1) {
			a->moves[0] = '\0';
			return corrupt_path(db, t);
		}
		a->moves[k] = sdb_move_letter(back[m]);
	}
	if (index != t->goal_index) {
		a->moves[0] = '\0';
		return corrupt_path(db, t);
	}
	a->moves[d] = '\0';
	return SDB_OK;
}
