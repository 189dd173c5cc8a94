/* A growable output buffer: the programs build each line here and write it
 * with one fwrite, which keeps batch answers fast. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"

static void reserve(out *o, size_t extra)
{
	if (o->len + extra + 1 <= o->cap)
		return;
	size_t cap = o->cap ? o->cap : 256;
	while (cap < o->len + extra + 1)
		cap *= 2;
	char *b = realloc(o->buf, cap);
	if (!b) {
		fputs("slidedb: out of memory\n", stderr);
		exit(1);
	}
	o->buf = b;
	o->cap = cap;
}

void out_free(out *o)
{
	free(o->buf);
	memset(o, 0, sizeof *o);
}

void out_reset(out *o)
{
	o->len = 0;
}

void out_mem(out *o, const char *s, size_t n)
{
	reserve(o, n);
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

void out_char(out *o, char c)
{
	reserve(o, 1);
	o->buf[o->len++] = c;
}

void out_str(out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

void out_u64(out *o, uint64_t v)
{
	char tmp[24];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	reserve(o, (size_t)n);
	while (n)
		o->buf[o->len++] = tmp[--n];
}

void out_i64(out *o, int64_t v)
{
	if (v < 0) {
		out_char(o, '-');
		out_u64(o, (uint64_t)0 - (uint64_t)v);
	} else {
		out_u64(o, (uint64_t)v);
	}
}

void out_printf(out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	reserve(o, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(o->buf + o->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	o->len += (size_t)n;
}

void out_json_str(out *o, const char *s)
{
	out_char(o, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			out_char(o, '\\');
			out_char(o, (char)c);
		} else if (c < 0x20) {
			out_printf(o, "\\u%04x", c);
		} else {
			out_char(o, (char)c);
		}
	}
	out_char(o, '"');
}

int out_flush(out *o, FILE *f)
{
	size_t n = o->len;
	o->len = 0;
	return n && fwrite(o->buf, 1, n, f) != n ? -1 : 0;
}
