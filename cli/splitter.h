/* SPDX-License-Identifier: MIT */
/* Batch input as queries, the one batch format of slidedb-lookup and
 * slidedb-serve: one query per line, or one per grid (rows on lines of
 * their own), blank lines and # comments skipped. */
#ifndef SLIDEDB_CLI_SPLITTER_H
#define SLIDEDB_CLI_SPLITTER_H

typedef struct splitter {
	int w, h;        /* --size, or 0, 0 */
	int no_grids;    /* every line is a whole query (check lines) */
	char *text;      /* a grid under way (malloc'ed), or NULL */
	unsigned long len;
	int width, rows, line;
} splitter;

/* Feed the next input line (NULL: the end of the input). The line is
 * changed in place (a comment cut off, NUL bytes shown as '?'). Up to two
 * queries come out, in order: a grid this line ends, then the line itself;
 * each is malloc'ed text, with the input line it starts on. A grid ends at
 * a blank line, a line of another width, the end, or after 2H rows with a
 * size. Returns how many came out (0 to 2), or -1 when out of memory. */
int splitter_feed(splitter *b, char *line, unsigned long len, int lineno, char *out[2],
               int outline[2]);

/* Whether a grid is under way (its query waits for more lines). */
int splitter_pending(const splitter *b);

void splitter_free(splitter *b);

#endif
