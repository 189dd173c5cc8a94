/* SPDX-License-Identifier: MIT */
/* Running the programs under test; see run.h. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/env_tuning.h"
#include "kit/files.h"
#include "kit/run.h"
#include "kit/text.h"
#include "slidedb.h"

enum { CMD_MAX = 8192, PATH_MAX_LEN = 512 };

void tk_tmp_path(char *buf, size_t cap, const char *name)
{
	static int serial;
	mkdir(SLIDEDB_TEST_TMP, 0755);
	snprintf(buf, cap, "%s/%d-%d-%s", SLIDEDB_TEST_TMP, (int)getpid(), serial++, name);
	unlink(buf);
}

int tk_run(const char *cmd, const char *input, char **out, char **err)
{
	char in_path[512], out_path[512], err_path[512];
	tk_tmp_path(in_path, sizeof in_path, "stdin");
	tk_tmp_path(out_path, sizeof out_path, "stdout");
	tk_tmp_path(err_path, sizeof err_path, "stderr");
	FILE *f = fopen(in_path, "wb");
	cr_assert(f);
	if (input)
		fputs(input, f);
	fclose(f);
	size_t len = strlen(cmd) + 3 * 512 + 32;
	char *full = malloc(len);
	snprintf(full, len, "%s <'%s' >'%s' 2>'%s'", cmd, in_path, out_path, err_path);
	int status = system(full);
	free(full);
	char *o = ck_read_file(out_path, NULL), *e = ck_read_file(err_path, NULL);
	unlink(in_path);
	unlink(out_path);
	unlink(err_path);
	if (out)
		*out = o;
	else
		free(o);
	if (err)
		*err = e;
	else
		free(e);
	cr_assert(WIFEXITED(status), "'%s' did not exit normally (crash?)", cmd);
	return WEXITSTATUS(status);
}

void tk_build(const char *db, const char *size, const char *extra)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s full %s --db '%s' -q %s", SLIDEDB_GEN, size, db,
	         extra ? extra : "");
	char *err;
	int rc = tk_run(cmd, NULL, NULL, &err);
	cr_assert_eq(rc, 0, "slidedb-gen failed: %s", err);
	free(err);
}

void tk_build_scratch(char *path, size_t cap, const char *size)
{
	char name[64];
	snprintf(name, sizeof name, "full-%s.lmdb", size);
	tk_tmp_path(path, cap, name);
	tk_build(path, size, NULL);
}

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

void ck_assert_version(const char *program)
{
	const char *name = strrchr(program, '/') ? strrchr(program, '/') + 1 : program;
	static const char *const options[] = { "--version", "-V" };
	for (int i = 0; i < 2; i++) {
		char cmd[PATH_MAX_LEN + 16], *out, *err;
		snprintf(cmd, sizeof cmd, "%s %s", program, options[i]);
		int rc = tk_run(cmd, NULL, &out, &err);
		cr_assert_eq(rc, 0, "%s: exit %d", cmd, rc);
		cr_assert(strstr(out, sdb_version()) && strstr(out, name), "%s: '%s'", cmd, out);
		cr_assert_eq(tk_lines(out), 1, "%s: '%s'", cmd, out);
		cr_assert_str_empty(err, "%s", cmd);
		free(out);
		free(err);
	}
}

void tk_knob(const char *name, const char *value)
{
	if (value)
		setenv(name, value, 1);
	else
		unsetenv(name);
	/* as the programs take them (cli/env_tuning.h) */
	cr_assert_eq(env_tuning_apply(), -1, "%s='%s' refused", name, value ? value : "");
}
