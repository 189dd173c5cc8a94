/* SPDX-License-Identifier: MIT */
/* Whole files and databases for the suites; see files.h. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

#include "kit/files.h"
#include "kit/run.h"

enum { PATH_MAX_LEN = 512 };

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

void ck_scratch_dir(char *dir, size_t cap, const char *name)
{
	tk_tmp_path(dir, cap, name);
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(mkdir(dir, 0755), 0, "cannot create %s", dir);
}

void ck_remove_dir(const char *dir)
{
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(system(cmd), 0);
}

tk_snapshot tk_snap(const char *path)
{
	tk_snapshot s;
	snprintf(s.path, sizeof s.path, "%s", path);
	s.data = ck_read_file(path, &s.size);
	return s;
}

void tk_assert_unchanged(const tk_snapshot *s, const char *what)
{
	size_t size;
	char *now = ck_read_file(s->path, &size);
	cr_assert(size == s->size && !memcmp(now, s->data, size),
	          "%s: %s changed (%zu bytes, was %zu)", what, s->path, size, s->size);
	free(now);
}

void tk_snap_free(tk_snapshot *s)
{
	free(s->data);
	s->data = NULL;
}

void ck_foreign_lmdb(const char *path)
{
	if (tk_run("command -v mdb_load", NULL, NULL, NULL) != 0)
		cr_skip_test("mdb_load (lmdb-utils) is not installed: no LMDB file of another program");
	char dump[PATH_MAX_LEN], cmd[3 * PATH_MAX_LEN];
	tk_tmp_path(dump, sizeof dump, "dump.txt");
	const char *d = "VERSION=3\nformat=bytevalue\ntype=btree\nHEADER=END\n 6b6579\n"
	                " 76616c\nDATA=END\n";
	ck_write_file(dump, d, strlen(d));
	snprintf(cmd, sizeof cmd, "mdb_load -n -f '%s' '%s'", dump, path);
	cr_assert_eq(tk_run(cmd, NULL, NULL, NULL), 0, "%s", cmd);
	unlink(dump);
}
