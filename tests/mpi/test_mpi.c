/* SPDX-License-Identifier: MIT */
/* slidedb-gen-mpi under mpirun -n 1, 2 and 4 on this machine: the tables are
 * byte for byte those of slidedb-gen (full tables of bytes and of two bits,
 * boards whose slices split blocks differently, a pattern set), shards join
 * into the same database, and a rank that dies fails the run with nothing
 * committed. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kit/files.h"
#include "kit/forge.h"
#include "kit/run.h"
#include "kit/tables.h"

/* mpirun -n RANKS slidedb-gen-mpi ARGS; the exit code, stderr in *err. */
static int mpi_gen(int ranks, char **err, const char *fmt, ...)
{
	char args[1024], cmd[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "mpirun -n %d --oversubscribe %s %s", ranks, SLIDEDB_GEN_MPI,
	         args);
	return tk_run(cmd, NULL, NULL, err);
}

/* 2x2 and 2x3: a slice whose table ends inside a 64-bit word. */
static const char *const builds[] = {
	"full 2x2", "full 2x3 --bits 2", "full 3x3", "full 3x3 --bits 2", "full 2x5", "full 5x2 --bits 2", "full 2x4 --all-goals",
	"pdb 3x3 --partition 1,2,3,4/5,6,7,8", "pdb 2x4 --partition 1,2,3/4,5,6,7 --blank min",
	"full 3x3 --metric mtm", "full 2x5 --metric mtm --bits 2",
};

Test(mpi, same_bytes_for_1_2_and_4_ranks, .timeout = 600)
{
	for (size_t b = 0; b < sizeof builds / sizeof *builds; b++) {
		char one[512];
		tk_tmp_path(one, sizeof one, "mpi-one.lmdb");
		cr_assert_eq(ck_gen(one, NULL, NULL, "%s -q", builds[b]), 0, "%s", builds[b]);
		for (int ranks = 1; ranks <= 4; ranks *= 2) {
			char many[512], *err, what[128];
			tk_tmp_path(many, sizeof many, "mpi-many.lmdb");
			int rc = mpi_gen(ranks, &err, "%s -q --db '%s'", builds[b], many);
			cr_assert_eq(rc, 0, "%s on %d ranks: %s", builds[b], ranks, err);
			free(err);
			snprintf(what, sizeof what, "%s on %d ranks", builds[b], ranks);
			tk_assert_same_tables(one, many, -1, what);
			ck_db_remove(many);
		}
		ck_db_remove(one);
	}
}

/* A FIFO where SLIDEDB_MPI_STATS's file should be (rank 0 waited for a
 * reader for ever): refused with a warning naming it, and the build goes
 * on. (Under `timeout`: a wait fails with 124, not at the suite's.) */
Test(mpi, a_fifo_for_the_statistics_is_not_waited_on, .timeout = 300)
{
	char fifo[512], one[512], many[512], cmd[2400], *err, want[700];
	tk_tmp_path(fifo, sizeof fifo, "stats.fifo");
	tk_tmp_path(one, sizeof one, "mpi-one.lmdb");
	tk_tmp_path(many, sizeof many, "mpi-many.lmdb");
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	cr_assert_eq(ck_gen(one, NULL, NULL, "full 2x3 -q"), 0);
	snprintf(cmd, sizeof cmd, "SLIDEDB_MPI_STATS='%s' timeout 120 mpirun -n 2 --oversubscribe %s "
	         "full 2x3 -q --db '%s'", fifo, SLIDEDB_GEN_MPI, many);
	cr_assert_eq(tk_run(cmd, NULL, NULL, &err), 0, "%s", err);
	snprintf(want, sizeof want, "warning: SLIDEDB_MPI_STATS: %s: not a regular file (a FIFO)", fifo);
	cr_assert(strstr(err, want), "%s", err);
	tk_assert_same_tables(one, many, -1, "with a FIFO for the statistics");
	free(err);
	unlink(fifo);
	ck_db_remove(one);
	ck_db_remove(many);
}

static void make_dir(char *path, size_t cap, const char *name)
{
	tk_tmp_path(path, cap, name);
	cr_assert_eq(mkdir(path, 0755), 0, "%s", path);
}

/* Shards from 4 ranks, gathered into two folders, assemble into the
 * database one machine builds; a set with a shard missing, of two runs, or
 * damaged is refused and writes nothing. */
Test(mpi, shards_assemble_into_the_same_database, .timeout = 300)
{
	char one[512], dir[512], other[512], db[512], *err, *out;
	tk_tmp_path(one, sizeof one, "mpi-one.lmdb");
	cr_assert_eq(ck_gen(one, NULL, NULL, "full 3x3 --bits 2 -q"), 0);
	make_dir(dir, sizeof dir, "shards");
	make_dir(other, sizeof other, "shards-b");
	int rc = mpi_gen(4, &err, "full 3x3 --bits 2 --shards '%s'", dir);
	cr_assert_eq(rc, 0, "%s", err);
	free(err);
	char from[1100], to[1100];
	snprintf(from, sizeof from, "%s/shard-3.lmdb", dir);
	snprintf(to, sizeof to, "%s/shard-3.lmdb", other);
	cr_assert_eq(rename(from, to), 0);
	/* one folder alone lacks rank 3 */
	tk_tmp_path(db, sizeof db, "assembled.lmdb");
	rc = ck_gen(db, &out, &err, "assemble '%s'", dir);
	cr_assert_eq(rc, 1);
	cr_assert(strstr(err, "rank 3"), "%s", err);
	cr_assert(!ck_exists(db), "a refused assembly writes nothing");
	free(out);
	free(err);
	rc = ck_gen(db, &out, &err, "assemble '%s' '%s'", dir, other);
	cr_assert_eq(rc, 0, "%s", err);
	cr_assert(strstr(out, "assembled 3 tables from 4 shards"), "%s", out);
	free(out);
	free(err);
	tk_assert_same_tables(one, db, -1, "assembled");
	/* again: the tables exist, --replace replaces them */
	rc = ck_gen(db, &out, &err, "assemble '%s' '%s'", dir, other);
	cr_assert(rc == 1 && strstr(err, "--replace"), "%s", err);
	free(out);
	free(err);
	cr_assert_eq(ck_gen(db, NULL, NULL, "assemble '%s' '%s' --replace -q", dir, other), 0);
	tk_assert_same_tables(one, db, -1, "assembled again");
	/* rank 3's shard from another run (of the same size) */
	char third[512];
	make_dir(third, sizeof third, "shards-c");
	cr_assert_eq(mpi_gen(4, NULL, "full 3x3 --bits 2 --shards '%s'", third), 0);
	snprintf(from, sizeof from, "%s/shard-3.lmdb", third);
	cr_assert_eq(rename(from, to), 0);
	char fresh[512];
	tk_tmp_path(fresh, sizeof fresh, "assembled-mixed.lmdb");
	rc = ck_gen(fresh, &out, &err, "assemble '%s' '%s'", dir, other);
	cr_assert(rc == 1 && strstr(err, "run"), "mixed runs: %s", err);
	cr_assert(!ck_exists(fresh));
	free(out);
	free(err);
	/* a damaged byte in a slice: its CRC says so */
	snprintf(from, sizeof from, "%s/shard-1.lmdb", third);
	size_t size;
	char *file = ck_read_file(from, &size);
	file[size - 4096 - 100] ^= 0x55;   /* inside the last data page */
	ck_write_file(from, file, size);
	free(file);
	rc = ck_gen(fresh, &out, &err, "assemble '%s'", third);
	cr_assert_eq(rc, 1, "%s", err);
	cr_assert(strstr(err, "CRC") || strstr(err, "shard"), "%s", err);
	cr_assert(!ck_exists(fresh));
	free(out);
	free(err);
	ck_db_remove(one);
	ck_db_remove(db);
}

/* A rank that dies mid-build: the run fails, the database is the one it
 * was, no new shard set can be assembled. */
Test(mpi, a_dying_rank_commits_nothing, .timeout = 300)
{
	char db[512], *err;
	tk_tmp_path(db, sizeof db, "mpi-dying.lmdb");
	cr_assert_eq(ck_gen(db, NULL, NULL, "full 2x3 -q"), 0);
	size_t before_size, after_size;
	char *before = ck_read_file(db, &before_size);
	setenv("SLIDEDB_MPI_FAIL", "1:4", 1);
	int rc = mpi_gen(2, &err, "full 3x3 --db '%s'", db);
	cr_assert_neq(rc, 0, "the run must fail");
	cr_assert(strstr(err, "rank 1"), "%s", err);
	free(err);
	char dir[512];
	make_dir(dir, sizeof dir, "shards-dying");
	rc = mpi_gen(4, &err, "full 3x3 --shards '%s'", dir);
	cr_assert_neq(rc, 0);
	free(err);
	unsetenv("SLIDEDB_MPI_FAIL");
	char *after = ck_read_file(db, &after_size);
	cr_assert(before_size == after_size && !memcmp(before, after, before_size),
	          "the database changed");
	free(before);
	free(after);
	char other[512], *out;
	tk_tmp_path(other, sizeof other, "mpi-dying-assembled.lmdb");
	rc = ck_gen(other, &out, &err, "assemble '%s'", dir);
	cr_assert_eq(rc, 1, "no complete shard set may be left: %s", out);
	free(out);
	free(err);
	ck_db_remove(db);
}

/* slidedb-gen-mpi builds; the rest is slidedb-gen's. Usage errors exit 2. */
Test(mpi, usage)
{
	char *err;
	cr_assert_eq(mpi_gen(2, &err, "rm full-3x3"), 2);
	cr_assert(strstr(err, "slidedb-gen's"), "%s", err);
	free(err);
	cr_assert_eq(mpi_gen(2, &err, "pdb 3x3 --partition 1,2,3,4/5,6,7,8 --shards /tmp"), 2);
	cr_assert(strstr(err, "--shards"), "%s", err);
	free(err);
	cr_assert_eq(mpi_gen(2, &err, "full 3x3 --checkpoint /tmp"), 2);   /* slidedb-gen's only */
	cr_assert(strstr(err, "--checkpoint"), "%s", err);
	free(err);
	char *out;
	cr_assert_eq(tk_run("mpirun -n 1 " SLIDEDB_GEN_MPI " --help", NULL, &out, NULL), 0);
	cr_assert(strstr(out, "--shards DIR") && strstr(out, "mpirun") && !strstr(out, "--checkpoint"),
	          "%s", out);
	free(out);
	/* its one option of its own, and assemble, are documented */
	char *man = ck_read_file(SLIDEDB_SOURCE_DIR "/doc/slidedb-gen-mpi.1", NULL);
	char *guide = ck_read_file(SLIDEDB_SOURCE_DIR "/doc/mpi.md", NULL);
	cr_assert(strstr(man, "\\-\\-shards") && strstr(guide, "--shards DIR"));
	cr_assert(strstr(guide, "slidedb-gen assemble") && strstr(guide, "slidedb-gen-mpi"));
	free(man);
	free(guide);
}

/* A rank's slice crafted as a careful forger would: two entries swapped (the
 * counts stay) and the shard written again, so that its CRC-32 matches.
 * Assemble proves every table against its neighbours before the commit and
 * refuses it, naming the entry; the genuine set assembles. */
Test(mpi, a_forged_shard_fails_the_proof, .timeout = 300)
{
	char dir[512], db[512], path[1100], forged[1100], *out, *err;
	make_dir(dir, sizeof dir, "shards-forged");
	cr_assert_eq(mpi_gen(2, NULL, "full 3x3 --shards '%s'", dir), 0);
	snprintf(path, sizeof path, "%s/shard-1.lmdb", dir);
	snprintf(forged, sizeof forged, "%s/forged.lmdb", dir);
	sdb_shard *in, *to;
	cr_assert_eq(sdb_shard_open(&in, path), 0, "%s", sdb_error_detail());
	cr_assert_eq(sdb_shard_create(&to, forged), 0, "%s", sdb_error_detail());
	for (int i = 0; i < sdb_shard_tables(in); i++) {
		const sdb_shard_info s = *sdb_shard_table(in, i);
		uint64_t bytes;
		const uint8_t *data = sdb_shard_chunk(in, i, 0, &bytes);
		cr_assert(data && bytes == s.hi - s.lo, "%s", sdb_error_detail());
		uint8_t *copy = malloc(bytes);
		cr_assert(copy);
		memcpy(copy, data, bytes);
		if (i == 0) {   /* the slice's entries are a table of their own to the forger */
			sdb_table_info slice = s.table;
			slice.states = bytes;
			uint64_t at[2];
			cr_assert_eq(forge_entries_to_swap(at, &slice, copy, 0), 0);
			forge_swap(copy, &slice, at);
		}
		cr_assert_eq(sdb_shard_add(to, &s, copy), 0, "%s", sdb_error_detail());
		free(copy);
	}
	sdb_shard_close(in);
	cr_assert_eq(sdb_shard_commit(to), 0, "%s", sdb_error_detail());
	tk_tmp_path(db, sizeof db, "assembled-genuine.lmdb");
	cr_assert_eq(ck_gen(db, NULL, NULL, "assemble '%s' -q", dir), 0, "the genuine set");
	ck_db_remove(db);
	cr_assert_eq(rename(forged, path), 0);
	tk_tmp_path(db, sizeof db, "assembled-forged.lmdb");
	int rc = ck_gen(db, &out, &err, "assemble '%s'", dir);
	cr_assert_eq(rc, 1, "a forged slice was assembled: %s", out);
	cr_assert(strstr(err, "full-3x3-b") && strstr(err, "fails the proof"), "%s", err);
	sdb_db *h;
	cr_assert_eq(sdb_db_open(&h, db, SDB_RDONLY), 0, "%s", sdb_error_detail());
	cr_assert_eq(sdb_table_count(h), 0, "a refused assembly stores nothing");
	sdb_db_close(h);
	ck_db_remove(db);
	free(out);
	free(err);
}
