/* SPDX-License-Identifier: MIT */
/* Batch input as queries; see splitter.h. */
#include <stdlib.h>
#include <string.h>

#include "cli/splitter.h"
#include "slidedb.h"

/* Cut a trailing "# comment"; true if nothing but blanks is left. */
static int strip_comment(char *s)
{
	char *hash = strchr(s, '#');
	if (hash)
		*hash = '\0';
	s += strspn(s, " \t\r");
	return *s == '\0';
}

static int grid_add(splitter *b, const char *row, int width, int line)
{
	size_t n = strlen(row);
	char *t = realloc(b->text, b->len + n + 2);
	if (!t)
		return -1;
	if (!b->text) {
		b->width = width;
		b->rows = 0;
		b->line = line;
		b->len = 0;
	}
	b->text = t;
	memcpy(b->text + b->len, row, n);
	b->len += n;
	b->text[b->len++] = '\n';
	b->text[b->len] = '\0';
	b->rows++;
	return 0;
}

/* Hand the grid under way out as a query. */
static void grid_out(splitter *b, char *out[2], int outline[2], int *n)
{
	out[*n] = b->text;
	outline[(*n)++] = b->line;
	b->text = NULL;
}

int splitter_feed(splitter *b, char *line, unsigned long len, int lineno, char *out[2],
               int outline[2])
{
	int n = 0;
	for (unsigned long k = 0; line && k < len; k++)
		if (!line[k])
			line[k] = '?';   /* a NUL byte: reported, never a cut line */
	const int blank = !line || strip_comment(line);
	const int width = blank || b->no_grids ? 0 : sdb_query_grid_row(line, b->w, b->h);
	if (b->text && (blank || width != b->width))   /* the grid ends here */
		grid_out(b, out, outline, &n);
	if (blank)
		return n;
	if (width) {
		if (grid_add(b, line, width, lineno))
			return -1;
		if (b->h && b->rows == 2 * b->h)   /* a start and a goal: whole */
			grid_out(b, out, outline, &n);
		return n;
	}
	if (!(out[n] = strdup(line)))
		return -1;
	outline[n++] = lineno;
	return n;
}

int splitter_pending(const splitter *b)
{
	return b->text != NULL;
}

void splitter_free(splitter *b)
{
	free(b->text);
	b->text = NULL;
}
