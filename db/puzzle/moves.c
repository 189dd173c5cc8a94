/* SPDX-License-Identifier: MIT */
/* Move sequences and the two ways of counting them (enum sdb_metric).
 *
 * A multi-tile move is a run of one single-tile letter, so sequences are
 * kept as letters in both metrics: "r3" is read as "rrr", and "rrr" is one
 * move in the multi-tile metric. One parser here for every front end. */
#include <stdio.h>
#include <string.h>

#include "puzzle/puzzle.h"

const char *sdb_metric_name(int metric)
{
	return metric == SDB_METRIC_STM ? "stm" : metric == SDB_METRIC_MTM ? "mtm" : NULL;
}

int sdb_metric_from_name(const char *name)
{
	if (!name)
		return -1;
	return !strcmp(name, "stm") ? SDB_METRIC_STM : !strcmp(name, "mtm") ? SDB_METRIC_MTM : -1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int sdbi_moves_token(const char *text, size_t len, size_t *k, int *move, int *count)
{
	const size_t at = *k;
	const char c = text[at];
	*move = sdb_move_from_letter((unsigned char)c);
	if (*move < 0)
		return sdbi_fail(SDB_EINVAL, "'%c' at position %zu is not a move (u d l r, optionally with "
		                 "a count: r3)", c >= ' ' && c < 127 ? c : '?',
		                 at + 1);
	size_t i = at + 1;
	long n = 1;
	if (i < len && is_digit(text[i]))
		for (n = 0; i < len && is_digit(text[i]) && n <= SDB_MAX_MOVES; i++)
			n = n * 10 + (text[i] - '0');
	if (n < 1 || n > SDB_MAX_MOVES || (i < len && is_digit(text[i])))
		return sdbi_fail(SDB_EINVAL, "the count of the move at position %zu is not 1 to %d",
		                 at + 1, SDB_MAX_MOVES);
	*k = i;
	*count = (int)n;
	return SDB_OK;
}

int sdb_moves_parse(char *letters, size_t cap, const char *text)
{
	if (!cap)
		return sdbi_fail(SDB_EINVAL, "no room for the moves");
	const size_t len = strlen(text);
	size_t n = 0;
	for (size_t i = 0; i < len;) {
		if (text[i] == ' ' || text[i] == '\t' || text[i] == ',') {
			i++;
			continue;
		}
		int m = 0, count = 0;
		if (sdbi_moves_token(text, len, &i, &m, &count))
			return SDB_EINVAL;
		if ((size_t)count >= cap - n)
			return sdbi_fail(SDB_EINVAL, "more than %zu moves", cap ? cap - 1 : 0);
		memset(letters + n, sdb_move_letter(m), (size_t)count);
		n += (size_t)count;
	}
	letters[n] = '\0';
	return (int)n;
}

int sdb_moves_format_mtm(char *buf, size_t cap, const char *letters)
{
	if (!cap)
		return sdbi_fail(SDB_EINVAL, "buffer too small for the moves");
	size_t n = 0;
	for (size_t i = 0; letters[i];) {
		size_t run = 1;
		while (letters[i + run] == letters[i])
			run++;
		char piece[16];
		const int len = run > 1 ? snprintf(piece, sizeof piece, "%c%zu", letters[i], run)
		                        : snprintf(piece, sizeof piece, "%c", letters[i]);
		if ((size_t)len >= cap - n)
			return sdbi_fail(SDB_EINVAL, "buffer too small for the moves");
		memcpy(buf + n, piece, (size_t)len);
		n += (size_t)len;
		i += run;
	}
	buf[n] = '\0';
	return (int)n;
}

int sdb_moves_length(const char *letters, int metric)
{
	int n = 0;
	for (size_t i = 0; letters[i]; i++)
		n += metric != SDB_METRIC_MTM || i == 0 || (letters[i] | 0x20) != (letters[i - 1] | 0x20);
	return n;
}
