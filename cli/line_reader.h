/* SPDX-License-Identifier: MIT */
/* Reading lines from a file descriptor, and knowing when the next read would
 * wait: a program that answers line by line flushes its answers then, so a
 * caller that writes one query and waits for the reply gets it at once,
 * while a bulk pipe still gets large writes. */
#ifndef SLIDEDB_CLI_LINE_READER_H
#define SLIDEDB_CLI_LINE_READER_H

#include <stddef.h>

typedef struct line_reader {
	int fd;
	char *buf;
	size_t cap, start, end;
	int eof, error;
} line_reader;

/* Called before a read that may block. */
typedef void line_reader_wait_fn(void *ctx);

void line_reader_init(line_reader *r, int fd);
void line_reader_free(line_reader *r);
/* The next line, NUL-terminated, without its "\n" or "\r\n"; NULL at the end
 * of the input or on a read error (r->error set). */
char *line_reader_next(line_reader *r, size_t *len, line_reader_wait_fn *wait, void *ctx);

/* Whether a whole line is already buffered (line_reader_next would not read). */
int line_reader_pending(const line_reader *r);

#endif
