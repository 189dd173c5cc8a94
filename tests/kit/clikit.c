/* End-to-end test helpers; see clikit.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clikit.h"

enum { CMD_MAX = 8192, PATH_MAX_LEN = 512 };

/* ------------------------------------------------------------------ */
/* Running the programs                                                 */

/* Run prog with the formatted arguments and "--db 'db'" (unless db is NULL)
 * before them, or after them when db_last. */
static int run_prog(const char *prog, const char *db, int db_last, const char *input,
                    char **out, char **err, const char *fmt, va_list ap)
{
	char cmd[CMD_MAX];
	int len = db && !db_last ? snprintf(cmd, sizeof cmd, "%s --db '%s' ", prog, db)
	                         : snprintf(cmd, sizeof cmd, "%s ", prog);
	cr_assert(len > 0 && (size_t)len < sizeof cmd);
	int more = vsnprintf(cmd + len, sizeof cmd - (size_t)len, fmt, ap);
	cr_assert(more >= 0 && (size_t)(len + more) < sizeof cmd, "command too long");
	len += more;
	if (db && db_last) {
		more = snprintf(cmd + len, sizeof cmd - (size_t)len, " --db '%s'", db);
		cr_assert(more >= 0 && (size_t)(len + more) < sizeof cmd, "command too long");
	}
	return tk_run(cmd, input, out, err);
}

int ck_gen(const char *db, char **out, char **err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = run_prog(SLIDEDB_GEN, db, 1, NULL, out, err, fmt, ap);
	va_end(ap);
	return rc;
}

int ck_lookup(const char *db, const char *input, char **out, char **err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = run_prog(SLIDEDB_LOOKUP, db, 0, input, out, err, fmt, ap);
	va_end(ap);
	return rc;
}

void ck_run_hint(const char *message)
{
	const char *at = strstr(message, "with `");
	cr_assert(at, "no command in '%s'", message);
	at += 6;
	const char *end = strchr(at, '`');
	cr_assert(end, "no end of the command in '%s'", message);
	/* The programs the hint names are the ones under test. */
	char dir[PATH_MAX_LEN], cmd[CMD_MAX];
	snprintf(dir, sizeof dir, "%s", SLIDEDB_GEN);
	*strrchr(dir, '/') = '\0';
	int len = snprintf(cmd, sizeof cmd, "PATH='%s':\"$PATH\" %.*s", dir, (int)(end - at), at);
	cr_assert(len > 0 && (size_t)len < sizeof cmd);
	char *err;
	int rc = tk_run(cmd, NULL, NULL, &err);
	cr_assert_eq(rc, 0, "the hint `%.*s` failed (exit %d): %s", (int)(end - at), at, rc, err);
	free(err);
}

/* ------------------------------------------------------------------ */
/* Files                                                                */

char *ck_read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	cr_assert(f, "cannot read %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	cr_assert(s);
	cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	if (size)
		*size = (size_t)n;
	return s;
}

void ck_write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	cr_assert(f, "cannot write %s", path);
	cr_assert_eq(fwrite(data, 1, size, f), size);
	fclose(f);
}

int ck_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

void ck_db_remove(const char *path)
{
	char lock[PATH_MAX_LEN + 8];
	snprintf(lock, sizeof lock, "%s-lock", path);
	unlink(path);
	unlink(lock);
}

void ck_assert_one_line(const char *err, const char *what)
{
	size_t len = strlen(err);
	cr_assert(len > 1 && err[len - 1] == '\n' && tk_lines(err) == 1,
	          "%s: expected a one-line message on stderr, got '%s'", what, err);
}

/* ------------------------------------------------------------------ */
/* Growable text and lines                                              */

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

/* ------------------------------------------------------------------ */
/* Minimal JSON reading                                                 */

const char *ck_json_value(const char *obj, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof pat, "\"%s\":", key);
	const char *p = strstr(obj, pat);
	return p ? p + strlen(pat) : NULL;
}

int ck_json_str(const char *obj, const char *key, char *buf, size_t cap)
{
	const char *p = ck_json_value(obj, key);
	if (!p)
		return -1;
	if (!strncmp(p, "null", 4))
		return 0;
	if (*p != '"')
		return -1;
	size_t n = 0;
	for (p++; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1])
			p++;
		if (n + 1 < cap)
			buf[n++] = *p;
	}
	buf[n] = '\0';
	return *p == '"' ? 1 : -1;
}

int ck_json_long(const char *obj, const char *key, long *v)
{
	const char *p = ck_json_value(obj, key);
	if (!p)
		return -1;
	if (!strncmp(p, "null", 4))
		return 0;
	char *end;
	*v = strtol(p, &end, 10);
	return end != p && (*end == ',' || *end == '}') ? 1 : -1;
}

int ck_json_bool(const char *obj, const char *key)
{
	const char *p = ck_json_value(obj, key);
	if (p && !strncmp(p, "true", 4))
		return 1;
	if (p && !strncmp(p, "false", 5))
		return 0;
	return -1;
}

/* ------------------------------------------------------------------ */
/* Boards                                                               */

ck_btext ck_board_compact(const sdb_board *b)
{
	ck_btext t;
	for (int i = 0; i < b->n; i++)
		t.s[i] = "0123456789abcdef"[b->cell[i]];
	t.s[b->n] = '\0';
	return t;
}

ck_btext ck_board_text(const sdb_board *b)
{
	ck_btext t;
	cr_assert_gt(sdb_board_format(t.s, sizeof t.s, b), 0);
	return t;
}

sdb_board ck_parse_board(const char *text, int w, int h)
{
	sdb_board b;
	cr_assert_eq(sdb_board_parse(&b, text, w, h), 0, "cannot parse '%s': %s", text,
	             sdb_errdetail());
	return b;
}

sdb_board ck_std_goal(int w, int h)
{
	sdb_board g;
	cr_assert_eq(sdb_board_goal(&g, w, h, w * h - 1), 0);
	return g;
}

/* ------------------------------------------------------------------ */
/* Tables listed by info --json                                         */

ck_names ck_table_names(const char *json)
{
	ck_names r = { 0 };
	for (const char *p = json; (p = strstr(p, "{\"name\":\"")); p++) {
		cr_assert_lt(r.n, CK_MAX_TABLES);
		cr_assert(ck_json_str(p, "name", r.v[r.n], SDB_NAME_MAX) == 1);
		r.n++;
	}
	return r;
}

void ck_assert_tables(const char *json, const char *const *want, int nwant, const char *what)
{
	ck_names got = ck_table_names(json);
	cr_assert_eq(got.n, nwant, "%s: %d tables, expected %d: %s", what, got.n, nwant, json);
	for (int i = 0; i < nwant; i++)
		cr_assert_str_eq(got.v[i], want[i], "%s: table %d", what, i);
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
	for (const char *frag; (frag = va_arg(ap, const char *)) != NULL;)
		cr_assert(strstr(err, frag), "%s: message '%s' lacks '%s'", what, err, frag);
	va_end(ap);
}
