/* SPDX-License-Identifier: MIT */
/* End-to-end tests of restartable levels (slidedb-gen --checkpoint): a
 * build that dies after a level, run again, goes on from its checkpoint
 * and stores the bytes of a build that never stopped; a damaged, truncated
 * or foreign checkpoint is refused with the database untouched; a
 * checkpoint that cannot be written costs a warning, not the build. A FIFO,
 * a link or a busy folder and bad options: tests/cli/checkpoint.md. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "kit/catalog.h"
#include "kit/files.h"
#include "kit/json.h"
#include "kit/messages.h"
#include "kit/run.h"
#include "kit/text.h"

enum { TEXT_MAX = 512 };

/* Every table of db and its CRC-32, "name crc" per line, in catalog order
 * (empty when db has none). */
static char *tables_and_crcs(const char *db)
{
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "%s", "info --json");
	cr_assert_eq(rc, 0, "info --json of %s: %s", db, err);
	ck_names names = ck_table_names(out);
	ck_sbuf s = { 0 };
	ck_sb_printf(&s, "%s", "");
	for (int i = 0; i < names.n; i++) {
		char crc[16];
		const char *obj = ck_table_object(out, names.v[i]);
		cr_assert(obj && ck_json_str(obj, "crc32", crc, sizeof crc) == 1, "%s", out);
		ck_sb_printf(&s, "%s %s\n", names.v[i], crc);
	}
	free(out);
	free(err);
	return s.s;
}

/* The names of the files in dir, sorted, one per line. */
static char *files_in(const char *dir)
{
	char cmd[2 * TEXT_MAX], *out;
	snprintf(cmd, sizeof cmd, "ls -1 '%s'", dir);
	cr_assert_eq(tk_run(cmd, NULL, &out, NULL), 0);
	return out;
}

/* A database holding only 2x3's table: what a failed build must leave. */
static void db_with_2x3(char *db, size_t cap, const char *name)
{
	tk_tmp_path(db, cap, name);
	ck_db_remove(db);
	tk_build(db, "2x3", NULL);
}

/* build dies after level `die` (SLIDEDB_GEN_DIE, as a kill would end it)
 * with a checkpoint after every level, leaving db as it was and
 * DIR/first.ckpt behind; then the same command resumes and stores the
 * bytes of a build without checkpoints, and the folder empties. */
static void dies_and_resumes(const char *build, int die, const char *first)
{
	char ref[TEXT_MAX], db[TEXT_MAX], dir[TEXT_MAX], *out, *err;
	tk_tmp_path(ref, sizeof ref, "ckpt-ref.lmdb");
	ck_db_remove(ref);
	cr_assert_eq(ck_gen(ref, NULL, NULL, "%s -q", build), 0, "%s", build);
	tk_build(ref, "2x3", NULL);
	char *want = tables_and_crcs(ref);
	db_with_2x3(db, sizeof db, "ckpt.lmdb");
	char *before = tables_and_crcs(db);
	ck_scratch_dir(dir, sizeof dir, "ckpt-dir");

	char die_at[16];
	snprintf(die_at, sizeof die_at, "%d", die);
	setenv("SLIDEDB_GEN_DIE", die_at, 1);
	int rc = ck_gen(db, &out, &err, "%s --checkpoint '%s' --checkpoint-every 0", build, dir);
	unsetenv("SLIDEDB_GEN_DIE");
	cr_assert_eq(rc, 3, "%s: should have died after level %d (exit %d: %s)", build, die, rc, err);
	cr_assert(strstr(err, "dying after level"), "%s: %s", build, err);
	free(out);
	free(err);
	char *now = tables_and_crcs(db);
	cr_assert_str_eq(now, before, "%s: a build that died changed the database", build);
	free(now);
	char *files = files_in(dir), expect[SDB_NAME_MAX + 8];
	snprintf(expect, sizeof expect, "%s.ckpt\n", first);
	cr_assert_str_eq(files, expect, "%s: the checkpoints left: '%s'", build, files);
	free(files);

	rc = ck_gen(db, &out, &err, "%s --checkpoint '%s'", build, dir);
	cr_assert_eq(rc, 0, "%s: the resumed build failed: %s", build, err);
	char resumed[64];
	snprintf(resumed, sizeof resumed, "resuming after level %d ", die);
	cr_assert(strstr(err, resumed) && strstr(err, first), "%s: stderr '%s'", build, err);
	ck_assert_one_line(err, build);
	free(out);
	free(err);
	now = tables_and_crcs(db);
	cr_assert_str_eq(now, want, "%s: the resumed build's tables differ:\n%s\nagainst\n%s", build,
	                 now, want);
	files = files_in(dir);
	cr_assert_str_empty(files, "%s: checkpoints left after the commit: '%s'", build, files);
	free(files);
	free(now);
	free(want);
	free(before);
	ck_db_remove(db);
	ck_db_remove(ref);
}

Test(checkpoint, a_build_that_died_resumes_with_the_same_bytes, .timeout = 300)
{
	/* bytes with best moves, two bits (3x3: the walk; 5x2: the word-at-
	 * a-time sweep), and pattern groups; 3x3 builds three tables and dies
	 * in its first */
	dies_and_resumes("full 3x3", 12, "full-3x3-b0");
	dies_and_resumes("full 3x3 --bits 2", 20, "full-3x3-b0");
	dies_and_resumes("full 5x2 --bits 2 --threads 2", 30, "full-5x2-b0");
	dies_and_resumes("pdb 3x3 --partition 1,2,3,4/5,6,7,8 --threads 1", 6,
	                 "pdb-3x3-b0-1,2,3,4_5,6,7,8.g0");
}

/* A checkpoint of `build` (full 3x3 ...) died after level 15, in dir. */
static void leave_checkpoint_of(const char *build, const char *dir, char *path, size_t cap)
{
	char scratch[TEXT_MAX];
	tk_tmp_path(scratch, sizeof scratch, "ckpt-scratch.lmdb");
	setenv("SLIDEDB_GEN_DIE", "15", 1);
	int rc = ck_gen(scratch, NULL, NULL, "%s --checkpoint '%s' --checkpoint-every 0", build,
	                dir);
	unsetenv("SLIDEDB_GEN_DIE");
	cr_assert_eq(rc, 3);
	ck_db_remove(scratch);
	snprintf(path, cap, "%s/full-3x3-b0.ckpt", dir);
	cr_assert(ck_exists(path));
}

/* A checkpoint of full 3x3 --bits 2 died after level 15, in dir. */
static void leave_checkpoint(const char *dir, char *path, size_t cap)
{
	leave_checkpoint_of("full 3x3 --bits 2", dir, path, cap);
}

/* The build refuses the checkpoint: exit 1, one line naming the file and
 * saying what is wrong, the database and the checkpoint left as they were. */
static void refused(const char *dir, const char *path, const char *build, const char *why,
                    const char *what)
{
	char db[TEXT_MAX], *out, *err;
	db_with_2x3(db, sizeof db, "ckpt-refused.lmdb");
	char *before = tables_and_crcs(db);
	tk_snapshot file = tk_snap(path);
	int rc = ck_gen(db, &out, &err, "%s --checkpoint '%s'", build, dir);
	ck_assert_refused(rc, 1, out, err, what, path, why, NULL);
	char *now = tables_and_crcs(db);
	cr_assert_str_eq(now, before, "%s: the database changed", what);
	tk_assert_unchanged(&file, what);
	tk_snap_free(&file);
	free(out);
	free(err);
	free(now);
	free(before);
	ck_db_remove(db);
}

Test(checkpoint, damaged_truncated_or_foreign_checkpoints_are_refused, .timeout = 120)
{
	char dir[TEXT_MAX], path[TEXT_MAX + 32];
	ck_scratch_dir(dir, sizeof dir, "ckpt-bad");
	leave_checkpoint(dir, path, sizeof path);
	size_t n;
	char *good = ck_read_file(path, &n);

	char *bad = malloc(n);
	cr_assert(bad);
	memcpy(bad, good, n);
	bad[n / 2] ^= 0x10;   /* a bit of the table */
	ck_write_file(path, bad, n);
	refused(dir, path, "full 3x3 --bits 2", "damaged", "a flipped bit");
	memcpy(bad, good, n);
	bad[40] ^= 0x01;      /* a bit of the header */
	ck_write_file(path, bad, n);
	refused(dir, path, "full 3x3 --bits 2", "damaged", "a flipped header bit");
	ck_write_file(path, good, n - 1000);
	refused(dir, path, "full 3x3 --bits 2", "truncated", "a truncated checkpoint");
	ck_write_file(path, good, n);
	refused(dir, path, "full 3x3 --bits 8 --goal '1 2 3 4 5 6 7 8 0'", "bits per state",
	        "a two-bit checkpoint for a build of bytes");
	free(bad);

	/* a half-written file beside a whole one (a kill while saving): the
	 * whole one is used, and both go once the build is committed */
	char tmp[TEXT_MAX + 64], db[TEXT_MAX], *err;
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	ck_write_file(tmp, good, n / 3);
	tk_tmp_path(db, sizeof db, "ckpt-half.lmdb");
	ck_db_remove(db);
	cr_assert_eq(ck_gen(db, NULL, &err, "full 3x3 --bits 2 --checkpoint '%s'", dir), 0, "%s",
	             err);
	cr_assert(strstr(err, "resuming after level 15"), "%s", err);
	free(err);
	char *files = files_in(dir);
	cr_assert_str_empty(files, "left: '%s'", files);
	free(files);
	free(good);
	ck_db_remove(db);
}

Test(checkpoint, another_partition_under_the_same_name_is_refused, .timeout = 120)
{
	/* a pattern set's name says nothing of its groups' tiles: the file must */
	char dir[TEXT_MAX], scratch[TEXT_MAX], path[TEXT_MAX + 32];
	ck_scratch_dir(dir, sizeof dir, "ckpt-partition");
	tk_tmp_path(scratch, sizeof scratch, "ckpt-partition.lmdb");
	ck_db_remove(scratch);
	setenv("SLIDEDB_GEN_DIE", "8", 1);
	int rc = ck_gen(scratch, NULL, NULL, "pdb 3x3 --partition 1,2,3,4/5,6,7,8 --name same "
	                "--checkpoint '%s' --checkpoint-every 0", dir);
	unsetenv("SLIDEDB_GEN_DIE");
	cr_assert_eq(rc, 3);
	snprintf(path, sizeof path, "%s/same.g0.ckpt", dir);
	refused(dir, path, "pdb 3x3 --partition 1,2,5,6/3,4,7,8 --name same", "another table",
	        "a checkpoint of another partition");
	/* and a pattern group's file under a full table's name */
	char full[TEXT_MAX + 32];
	snprintf(full, sizeof full, "%s/full-3x3-b0.ckpt", dir);
	size_t n;
	char *data = ck_read_file(path, &n);
	ck_write_file(full, data, n);
	unlink(path);
	refused(dir, full, "full 3x3 --bits 8", "another table", "a pattern group's checkpoint");
	free(data);
	ck_db_remove(scratch);
}

Test(checkpoint, a_checkpoint_that_cannot_be_written_warns_and_the_build_goes_on)
{
	char dir[TEXT_MAX], tmp[2 * TEXT_MAX], db[TEXT_MAX], ref[TEXT_MAX], *out, *err;
	ck_scratch_dir(dir, sizeof dir, "ckpt-unwritable");
	snprintf(tmp, sizeof tmp, "%s/full-3x3-b0.ckpt.tmp", dir);
	cr_assert_eq(mkdir(tmp, 0755), 0);   /* where the file would go: a folder */
	tk_tmp_path(db, sizeof db, "ckpt-unwritable.lmdb");
	tk_tmp_path(ref, sizeof ref, "ckpt-unwritable-ref.lmdb");
	ck_db_remove(db);
	ck_db_remove(ref);
	cr_assert_eq(ck_gen(ref, NULL, NULL, "full 3x3 --bits 2 -q"), 0);
	int rc = ck_gen(db, &out, &err, "full 3x3 --bits 2 --checkpoint '%s' --checkpoint-every 0",
	                dir);
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert(strstr(err, "warning: full-3x3-b0: no checkpoint after level 1 (") &&
	          strstr(err, "the build goes on"), "%s", err);
	char *a = tables_and_crcs(db), *b = tables_and_crcs(ref);
	cr_assert_str_eq(a, b);
	free(a);
	free(b);
	free(out);
	free(err);
	rmdir(tmp);
	ck_db_remove(db);
	ck_db_remove(ref);
}

/* A checkpoint's layout (gen/checkpoint.c, version 2): a header of 1264
 * bytes whose table size is at byte 192, counts start at 208, reached at
 * 1240, the state's CRC at 1256 and the header's at 1260; then the table,
 * then the marks. */
enum { CK_HEADER = 1264, CK_TABLE_BYTES = 192, CK_COUNTS = 208, CK_REACHED = 1240,
       CK_STATE_CRC = 1256, CK_HEADER_CRC = 1260 };

static void put_u32(char *at, uint32_t v)
{
	memcpy(at, &v, 4);   /* the machine's order, as the file */
}

/* An entry at level 15 made unreached, the counts adjusted and both CRCs
 * recomputed: a checkpoint only a person would write. */
static void craft(char *file, size_t n, int two_bit)
{
	uint64_t table_bytes, count, reached;
	memcpy(&table_bytes, file + CK_TABLE_BYTES, 8);
	uint8_t *t = (uint8_t *)file + CK_HEADER;
	uint64_t i = 0;
	for (; i < (two_bit ? 4 * table_bytes : table_bytes); i++)
		if (two_bit ? (t[i / 4] >> (2 * (i % 4)) & 3) == 15 % 3 : (t[i] & 0x3f) == 15)
			break;
	cr_assert_lt(i, two_bit ? 4 * table_bytes : table_bytes, "no entry at level 15");
	if (two_bit)
		t[i / 4] |= (uint8_t)(3 << (2 * (i % 4)));
	else
		t[i] = 0xff;
	memcpy(&count, file + CK_COUNTS + 8 * 15, 8);
	memcpy(&reached, file + CK_REACHED, 8);
	count--;
	reached--;
	memcpy(file + CK_COUNTS + 8 * 15, &count, 8);
	memcpy(file + CK_REACHED, &reached, 8);
	put_u32(file + CK_STATE_CRC, (uint32_t)crc32_z(0, t, n - CK_HEADER));
	put_u32(file + CK_HEADER_CRC, 0);
	put_u32(file + CK_HEADER_CRC, (uint32_t)crc32_z(0, (const Bytef *)file, CK_HEADER));
}

/* A crafted checkpoint passes every check of the file (its CRCs are right)
 * and the build goes on from it; the resumed table is then proved entry by
 * entry before it is committed, and the wrong one never is. */
Test(checkpoint, a_crafted_checkpoint_never_commits_a_wrong_table, .timeout = 120)
{
	const char *builds[] = { "full 3x3", "full 3x3 --bits 2" };
	for (int b = 0; b < 2; b++) {
		char dir[TEXT_MAX], path[TEXT_MAX + 32];
		ck_scratch_dir(dir, sizeof dir, "ckpt-crafted");
		leave_checkpoint_of(builds[b], dir, path, sizeof path);
		size_t n;
		char *file = ck_read_file(path, &n);
		craft(file, n, b == 1);
		ck_write_file(path, file, n);
		free(file);
		char db[TEXT_MAX], *out, *err;
		db_with_2x3(db, sizeof db, "ckpt-crafted.lmdb");
		char *before = tables_and_crcs(db);
		int rc = ck_gen(db, &out, &err, "%s --checkpoint '%s'", builds[b], dir);
		cr_assert_eq(rc, 1, "%s: exit %d (%s)", builds[b], rc, err);
		cr_assert(strstr(err, "resuming after level 15") && strstr(err, "is wrong") &&
		          strstr(err, "altered"), "%s: %s", builds[b], err);
		cr_assert_eq(tk_lines(err), 2, "the resume, then the refusal: %s", err);
		char *now = tables_and_crcs(db);
		cr_assert_str_eq(now, before, "%s: the database changed", builds[b]);
		free(out);
		free(err);
		free(now);
		free(before);
		ck_db_remove(db);
	}
}
