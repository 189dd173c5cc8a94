/* SPDX-License-Identifier: MIT */
/* Output helpers shared by the programs: a growable text buffer with
 * number, string and JSON appenders, written to a stream in one go. */
#ifndef SLIDEDB_CLI_OUT_H
#define SLIDEDB_CLI_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct out {
	char *buf;
	size_t len, cap;
} out;

void out_free(out *o);
void out_reset(out *o);
void out_char(out *o, char c);
void out_str(out *o, const char *s);
void out_mem(out *o, const char *s, size_t n);
/* Room for n more bytes, written in place: the caller adds what it wrote
 * to o->len. */
char *out_room(out *o, size_t n);
void out_u64(out *o, uint64_t v);
void out_i64(out *o, int64_t v);
void out_printf(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A JSON string literal with quotes, escaped. */
void out_json_str(out *o, const char *s);
/* The same of at most max bytes of s (a UTF-8 sequence is not cut), with
 * "..." at its end when s is longer. */
void out_json_strn(out *o, const char *s, size_t max);
/* The same of s, whose length is len (s[len] is its NUL). */
void out_json_mem(out *o, const char *s, size_t len);
/* Text safe to echo in a one-line message: newlines (a grid's rows) become
 * " / ", other control and non-ASCII bytes '?', and it stops after max
 * characters with "...". */
void out_printable(char *dst, size_t cap, const char *src, size_t max);
/* Write the buffer to a file descriptor and empty it; 0 or -1 on error. */
int out_write_fd(out *o, int fd);
/* Write the buffer to f and empty it; returns 0 or -1 on a write error. */
int out_flush(out *o, FILE *f);

#endif
