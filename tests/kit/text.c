/* SPDX-License-Identifier: MIT */
/* Growable text and lines; see text.h. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/text.h"

int tk_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

void ck_sb_printf(ck_sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	cr_assert(n >= 0);
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		cr_assert(b->s);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

int ck_split_lines(char *s, char ***lines)
{
	int n = 0, cap = 16;
	char **v = malloc((size_t)cap * sizeof *v);
	cr_assert(v);
	while (*s) {
		char *nl = strchr(s, '\n');
		if (n == cap) {
			cap *= 2;
			v = realloc(v, (size_t)cap * sizeof *v);
			cr_assert(v);
		}
		v[n++] = s;
		if (!nl)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	*lines = v;
	return n;
}
