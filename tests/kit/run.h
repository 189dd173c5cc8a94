/* SPDX-License-Identifier: MIT */
/* Running the programs under test (their paths are the build's:
 * SLIDEDB_GEN, SLIDEDB_LOOKUP, ...) in the suites' scratch folder
 * (SLIDEDB_TEST_TMP). Every helper fails the running test (cr_assert) when
 * it cannot do its job. */
#ifndef SLIDEDB_TESTS_KIT_RUN_H
#define SLIDEDB_TESTS_KIT_RUN_H

#include <stddef.h>

/* A fresh path under the test scratch folder. */
void tk_tmp_path(char *buf, size_t cap, const char *name);

/* Set a test knob (SLIDEDB_CHUNK_BYTES, SLIDEDB_VERIFY_SLICE ...; value
 * NULL: unset it) for the programs this test runs and for the library in
 * this process alike. */
void tk_knob(const char *name, const char *value);

/* Run a shell command with `input` on stdin (NULL: empty); stdout and stderr
 * are returned (malloc'ed, NUL-terminated; out or err NULL: dropped).
 * Returns the exit code. */
int tk_run(const char *cmd, const char *input, char **out, char **err);

/* Build full tables of size WxH into db (extra: more slidedb-gen options). */
void tk_build(const char *db, const char *size, const char *extra);

/* A fresh database of the full tables of size (e.g. "3x3") at a new
 * scratch path (into path). */
void tk_build_scratch(char *path, size_t cap, const char *size);

/* slidedb-gen with the printf-formatted arguments, then " --db 'db'" (none
 * when db is NULL): the command must come first. Nothing on stdin. The exit
 * code; stdout and stderr as tk_run gives them. */
int ck_gen(const char *db, char **out, char **err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* slidedb-lookup with "--db 'db'" (none when db is NULL), then the
 * printf-formatted arguments; input goes to stdin (NULL: empty). */
int ck_lookup(const char *db, const char *input, char **out, char **err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* `PROGRAM --version` and `PROGRAM -V` (a path of the build: SLIDEDB_GEN,
 * SLIDEDB_LOOKUP ...) print one line holding the program's name and the
 * library's version, and nothing on stderr. */
void ck_assert_version(const char *program);

/* Run, as it is, the command a message proposes ("build it with `CMD`"
 * or "build one with `CMD`"), with the programs under test first on PATH;
 * the test fails if the message has none or the command fails. */
void ck_run_hint(const char *message);

#endif
