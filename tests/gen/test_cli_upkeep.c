/* SPDX-License-Identifier: MIT */
/* End-to-end tests of table upkeep (issue #7) that compute or compare:
 *  - slidedb-gen compact: the file shrinks after rebuilds, the catalog and
 *    the answers stay the same; refused while another process reads;
 *  - slidedb-gen export / import with several names, full-WxH, and tables
 *    that exist (--replace): every catalog field travels;
 *  - slidedb-lookup verify --prove finds tables changed in place;
 *  - defect 5: the help of a subcommand shows only its own options.
 * The library's sdb_table_select, sdb_db_remove and sdb_db_compact are checked
 * beside the commands that use them. What is plain output (rm of a table,
 * a set, a full size; compact's refusals; info and verify of names; bytes;
 * partial sets and set names, defect 6) is in tests/cli/upkeep-*.md. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <glob.h>
#include <stdarg.h>
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

enum { TEXT_MAX = 512, CMD_MAX = 8192 };

/* ------------------------------------------------------------------ */
/* Running the programs                                                 */

/* slidedb-gen ARGS (formatted) on db must succeed; its stdout (malloc'ed). */
static char *gen_ok(const char *db, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *gen_ok(const char *db, const char *fmt, ...)
{
	char args[CMD_MAX];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	cr_assert(n > 0 && (size_t)n < sizeof args);
	char *out, *err;
	int rc = ck_gen(db, &out, &err, "%s", args);
	cr_assert_eq(rc, 0, "slidedb-gen %s: exit %d: %s", args, rc, err);
	cr_assert_str_empty(err, "slidedb-gen %s: stderr '%s'", args, err);
	free(err);
	return out;
}

/* The same, output dropped. */
#define GEN(db, ...) free(gen_ok((db), __VA_ARGS__))

/* ------------------------------------------------------------------ */
/* The catalog as `slidedb-lookup info --json` prints it                 */

/* An integer field of a table object (must be there). */
static long field_long(const char *obj, const char *key)
{
	long v;
	cr_assert_eq(ck_json_long(obj, key, &v), 1, "no integer \"%s\" in %s", key, obj);
	return v;
}

/* ------------------------------------------------------------------ */
/* Files and answers                                                    */

static long long file_size(const char *path)
{
	struct stat st;
	cr_assert_eq(stat(path, &st), 0, "stat %s", path);
	return (long long)st.st_size;
}

/* The standard set of the suite: full 3x3, full 2x3, a complete 3x3 set. */
#define SET_3X3 "pdb-3x3-b0-1,2,3,4_5,6,7,8"
static const char *ALL_TABLES[] = {
	"full-2x3-b0", "full-2x3-b2", "full-3x3-b0", "full-3x3-b1", "full-3x3-b4",
	SET_3X3 "/g0", SET_3X3 "/g1",
};
enum { NALL = sizeof ALL_TABLES / sizeof *ALL_TABLES };

static void build_standard(const char *db)
{
	GEN(db, "full 3x3 -q");
	GEN(db, "full 2x3 -q");
	GEN(db, "pdb 3x3 --partition 1,2,3,4/5,6,7,8 -q");
	char *info = ck_info_json(db, NULL);
	ck_assert_tables(info, ALL_TABLES, NALL, "the standard database");
	free(info);
}

/* ------------------------------------------------------------------ */
/* 1. slidedb-gen rm                                                    */

Test(upkeep_rm, library_remove_and_select)
{
	char path[TEXT_MAX];
	tk_tmp_path(path, sizeof path, "rm-lib.lmdb");
	build_standard(path);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());

	/* sdb_table_select: what a name means, in name order; more than cap is
	 * counted, not written. */
	const sdb_table *t[8] = { 0 };
	cr_assert_eq(sdb_table_select(t, 8, db, "full-3x3"), 3);
	cr_assert_str_eq(sdb_table_meta(t[0])->name, "full-3x3-b0");
	cr_assert_str_eq(sdb_table_meta(t[2])->name, "full-3x3-b4");
	cr_assert_str_empty(sdb_error_detail());
	cr_assert_eq(sdb_table_select(t, 8, db, SET_3X3), 2);
	cr_assert_str_eq(sdb_table_meta(t[1])->name, SET_3X3 "/g1");
	cr_assert_eq(sdb_table_select(t, 8, db, "full-2x3-b2"), 1);
	cr_assert_str_eq(sdb_table_meta(t[0])->name, "full-2x3-b2");
	t[1] = NULL;
	cr_assert_eq(sdb_table_select(t, 1, db, "full-3x3"), 3);
	cr_assert_null(t[1], "sdb_table_select wrote past cap");
	cr_assert_eq(sdb_table_select(t, 0, db, SET_3X3 "/g0"), 1);
	const char *none[] = { "nothing", "full-3x3-b", "full-3x", "full", SET_3X3 "/g2", "" };
	for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
		cr_assert_eq(sdb_table_select(t, 8, db, none[i]), SDB_ENOTFOUND, "'%s'", none[i]);
		char want[64];
		snprintf(want, sizeof want, "'%s'", none[i]);
		cr_assert(strstr(sdb_error_detail(), want), "'%s'", sdb_error_detail());
	}

	/* sdb_db_remove needs a read-write handle. */
	int n = -1;
	cr_assert_eq(sdb_db_remove(db, (const char *[]){ "full-3x3" }, 1, &n), SDB_EINVAL);
	cr_assert_eq(n, 0);
	sdb_db_close(db);

	cr_assert_eq(sdb_db_open(&db, path, 0), 0, "%s", sdb_error_detail());
	n = -1;
	cr_assert_eq(sdb_db_remove(db, (const char *[]){ "full-2x3", "no-such", "full-3x3" }, 3, &n),
	             SDB_ENOTFOUND);
	cr_assert_eq(n, 0);
	cr_assert(strstr(sdb_error_detail(), "'no-such'"), "'%s'", sdb_error_detail());
	n = -1;
	cr_assert_eq(sdb_db_remove(db, (const char *[]){ "full-2x3", SET_3X3 "/g1" }, 2, &n), 0,
	             "%s", sdb_error_detail());
	cr_assert_eq(n, 3);
	cr_assert_str_empty(sdb_error_detail());
	sdb_db_close(db);

	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	cr_assert_eq(sdb_table_count(db), NALL - 3);
	cr_assert_null(sdb_table_find(db, "full-2x3-b0"));
	cr_assert_null(sdb_table_find(db, SET_3X3 "/g1"));
	cr_assert_not_null(sdb_table_find(db, SET_3X3 "/g0"));
	sdb_db_close(db);
	ck_db_remove(path);
}

/* ------------------------------------------------------------------ */
/* 2. slidedb-gen compact                                               */

Test(upkeep_compact, rebuilds_grow_the_file_and_compact_shrinks_it)
{
	char db[TEXT_MAX];
	tk_tmp_path(db, sizeof db, "compact.lmdb");
	long long sizes[3];
	for (int i = 0; i < 3; i++) {
		GEN(db, "full 3x3 -q");
		GEN(db, "pdb 3x3 --partition 1,2,3,4/5,6,7,8 -q");
		sizes[i] = file_size(db);
	}
	GEN(db, "full 2x3 -q");
	long long before = file_size(db);
	cr_assert_gt(sizes[2], sizes[0], "three rebuilds should grow the file (%lld, %lld)",
	             sizes[0], sizes[2]);
	char *info0 = ck_info_json(db, NULL);
	ck_assert_tables(info0, ALL_TABLES, NALL, "before compact");
	char *queries = ck_random_queries(60, 11);
	char *answers0 = ck_answers(db, queries);

	char *out = gen_ok(db, "compact");
	long long after = file_size(db);
	char want[2 * TEXT_MAX];
	snprintf(want, sizeof want, "compacted %s: %lld bytes -> %lld bytes\n", db, before, after);
	cr_assert_str_eq(out, want);
	free(out);
	cr_assert_lt(after, before, "compact gave nothing back (%lld -> %lld)", before, after);
	cr_assert_leq(after, sizes[0] + 65536,
	              "compacted (%lld) should be about the size of one build (%lld)", after,
	              sizes[0]);

	ck_assert_verify_ok(db, NULL, NALL, "after compact");
	char *info1 = ck_info_json(db, NULL);
	cr_assert_str_eq(info1, info0, "compact changed the catalog");
	char *answers1 = ck_answers(db, queries);
	cr_assert_str_eq(answers1, answers0, "compact changed the answers");

	/* The compacted file takes writes like any other; compacting again
	 * keeps it whole. */
	GEN(db, "full 2x3 -q");
	/* The copies of compacts that were killed (kill -9 midway) go with the
	 * next compact; names that only look alike stay. */
	const char *litter[] = { ".compact-1", ".compact-4242" }, *kept[] = { ".compact-", ".compact-12x",
	                                                                     "x.compact-7" };
	char name[TEXT_MAX + 16];
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof name, "%s%s", db, litter[i]);
		ck_write_file(name, "half a copy", 11);
	}
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof name, "%s%s", db, kept[i]);
		ck_write_file(name, "not a copy", 10);
	}
	out = gen_ok(db, "compact -q");
	cr_assert_str_empty(out);
	free(out);
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof name, "%s%s", db, litter[i]);
		cr_assert(access(name, F_OK) != 0, "%s is still there", name);
	}
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof name, "%s%s", db, kept[i]);
		cr_assert(access(name, F_OK) == 0, "%s was removed", name);
		unlink(name);
	}
	ck_assert_verify_ok(db, NULL, NALL, "after a rebuild and a second compact");
	free(info1);
	free(answers1);
	free(info0);
	free(answers0);
	free(queries);
	ck_db_remove(db);
}

/* A slidedb-lookup reading queries from a pipe this test holds open: it
 * has the database open, and so a read transaction, until the pipe closes. */
typedef struct reader {
	FILE *in;
	char out[TEXT_MAX];
	int answered;
} reader;

/* Wait (up to 60 s) until the reader has written `lines` answers. */
static void reader_wait(reader *r, int lines)
{
	for (int i = 0; i < 6000; i++, usleep(10000)) {
		if (!ck_exists(r->out))   /* the shell has not started yet */
			continue;
		char *text = ck_read_file(r->out, NULL);
		int n = tk_lines(text);
		free(text);
		if (n >= lines)
			return;
	}
	cr_assert_fail("the reader did not answer %d queries", lines);
}

static void reader_ask(reader *r, const char *query)
{
	cr_assert_gt(fprintf(r->in, "%s\n", query), 0);
	cr_assert_eq(fflush(r->in), 0);
	reader_wait(r, ++r->answered);
}

static void reader_start(reader *r, const char *db)
{
	tk_tmp_path(r->out, sizeof r->out, "reader.out");
	char cmd[CMD_MAX];
	snprintf(cmd, sizeof cmd, "exec %s --db '%s' --only distance >'%s' 2>&1", SLIDEDB_LOOKUP,
	         db, r->out);
	r->answered = 0;
	r->in = popen(cmd, "w");
	cr_assert(r->in, "cannot start the reader");
	reader_ask(r, "1 2 3 4 5 6 0 7 8");   /* answered: the database is open */
}

/* Close its input: it ends at the end of input. */
static void reader_stop(reader *r)
{
	int status = pclose(r->in);
	cr_assert_eq(status, 0, "the reader failed (status %d)", status);
	char *text = ck_read_file(r->out, NULL);
	cr_assert_eq(tk_lines(text), r->answered, "'%s'", text);
	free(text);
	unlink(r->out);
}

Test(upkeep_compact, refused_while_another_process_reads)
{
	char db[TEXT_MAX];
	tk_tmp_path(db, sizeof db, "compact-busy.lmdb");
	GEN(db, "full 3x3 -q");
	GEN(db, "full 3x3 -q");   /* a rebuild: there is space to give back */
	reader r;
	reader_start(&r, db);
	tk_snapshot s = tk_snap(db);
	char *out, *err;
	int rc = ck_gen(db, &out, &err, "compact");
	ck_assert_refused(rc, 1, out, err, "compact while reading", db,
	                  "in use by another program (process", NULL);
	free(out);
	free(err);
	tk_assert_unchanged(&s, "a refused compact");
	tk_snap_free(&s);
	reader_ask(&r, "1 2 3 4 5 6 7 0 8");   /* the reader is unharmed */
	char *text = ck_read_file(r.out, NULL);
	cr_assert_str_eq(text, "2\n1\n");
	free(text);
	reader_stop(&r);

	/* Once it has gone, compact works. */
	long long before = file_size(db);
	GEN(db, "compact -q");
	cr_assert_lt(file_size(db), before);
	ck_assert_verify_ok(db, NULL, 3, "compact after the reader left");
	ck_db_remove(db);
}

/* sdb_db_compact: a missing file (none made), a file that is not a database,
 * and the sizes it reports (the program's refusals: tests/cli/upkeep-rm.md). */
Test(upkeep_compact, library_missing_or_foreign_file_and_sizes)
{
	char db[TEXT_MAX];
	tk_tmp_path(db, sizeof db, "compact-missing.lmdb");
	uint64_t before = 1, after = 1;
	cr_assert_eq(sdb_db_compact(db, &before, &after), SDB_ENOTFOUND);
	cr_assert(!ck_exists(db));

	/* A file that is not a database is refused and left alone. */
	char junk[TEXT_MAX];
	tk_tmp_path(junk, sizeof junk, "compact-junk");
	ck_write_file(junk, "not a database\n", 15);
	tk_snapshot s = tk_snap(junk);
	cr_assert_eq(sdb_db_compact(junk, NULL, NULL), SDB_ECORRUPT, "%s", sdb_error_detail());
	tk_assert_unchanged(&s, "sdb_db_compact of a text file");
	tk_snap_free(&s);
	ck_db_remove(junk);

	/* The library reports the sizes. */
	GEN(db, "full 2x3 -q");
	GEN(db, "full 2x3 -q");
	long long size0 = file_size(db);
	cr_assert_eq(sdb_db_compact(db, &before, &after), 0, "%s", sdb_error_detail());
	cr_assert_str_empty(sdb_error_detail());
	cr_assert_eq((long long)before, size0);
	cr_assert_eq((long long)after, file_size(db));
	cr_assert_leq(after, before);
	cr_assert_eq(sdb_db_compact(db, NULL, NULL), 0, "%s", sdb_error_detail());
	ck_assert_verify_ok(db, NULL, 2, "after library compacts");
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* 3. export and import                                                 */

Test(upkeep_export, several_names_and_full_size)
{
	char db[TEXT_MAX], file[TEXT_MAX], copy[TEXT_MAX];
	tk_tmp_path(db, sizeof db, "export.lmdb");
	tk_tmp_path(file, sizeof file, "export.gz");
	tk_tmp_path(copy, sizeof copy, "export-copy.lmdb");
	build_standard(db);
	char *info0 = ck_info_json(db, NULL);

	/* A table, a set and a full size: 1 + 2 + 2 tables. */
	char *out = gen_ok(db, "export full-3x3-b4 %s full-2x3 -o '%s'", SET_3X3, file);
	char want[2 * TEXT_MAX];
	snprintf(want, sizeof want, "exported 5 tables to %s\n", file);
	cr_assert_str_eq(out, want);
	free(out);
	size_t size;
	unsigned char *gz = (unsigned char *)ck_read_file(file, &size);
	cr_assert(size > 2 && gz[0] == 0x1f && gz[1] == 0x8b, "not a gzip file");
	free(gz);
	out = gen_ok(copy, "import '%s'", file);
	cr_assert(strstr(out, "stored 5 tables"), "'%s'", out);
	free(out);
	char *info = ck_info_json(copy, NULL);
	const char *five[] = { "full-2x3-b0", "full-2x3-b2", "full-3x3-b4", SET_3X3 "/g0",
	                       SET_3X3 "/g1" };
	ck_assert_tables(info, five, 5, "imported");
	for (int i = 0; i < 5; i++) {   /* the whole catalog entry travels */
		char *a = ck_table_object_copy(info0, five[i]), *b = ck_table_object_copy(info, five[i]);
		cr_assert(a && b);
		cr_assert_str_eq(b, a, "%s changed on the way", five[i]);
		free(a);
		free(b);
	}
	free(info);
	ck_assert_verify_ok(copy, NULL, 5, "imported");
	ck_db_remove(copy);

	/* full-3x3: every goal class. */
	unlink(file);
	out = gen_ok(db, "export full-3x3 -o '%s'", file);
	snprintf(want, sizeof want, "exported 3 tables to %s\n", file);
	cr_assert_str_eq(out, want);
	free(out);
	free(gen_ok(copy, "import '%s' -q", file));
	info = ck_info_json(copy, NULL);
	ck_assert_tables(info, ALL_TABLES + 2, 3, "full-3x3 imported");
	free(info);
	char *queries = ck_random_queries(30, 5);
	char *a0 = ck_answers(db, queries), *a1 = ck_answers(copy, queries);
	cr_assert_str_eq(a1, a0, "the imported tables answer differently");
	free(a0);
	free(a1);
	free(queries);
	free(info0);
	unlink(file);
	ck_db_remove(copy);
	ck_db_remove(db);
}

Test(upkeep_export, import_over_existing_tables_needs_replace)
{
	char src[TEXT_MAX], dst[TEXT_MAX], file[TEXT_MAX];
	tk_tmp_path(src, sizeof src, "import-src.lmdb");
	tk_tmp_path(dst, sizeof dst, "import-dst.lmdb");
	tk_tmp_path(file, sizeof file, "import.gz");
	GEN(src, "full 3x3 -q --threads 1");
	GEN(dst, "full 3x3 -q --threads 2 --goal '1 2 3 4 0 5 6 7 8'");   /* only full-3x3-b4 */
	GEN(dst, "full 2x3 -q --threads 2");
	free(gen_ok(src, "export full-3x3 -o '%s' -q", file));

	/* The export's last table exists: refused, and none of the two before it
	 * stored. */
	char *info0 = ck_info_json(dst, NULL);
	tk_snapshot s = tk_snap(dst);
	char *out, *err;
	int rc = ck_gen(dst, &out, &err, "import '%s'", file);
	ck_assert_refused(rc, 1, out, err, "import over full-3x3-b4", "'full-3x3-b4'", "--replace",
	                  "nothing was imported", NULL);
	free(out);
	free(err);
	tk_assert_unchanged(&s, "a refused import");
	tk_snap_free(&s);
	char *info = ck_info_json(dst, NULL);
	cr_assert_str_eq(info, info0, "a refused import changed the catalog");
	free(info);

	/* --replace: all three stored, the existing one replaced by the export's. */
	out = gen_ok(dst, "import '%s' --replace", file);
	cr_assert(strstr(out, "stored 3 tables"), "'%s'", out);
	free(out);
	info = ck_info_json(dst, NULL);
	char *from = ck_info_json(src, NULL);
	ck_assert_tables(info, (const char *[]){ "full-2x3-b0", "full-2x3-b2", "full-3x3-b0",
	                                      "full-3x3-b1", "full-3x3-b4" }, 5, "after --replace");
	for (int i = 2; i < 5; i++) {
		char *a = ck_table_object_copy(from, ALL_TABLES[i]), *b = ck_table_object_copy(info, ALL_TABLES[i]);
		cr_assert_str_eq(b, a, "%s is not the export's", ALL_TABLES[i]);
		cr_assert_eq(field_long(b, "threads"), 1, "%s", b);
		free(a);
		free(b);
	}
	char *kept = ck_table_object_copy(info, "full-2x3-b0");
	cr_assert_eq(field_long(kept, "threads"), 2, "the other tables stay: %s", kept);
	free(kept);
	free(from);
	free(info);
	free(info0);
	ck_assert_verify_ok(dst, NULL, 5, "after import --replace");

	/* A failed import into a database that does not exist creates none. */
	char none[TEXT_MAX];
	tk_tmp_path(none, sizeof none, "import-none.lmdb");
	rc = ck_gen(none, &out, &err, "import '%s.missing'", file);
	ck_assert_refused(rc, 1, out, err, "import of a missing file", ".missing", NULL);
	free(out);
	free(err);
	cr_assert(!ck_exists(none), "a failed import created %s", none);
	unlink(file);
	ck_db_remove(src);
	ck_db_remove(dst);
}

/* ------------------------------------------------------------------ */
/* 4. info and verify with names                                        */

/* verify --prove (issue #35): every genuine table proved (exact; mod 3
 * only for two-bit tables; min-mode groups said to be unproved), and a
 * table changed in place with its checksums remade (two entries swapped and
 * written again through the writer, which computes every checksum), which
 * plain verify calls intact, is found: exit 1, one line naming the table
 * and the entry, the others still listed. Text and JSON. */
Test(upkeep_info, verify_prove_finds_tables_changed_with_their_checksums_remade,
     .timeout = 120)
{
	char db[TEXT_MAX], *out, *err;
	tk_tmp_path(db, sizeof db, "verify-prove.lmdb");
	build_standard(db);
	GEN(db, "full 2x4 --bits 2 -q");
	GEN(db, "pdb 3x3 --partition 1,2,3/4,5,6/7,8 --blank min -q");
	cr_assert_eq(ck_lookup(db, NULL, &out, &err, "verify --prove"), 0, "%s", err);
	cr_assert(strstr(out, "full-3x3-b0: ok, proved exact\n") &&
	          strstr(out, SET_3X3 "/g1: ok, proved exact\n") &&
	          strstr(out, "full-2x4-b0: ok, checked mod 3") && strstr(out, "not a proof") &&
	          strstr(out, "-min/g0: ok, not proved") &&
	          strstr(out, "12 tables, all intact; 7 proved exact, 2 checked mod 3 only, "
	                 "3 not proved\n"), "%s", out);
	free(out);
	free(err);
	static const char *const changed[] = { "full-3x3-b1", SET_3X3 "/g0", "full-2x4-b2" };
	for (int c = 0; c < 3; c++) {
		tk_rewrite_swapped(db, changed[c]);
		cr_assert_eq(ck_lookup(db, NULL, &out, &err, "verify %s", changed[c]), 0,
		             "%s: the checksums were not remade: %s", changed[c], err);
		free(out);
		free(err);
		const int rc = ck_lookup(db, NULL, &out, &err, "verify --prove --threads 2");
		char want[TEXT_MAX];
		snprintf(want, sizeof want, "'%s': entry ", changed[c]);
		cr_assert_eq(rc, 1, "%s changed: verify --prove exits %d: %s", changed[c], rc, out);
		cr_assert(strstr(err, want) && strstr(err, "fails the proof") && tk_lines(err) == 1, "%s",
		          err);
		cr_assert(strstr(out, "full-3x3-b0: ok, proved exact") && strstr(out, "DAMAGED"),
		          "%s", out);
		free(out);
		free(err);
		cr_assert_eq(ck_lookup(db, NULL, &out, &err, "verify --prove --json %s full-3x3-b0",
		                       changed[c]), 1);
		cr_assert(strstr(out, "\"ok\":false,\"error\":") && strstr(out, want) &&
		          strstr(out, "{\"name\":\"full-3x3-b0\",\"ok\":true,\"proof\":\"exact\"}") &&
		          tk_lines(out) == 2, "%s", out);
		free(out);
		free(err);
		GEN(db, "%s -q", c == 1 ? "pdb 3x3 --partition 1,2,3,4/5,6,7,8" :
		                 c == 0 ? "full 3x3" : "full 2x4 --bits 2");
	}
	cr_assert_eq(ck_lookup(db, NULL, &out, &err, "verify --prove --json"), 0, "%s", err);
	free(out);
	free(err);
	ck_db_remove(db);
}

/* ------------------------------------------------------------------ */
/* 5. Defect 5: options of another subcommand                           */

/* The options a help text lists (in its Options section). */
static int lists_option(const char *help, const char *option)
{
	const char *opts = strstr(help, "\nOptions:\n");
	cr_assert(opts, "no Options section: '%s'", help);
	char pat[64];
	snprintf(pat, sizeof pat, "%s ", option);
	return strstr(opts, pat) != NULL;
}

Test(upkeep_usage, help_of_a_command_shows_its_own_options)
{
	static const char *const options[] = {
		"--goal", "--all-goals", "--partition", "--blank", "--name", "--partial", "--output",
		"--replace", "--db", "--threads", "--json", "--quiet", "--progress", "--no-progress",
		"--help", "--version",
	};
	enum { NOPT = sizeof options / sizeof *options };
	static const struct {
		const char *command;
		const char *own;   /* the options it takes, as " --x --y " */
	} cases[] = {
		{ "full", " --goal --all-goals --db --threads --json --quiet --progress --no-progress " },
		{ "pdb", " --goal --partition --blank --name --partial --db --threads --json --quiet "
		         "--progress --no-progress " },
		{ "export", " --output --db --quiet --progress --no-progress " },
		{ "import", " --replace --db --threads --quiet --progress --no-progress " },
		{ "rm", " --db --quiet " },
		{ "compact", " --db --quiet " },
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		char *out, *err;
		int rc = ck_gen(NULL, &out, &err, "%s --help", cases[c].command);
		cr_assert_eq(rc, 0, "%s --help: exit %d", cases[c].command, rc);
		cr_assert_str_empty(err);
		char usage[64];
		snprintf(usage, sizeof usage, "Usage: slidedb-gen %s", cases[c].command);
		cr_assert(strstr(out, usage), "'%s'", out);
		for (size_t o = 0; o < sizeof cases / sizeof *cases; o++) {
			char other[64];
			snprintf(other, sizeof other, "slidedb-gen %s ", cases[o].command);
			cr_assert(o == c || !strstr(out, other), "%s --help shows '%s': '%s'",
			          cases[c].command, other, out);
		}
		for (int i = 0; i < NOPT; i++) {
			char word[32];
			snprintf(word, sizeof word, " %s ", options[i]);
			int own = strstr(cases[c].own, word) || !strcmp(options[i], "--help") ||
			          !strcmp(options[i], "--version");
			cr_assert_eq(lists_option(out, options[i]), own, "%s --help %s %s",
			             cases[c].command, own ? "lacks" : "lists", options[i]);
			/* Nowhere else either (examples, synopsis). */
			if (!own)
				cr_assert_null(strstr(out, options[i]), "%s --help mentions %s: '%s'",
				               cases[c].command, options[i], out);
		}
		free(out);
		free(err);
	}
	/* The program's help lists every command and every option. */
	char *out, *err;
	cr_assert_eq(ck_gen(NULL, &out, &err, "--help"), 0);
	const char *commands[] = { "full", "pdb", "export", "import", "rm", "compact" };
	for (size_t c = 0; c < sizeof commands / sizeof *commands; c++) {
		char pat[64];
		snprintf(pat, sizeof pat, "slidedb-gen %s ", commands[c]);
		cr_assert(strstr(out, pat), "--help lacks %s: '%s'", commands[c], out);
		snprintf(pat, sizeof pat, "\n  %s ", commands[c]);
		cr_assert(strstr(out, pat), "--help does not describe %s", commands[c]);
	}
	for (int i = 0; i < NOPT; i++)
		cr_assert(lists_option(out, options[i]), "--help lacks %s", options[i]);
	free(out);
	free(err);
}
