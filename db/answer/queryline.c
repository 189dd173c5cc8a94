/* SPDX-License-Identifier: MIT */
/* Query lines: which cells are the start, which the goal, and the board's
 * size. The one parser of what people type; every program uses it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"

/* Cells of a piece of text, shape unchecked; -1 if it does not read. */
static int cell_count(const char *text)
{
	sdbi_cells c;
	return sdbi_cells_scan(&c, text, 0) ? -1 : c.count;
}

/* Split a line without ';' into two boards when it is two whitespace-separated
 * words that are each a whole board ("123804765 541203786"): then the words
 * are cut in place, *a and *b set, and 2 returned; 3 for three or more such
 * words (an error), 0 otherwise (buf unchanged). */
static int split_words(char *buf, char **a, char **b)
{
	char *word[2] = { NULL, NULL }, *end[2] = { NULL, NULL };
	int nwords = 0;
	for (char *p = buf; *p;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		char *start = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		size_t n = (size_t)(p - start);
		/* a word is a whole board if it is compact (4+ characters) or has
		 * commas; one short number is not: stop at the first such word */
		if (n < 4 && !memchr(start, ',', n))
			return 0;
		char saved = *p;
		*p = '\0';
		int cells = cell_count(start);
		*p = saved;
		if (cells <= 1)
			return 0;
		if (nwords < 2) {
			word[nwords] = start;
			end[nwords] = p;
		}
		nwords++;
	}
	if (nwords != 2)
		return nwords >= 3 ? 3 : 0;
	*end[0] = '\0';
	*end[1] = '\0';
	*a = word[0];
	*b = word[1];
	return 2;
}

static int is_board_size(int n)
{
	for (int a = 2; a <= n / 2; a++)
		if (n % a == 0 && sdb_board_size_valid(a, n / a))
			return 1;
	return 0;
}

/* Whether the text is one word: a compact board, never two. */
static int is_compact(const char *text)
{
	text += strspn(text, " \t");
	size_t n = strcspn(text, " \t,");
	return n >= 4 && text[n + strspn(text + n, " \t")] == '\0';
}

/* The error err of one board of the query, its detail prefixed with the
 * board's role ("start", "goal"); SDB_OK stays. */
static int in_role(int err, const char *role)
{
	if (!err)
		return SDB_OK;
	char why[512];
	snprintf(why, sizeof why, "%s", sdb_error_detail());
	return sdbi_fail(err, "%s: %s", role, why);
}

/* A board of the query from cells, its errors prefixed with its role. */
static int make_board(sdb_board *b, const sdbi_cells *c, int w, int h, const char *role)
{
	return in_role(sdbi_board_from_cells(b, c, w, h), role);
}

/* The size of a start (and a goal, or NULL) from the start's count of cells,
 * after what is wrong with either board's tiles: a board without its blank
 * is told so, not that its count fits two sizes. */
static int infer_size(int *w, int *h, const uint8_t *start, int nstart, const uint8_t *goal,
                      int ngoal, const sdb_db *db)
{
	const sdbi_sizes have = db ? sdbi_db_sizes(db) : 0;
	int err = in_role(sdbi_cells_fault(start, nstart, have), "start");
	if (!err && goal)
		err = in_role(sdbi_cells_fault(goal, ngoal, have), "goal");
	return err ? err : sdbi_size_for_cells(w, h, start, nstart, have);
}

/* Split scanned cells after `first` cells into two, each with rows of
 * `rows_each` when the text had rows. */
static void split_cells(sdbi_cells *a, sdbi_cells *b, const sdbi_cells *all, int first,
                        int rows_each)
{
	*a = *all;
	a->count = first;
	*b = *all;
	b->count = all->count - first;
	memcpy(b->cell, all->cell + first, (size_t)b->count);
	a->rows = b->rows = all->cols ? rows_each : 0;
}

/* "START ; GOAL" or two whole-board words. */
static int parse_two(sdb_query *q, const char *ta, const char *tb, int w, int h,
                     const sdb_db *db)
{
	sdbi_cells a, b;
	const char *role = "start";
	int err = sdbi_cells_scan(&a, ta, 1);
	if (!err) {
		role = "goal";
		err = sdbi_cells_scan(&b, tb, 1);
	}
	if (err)
		return in_role(err, role);
	if (a.count != b.count)
		return sdbi_fail(SDB_EINVAL, "start has %d cells but goal has %d", a.count, b.count);
	if (!w && a.cols) {
		w = a.cols;
		h = a.rows;
	} else if (!w && b.cols) {
		w = b.cols;
		h = b.rows;
	} else if (!w && (err = infer_size(&w, &h, a.cell, a.count, b.cell, b.count, db))) {
		return err;
	}
	err = make_board(&q->start, &a, w, h, "start");
	return err ? err : make_board(&q->goal, &b, w, h, "goal");
}

/* Whether cells that could be one board of 2m cells or two of m are two:
 * one board of 2m cells holds tile 2m-1, two boards of m cells hold nothing
 * above m-1. */
static int two_boards(const sdbi_cells *c)
{
	int top = 0;
	for (int i = 0; i < c->count; i++)
		top = c->cell[i] > top ? c->cell[i] : top;
	return top < c->count / 2;
}

/* Rows of one text: one board, or a start's rows then a goal's. */
static int parse_rows(sdb_query *q, const sdbi_cells *c, int w, int h)
{
	int boards = 0;
	const int halves = c->rows % 2 == 0 && sdb_board_size_valid(c->cols, c->rows / 2);
	if (w)
		boards = c->cols != w ? 0 : c->rows == h ? 1 : c->rows == 2 * h ? 2 : 0;
	else if (sdb_board_size_valid(c->cols, c->rows))
		boards = halves && two_boards(c) ? 2 : 1;
	else if (halves)
		boards = 2;
	if (!boards) {
		if (w)
			return sdbi_fail(SDB_EINVAL, "%d rows of %d cells, but %dx%d has %d rows of %d "
			                "(or %d with a goal)", c->rows, c->cols, w, h, h, w, 2 * h);
		return sdbi_fail(SDB_EINVAL, "%d rows of %d cells are neither a board nor a start "
		                "and a goal", c->rows, c->cols);
	}
	if (boards == 1) {
		int err = make_board(&q->start, c, 0, 0, "start");
		return err ? err : sdb_board_goal(&q->goal, c->cols, c->rows, c->count - 1);
	}
	sdbi_cells a, b;
	split_cells(&a, &b, c, c->count / 2, c->rows / 2);
	int err = make_board(&q->start, &a, 0, 0, "start");
	return err ? err : make_board(&q->goal, &b, 0, 0, "goal");
}

/* One text without a separator: by rows, or by the count of cells. */
static int parse_one(sdb_query *q, const char *text, int w, int h, const sdb_db *db)
{
	sdbi_cells c;
	int err = sdbi_cells_scan(&c, text, 1);
	if (err)
		return err;
	if (c.cols)
		return parse_rows(q, &c, w, h);
	int count = c.count, nstart;
	if (w) {   /* size given: the cells are one board or two */
		nstart = count == 2 * w * h ? w * h : count;
		if (nstart != w * h)
			return sdbi_fail(SDB_EINVAL, "%d cells, but %dx%d has %d (or %d with a goal)",
			                count, w, h, w * h, 2 * w * h);
	} else {
		/* One board if the count is a board size, else two. When both fit
		 * (16 cells: 4x4, or two 2x4; 18: 3x6, or two 3x3), the cells
		 * decide (two_boards). A compact board is one board. */
		nstart = is_board_size(count) || count % 2 ? count : count / 2;
		if (nstart == count && count % 2 == 0 && is_board_size(count / 2) &&
		    !is_compact(text) && two_boards(&c))
			nstart = count / 2;
		if ((err = infer_size(&w, &h, c.cell, nstart, nstart < count ? c.cell + nstart : NULL,
		                      count - nstart, db)))
			return err;
	}
	sdbi_cells a, b;
	split_cells(&a, &b, &c, nstart, 0);
	if ((err = make_board(&q->start, &a, w, h, "start")))
		return err;
	if (nstart == count)
		return sdb_board_goal(&q->goal, w, h, w * h - 1);
	return make_board(&q->goal, &b, w, h, "goal");
}

int sdb_query_parse(sdb_query *q, const char *text, int w, int h, const sdb_db *db)
{
	/* (board by board: a memset of the pair is a `rep stos`, slow to start,
	 * on every query's path) */
	static const sdb_board none;
	q->start = none;
	q->goal = none;
	if ((w || h) && !sdb_board_size_valid(w, h))
		return sdbi_fail(SDB_EINVAL, "%dx%d is not a board slidedb models", w, h);
	/* A copy to cut in place; text of any length is read whole. */
	char local[1024], *buf = local, *a, *b;
	size_t len = strlen(text);
	if (len >= sizeof local && !(buf = malloc(len + 1)))
		return sdbi_fail(SDB_ENOMEM, "out of memory for a query of %zu bytes", len);
	memcpy(buf, text, len + 1);
	char *semi = strchr(buf, ';');
	int words = semi ? 0 : split_words(buf, &a, &b), err;
	if (words == 3 || (semi && strchr(semi + 1, ';'))) {
		err = sdbi_fail(SDB_EINVAL, "more than two boards: a query is a start and at most one "
		               "goal");
	} else if (semi) {
		*semi = '\0';
		err = parse_two(q, buf, semi + 1, w, h, db);
	} else if (words == 2) {
		err = parse_two(q, a, b, w, h, db);
	} else {
		err = parse_one(q, buf, w, h, db);
	}
	if (buf != local)
		free(buf);
	return sdbi_done(err);
}

int sdb_query_grid_row(const char *line, int w, int h)
{
	(void)h;
	/* A row is a few numbers or blank symbols of one or two characters: one
	 * pass over the line, no parse (this runs on every batch line). */
	int tokens = 0;
	size_t len = 0;
	for (const char *p = line;; p++) {
		int c = (unsigned char)*p;
		if (c == ' ' || c == '\t' || c == ',' || c == '\r' || c == '\0') {
			tokens += len > 0;
			len = 0;
			if (!c)
				break;
		} else if ((c >= '0' && c <= '9') || c == 'x' || c == 'X' || c == '_' || c == '.') {
			if (++len > 2)
				return 0;   /* a compact board, or not a tile */
		} else {
			return 0;   /* brackets, ';', letters: a whole query, or bad input */
		}
	}
	if (w)
		return tokens == w ? w : 0;
	return tokens == 2 || tokens == 3 ? tokens : 0;
}
