/* End-to-end tests of slidedb-gen that compute or compare: --json against
 * info, the version against the library's, identical bytes for any thread
 * count, rebuilding, a killed build, a foreign LMDB file, a full disk. What
 * is plain output (what full prints and builds, --goal, help, refusals and
 * usage errors, files that are not databases, $SLIDEDB_DB) is in
 * tests/cli/gen-*.md. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clikit.h"

enum { CMD_MAX = 8192, TEXT_MAX = 512 };

/* ------------------------------------------------------------------ */
/* Refusals                                                             */

/* A refusal: exit code want, nothing on stdout, one stderr line with the
 * fragment. */
static void assert_refused(int rc, int want, char *out, char *err, const char *what,
                           const char *fragment)
{
	cr_assert_eq(rc, want, "%s: exit %d, expected %d (stderr: %s)", what, rc, want, err);
	cr_assert_str_empty(out, "%s: stdout should be empty: '%s'", what, out);
	ck_assert_one_line(err, what);
	cr_assert(strstr(err, fragment), "%s: message '%s' lacks '%s'", what, err, fragment);
	free(out);
	free(err);
}

/* ------------------------------------------------------------------ */
/* Reading `info --json` and the one-line objects of --json               */

/* `slidedb-lookup info --json` of db (must succeed). */
static char *info_json(const char *db)
{
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "%s", "info --json");
	cr_assert_eq(rc, 0, "info --json of %s failed: %s", db, err);
	cr_assert_str_empty(err);
	cr_assert_eq(tk_lines(out), 1, "info --json is one line: '%s'", out);
	free(err);
	return out;
}

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

/* The object of table `name` inside JSON text: where it starts, or NULL. */
static const char *table_object(const char *json, const char *name)
{
	char pat[SDB_NAME_MAX + 16];
	snprintf(pat, sizeof pat, "{\"name\":\"%s\"", name);
	return strstr(json, pat);
}

/* The crc32 of table `name` in JSON text. */
static void table_crc(char crc[16], const char *json, const char *name)
{
	const char *obj = table_object(json, name);
	cr_assert(obj, "no table %s in %s", name, json);
	cr_assert(ck_json_str(obj, "crc32", crc, 16) == 1, "table %s has no crc32", name);
	cr_assert_eq(strlen(crc), 8, "crc32 '%s' of %s", crc, name);
}

static const char *TABLES_3X3[] = { "full-3x3-b0", "full-3x3-b1", "full-3x3-b4" };

/* verify succeeds and says so for every table. */
static void assert_verify_ok(const char *db, const char *what)
{
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "%s", "verify");
	cr_assert_eq(rc, 0, "%s: verify exits %d: %s", what, rc, err);
	cr_assert_str_empty(err, "%s: %s", what, err);
	cr_assert(strstr(out, "all intact"), "%s: '%s'", what, out);
	free(out);
	free(err);
}

/* A fixed set of queries answered from db, as --json lines (exit 0). */
static char *some_answers(const char *db, const char *queries)
{
	char *out, *err;
	int rc = ck_lookup(db, queries, &out, &err, "%s", "--json --path");
	cr_assert_eq(rc, 0, "answers from %s: %s", db, err);
	cr_assert_str_empty(err);
	free(err);
	return out;
}

/* Queries for 3x3 goals with the blank in corners, edges and the centre. */
static char *queries_3x3(int count, unsigned seed)
{
	size_t cap = (size_t)count * 64 + 1, len = 0;
	char *s = malloc(cap);
	cr_assert(s);
	s[0] = '\0';
	sdb_board std;
	cr_assert_eq(sdb_board_goal(&std, 3, 3, 8), 0);
	for (int i = 0; i < count; i++) {
		sdb_board g, b;
		tk_random_walk(&g, &std, 7 + i % 13, &seed);
		tk_random_walk(&b, &g, 1 + (int)(rand_r(&seed) % 60), &seed);
		char bs[3 * SDB_MAX_CELLS], gs[3 * SDB_MAX_CELLS];
		sdb_board_format(bs, sizeof bs, &b);
		sdb_board_format(gs, sizeof gs, &g);
		len += (size_t)snprintf(s + len, cap - len, "%s ; %s\n", bs, gs);
	}
	return s;
}

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
	char *info = info_json(db);
	for (int i = 0; i < 3; i++) {
		const char *at = table_object(out, TABLES_3X3[i]);
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
		const char *iobj = table_object(info, TABLES_3X3[i]);
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
	const char *version[] = { "--version", "-V" };
	for (size_t i = 0; i < 2; i++) {
		char *out, *err;
		int rc = ck_gen(NULL, &out, &err, "%s", version[i]);
		cr_assert_eq(rc, 0, "%s: exit %d", version[i], rc);
		cr_assert(strstr(out, sdb_version()) && strstr(out, "slidedb-gen"), "'%s'", out);
		cr_assert_eq(tk_lines(out), 1);
		cr_assert_str_empty(err);
		free(out);
		free(err);
	}
}

/* ------------------------------------------------------------------ */
/* 2. The same bytes for any thread count                                */

/* Every table of a and b has the same bytes (through the library). */
static void assert_same_tables(const char *a, const char *b)
{
	sdb_db *da, *dbb;
	cr_assert_eq(sdb_db_open(&da, a, SDB_RDONLY), 0, "%s", sdb_errdetail());
	cr_assert_eq(sdb_db_open(&dbb, b, SDB_RDONLY), 0, "%s", sdb_errdetail());
	cr_assert_eq(sdb_table_count(da), sdb_table_count(dbb));
	for (int i = 0; i < sdb_table_count(da); i++) {
		const sdb_table *ta = sdb_table_at(da, i), *tb = sdb_table_at(dbb, i);
		const sdb_table_info *ia = sdb_table_meta(ta), *ib = sdb_table_meta(tb);
		cr_assert_str_eq(ia->name, ib->name);
		cr_assert_eq(ia->states, ib->states);
		const uint8_t *x = sdb_table_data(ta), *y = sdb_table_data(tb);
		cr_assert(x && y, "%s", sdb_errdetail());
		uint64_t k = 0;
		while (k < ia->states && x[k] == y[k])
			k++;
		cr_assert_eq(k, ia->states, "%s: entry %llu differs (%02x vs %02x)", ia->name,
		             (unsigned long long)k, x[k], y[k]);
	}
	sdb_db_close(da);
	sdb_db_close(dbb);
}

Test(gen_threads, one_and_two_threads_build_the_same_bytes)
{
	char one[TEXT_MAX], two[TEXT_MAX];
	tk_tmp_path(one, sizeof one, "gen-t1.lmdb");
	tk_tmp_path(two, sizeof two, "gen-t2.lmdb");
	tk_build(one, "2x4", "--threads 1");
	tk_build(one, "3x3", "--threads 1");
	tk_build(two, "2x4", "--threads 2");
	tk_build(two, "3x3", "--threads 2");
	char *i1 = info_json(one), *i2 = info_json(two);
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
		cr_assert_eq(json_number_after(table_object(i1, n1.v[i]), "threads"), 1);
		cr_assert_eq(json_number_after(table_object(i2, n1.v[i]), "threads"), 2);
	}
	cr_assert_gt(n2x4, 0, "no 2x4 table: %s", i1);
	free(i1);
	free(i2);
	assert_same_tables(one, two);
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
	char *first = info_json(db);
	char *q = queries_3x3(40, 8u);
	char *answers = some_answers(db, q);

	/* The same size again, then one class again. */
	tk_build(db, "3x3", NULL);
	tk_build(db, "3x3", "--goal '1 2 3 4 0 5 6 7 8'");
	assert_verify_ok(db, "3x3 rebuilt");
	char *again = info_json(db);
	ck_assert_tables(again, TABLES_3X3, 3, "3x3 rebuilt");
	for (int i = 0; i < 3; i++) {
		char a[16], b[16];
		table_crc(a, first, TABLES_3X3[i]);
		table_crc(b, again, TABLES_3X3[i]);
		cr_assert_str_eq(a, b, "%s changed on a rebuild", TABLES_3X3[i]);
	}
	char *answers2 = some_answers(db, q);
	cr_assert_str_eq(answers2, answers, "answers changed on a rebuild");
	free(answers2);
	free(again);

	/* Other sizes join, and stay when 3x3 is built again. */
	tk_build(db, "2x3", NULL);
	tk_build(db, "3x3", NULL);
	assert_verify_ok(db, "2x3 then 3x3");
	char *info = info_json(db);
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
	answers2 = some_answers(db, q);
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
	char *small = info_json(db2);
	tk_build(db2, "3x3", NULL);
	char *both = info_json(db2);
	ck_names ns = ck_table_names(small);
	for (int i = 0; i < ns.n; i++) {
		char a[16], b[16];
		table_crc(a, small, ns.v[i]);
		table_crc(b, both, ns.v[i]);
		cr_assert_str_eq(a, b, "%s changed when 3x3 was added", ns.v[i]);
	}
	cr_assert_eq(ck_table_names(both).n, ns.n + 3, "%s", both);
	assert_verify_ok(db2, "2x3 then 3x3, fresh");
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
	char *before = info_json(db);
	char *q = queries_3x3(60, 99u);
	char *answers = some_answers(db, q);

	/* A 3x4 build takes seconds and ~250 MB: kill it after one. */
	char cmd[CMD_MAX], *out, *err;
	snprintf(cmd, sizeof cmd, "(%s full 3x4 --db '%s' -q --threads 2 & pid=$!; sleep 1; "
	         "kill -9 $pid; wait $pid)", SLIDEDB_GEN, db);
	int rc = tk_run(cmd, NULL, &out, &err);
	cr_assert_eq(rc, 128 + 9, "the 3x4 build should have been killed mid-way (exit %d: %s)",
	             rc, err);
	free(out);
	free(err);

	assert_verify_ok(db, "after a killed build");
	char *after = info_json(db);
	cr_assert_str_eq(after, before, "the catalog changed after a killed build");
	ck_names n = ck_table_names(after);
	ck_assert_tables(after, TABLES_3X3, 3, "after a killed build");
	cr_assert_eq(n.n, 3);
	char *answers2 = some_answers(db, q);
	cr_assert_str_eq(answers2, answers, "answers changed after a killed build");
	free(answers2);
	free(after);

	/* The next build takes the dead writer's place. */
	tk_build(db, "2x3", NULL);
	assert_verify_ok(db, "a build after a killed build");
	after = info_json(db);
	for (int i = 0; i < 3; i++) {
		char a[16], b[16];
		table_crc(a, before, TABLES_3X3[i]);
		table_crc(b, after, TABLES_3X3[i]);
		cr_assert_str_eq(a, b);
	}
	cr_assert(table_object(after, "full-2x3-b0"), "%s", after);
	answers2 = some_answers(db, q);
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

/* slidedb-gen refuses to build into path, and leaves it byte for byte. */
static void refused_unchanged(const char *path, const char *what)
{
	size_t n0, n1;
	char *was = ck_read_file(path, &n0);
	char *out, *err;
	int rc = ck_gen(path, &out, &err, "full 2x3");
	cr_assert(strstr(err, path), "%s: '%s' does not name the file", what, err);
	assert_refused(rc, 1, out, err, what, "");
	char *now = ck_read_file(path, &n1);
	cr_assert(n0 == n1 && memcmp(was, now, n0) == 0, "%s was changed by slidedb-gen", what);
	free(was);
	free(now);
}

/* An LMDB file of another program (made by mdb_load, when installed); text,
 * bytes and a folder are in tests/cli/gen-files.md. */
Test(gen_db, a_foreign_lmdb_file_is_refused_and_unchanged)
{
	if (tk_run("command -v mdb_load", NULL, NULL, NULL) != 0)
		cr_skip_test("mdb_load (lmdb-utils) is not installed");
	char path[TEXT_MAX], dump[TEXT_MAX], cmd[CMD_MAX];
	tk_tmp_path(dump, sizeof dump, "dump.txt");
	tk_tmp_path(path, sizeof path, "foreign.mdb");
	const char *d = "VERSION=3\nformat=bytevalue\ntype=btree\nHEADER=END\n 6b6579\n"
	                " 76616c\nDATA=END\n";
	ck_write_file(dump, d, strlen(d));
	snprintf(cmd, sizeof cmd, "mdb_load -n -f '%s' '%s'", dump, path);
	cr_assert_eq(tk_run(cmd, NULL, NULL, NULL), 0);
	refused_unchanged(path, "a foreign LMDB file");
	char *out, *err;
	int rc = ck_gen(path, &out, &err, "full 2x3");
	assert_refused(rc, 1, out, err, "a foreign LMDB file", "not a slidedb database");
	unlink(dump);
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
