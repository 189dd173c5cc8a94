/* SPDX-License-Identifier: MIT */
/* A growable output buffer: the programs build each line here and write it
 * with one fwrite, which keeps batch answers fast. */
#include <stdarg.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli/out.h"

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

char *out_room(out *o, size_t n)
{
	reserve(o, n);
	return o->buf + o->len;
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

/* Length of the well-formed UTF-8 sequence at s (RFC 3629's table: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or 0. The second
 * byte's range depends on the first; the others are 80..BF. */
static int utf8_length(const unsigned char *s)
{
	static const struct { unsigned char lo, hi, len, lo2, hi2; } lead[] = {
		{ 0xc2, 0xdf, 2, 0x80, 0xbf }, { 0xe0, 0xe0, 3, 0xa0, 0xbf },
		{ 0xe1, 0xec, 3, 0x80, 0xbf }, { 0xed, 0xed, 3, 0x80, 0x9f },
		{ 0xee, 0xef, 3, 0x80, 0xbf }, { 0xf0, 0xf0, 4, 0x90, 0xbf },
		{ 0xf1, 0xf3, 4, 0x80, 0xbf }, { 0xf4, 0xf4, 4, 0x80, 0x8f },
	};
	for (size_t k = 0; k < sizeof lead / sizeof *lead; k++) {
		if (s[0] < lead[k].lo || s[0] > lead[k].hi)
			continue;
		if (s[1] < lead[k].lo2 || s[1] > lead[k].hi2)
			return 0;
		for (int i = 2; i < lead[k].len; i++)
			if ((s[i] & 0xc0) != 0x80)
				return 0;
		return lead[k].len;
	}
	return 0;
}

/* The bytes a JSON string holds as they are: printable ASCII but '"' (0x22)
 * and '\\' (0x5c). A table: the check runs on every byte a batch writes. */
static const unsigned char plain[256] = {
	[0x20 ... 0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0x7e] = 1,
};

/* Whether any byte of the 8 at x is not plain: below 0x20 (NUL
 * included), '"', '\\', 0x7f, or 0x80 and above. Exact: a borrow between
 * bytes starts only at a byte below 0x20, and the other tests cannot borrow. */
static inline int word_has_escape(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	const uint64_t low = (x & ~highs) - 0x20 * ones,          /* < 0x20: high bit set */
	               quote = (x ^ 0x22 * ones) & ~highs,         /* zero where '"' */
	               bslash = (x ^ 0x5c * ones) & ~highs,        /* zero where '\\' */
	               del = (x ^ 0x7f * ones) & ~highs;           /* zero where 0x7f */
	return ((low | (highs - quote) | (highs - bslash) | (highs - del) | x) & highs) !=
	       0;
}

/* The bytes of s[0..len) that stand for themselves in a JSON string, from
 * the first: a word at a time (boards and moves, a batch's hot path). */
static size_t plain_head(const unsigned char *s, size_t len)
{
	size_t head = 0;
	for (uint64_t x; head + 8 <= len; head += 8) {
		memcpy(&x, s + head, 8);
		if (word_has_escape(x))
			break;
	}
	while (head < len && plain[s[head]])
		head++;
	return head;
}

/* text as a JSON string, up to its NUL or len bytes: cut at len, "..."
 * says so (a UTF-8 sequence is not cut). */
static void json_string(out *o, const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	const unsigned char *end = s + len;
	const size_t head = plain_head(s, len);
	if (head == len && !s[len]) {   /* nothing to escape (boards, moves): one copy */
		reserve(o, len + 2);
		o->buf[o->len] = '"';
		memcpy(o->buf + o->len + 1, text, len);
		o->buf[o->len + len + 1] = '"';
		o->len += len + 2;
		return;
	}
	out_char(o, '"');
	while (*s) {
		/* a run of bytes that stand for themselves, copied at once (boards
		 * and moves are nothing else: the batch's hot path) */
		const unsigned char *run = s;
		while (s < end && plain[*s])
			s++;
		if (s > run)
			out_mem(o, (const char *)run, (size_t)(s - run));
		if (!*s)
			break;
		unsigned char c = *s;
		int n = c >= 0x80 ? utf8_length(s) : 1;
		if (s + (n ? n : 1) > end) {
			out_str(o, "...");
			break;
		}
		if (c == '"' || c == '\\') {
			out_char(o, '\\');
			out_char(o, (char)c);
		} else if (c < 0x20 || c == 0x7f) {
			out_printf(o, "\\u%04x", c);
		} else if (c >= 0x80 && n) {
			out_mem(o, (const char *)s, (size_t)n);
			s += n;
			continue;
		} else if (c >= 0x80) {
			out_str(o, "\\ufffd");   /* not well-formed UTF-8: U+FFFD keeps the JSON valid */
		} else {
			out_char(o, (char)c);
		}
		s++;
	}
	out_char(o, '"');
}

void out_json_strn(out *o, const char *text, size_t max)
{
	json_string(o, text, strnlen(text, max));   /* (the text may be far longer) */
}

void out_json_mem(out *o, const char *text, size_t len)
{
	json_string(o, text, len);
}

void out_json_str(out *o, const char *text)
{
	json_string(o, text, strlen(text));
}

void out_printable(char *dst, size_t cap, const char *src, size_t max)
{
	size_t n = 0;
	for (; *src && n + 4 < cap; src++) {
		if (n >= max) {
			memcpy(dst + n, "...", 3);
			n += 3;
			break;
		}
		unsigned char c = (unsigned char)*src;
		if (c == '\n') {   /* the rows of a grid: "1 2 / 3 0" */
			if (src[1] && n + 7 < cap) {
				memcpy(dst + n, " / ", 3);
				n += 3;
			}
			continue;
		}
		dst[n++] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
	}
	dst[n] = '\0';
}

int out_write_fd(out *o, int fd)
{
	size_t done = 0;
	while (done < o->len) {
		ssize_t n = write(fd, o->buf + done, o->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	o->len = 0;
	return 0;
}

int out_flush(out *o, FILE *f)
{
	size_t n = o->len;
	o->len = 0;
	return (n && fwrite(o->buf, 1, n, f) != n) || ferror(f) ? -1 : 0;
}
