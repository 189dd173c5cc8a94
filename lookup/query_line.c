/* Reading a query line: which cells belong to the start, which to the goal,
 * and what size the board is. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "query_line.h"

enum { MAX_LINE_CELLS = 2 * SDB_MAX_CELLS };

/* Cells of a piece of text; -1 if it does not parse. */
static int cell_count(const char *text)
{
	uint8_t cells[MAX_LINE_CELLS + 1];
	int count;
	return sdb_cells_parse(cells, &count, MAX_LINE_CELLS + 1, text) ? -1 : count;
}

void query_join_args(char *buf, size_t cap, int argc, char **argv)
{
	const char *sep = " ";
	if (argc == 2 && cell_count(argv[0]) > 1 && cell_count(argv[1]) > 1)
		sep = " ; ";
	buf[0] = '\0';
	size_t len = 0;
	for (int i = 0; i < argc; i++) {
		int n = snprintf(buf + len, cap - len, "%s%s", i ? sep : "", argv[i]);
		if (n < 0 || (size_t)n >= cap - len)
			return;   /* truncated: the parser will report the cells it sees */
		len += (size_t)n;
	}
}

/* Split a line without ';' into two boards when it is two whitespace-separated
 * words that are each a whole board ("123804765 541203786"). Returns 2 then,
 * 3 for three or more such words (an error), 0 otherwise. */
static int split_words(const char *line, char *a, char *b, size_t cap)
{
	const char *p = line;
	const char *word[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 };
	int nwords = 0, whole = 0;
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		const char *start = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		size_t n = (size_t)(p - start);
		if (nwords < 2) {
			word[nwords] = start;
			len[nwords] = n;
		}
		nwords++;
		/* a word is a whole board if it is compact (4+ characters) or has
		 * commas; one short number is not: stop at the first such word */
		char tmp[64];
		if ((n < 4 && !memchr(start, ',', n)) || n >= sizeof tmp)
			return 0;
		memcpy(tmp, start, n);
		tmp[n] = '\0';
		if (cell_count(tmp) <= 1)
			return 0;
		whole++;
	}
	if (whole >= 3)
		return 3;
	if (whole != 2 || len[0] >= cap || len[1] >= cap)
		return 0;
	memcpy(a, word[0], len[0]);
	a[len[0]] = '\0';
	memcpy(b, word[1], len[1]);
	b[len[1]] = '\0';
	return 2;
}

static int is_board_size(int n)
{
	for (int a = 2; a <= n / 2; a++)
		if (n % a == 0 && sdb_size_valid(a, n / a))
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

/* Whether db has full tables for some board of n cells. */
static int has_tables(const sdb_db *db, int n)
{
	for (int a = 2; db && a <= n / 2; a++)
		if (n % a == 0 && sdb_size_valid(a, n / a) && sdb_db_has_size(db, a, n / a))
			return 1;
	return 0;
}

/* The size of a board of n cells: --size, a square, the one size that fits,
 * or the one size of those that has tables. */
static int pick_size(int *w, int *h, int n, const sdb_db *db, char *why, size_t cap)
{
	int fits[SDB_MAX_CELLS][2], nfit = 0, with_table = 0, tw = 0, th = 0;
	for (int a = 2; a <= n / 2; a++) {
		if (n % a || !sdb_size_valid(a, n / a))
			continue;
		if (a * a == n) {
			*w = *h = a;
			return SDB_OK;
		}
		fits[nfit][0] = a;
		fits[nfit][1] = n / a;
		nfit++;
		if (db && sdb_db_has_size(db, a, n / a)) {
			with_table++;
			tw = a;
			th = n / a;
		}
	}
	if (nfit == 1 || with_table == 1) {
		*w = nfit == 1 ? fits[0][0] : tw;
		*h = nfit == 1 ? fits[0][1] : th;
		return SDB_OK;
	}
	if (nfit == 0) {
		snprintf(why, cap, "%d cell%s is not a board size (one board, or a start and a goal "
		         "of equal size)", n, n == 1 ? "" : "s");
		return SDB_EINVAL;
	}
	int len = snprintf(why, cap, "%d cells fit", n);
	for (int i = 0; i < nfit && len > 0 && (size_t)len < cap; i++)
		len += snprintf(why + len, cap - (size_t)len, "%s %dx%d", i ? "," : "", fits[i][0],
		                fits[i][1]);
	if (len > 0 && (size_t)len < cap)
		snprintf(why + len, cap - (size_t)len, ": give the size with --size WxH");
	return SDB_EAMBIGUOUS;
}

static int make_board(sdb_board *b, const uint8_t *cells, int w, int h, const char *role,
                      char *why, size_t cap)
{
	int err = sdb_board_set(b, w, h, cells);
	if (err)
		snprintf(why, cap, "%s: %s", role, sdb_errdetail());
	return err;
}

int query_parse(query *q, const char *line, int w, int h, const sdb_db *db, char *why,
                size_t cap)
{
	uint8_t cells[MAX_LINE_CELLS];
	int count = 0, nstart = -1, err;
	char a[512], b[512];
	const char *semi = strchr(line, ';');
	int words = semi ? 0 : split_words(line, a, b, sizeof a);
	if (words == 3 || (semi && strchr(semi + 1, ';'))) {
		snprintf(why, cap, "more than two boards: a line is a start and at most one goal");
		return SDB_EINVAL;
	}
	if (semi || words == 2) {
		if (semi) {
			size_t len = (size_t)(semi - line);
			if (len >= sizeof a || strlen(semi + 1) >= sizeof b) {
				snprintf(why, cap, "a board is longer than %zu characters", sizeof a - 1);
				return SDB_EINVAL;
			}
			memcpy(a, line, len);
			a[len] = '\0';
			strcpy(b, semi + 1);
		}
		int na, nb;
		if ((err = sdb_cells_parse(cells, &na, MAX_LINE_CELLS, a))) {
			snprintf(why, cap, "start: %s", sdb_errdetail());
			return err;
		}
		if ((err = sdb_cells_parse(cells + na, &nb, MAX_LINE_CELLS - na, b))) {
			snprintf(why, cap, "goal: %s", sdb_errdetail());
			return err;
		}
		if (na != nb) {
			snprintf(why, cap, "start has %d cells but goal has %d", na, nb);
			return SDB_EINVAL;
		}
		count = na + nb;
		nstart = na;
	} else if ((err = sdb_cells_parse(cells, &count, MAX_LINE_CELLS, line))) {
		snprintf(why, cap, "%s", sdb_errdetail());
		return err;
	}
	if (w) {   /* size given: the cells are one board or two */
		if (nstart < 0)
			nstart = count == 2 * w * h ? w * h : count;
		if (nstart != w * h) {
			snprintf(why, cap, "%d cells, but %dx%d has %d (or %d with a goal)", count, w,
			         h, w * h, 2 * w * h);
			return SDB_EINVAL;
		}
	} else {
		/* One board if the count is a board size, else two; when both fit
		 * (16 cells: 4x4, or two 2x4), the database's tables decide. */
		if (nstart < 0) {
			nstart = is_board_size(count) || count % 2 ? count : count / 2;
			if (nstart == count && count % 2 == 0 && is_board_size(count / 2) &&
			    !has_tables(db, count) && has_tables(db, count / 2) && !is_compact(line))
				nstart = count / 2;
		}
		if ((err = pick_size(&w, &h, nstart, db, why, cap)))
			return err;
	}
	if ((err = make_board(&q->start, cells, w, h, "start", why, cap)))
		return err;
	if (nstart == count)
		return sdb_board_goal(&q->goal, w, h, w * h - 1);
	return make_board(&q->goal, cells + nstart, w, h, "goal", why, cap);
}
