/* SPDX-License-Identifier: MIT */
/* Line reader over a file descriptor; see line_reader.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/line_reader.h"

void line_reader_init(line_reader *r, int fd)
{
	memset(r, 0, sizeof *r);
	r->fd = fd;
}

void line_reader_free(line_reader *r)
{
	free(r->buf);
	memset(r, 0, sizeof *r);
}

/* Read more input after what is buffered; 0 at the end or on error. */
static int fill(line_reader *r, line_reader_wait_fn *wait, void *ctx)
{
	if (r->start > 0) {   /* keep the partial line at the front */
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->cap - r->end < 4096) {
		size_t cap = r->cap ? 2 * r->cap : 1 << 16;
		char *b = realloc(r->buf, cap);
		if (!b) {
			r->error = ENOMEM;
			return 0;
		}
		r->buf = b;
		r->cap = cap;
	}
	if (wait)
		wait(ctx);
	for (;;) {
		ssize_t n = read(r->fd, r->buf + r->end, r->cap - r->end - 1);
		if (n > 0) {
			r->end += (size_t)n;
			return 1;
		}
		if (n == 0) {
			r->eof = 1;
			return 0;
		}
		if (errno != EINTR) {
			r->error = errno;
			return 0;
		}
	}
}

int line_reader_pending(const line_reader *r)
{
	return r->buf && (memchr(r->buf + r->start, '\n', r->end - r->start) != NULL ||
	                  (r->eof && r->end > r->start));
}

char *line_reader_next(line_reader *r, size_t *len, line_reader_wait_fn *wait, void *ctx)
{
	size_t scanned = r->start;
	for (;;) {
		char *nl = r->buf ? memchr(r->buf + scanned, '\n', r->end - scanned) : NULL;
		if (nl || (r->eof && r->end > r->start)) {
			char *line = r->buf + r->start;
			size_t n = nl ? (size_t)(nl - line) : r->end - r->start;
			r->start += n + (nl != NULL);
			if (n > 0 && line[n - 1] == '\r')
				n--;
			line[n] = '\0';   /* the buffer always has a spare byte */
			*len = n;
			return line;
		}
		if (r->eof || r->error)
			return NULL;
		scanned = r->end - r->start;
		if (!fill(r, wait, ctx))
			continue;   /* end of input: hand out a last unterminated line */
		scanned += r->start;
	}
}
