/* SPDX-License-Identifier: MIT */
/* What the programs say when they refuse; see messages.h. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <string.h>

#include "kit/messages.h"
#include "kit/text.h"

void ck_assert_one_line(const char *err, const char *what)
{
	size_t len = strlen(err);
	cr_assert(len > 1 && err[len - 1] == '\n' && tk_lines(err) == 1,
	          "%s: expected a one-line message on stderr, got '%s'", what, err);
}

/* err holds every fragment of the NULL-terminated list ap. */
static void assert_fragments(const char *err, const char *what, va_list ap)
{
	for (const char *frag; (frag = va_arg(ap, const char *)) != NULL;)
		cr_assert(strstr(err, frag), "%s: message '%s' lacks '%s'", what, err, frag);
}

void ck_assert_refused(int rc, int want, const char *out, const char *err, const char *what, ...)
{
	cr_assert_eq(rc, want, "%s: exit %d, expected %d (stderr: %s)", what, rc, want, err);
	cr_assert_str_empty(out, "%s: stdout should be empty, got '%s'", what, out);
	ck_assert_one_line(err, what);
	va_list ap;
	va_start(ap, what);
	assert_fragments(err, what, ap);
	va_end(ap);
}

/* A query that fails: exit 1, one line on stderr that contains every
 * fragment given (NULL-terminated list), and in its place on stdout exactly
 * one line "error: REASON", the reason stderr ends with: a caller that reads
 * one line per query stays in step. */
void ck_assert_bad_query(int rc, const char *out, const char *err, const char *what, ...)
{
	cr_assert_eq(rc, 1, "%s: exit %d, expected 1 (stderr: %s)", what, rc, err);
	ck_assert_one_line(err, what);
	cr_assert(!strncmp(out, "error: ", 7) && strchr(out, '\n') == out + strlen(out) - 1,
	          "%s: stdout should be one 'error: ' line, got '%s'", what, out);
	size_t reason = strlen(out) - 8;   /* without "error: " and the newline */
	cr_assert(strlen(err) > reason && !strncmp(err + strlen(err) - 1 - reason, out + 7, reason),
	          "%s: stdout '%s' does not end stderr '%s'", what, out, err);
	va_list ap;
	va_start(ap, what);
	assert_fragments(err, what, ap);
	va_end(ap);
}
