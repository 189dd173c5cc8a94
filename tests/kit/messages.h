/* SPDX-License-Identifier: MIT */
/* What the programs say when they refuse: the suites' checks of it. */
#ifndef SLIDEDB_TESTS_KIT_MESSAGES_H
#define SLIDEDB_TESTS_KIT_MESSAGES_H

/* stderr holds exactly one non-empty line; what names the case in the
 * failure message. */
void ck_assert_one_line(const char *err, const char *what);

/* A refusal: exit code want, nothing on stdout, one line on stderr that
 * contains every fragment given (a NULL-terminated list). */
void ck_assert_refused(int rc, int want, const char *out, const char *err, const char *what, ...);

/* A query that fails: exit 1, one line on stderr that contains every
 * fragment given (a NULL-terminated list), and in its place on stdout
 * exactly one line "error: REASON", the reason stderr ends with: a caller
 * that reads one line per query stays in step. */
void ck_assert_bad_query(int rc, const char *out, const char *err, const char *what, ...);

#endif
