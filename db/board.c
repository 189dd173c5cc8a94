/* The board model: sizes, parsing every notation users bring, formatting,
 * moves and the solvability test. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int sdb_size_valid(int w, int h)
{
	return w >= 2 && h >= 2 && w * h <= SDB_MAX_CELLS;
}

int sdb_size_parse(int *w, int *h, const char *text)
{
	char *end;
	long a = strtol(text, &end, 10);
	if (end == text || (*end != 'x' && *end != 'X'))
		return sdb_fail(SDB_EINVAL, "size '%s' is not of the form WxH (e.g. 3x3)", text);
	const char *second = end + 1;
	long b = strtol(second, &end, 10);
	if (end == second || *end != '\0' || !isdigit((unsigned char)*second))
		return sdb_fail(SDB_EINVAL, "size '%s' is not of the form WxH (e.g. 3x3)", text);
	if (a < 2 || b < 2 || a * b > SDB_MAX_CELLS)
		return sdb_fail(SDB_EINVAL, "size '%s' is not a board slidedb models "
		                "(2 <= W, H and W*H <= %d)", text, SDB_MAX_CELLS);
	*w = (int)a;
	*h = (int)b;
	return SDB_OK;
}

static int is_separator(int c)
{
	switch (c) {
	case ' ': case '\t': case '\n': case '\r': case '\v': case '\f':
	case ',': case '[': case ']': case '(': case ')': case '{': case '}':
		return 1;
	default:
		return 0;
	}
}

static int is_blank_char(int c)
{
	return c == 'x' || c == 'X' || c == '_' || c == '.';
}

/* Value of one character of the compact notation, or -1. */
static int compact_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (is_blank_char(c))
		return 0;
	return -1;
}

/* A token of 4 or more characters is a compact board: no board has fewer
 * cells, and no tile number has more than 2 digits. */
enum { COMPACT_MIN = 4 };

/* Append the cells of one token: a number, a blank character, or (4 or more
 * characters) a whole compact board. */
static int parse_token(uint8_t *cells, int *count, int cap, const char *tok, size_t len)
{
	if (len >= COMPACT_MIN) {
		for (size_t i = 0; i < len; i++) {
			int v = compact_value((unsigned char)tok[i]);
			if (v < 0)
				return sdb_fail(SDB_EINVAL, "unknown character '%c' in '%.*s'",
				                tok[i], (int)len, tok);
			if (*count >= cap)
				return sdb_fail(SDB_EINVAL, "more than %d cells", cap);
			cells[(*count)++] = (uint8_t)v;
		}
		return SDB_OK;
	}
	int v = 0;
	if (!(len == 1 && is_blank_char((unsigned char)tok[0]))) {
		for (size_t i = 0; i < len; i++) {
			if (tok[i] < '0' || tok[i] > '9')
				return sdb_fail(SDB_EINVAL, "unknown notation '%.*s' (tiles are "
				                "numbers, the blank is 0, x or _)", (int)len, tok);
			v = v * 10 + (tok[i] - '0');
		}
		if (v >= SDB_MAX_CELLS)
			return sdb_fail(SDB_EINVAL, "tile %d is out of range (boards have at most %d "
			                "cells)", v, SDB_MAX_CELLS);
	}
	if (*count >= cap)
		return sdb_fail(SDB_EINVAL, "more than %d cells", cap);
	cells[(*count)++] = (uint8_t)v;
	return SDB_OK;
}

int sdb_cells_parse(uint8_t *cells, int *count, int cap, const char *text)
{
	int ntokens = 0;
	const char *compact = NULL;
	size_t compact_len = 0;
	*count = 0;
	for (const char *p = text; *p;) {
		while (*p && is_separator((unsigned char)*p))
			p++;
		if (!*p)
			break;
		const char *tok = p;
		while (*p && !is_separator((unsigned char)*p))
			p++;
		size_t len = (size_t)(p - tok);
		ntokens++;
		if (len >= COMPACT_MIN) {
			compact = tok;
			compact_len = len;
		}
		if (compact && ntokens > 1) {   /* a compact board must stand alone */
			int shown = compact_len > 16 ? 16 : (int)compact_len;
			int digits = strspn(compact, "0123456789") >= compact_len;
			return sdb_fail(SDB_EINVAL, "'%.*s%s' mixes the compact notation with "
			                "separated numbers%s", shown, compact, compact_len > 16 ? "..." : "",
			                digits ? " (or is a tile number out of range)" : "");
		}
		int err = parse_token(cells, count, cap, tok, len);
		if (err)
			return err;
	}
	if (ntokens == 0)
		return sdb_fail(SDB_EINVAL, "empty board");
	return SDB_OK;
}

int sdb_board_set(sdb_board *b, int w, int h, const uint8_t *cells)
{
	if (!sdb_size_valid(w, h))
		return sdb_fail(SDB_EINVAL, "%dx%d is not a board slidedb models", w, h);
	int n = w * h, blank = -1;
	unsigned seen = 0;
	for (int i = 0; i < n; i++) {
		int v = cells[i];
		if (v >= n)
			return sdb_fail(SDB_EINVAL, "tile %d is out of range 1..%d for %dx%d",
			                v, n - 1, w, h);
		if (seen & (1u << v)) {
			if (v == 0)
				return sdb_fail(SDB_EINVAL, "more than one blank");
			return sdb_fail(SDB_EINVAL, "tile %d appears twice", v);
		}
		seen |= 1u << v;
		if (v == 0)
			blank = i;
	}
	if (blank < 0)
		return sdb_fail(SDB_EINVAL, "no blank (0, x or _)");
	memset(b, 0, sizeof *b);
	b->w = (uint8_t)w;
	b->h = (uint8_t)h;
	b->n = (uint8_t)n;
	b->blank = (uint8_t)blank;
	memcpy(b->cell, cells, (size_t)n);
	return SDB_OK;
}

/* The size a cell count implies: a square count is the square board; other
 * counts must fit exactly one size. */
static int infer_size(int *w, int *h, int count)
{
	int found = 0, fw = 0, fh = 0;
	for (int a = 2; a <= count / 2; a++) {
		if (count % a || !sdb_size_valid(a, count / a))
			continue;
		if (a * a == count) {
			*w = *h = a;
			return SDB_OK;
		}
		if (!found) {
			fw = a;
			fh = count / a;
		}
		found++;
	}
	if (found == 1) {
		*w = fw;
		*h = fh;
		return SDB_OK;
	}
	if (found == 0)
		return sdb_fail(SDB_EINVAL, "%d cell%s is not a board size (4, 6, 8, 9, 10, 12, "
		                "14, 15 or 16 cells)", count, count == 1 ? "" : "s");
	return sdb_fail(SDB_EAMBIGUOUS, "%d cells fit %dx%d and %dx%d: give the size",
	                count, fw, fh, fh, fw);
}

int sdb_board_parse(sdb_board *b, const char *text, int w, int h)
{
	uint8_t cells[SDB_MAX_CELLS];
	int count, err = sdb_cells_parse(cells, &count, SDB_MAX_CELLS, text);
	if (err)
		return err;
	if (w == 0 && h == 0) {
		err = infer_size(&w, &h, count);
		if (err)
			return err;
	} else if (count != w * h) {
		return sdb_fail(SDB_EINVAL, "%d cells, %dx%d has %d", count, w, h, w * h);
	}
	return sdb_board_set(b, w, h, cells);
}

int sdb_board_goal(sdb_board *b, int w, int h, int blank_cell)
{
	if (!sdb_size_valid(w, h) || blank_cell < 0 || blank_cell >= w * h)
		return sdb_fail(SDB_EINVAL, "no goal with the blank in cell %d of %dx%d",
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
			return sdb_fail(SDB_EINVAL, "buffer too small to format a board");
		if (i)
			buf[len++] = ' ';
		if (v >= 10)
			buf[len++] = (char)('0' + v / 10);
		buf[len++] = (char)('0' + v % 10);
	}
	if (len >= cap)
		return sdb_fail(SDB_EINVAL, "buffer too small to format a board");
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
		return sdb_fail(SDB_EINVAL, "move '%c' leaves the board", sdb_move_letter(move));
	int delta[4] = { -b->w, b->w, -1, 1 };
	int to = b->blank + delta[move];
	b->cell[b->blank] = b->cell[to];
	b->cell[to] = 0;
	b->blank = (uint8_t)to;
	return SDB_OK;
}

int sdb_board_parity(const sdb_board *b)
{
	/* Inversions: for each tile, the tiles already seen that are larger. */
	unsigned seen = 0, inversions = 0;
	for (int i = 0; i < b->n; i++) {
		int v = b->cell[i];
		if (!v)
			continue;
		inversions += sdb_popcount16(seen >> v);
		seen |= 1u << v;
	}
	return (int)(inversions & 1);
}

int sdb_board_solvable(const sdb_board *start, const sdb_board *goal)
{
	if (start->w != goal->w || start->h != goal->h)
		return sdb_fail(SDB_EINVAL, "start is %dx%d but goal is %dx%d",
		                start->w, start->h, goal->w, goal->h);
	int rows = start->w % 2 ? 0 : (start->blank / start->w) ^ (goal->blank / goal->w);
	return ((sdb_board_parity(start) ^ sdb_board_parity(goal) ^ rows) & 1) == 0;
}

char sdb_move_letter(int move)
{
	return move >= 0 && move < 4 ? "udlr"[move] : '?';
}

int sdb_move_from_letter(int letter)
{
	switch (tolower(letter)) {
	case 'u': return SDB_UP;
	case 'd': return SDB_DOWN;
	case 'l': return SDB_LEFT;
	case 'r': return SDB_RIGHT;
	default: return -1;
	}
}
