/* Helpers shared by the end-to-end suites of the programs (test_cli_*.c):
 * running slidedb-gen and slidedb-lookup, whole files, growable text and
 * lines, flat JSON objects, and boards as text. Every helper fails the
 * running test (cr_assert) when it cannot do its job. */
#ifndef SLIDEDB_CLIKIT_H
#define SLIDEDB_CLIKIT_H

#include <stddef.h>

#include "testkit.h"

/* --- Running the programs. Both return the exit code; stdout and stderr as
 * tk_run gives them (malloc'ed; out or err NULL: dropped). */

/* slidedb-gen with the printf-formatted arguments, then " --db 'db'" (none
 * when db is NULL): the command must come first. Nothing on stdin. */
int ck_gen(const char *db, char **out, char **err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* slidedb-lookup with "--db 'db'" (none when db is NULL), then the
 * printf-formatted arguments; input goes to stdin (NULL: empty). */
int ck_lookup(const char *db, const char *input, char **out, char **err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Run, as it is, the command a message proposes ("build it with `CMD`"
 * or "build one with `CMD`"), with the programs under test first on PATH;
 * the test fails if the message has none or the command fails. */
void ck_run_hint(const char *message);

/* --- Files. */

/* The whole file (malloc'ed, NUL-terminated); its length in *size. */
char *ck_read_file(const char *path, size_t *size);   /* size may be NULL */

/* Create or replace the file with the size bytes of data. */
void ck_write_file(const char *path, const void *data, size_t size);

/* 1 if something exists at path, else 0. */
int ck_exists(const char *path);

/* Remove a database file and its lock file (either may be missing). */
void ck_db_remove(const char *path);

/* --- Messages. */

/* stderr holds exactly one non-empty line; what names the case in the
 * failure message. */
void ck_assert_one_line(const char *err, const char *what);

/* A query that fails: exit 1, one line on stderr that contains every
 * fragment given (a NULL-terminated list), and in its place on stdout
 * exactly one line "error: REASON", the reason stderr ends with: a caller
 * that reads one line per query stays in step. */
void ck_assert_bad_query(int rc, const char *out, const char *err, const char *what, ...);

/* --- Growable text and lines. */

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

/* --- Minimal JSON reading: flat objects, known keys. The first "key": at
 * or after obj is the one read. */

/* Where the value of "key" starts in obj, or NULL. */
const char *ck_json_value(const char *obj, const char *key);

/* A string value: 1 (copied to buf, escapes resolved naively), 0 if null,
 * -1 if the key is missing or of another type. */
int ck_json_str(const char *obj, const char *key, char *buf, size_t cap);

/* An integer value followed by ',' or '}': 1 (in *v), 0 if null, -1 if
 * missing or not a number. */
int ck_json_long(const char *obj, const char *key, long *v);

/* A boolean value: 1 true, 0 false, -1 missing or other. */
int ck_json_bool(const char *obj, const char *key);

/* --- Tables listed by `slidedb-lookup info --json`. */

enum { CK_MAX_TABLES = 32 };

/* Table names, in the order a listing gives them. */
typedef struct ck_names {
	int n;
	char v[CK_MAX_TABLES][SDB_NAME_MAX];
} ck_names;

/* Every table name in JSON text ({"name":"..." objects), in order. */
ck_names ck_table_names(const char *json);

/* The tables in JSON text are exactly want, in that order; what names the
 * case in a failure. */
void ck_assert_tables(const char *json, const char *const *want, int nwant, const char *what);

/* --- Boards. */

/* A board as text, held by value. */
typedef struct ck_btext {
	char s[3 * SDB_MAX_CELLS];
} ck_btext;

/* The board as space-separated numbers, 0 for the blank. */
ck_btext ck_board_text(const sdb_board *b);

/* The board in the compact notation: one character per cell, digits, then
 * a..f for tiles 10..15. */
ck_btext ck_board_compact(const sdb_board *b);

/* The board of text, of size w x h (0, 0: inferred from the text). */
sdb_board ck_parse_board(const char *text, int w, int h);

/* The standard goal of w x h: tiles in order, the blank in the last cell. */
sdb_board ck_std_goal(int w, int h);

#endif
