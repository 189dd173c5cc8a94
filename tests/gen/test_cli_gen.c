/* SPDX-License-Identifier: MIT */
/* End-to-end tests of slidedb-gen that compute or compare: --json against
 * info, the version against the library's, identical bytes for any thread
 * count, rebuilding, a killed build, a foreign LMDB file, a full disk. What
 * is plain output (what full prints and builds, --goal, help, refusals and
 * usage errors, files that are not databases, $SLIDEDB_DB) is in
 * tests/cli/gen-*.md. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit/boards.h"
#include "kit/catalog.h"
#include "kit/files.h"
#include "kit/json.h"
#include "kit/messages.h"
#include "kit/run.h"
#include "kit/tables.h"
#include "kit/text.h"

enum { CMD_MAX = 8192, TEXT_MAX = 512 };

/* ------------------------------------------------------------------ */
/* Reading `info --json` and the one-line objects of --json               */

/* The number value of "key" after position p (its integer part: "seconds"
 * has decimals); -1 when absent. */
static long long json_number_after(const char *p, const char *key)
{
	const char *v = ck_json_value(p, key);
	if (!v)
		return -1;
	char *end;
	long long n = strtoll(v, &end, 10);
	return end == v ? -1 : n;
}

/* The crc32 of table `name` in JSON text. */
static void table_crc(char crc[16], const char *json, const char *name)
{
	const char *obj = ck_table_object(json, name);
	cr_assert(obj, "no table %s in %s", name, json);
	cr_assert(ck_json_str(obj, "crc32", crc, 16) == 1, "table %s has no crc32", name);
	cr_assert_eq(strlen(crc), 8, "crc32 '%s' of %s", crc, name);
}

static const char *TABLES_3X3[] = { "full-3x3-b0", "full-3x3-b1", "full-3x3-b4" };

/* ------------------------------------------------------------------ */
/* 1. What `full` builds                                                */

Test(gen_full, json_one_object_per_table)
{
	char db[TEXT_MAX];
	tk_tmp_path(db, sizeof db, "gen-json.lmdb");
	char *out, *err;
	int rc = ck_gen(db, &out, &err, "full 3x3 --json");
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert_str_empty(err);
	cr_assert_eq(tk_lines(out), 3, "one line per table: '%s'", out);
	ck_assert_tables(out, TABLES_3X3, 3, "--json output");
	char *info = ck_info_json(db, NULL);
	for (int i = 0; i < 3; i++) {
		const char *at = ck_table_object(out, TABLES_3X3[i]);
		const char *line_end = strchr(at, '\n');
		cr_assert(at[0] == '{' && line_end && line_end[-1] == '}', "'%s'", at);
		char obj[TEXT_MAX];   /* this table's line only */
		snprintf(obj, sizeof obj, "%.*s", (int)(line_end - at), at);
		char board[16], goal[64], crc[16], info_crc[16], info_goal[64];
		cr_assert(ck_json_str(obj, "size", board, sizeof board) == 1 ||
		          ck_json_str(obj, "board", board, sizeof board) == 1,
		          "no board size in '%s'", obj);
		cr_assert_str_eq(board, "3x3");
		cr_assert_eq(json_number_after(obj, "states"), 181440);
		table_crc(crc, obj, TABLES_3X3[i]);
		table_crc(info_crc, info, TABLES_3X3[i]);
		cr_assert_str_eq(crc, info_crc, "%s: --json and info disagree on the CRC",
		                 TABLES_3X3[i]);
		const char *iobj = ck_table_object(info, TABLES_3X3[i]);
		cr_assert_eq(json_number_after(obj, "max_distance"),
		             json_number_after(iobj, "max_distance"));
		cr_assert(ck_json_str(obj, "goal", goal, sizeof goal) == 1);
		cr_assert(ck_json_str(iobj, "goal", info_goal, sizeof info_goal) == 1);
		cr_assert_str_eq(goal, info_goal);
		cr_assert(json_number_after(obj, "seconds") >= 0, "'%s'", obj);
	}
	free(info);
	free(out);
	free(err);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* Version (help and its usage errors: tests/cli/gen-full.md, gen-errors.md) */

/* The version printed is the library's. */
Test(gen_usage, version_is_the_library_s)
{
	ck_assert_version(SLIDEDB_GEN);
}

/* ------------------------------------------------------------------ */
/* 2. The same bytes for any thread count                                */

Test(gen_threads, one_and_two_threads_build_the_same_bytes)
{
	char one[TEXT_MAX], two[TEXT_MAX];
	tk_tmp_path(one, sizeof one, "gen-t1.lmdb");
	tk_tmp_path(two, sizeof two, "gen-t2.lmdb");
	tk_build(one, "2x4", "--threads 1");
	tk_build(one, "3x3", "--threads 1");
	tk_build(two, "2x4", "--threads 2");
	tk_build(two, "3x3", "--threads 2");
	char *i1 = ck_info_json(one, NULL), *i2 = ck_info_json(two, NULL);
	ck_names n1 = ck_table_names(i1), n2 = ck_table_names(i2);
	cr_assert_eq(n1.n, n2.n, "%d tables vs %d", n1.n, n2.n);
	cr_assert_gt(n1.n, 3, "2x4 and 3x3 tables expected: %s", i1);
	int n2x4 = 0;
	for (int i = 0; i < n1.n; i++) {
		cr_assert_str_eq(n1.v[i], n2.v[i]);
		n2x4 += !strncmp(n1.v[i], "full-2x4-", 9);
		char c1[16], c2[16];
		table_crc(c1, i1, n1.v[i]);
		table_crc(c2, i2, n1.v[i]);
		cr_assert_str_eq(c1, c2, "%s: CRC %s with 1 thread, %s with 2", n1.v[i], c1, c2);
		cr_assert_eq(json_number_after(ck_table_object(i1, n1.v[i]), "threads"), 1);
		cr_assert_eq(json_number_after(ck_table_object(i2, n1.v[i]), "threads"), 2);
	}
	cr_assert_gt(n2x4, 0, "no 2x4 table: %s", i1);
	free(i1);
	free(i2);
	tk_assert_same_tables(one, two, -1, "one thread and two");
	ck_db_remove(one);
	ck_db_remove(two);
}

/* ------------------------------------------------------------------ */
/* 3. Rebuilding                                                        */

Test(gen_rebuild, rebuild_keeps_valid_and_other_sizes_stay)
{
	char db[TEXT_MAX];
	tk_tmp_path(db, sizeof db, "gen-rebuild.lmdb");
	tk_build(db, "3x3", NULL);
	char *first = ck_info_json(db, NULL);
	char *q = ck_random_queries(40, 8u);
	char *answers = ck_answers(db, q);

	/* The same size again, then one class again. */
	tk_build(db, "3x3", NULL);
	tk_build(db, "3x3", "--goal '1 2 3 4 0 5 6 7 8'");
	ck_assert_verify_ok(db, NULL, 3, "3x3 rebuilt");
	char *again = ck_info_json(db, NULL);
	ck_assert_tables(again, TABLES_3X3, 3, "3x3 rebuilt");
	for (int i = 0; i < 3; i++) {
		char a[16], b[16];
		table_crc(a, first, TABLES_3X3[i]);
		table_crc(b, again, TABLES_3X3[i]);
		cr_assert_str_eq(a, b, "%s changed on a rebuild", TABLES_3X3[i]);
	}
	char *answers2 = ck_answers(db, q);
	cr_assert_str_eq(answers2, answers, "answers changed on a rebuild");
	free(answers2);
	free(again);

	/* Other sizes join, and stay when 3x3 is built again. */
	tk_build(db, "2x3", NULL);
	tk_build(db, "3x3", NULL);
	ck_assert_verify_ok(db, NULL, 5, "2x3 then 3x3");
	char *info = ck_info_json(db, NULL);
	ck_names n = ck_table_names(info);
	int n2x3 = 0, n3x3 = 0;
	for (int i = 0; i < n.n; i++) {
		n2x3 += !strncmp(n.v[i], "full-2x3-", 9);
		n3x3 += !strncmp(n.v[i], "full-3x3-", 9);
	}
	cr_assert_gt(n2x3, 0, "the 2x3 tables are gone: %s", info);
	cr_assert_eq(n3x3, 3, "%s", info);
	cr_assert_eq(n2x3 + n3x3, n.n, "%s", info);
	free(info);
	answers2 = ck_answers(db, q);
	cr_assert_str_eq(answers2, answers);
	free(answers2);
	/* A 2x3 question (6 cells: 2x3 is the one size with tables). */
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "%s", "--json 1 2 3 4 0 5");
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert(strstr(out, "\"size\":\"2x3\"") && strstr(out, "\"distance\":1"), "'%s'", out);
	free(out);
	free(err);

	/* A fresh database: 2x3 first, then 3x3. */
	char db2[TEXT_MAX];
	tk_tmp_path(db2, sizeof db2, "gen-2x3-3x3.lmdb");
	tk_build(db2, "2x3", NULL);
	char *small = ck_info_json(db2, NULL);
	tk_build(db2, "3x3", NULL);
	char *both = ck_info_json(db2, NULL);
	ck_names ns = ck_table_names(small);
	for (int i = 0; i < ns.n; i++) {
		char a[16], b[16];
		table_crc(a, small, ns.v[i]);
		table_crc(b, both, ns.v[i]);
		cr_assert_str_eq(a, b, "%s changed when 3x3 was added", ns.v[i]);
	}
	cr_assert_eq(ck_table_names(both).n, ns.n + 3, "%s", both);
	ck_assert_verify_ok(db2, NULL, 5, "2x3 then 3x3, fresh");
	free(small);
	free(both);
	free(first);
	free(answers);
	free(q);
	ck_db_remove(db);
	ck_db_remove(db2);
}

/* ------------------------------------------------------------------ */
/* 4. A killed build                                                     */

Test(gen_crash, killed_build_leaves_the_database_intact, .timeout = 120)
{
	char db[TEXT_MAX];
	tk_tmp_path(db, sizeof db, "gen-killed.lmdb");
	tk_build(db, "3x3", NULL);
	char *before = ck_info_json(db, NULL);
	char *q = ck_random_queries(60, 99u);
	char *answers = ck_answers(db, q);

	/* A 3x4 build takes seconds and ~250 MB: kill it after one. */
	char cmd[CMD_MAX], *out, *err;
	snprintf(cmd, sizeof cmd, "(%s full 3x4 --db '%s' -q --threads 2 & pid=$!; sleep 1; "
	         "kill -9 $pid; wait $pid)", SLIDEDB_GEN, db);
	int rc = tk_run(cmd, NULL, &out, &err);
	cr_assert_eq(rc, 128 + 9, "the 3x4 build should have been killed mid-way (exit %d: %s)",
	             rc, err);
	free(out);
	free(err);

	ck_assert_verify_ok(db, NULL, 3, "after a killed build");
	char *after = ck_info_json(db, NULL);
	cr_assert_str_eq(after, before, "the catalog changed after a killed build");
	ck_names n = ck_table_names(after);
	ck_assert_tables(after, TABLES_3X3, 3, "after a killed build");
	cr_assert_eq(n.n, 3);
	char *answers2 = ck_answers(db, q);
	cr_assert_str_eq(answers2, answers, "answers changed after a killed build");
	free(answers2);
	free(after);

	/* The next build takes the dead writer's place. */
	tk_build(db, "2x3", NULL);
	ck_assert_verify_ok(db, NULL, 5, "a build after a killed build");
	after = ck_info_json(db, NULL);
	for (int i = 0; i < 3; i++) {
		char a[16], b[16];
		table_crc(a, before, TABLES_3X3[i]);
		table_crc(b, after, TABLES_3X3[i]);
		cr_assert_str_eq(a, b);
	}
	cr_assert(ck_table_object(after, "full-2x3-b0"), "%s", after);
	answers2 = ck_answers(db, q);
	cr_assert_str_eq(answers2, answers);
	free(answers2);
	free(after);
	free(before);
	free(answers);
	free(q);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* 5. Files that are not slidedb databases                               */

/* slidedb-gen refuses to build into path, names it, and leaves it byte for
 * byte. */
static void refused_unchanged(const char *path, const char *what)
{
	tk_snapshot was = tk_snap(path);
	char *out, *err;
	int rc = ck_gen(path, &out, &err, "full 2x3");
	ck_assert_refused(rc, 1, out, err, what, path, NULL);
	tk_assert_unchanged(&was, what);
	tk_snap_free(&was);
	free(out);
	free(err);
}

/* An LMDB file of another program (made by mdb_load, when installed); text,
 * bytes and a folder are in tests/cli/gen-files.md. */
Test(gen_db, a_foreign_lmdb_file_is_refused_and_unchanged)
{
	char path[TEXT_MAX];
	tk_tmp_path(path, sizeof path, "foreign.mdb");
	ck_foreign_lmdb(path);
	refused_unchanged(path, "a foreign LMDB file");
	char *out, *err;
	int rc = ck_gen(path, &out, &err, "full 2x3");
	ck_assert_refused(rc, 1, out, err, "a foreign LMDB file", "not a slidedb database", NULL);
	free(out);
	free(err);
	ck_db_remove(path);
}

/* A full disk is an error, never a crash or a damaged database: a reader that
 * must create its lock file once got a SIGBUS (exit 135), and a commit said
 * "Input/output error". Needs a small tmpfs (mounted here as root). */
Test(gen_full, a_full_disk_is_an_error_and_loses_nothing)
{
	char dir[] = "/tmp/slidedb-full-XXXXXX", db[128], cmd[512];
	cr_assert(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "mount -t tmpfs -o size=2m tmpfs '%s' 2>/dev/null", dir);
	if (system(cmd) != 0) {
		rmdir(dir);
		cr_skip_test("cannot mount a 2 MiB tmpfs here (not root?): a full disk is not tried");
	}
	snprintf(db, sizeof db, "%s/a.lmdb", dir);
	char *out, *err;
	cr_assert_eq(ck_gen(db, &out, &err, "full 2x4 -q"), 0, "%s", err);
	free(out);
	free(err);
	snprintf(cmd, sizeof cmd, "rm '%s-lock' && dd if=/dev/zero of='%s/fill' bs=1k count=3000 "
	         "2>/dev/null; true", db, dir);
	cr_assert_eq(system(cmd), 0);
	int rc = ck_lookup(db, NULL, &out, &err, "%s", "'1 2 3 4 5 6 0 7'");
	cr_assert_eq(rc, 1, "a reader on a full disk: exit %d: %s", rc, err);
	ck_assert_one_line(err, "lock file on a full disk");
	cr_assert(strstr(err, "no space left"), "%s", err);
	free(out);
	free(err);
	/* room for the lock file, not for the tables: the commit fails cleanly */
	snprintf(cmd, sizeof cmd, "rm '%s/fill' && dd if=/dev/zero of='%s/fill' bs=1k count=1700 "
	         "2>/dev/null; true", dir, dir);
	cr_assert_eq(system(cmd), 0);
	rc = ck_gen(db, &out, &err, "full 3x3");
	cr_assert_eq(rc, 1, "a commit on a full disk: exit %d", rc);
	ck_assert_one_line(err, "commit on a full disk");
	cr_assert(strstr(err, "no space left"), "%s", err);
	free(out);
	free(err);
	rc = ck_lookup(db, NULL, &out, &err, "%s", "verify");
	cr_assert_eq(rc, 0, "the database after a failed commit: %s %s", out, err);
	cr_assert(strstr(out, "2 tables, all intact"), "%s", out);
	free(out);
	free(err);
	snprintf(cmd, sizeof cmd, "umount '%s' && rmdir '%s'", dir, dir);
	cr_assert_eq(system(cmd), 0);
}
