/* SPDX-License-Identifier: MIT */
/* Growable text and lines. Every helper fails the running test (cr_assert)
 * when it cannot do its job. */
#ifndef SLIDEDB_TESTS_KIT_TEXT_H
#define SLIDEDB_TESTS_KIT_TEXT_H

#include <stddef.h>

/* Count lines of s. */
int tk_lines(const char *s);

/* Text that grows as it is written; start from { 0 }, free s when done. */
typedef struct ck_sbuf {
	char *s;
	size_t len, cap;
} ck_sbuf;

/* Append the printf-formatted text to b. */
void ck_sb_printf(ck_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Split s in place into lines (newlines removed; a last line without its
 * newline counts). *lines is a malloc'ed array of pointers into s, to free;
 * returns how many. */
int ck_split_lines(char *s, char ***lines);

#endif
