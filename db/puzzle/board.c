/* SPDX-License-Identifier: MIT */
/* The board model: sizes, parsing every notation users bring, formatting,
 * moves and the solvability test. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "puzzle/puzzle.h"

int sdb_board_size_valid(int w, int h)
{
	return w >= 2 && h >= 2 && w <= SDB_MAX_SIDE && h <= SDB_MAX_SIDE;
}

/* A side of a size: digits only, read without overflow (anything past two
 * digits is too large anyway); -1 if not digits. */
static long size_side(const char *p, const char **end)
{
	long v = 0;
	const char *start = p;
	for (; isdigit((unsigned char)*p); p++)
		v = v < 1000 ? v * 10 + (*p - '0') : v;
	*end = p;
	return p == start ? -1 : v;
}

int sdb_board_size_parse(int *w, int *h, const char *text)
{
	const char *end;
	long a = size_side(text, &end);
	if (a < 0 || (*end != 'x' && *end != 'X'))
		return sdbi_fail(SDB_EINVAL, "size '%s' is not of the form WxH (e.g. 3x3)", text);
	long b = size_side(end + 1, &end);
	if (b < 0 || *end != '\0')
		return sdbi_fail(SDB_EINVAL, "size '%s' is not of the form WxH (e.g. 3x3)", text);
	if (!sdb_board_size_valid((int)a, (int)b))
		return sdbi_fail(SDB_EINVAL, "size '%s' is not a board slidedb models "
		                "(2 <= W, H <= %d)", text, SDB_MAX_SIDE);
	*w = (int)a;
	*h = (int)b;
	return SDB_OK;
}

static int is_blank_char(int c)
{
	return c == 'x' || c == 'X' || c == '_' || c == '.';
}

/* Value of one character of the compact notation, or -1: digits, then the
 * letters a..w (either case) for tiles 10..32. x is the blank, so the
 * notation ends at tile 32 (boards of up to 33 cells: 5x5, 4x8, 5x6). */
static int compact_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (is_blank_char(c))
		return 0;
	c = tolower(c);
	if (c >= 'a' && c <= 'a' + SDB_COMPACT_MAX_TILE - 10)
		return c - 'a' + 10;
	return -1;
}

/* A token of 4 or more characters is a compact board: no board has fewer
 * cells, and no tile number has more than 2 digits. */
enum { COMPACT_MIN = 4, MAX_DEPTH = 8 };

/* Append the cells of one token: a number, a blank character, or (4 or more
 * characters) a whole compact board. */
static int parse_token(sdbi_cells *c, const char *tok, size_t len)
{
	if (len >= COMPACT_MIN) {
		for (size_t i = 0; i < len; i++) {
			int v = compact_value((unsigned char)tok[i]);
			if (v < 0)
				return sdbi_fail(SDB_EINVAL, "unknown character '%c' in '%.*s'",
				                tok[i], (int)len, tok);
			if (c->count >= SDBI_CELLS_CAP)
				return sdbi_fail(SDB_EINVAL, "more than %d cells", SDBI_CELLS_CAP);
			c->cell[c->count++] = (uint8_t)v;
		}
		return SDB_OK;
	}
	int v = 0;
	if (!(len == 1 && is_blank_char((unsigned char)tok[0]))) {
		for (size_t i = 0; i < len; i++) {
			if (tok[i] < '0' || tok[i] > '9')
				return sdbi_fail(SDB_EINVAL, "unknown notation '%.*s' (tiles are "
				                "numbers, the blank is 0, x, X, _ or .)", (int)len, tok);
			v = v * 10 + (tok[i] - '0');
		}
		if (v >= SDB_MAX_CELLS)
			return sdbi_fail(SDB_EINVAL, "tile %d is out of range (the largest board, "
			                "%dx%d, has tiles 1..%d)", v, SDB_MAX_SIDE, SDB_MAX_SIDE,
			                SDB_MAX_CELLS - 1);
	}
	if (c->count >= SDBI_CELLS_CAP)
		return sdbi_fail(SDB_EINVAL, "more than %d cells", SDBI_CELLS_CAP);
	c->cell[c->count++] = (uint8_t)v;
	return SDB_OK;
}

/* Rows as nested brackets or lines: how many, the first one's length, and
 * the first that differs from it (for the message). */
typedef struct rows {
	int n, first, odd, odd_len;
	int outside;   /* cells that belong to no bracket row */
} rows;

static void add_row(rows *r, int len)
{
	if (len <= 0)
		return;
	if (r->n == 0)
		r->first = len;
	else if (len != r->first && !r->odd) {
		r->odd = r->n + 1;
		r->odd_len = len;
	}
	r->n++;
}

/* The shape the rows give: every row the same length. */
static int shape_of(sdbi_cells *c, const rows *r, const char *how)
{
	if (r->odd)
		return sdbi_fail(SDB_EINVAL, "rows of unequal length: %s %d has %d cell%s, %s 1 has %d",
		                how, r->odd, r->odd_len, r->odd_len == 1 ? "" : "s", how, r->first);
	c->cols = r->first;
	c->rows = r->n;
	return SDB_OK;
}

/* What a character is to the scanner: one table read on the hot path. */
enum { C_TOKEN = 0, C_SPACE = 1, C_OPEN = 2, C_CLOSE = 3, C_NEWLINE = 4 };
static const uint8_t char_class[256] = {
	[' '] = C_SPACE, ['\t'] = C_SPACE, ['\r'] = C_SPACE, ['\v'] = C_SPACE, ['\f'] = C_SPACE,
	[','] = C_SPACE, ['\n'] = C_NEWLINE,
	['['] = C_OPEN, ['('] = C_OPEN, ['{'] = C_OPEN,
	[']'] = C_CLOSE, [')'] = C_CLOSE, ['}'] = C_CLOSE,
};

/* The bracket that closes an opening one: a row opened with '(' and closed
 * with ']' is a typing slip, not a shape. */
static int closer_of(char open)
{
	return open == '(' ? ')' : open == '[' ? ']' : '}';
}

int sdbi_cells_scan(sdbi_cells *c, const char *text, int check_shape)
{
	c->count = c->cols = c->rows = 0;
	int ntokens = 0, depth = 0, line_start = 0;
	int group_start[MAX_DEPTH + 1], has_child[MAX_DEPTH + 1];
	char opened[MAX_DEPTH + 1];   /* the bracket that opened each level */
	rows brackets = { 0 }, lines = { 0 };
	const char *compact = NULL;
	size_t compact_len = 0;
	for (const unsigned char *p = (const unsigned char *)text; *p;) {
		switch (char_class[*p]) {
		case C_SPACE:
			p++;
			continue;
		case C_NEWLINE:
			add_row(&lines, c->count - line_start);
			line_start = c->count;
			p++;
			continue;
		case C_OPEN:
			if (depth == MAX_DEPTH)
				return sdbi_fail(SDB_EINVAL, "brackets nested more than %d deep", MAX_DEPTH);
			if (depth > 0)
				has_child[depth] = 1;
			depth++;
			opened[depth] = (char)*p;
			group_start[depth] = c->count;
			has_child[depth] = 0;
			p++;
			continue;
		case C_CLOSE:
			if (depth == 0)
				return sdbi_fail(SDB_EINVAL, "'%c' closes no bracket", *p);
			if (*p != closer_of(opened[depth]))
				return sdbi_fail(SDB_EINVAL, "'%c' is closed by '%c' (brackets pair as (), [] "
				                "and {})", opened[depth], *p);
			if (!has_child[depth])   /* an innermost group: a row */
				add_row(&brackets, c->count - group_start[depth]);
			depth--;
			p++;
			continue;
		}
		const char *tok = (const char *)p;
		while (*p && char_class[*p] == C_TOKEN)
			p++;
		size_t len = (size_t)((const char *)p - tok);
		ntokens++;
		if (len >= COMPACT_MIN) {
			compact = tok;
			compact_len = len;
		}
		if (compact && ntokens > 1) {   /* a compact board must stand alone */
			int shown = compact_len > 16 ? 16 : (int)compact_len;
			int digits = strspn(compact, "0123456789") >= compact_len;
			return sdbi_fail(SDB_EINVAL, "'%.*s%s' mixes the compact notation with "
			                "separated numbers%s", shown, compact, compact_len > 16 ? "..." : "",
			                digits ? " (or is a tile number out of range)" : "");
		}
		if (depth == 0)
			brackets.outside++;
		int err = parse_token(c, tok, len);
		if (err)
			return err;
	}
	if (depth)
		return sdbi_fail(SDB_EINVAL, "an open bracket is not closed");
	if (ntokens == 0)
		return sdbi_fail(SDB_EINVAL, "empty board");
	add_row(&lines, c->count - line_start);
	if (!check_shape)
		return SDB_OK;
	/* One bracket level, or one group, is only punctuation; two or more
	 * innermost groups are rows, and then every cell must be in one. */
	if (brackets.n >= 2) {
		if (brackets.outside)
			return sdbi_fail(SDB_EINVAL, "cells outside the bracketed rows");
		return shape_of(c, &brackets, "row");
	}
	if (lines.n >= 2 && !compact)
		return shape_of(c, &lines, "line");
	return SDB_OK;
}

int sdb_board_cells_parse(uint8_t *cells, int *count, int cap, const char *text)
{
	sdbi_cells c;
	*count = 0;
	int err = sdbi_cells_scan(&c, text, 0);
	if (err)
		return err;
	if (c.count > cap)
		return sdbi_fail(SDB_EINVAL, "more than %d cells", cap);
	memcpy(cells, c.cell, (size_t)c.count);
	*count = c.count;
	return sdbi_done(SDB_OK);
}

/* Append item i of n to a list being written into buf ("a", "a and b",
 * "a, b and c"). */
static void list_item(char *buf, size_t cap, size_t *len, int i, int n, const char *item)
{
	if (*len >= cap)
		return;
	int wrote = snprintf(buf + *len, cap - *len, "%s%s",
	                     i == 0 ? "" : i + 1 < n ? ", " : " and ", item);
	*len += wrote > 0 ? (size_t)wrote : 0;
}

/* The tiles below top missing from seen, as a message. */
static int missing_tiles(uint64_t seen, int top)
{
	enum { SHOWN = 4 };
	int missing[SDB_MAX_CELLS], n = 0;
	for (int t = 1; t < top; t++)
		if (!(seen >> t & 1))
			missing[n++] = t;
	char list[64], item[16];
	size_t len = 0;
	for (int i = 0; i < n && i < SHOWN; i++) {
		if (i + 1 == SHOWN && n > SHOWN)
			snprintf(item, sizeof item, "%d more", n - i);
		else
			snprintf(item, sizeof item, "%d", missing[i]);
		list_item(list, sizeof list, &len, i, n < SHOWN ? n : SHOWN, item);
	}
	return sdbi_fail(SDB_EINVAL, "tile%s %s %s missing (the tiles go up to %d)", n == 1 ? "" : "s",
	                list, n == 1 ? "is" : "are", top);
}

/* What is wrong with the tiles of cells[0..count) as one board of w x h, or
 * (w = 0) of a size not known yet: the first fault in this order, which names
 * the cause rather than a consequence: a tile out of range, more than one
 * blank, a tile twice, no blank, and (size unknown) a tile missing below the
 * largest. The one owner of these messages. SDB_EINVAL, or SDB_OK. */
static int tiles_fault(const uint8_t *cells, int count, int w, int h)
{
	const int n = w ? w * h : SDB_MAX_CELLS;
	uint64_t seen = 0;
	int blanks = 0, twice = 0, top = 0;
	for (int i = 0; i < count; i++) {
		const int v = cells[i];
		if (v >= n && w)
			return sdbi_fail(SDB_EINVAL, "tile %d is out of range 1..%d for %dx%d", v, n - 1,
			                w, h);
		if (v >= n)
			return sdbi_fail(SDB_EINVAL, "tile %d is out of range (the largest board, %dx%d, "
			                "has tiles 1..%d)", v, SDB_MAX_SIDE, SDB_MAX_SIDE, n - 1);
		blanks += v == 0;
		if (v && (seen >> v & 1) && !twice)
			twice = v;
		seen |= 1ull << v;
		top = v > top ? v : top;
	}
	if (blanks > 1)
		return sdbi_fail(SDB_EINVAL, "more than one blank");
	if (twice)
		return sdbi_fail(SDB_EINVAL, "tile %d appears twice", twice);
	if (!blanks)
		return sdbi_fail(SDB_EINVAL, "no blank (0, x or _)");
	return top >= count ? missing_tiles(seen, top) : SDB_OK;
}

int sdb_board_set(sdb_board *b, int w, int h, const uint8_t *cells)
{
	if (!sdb_board_size_valid(w, h))
		return sdbi_fail(SDB_EINVAL, "%dx%d is not a board slidedb models", w, h);
	int n = w * h, blank = -1;
	uint64_t seen = 0;
	/* Built aside and copied whole (b is left as it was on an error): a
	 * copy of n bytes would be a `rep movs`, slow to start for a few
	 * dozen, and this is on every query's path. A fault is only found
	 * here; tiles_fault() names it. */
	sdb_board t;
	memset(&t, 0, sizeof t);
	for (int i = 0; i < n; i++) {
		int v = cells[i];
		t.cell[i] = (uint8_t)v;
		if (v >= n || (seen >> v & 1))   /* (the cells read so far hold it) */
			return tiles_fault(cells, i + 1, w, h);
		seen |= 1ull << v;
		if (v == 0)
			blank = i;
	}
	if (blank < 0)
		return tiles_fault(cells, n, w, h);
	t.w = (uint8_t)w;
	t.h = (uint8_t)h;
	t.n = (uint8_t)n;
	t.blank = (uint8_t)blank;
	*b = t;
	return SDB_OK;
}

/* The sizes a count of cells fits (fits, *nfit) and whether one is settled
 * (*w, *h): the square, else the only size, else the only one in have. */
static int count_settles(int *w, int *h, int fits[][2], int *nfit, int count, sdbi_sizes have)
{
	int with_table = 0;
	*nfit = 0;
	for (int a = 2; a <= count / 2; a++) {
		if (count % a || !sdb_board_size_valid(a, count / a))
			continue;
		if (a * a == count) {
			*w = *h = a;
			return 1;
		}
		fits[*nfit][0] = a;
		fits[*nfit][1] = count / a;
		++*nfit;
		if (have & sdbi_size_bit(a, count / a)) {
			with_table++;
			*w = a;
			*h = count / a;
		}
	}
	if (*nfit == 1) {
		*w = fits[0][0];
		*h = fits[0][1];
	}
	return *nfit == 1 || with_table == 1;
}

int sdbi_cells_fault(const uint8_t *cells, int count, sdbi_sizes have)
{
	int fits[SDB_MAX_CELLS][2], nfit, w, h;
	return count_settles(&w, &h, fits, &nfit, count, have) ? SDB_OK
	       : tiles_fault(cells, count, 0, 0);
}

/* When cells are the tiles 0..count-1 of a count that is one short of a
 * square board, what that board lacks: a board typed without its last tile
 * reads as a smaller size, or as none. */
static void square_hint(char *buf, size_t cap, const uint8_t *cells, int count)
{
	buf[0] = '\0';
	int side = 2;
	while (side < SDB_MAX_SIDE && side * side < count + 1)
		side++;
	if (!cells || side * side != count + 1)
		return;
	uint64_t seen = 0;
	for (int i = 0; i < count; i++)
		seen |= cells[i] < count ? 1ull << cells[i] : 0;
	if (seen == (count >= 64 ? ~0ull : (1ull << count) - 1))
		snprintf(buf, cap, "for %dx%d, tile %d is missing", side, side, count);
}

int sdbi_size_for_cells(int *w, int *h, const uint8_t *cells, int count, sdbi_sizes have)
{
	int fits[SDB_MAX_CELLS][2], nfit;
	if (count_settles(w, h, fits, &nfit, count, have))
		return SDB_OK;
	char hint[64];
	square_hint(hint, sizeof hint, cells, count);
	if (nfit == 0)
		return sdbi_fail(SDB_EINVAL, "%d cell%s is not a board size (W x H cells with 2 <= W, "
		                "H <= %d)%s%s", count, count == 1 ? "" : "s", SDB_MAX_SIDE,
		                *hint ? "; " : "", hint);
	char list[128], item[8];
	size_t len = 0;
	for (int i = 0; i < nfit; i++) {
		snprintf(item, sizeof item, "%dx%d", fits[i][0], fits[i][1]);
		list_item(list, sizeof list, &len, i, nfit, item);
	}
	return sdbi_fail(SDB_EAMBIGUOUS, "%d cells fit %s: give the size (--size WxH)%s%s", count,
	                list, *hint ? "; or, " : "", hint);
}

int sdbi_board_from_cells(sdb_board *b, const sdbi_cells *c, int w, int h)
{
	if (c->count > SDB_MAX_CELLS)
		return sdbi_fail(SDB_EINVAL, "more than %d cells (%d)", SDB_MAX_CELLS, c->count);
	if (c->cols) {   /* rows were written: they are the shape */
		if (w && (c->cols != w || c->rows != h))
			return sdbi_fail(SDB_EINVAL, "the rows make a %dx%d board (%d columns, %d rows), "
			                "not %dx%d", c->cols, c->rows, c->cols, c->rows, w, h);
		if (!sdb_board_size_valid(c->cols, c->rows))
			return sdbi_fail(SDB_EINVAL, "%d rows of %d cells are not a board slidedb "
			                "models", c->rows, c->cols);
		w = c->cols;
		h = c->rows;
	} else if (w == 0 && h == 0) {
		int err = sdbi_cells_fault(c->cell, c->count, 0);
		if (!err)
			err = sdbi_size_for_cells(&w, &h, c->cell, c->count, 0);
		if (err)
			return err;
	}
	if (c->count != w * h)
		return sdbi_fail(SDB_EINVAL, "%d cells, %dx%d has %d", c->count, w, h, w * h);
	return sdb_board_set(b, w, h, c->cell);
}

int sdb_board_parse(sdb_board *b, const char *text, int w, int h)
{
	sdbi_cells c;
	int err = sdbi_cells_scan(&c, text, 1);
	if (!err)
		err = sdbi_board_from_cells(b, &c, w, h);
	return sdbi_done(err);
}

int sdb_board_goal(sdb_board *b, int w, int h, int blank_cell)
{
	if (!sdb_board_size_valid(w, h) || blank_cell < 0 || blank_cell >= w * h)
		return sdbi_fail(SDB_EINVAL, "no goal with the blank in cell %d of %dx%d",
		                blank_cell, w, h);
	uint8_t cells[SDB_MAX_CELLS];
	int tile = 1;
	for (int i = 0; i < w * h; i++)
		cells[i] = (uint8_t)(i == blank_cell ? 0 : tile++);
	return sdb_board_set(b, w, h, cells);
}

int sdb_board_format(char *buf, size_t cap, const sdb_board *b)
{
	size_t len = 0;
	for (int i = 0; i < b->n; i++) {
		int v = b->cell[i];
		if (len + 4 > cap)
			return sdbi_fail(SDB_EINVAL, "buffer too small to format a board");
		if (i)
			buf[len++] = ' ';
		if (v >= 10)
			buf[len++] = (char)('0' + v / 10);
		buf[len++] = (char)('0' + v % 10);
	}
	if (len >= cap)
		return sdbi_fail(SDB_EINVAL, "buffer too small to format a board");
	buf[len] = '\0';
	return (int)len;
}

int sdb_board_format_row(char *buf, size_t cap, const sdb_board *b, int row, char blank)
{
	if (row < 0 || row >= b->h)
		return sdbi_fail(SDB_EINVAL, "row %d of a %dx%d board", row, b->w, b->h);
	if (cap < (size_t)b->w * 3)
		return sdbi_fail(SDB_EINVAL, "buffer too small to format a row");
	const int wide = b->n > 10;   /* two-digit tiles: every column two wide */
	size_t len = 0;
	for (int x = 0; x < b->w; x++) {
		const int v = b->cell[row * b->w + x];
		if (x)
			buf[len++] = ' ';
		if (wide && v < 10)
			buf[len++] = ' ';
		if (v >= 10)
			buf[len++] = (char)('0' + v / 10);
		buf[len++] = v ? (char)('0' + v % 10) : blank;
	}
	buf[len] = '\0';
	return (int)len;
}

int sdb_board_equal(const sdb_board *a, const sdb_board *b)
{
	return a->w == b->w && a->h == b->h && memcmp(a->cell, b->cell, a->n) == 0;
}

unsigned sdb_board_moves(const sdb_board *b)
{
	int x = b->blank % b->w, y = b->blank / b->w;
	return (unsigned)((y > 0) << SDB_UP | (y < b->h - 1) << SDB_DOWN |
	                  (x > 0) << SDB_LEFT | (x < b->w - 1) << SDB_RIGHT);
}

int sdb_board_apply(sdb_board *b, int move)
{
	if (move < 0 || move > 3 || !(sdb_board_moves(b) >> move & 1))
		return sdbi_fail(SDB_EINVAL, "move '%c' leaves the board", sdb_move_letter(move));
	int delta[4] = { -b->w, b->w, -1, 1 };
	int to = b->blank + delta[move];
	b->cell[b->blank] = b->cell[to];
	b->cell[to] = 0;
	b->blank = (uint8_t)to;
	return SDB_OK;
}

int sdb_move_tile(const sdb_board *b, int move)
{
	if (move < 0 || move > 3 || !(sdb_board_moves(b) >> move & 1))
		return -1;
	const int delta[4] = { -b->w, b->w, -1, 1 };
	return b->cell[b->blank + delta[move]];
}

int sdbi_board_parity(const sdb_board *b)
{
	/* Inversions: for each tile, the tiles already seen that are larger
	 * (16-bit counts up to 4x4: on every query's path). */
	unsigned inversions = 0;
	if (b->n <= 16) {
		unsigned seen = 0;
		for (int i = 0; i < b->n; i++)
			if (b->cell[i]) {
				inversions += sdbi_popcount16(seen >> b->cell[i]);
				seen |= 1u << b->cell[i];
			}
		return (int)(inversions & 1);
	}
	uint64_t seen = 0;
	for (int i = 0; i < b->n; i++)
		if (b->cell[i]) {
			inversions += sdbi_popcount64(seen >> b->cell[i]);
			seen |= 1ull << b->cell[i];
		}
	return (int)(inversions & 1);
}

int sdb_board_solvable(const sdb_board *start, const sdb_board *goal)
{
	if (start->w != goal->w || start->h != goal->h)
		return sdbi_fail(SDB_EINVAL, "start is %dx%d but goal is %dx%d",
		                start->w, start->h, goal->w, goal->h);
	int rows = start->w % 2 ? 0 : (start->blank / start->w) ^ (goal->blank / goal->w);
	return ((sdbi_board_parity(start) ^ sdbi_board_parity(goal) ^ rows) & 1) == 0;
}

char sdb_move_letter(int move)
{
	return move >= 0 && move < 4 ? "udlr"[move] : '?';
}

int sdb_move_from_letter(int letter)
{
	switch (letter) {   /* no tolower(): the locale's table is a call away, and
	                     * only these eight letters are moves in any locale */
	case 'u': case 'U': return SDB_UP;
	case 'd': case 'D': return SDB_DOWN;
	case 'l': case 'L': return SDB_LEFT;
	case 'r': case 'R': return SDB_RIGHT;
	default: return -1;
	}
}
