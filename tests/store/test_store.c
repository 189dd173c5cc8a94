/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* memmem */
/* The LMDB store: create, write in one transaction, read zero-copy, refuse
 * damaged, foreign, truncated and other-version files without changing them. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "kit/boards.h"
#include "kit/files.h"
#include "kit/run.h"
#include "kit/tables.h"

static const int corner[1] = { 0 };

/* One of slidedb's named LMDB databases in a file, opened with LMDB itself
 * (to read or damage what the library hides): a transaction, read-only
 * when rdonly, that the caller commits or aborts, then closes env. */
static MDB_txn *raw_open(MDB_env **env, MDB_dbi *dbi, const char *path, const char *name,
                         int rdonly)
{
	MDB_txn *txn;
	cr_assert_eq(mdb_env_create(env), 0);
	cr_assert_eq(mdb_env_set_maxdbs(*env, 4), 0);
	cr_assert_eq(mdb_env_open(*env, path, MDB_NOSUBDIR | (rdonly ? MDB_RDONLY : 0), 0644), 0);
	cr_assert_eq(mdb_txn_begin(*env, NULL, rdonly ? MDB_RDONLY : 0, &txn), 0);
	cr_assert_eq(mdb_dbi_open(txn, name, 0, dbi), 0);
	return txn;
}

Test(store, missing_file_is_not_found)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "none.lmdb");
	sdb_db *db = (sdb_db *)1;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), SDB_ENOTFOUND);
	cr_assert_null(db);
	cr_assert(strstr(sdb_error_detail(), path));
	cr_assert(strstr(sdb_error_detail(), "slidedb-gen"));
	cr_assert_eq(sdb_db_open(&db, path, 0), SDB_ENOTFOUND, "no SDB_CREATE: must not create");
	cr_assert_neq(access(path, F_OK), 0);
}

/* sdb_file_open(): no wait on a FIFO (to read: no writer; to write: no
 * reader), a device, a socket, a folder or (O_NOFOLLOW) a link; each is
 * refused at once, named, with errno EINVAL; a regular file comes back
 * blocking as usual. */
Test(store, files_are_opened_without_waiting, .timeout = 20)
{
	static const char *const names[] = { "fifo", "dir", "sock", "link", "file", "missing" };
	char base[512], path[6][600];
	tk_tmp_path(base, sizeof base, "open");
	cr_assert_eq(mkdir(base, 0700), 0);
	for (int i = 0; i < 6; i++)
		snprintf(path[i], sizeof path[i], "%s/%s", base, names[i]);
	const char *fifo = path[0], *dir = path[1], *sock = path[2], *link = path[3], *file = path[4],
	           *missing = path[5];
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	cr_assert_eq(mkdir(dir, 0700), 0);
	ck_write_file(file, "x", 1);
	cr_assert_eq(symlink(file, link), 0);
	char cmd[1400];
	snprintf(cmd, sizeof cmd, "python3 -c 'import socket,sys; "
	         "socket.socket(socket.AF_UNIX).bind(sys.argv[1])' '%s'", sock);
	cr_assert_eq(system(cmd), 0);
	const struct { const char *path; int flags; const char *kind; } odd[] = {
		{ fifo, O_RDONLY, "a FIFO" }, { fifo, O_WRONLY, "a FIFO" },
		{ fifo, O_RDWR | O_CREAT, "a FIFO" }, { "/dev/null", O_RDONLY, "a device" },
		{ dir, O_RDONLY, "a folder" }, { dir, O_WRONLY, "a folder" },
		{ sock, O_RDONLY, "a socket" }, { link, O_RDONLY | O_NOFOLLOW, "a symbolic link" },
	};
	for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
		errno = 0;
		const int fd = sdb_file_open(odd[i].path, odd[i].flags, 0600);
		cr_assert_eq(fd, SDB_EIO, "%s: %d", odd[i].path, fd);
		cr_assert_eq(errno, EINVAL, "%s", odd[i].path);
		char want[700];
		snprintf(want, sizeof want, "%s: not a regular file (%s)", odd[i].path, odd[i].kind);
		cr_assert_str_eq(sdb_error_detail(), want);
	}
	cr_assert_eq(sdb_file_open(missing, O_RDONLY, 0), SDB_ENOTFOUND);
	cr_assert_eq(errno, ENOENT);
	cr_assert(strstr(sdb_error_detail(), missing), "%s", sdb_error_detail());
	int fd = sdb_file_open(link, O_RDONLY, 0);   /* a link, followed when allowed */
	cr_assert_geq(fd, 0, "%s", sdb_error_detail());
	cr_assert_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0, "blocking again");
	cr_assert_neq(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0, "closed on exec");
	close(fd);
	fd = sdb_file_open(missing, O_WRONLY | O_CREAT | O_EXCL, 0600);
	cr_assert_geq(fd, 0, "%s", sdb_error_detail());
	close(fd);
	snprintf(cmd, sizeof cmd, "rm -r '%s'", base);
	cr_assert_eq(system(cmd), 0);
}

Test(store, write_then_read)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "rw.lmdb");
	tk_build_lib(path, 3, 3, corner, 1);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	cr_assert_str_eq(sdb_db_path(db), path);
	cr_assert_eq(sdb_table_count(db), 1);
	const sdb_table *t = sdb_table_at(db, 0);
	const sdb_table_info *in = sdb_table_meta(t);
	cr_assert_str_eq(in->name, "full-3x3-b0");
	cr_assert_eq(in->states, 181440);
	cr_assert_eq(in->max_distance, 31);
	cr_assert_eq(in->format_version, SDB_FORMAT_VERSION);
	cr_assert_eq(sdb_table_find(db, "full-3x3-b0"), t);
	cr_assert_null(sdb_table_find(db, "full-3x3-b4"));
	cr_assert_null(sdb_table_at(db, 1));
	const uint8_t *data = sdb_table_data(t);
	cr_assert_not_null(data);
	cr_assert_eq(sdb_table_data(t), data, "the pointer is stable for the handle's life");
	cr_assert_eq(sdb_table_verify(t), 0);
	uint64_t sum = 0;
	for (uint64_t i = 0; i < in->states; i++)
		sum += data[i] & 0x3f;
	uint64_t want = 0;
	for (int d = 0; d <= in->max_distance; d++)
		want += (uint64_t)d * in->counts[d];
	cr_assert_eq(sum, want, "the stored bytes are the counted ones");
	sdb_board g;
	sdb_board_goal(&g, 3, 3, 0);
	cr_assert_eq(sdb_table_distance(t, &g), 0);
	sdb_db_close(db);
	sdb_db_close(NULL);
}

/* The stored CRC-32 of every table is zlib's crc32 of its entries (the
 * library computes it with ISA-L, and its verify must agree): a table of
 * 360 bytes whole, and two-bit tables of 453 KB in 4 KiB chunks. */
Test(store, crc32_is_zlibs)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "crc.lmdb");
	tk_build_lib(path, 2, 3, corner, 1);
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "SLIDEDB_CHUNK_BYTES=4096 '%s' full 2x5 --bits 2 --db '%s' -q", SLIDEDB_GEN,
	         path);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	cr_assert_eq(sdb_table_count(db), 4);
	cr_assert_gt(sdb_table_chunks(sdb_table_find(db, "full-2x5-b0")), 1);
	for (int i = 0; i < sdb_table_count(db); i++) {
		const sdb_table *t = sdb_table_at(db, i);
		uLong crc = crc32(0L, Z_NULL, 0);
		for (int c = 0; c < sdb_table_chunks(t); c++) {
			uint64_t bytes;
			const uint8_t *p = sdb_table_chunk(t, c, &bytes);
			cr_assert_not_null(p, "%s", sdb_error_detail());
			crc = crc32_z(crc, p, bytes);
		}
		cr_assert_eq((uint32_t)crc, sdb_table_meta(t)->crc32, "%s", sdb_table_meta(t)->name);
		cr_assert_eq(sdb_table_verify(t), 0, "%s", sdb_error_detail());
	}
	sdb_db_close(db);
}

/* Whether a mapping of this process with MADV_HUGEPAGE ("hg" among its
 * VmFlags in /proc/self/smaps) covers [lo, hi). */
static int advised_huge(uintptr_t lo, uintptr_t hi)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	cr_assert_not_null(f);
	char line[1024];
	unsigned long start = 0, end = 0;
	int found = 0;
	while (!found && fgets(line, sizeof line, f)) {
		unsigned long a, b;
		if (sscanf(line, "%lx-%lx ", &a, &b) == 2) {
			start = a;
			end = b;
		} else if (!strncmp(line, "VmFlags:", 8)) {
			found = strstr(line, " hg") && start <= lo && hi <= end;
		}
	}
	fclose(f);
	return found;
}

/* A reader asks the kernel for 2 MiB pages over its tables' span of the
 * map (the whole 2 MiB pages inside it), so that a search's scattered reads
 * rarely miss the TLB wherever the page cache can hold large folios. */
Test(store, tables_are_advised_into_huge_pages)
{
	if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK))
		cr_skip_test("this kernel has no transparent huge pages (no advice to give)");
	char path[512];
	tk_tmp_path(path, sizeof path, "huge.lmdb");
	const int blanks[] = { 0, 2, 4 };   /* three tables of 1.8 MB: 5.4 MB */
	tk_build_lib(path, 2, 5, blanks, 3);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	for (int i = 0; i < 3; i++) {
		const sdb_table *t = sdb_table_at(db, i);
		const uintptr_t at = (uintptr_t)sdb_table_data(t);
		const uint64_t bytes = sdb_table_bytes(sdb_table_meta(t));
		lo = at < lo ? at : lo;
		hi = at + bytes > hi ? at + bytes : hi;
	}
	const uintptr_t huge = (uintptr_t)2 << 20;
	const uintptr_t inner_lo = (lo + huge - 1) & ~(huge - 1), inner_hi = hi & ~(huge - 1);
	cr_assert_gt(inner_hi, inner_lo, "the tables span a whole 2 MiB page");
	cr_assert(advised_huge(inner_lo, inner_hi), "no MADV_HUGEPAGE over [%#lx, %#lx)",
	          (unsigned long)inner_lo, (unsigned long)inner_hi);
	cr_assert_eq(sdb_table_verify(sdb_table_at(db, 2)), 0, "and still read as they were");
	sdb_db_close(db);
}

Test(store, abort_and_kill_leave_the_old_state)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "abort.lmdb");
	tk_build_lib(path, 2, 3, corner, 1);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, 0), 0);
	sdb_writer *wr;
	cr_assert_eq(sdb_writer_begin(&wr, db), 0);
	uint8_t *data;
	cr_assert_eq(sdb_writer_reserve(wr, &data, "full-2x3-b0", 360), 0);
	memset(data, 0x55, 360);   /* garbage that must never be seen */
	sdb_writer_abort(wr);
	sdb_db_close(db);
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	cr_assert_eq(sdb_table_verify(sdb_table_find(db, "full-2x3-b0")), 0);
	sdb_db_close(db);
}

/* A reader keeps its snapshot while a writer replaces the table, and is not
 * blocked. */
Test(store, readers_are_not_blocked)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "mvcc.lmdb");
	tk_build_lib(path, 2, 2, corner, 1);
	sdb_db *reader, *writer_db;
	cr_assert_eq(sdb_db_open(&reader, path, SDB_RDONLY), 0);
	const uint8_t *before = sdb_table_data(sdb_table_at(reader, 0));
	uint8_t copy[12];
	memcpy(copy, before, 12);
	cr_assert_eq(sdb_db_open(&writer_db, path, 0), 0);
	sdb_writer *wr;
	cr_assert_eq(sdb_writer_begin(&wr, writer_db), 0);
	uint8_t *data;
	cr_assert_eq(sdb_writer_reserve(wr, &data, "full-2x2-b0", 12), 0);
	memset(data, 1, 12);
	sdb_table_info info = *sdb_table_meta(sdb_table_at(reader, 0));
	cr_assert_eq(sdb_writer_put_meta(wr, &info), 0);
	/* mid-transaction, and after commit, the reader still sees the old bytes */
	cr_assert_eq(memcmp(sdb_table_data(sdb_table_at(reader, 0)), copy, 12), 0);
	cr_assert_eq(sdb_writer_commit(wr), 0);
	cr_assert_eq(memcmp(before, copy, 12), 0);
	sdb_db_close(writer_db);
	sdb_db_close(reader);
	cr_assert_eq(sdb_db_open(&reader, path, SDB_RDONLY), 0);
	cr_assert_eq(sdb_table_data(sdb_table_at(reader, 0))[5], 1, "a new reader sees the commit");
	sdb_db_close(reader);
}

Test(store, writer_checks_its_calls)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "calls.lmdb");
	tk_build_lib(path, 2, 2, corner, 1);
	sdb_db *db;
	sdb_writer *wr;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	cr_assert_eq(sdb_writer_begin(&wr, db), SDB_EINVAL, "read-only handles do not write");
	sdb_db_close(db);
	cr_assert_eq(sdb_db_open(&db, path, 0), 0);
	cr_assert_eq(sdb_writer_begin(&wr, db), 0);
	sdb_table_info info;
	memset(&info, 0, sizeof info);
	strcpy(info.name, "x");
	cr_assert_eq(sdb_writer_put_meta(wr, &info), SDB_EINVAL, "no table reserved");
	uint8_t *data;
	cr_assert_eq(sdb_writer_reserve(wr, &data, "", 10), SDB_EINVAL);
	sdb_writer_abort(wr);
	sdb_db_close(db);
}

Test(store, default_path_from_environment)
{
	unsetenv("SLIDEDB_DB");
	cr_assert_str_eq(sdb_db_default_path(), "slidedb.lmdb");
	setenv("SLIDEDB_DB", "/tmp/x.lmdb", 1);
	cr_assert_str_eq(sdb_db_default_path(), "/tmp/x.lmdb");
	setenv("SLIDEDB_DB", "", 1);
	cr_assert_str_eq(sdb_db_default_path(), "slidedb.lmdb");
	unsetenv("SLIDEDB_DB");
}

/* Refusals must leave the file byte for byte as it was. */
static void refused_unchanged(const char *path, unsigned flags, int want)
{
	tk_snapshot was = tk_snap(path);
	sdb_db *db;
	int err = sdb_db_open(&db, path, flags);
	cr_assert_eq(err, want, "opening %s gave %d (%s), expected %d", path, err,
	             sdb_error_detail(), want);
	cr_assert(strstr(sdb_error_detail(), path), "the message names the file: %s", sdb_error_detail());
	tk_assert_unchanged(&was, "a refused open");
	tk_snap_free(&was);
}

Test(store, foreign_files_are_refused)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "text.lmdb");
	FILE *f = fopen(path, "w");
	for (int i = 0; i < 2000; i++)
		fputs("this is not a database\n", f);
	fclose(f);
	refused_unchanged(path, SDB_RDONLY, SDB_ECORRUPT);
	refused_unchanged(path, SDB_CREATE, SDB_ECORRUPT);

	/* An LMDB file of someone else's: valid LMDB, no slidedb catalog. */
	tk_tmp_path(path, sizeof path, "foreign.lmdb");
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	cr_assert_eq(mdb_env_create(&env), 0);
	cr_assert_eq(mdb_env_open(env, path, MDB_NOSUBDIR, 0644), 0);
	cr_assert_eq(mdb_txn_begin(env, NULL, 0, &txn), 0);
	cr_assert_eq(mdb_dbi_open(txn, NULL, 0, &dbi), 0);
	MDB_val k = { 3, "key" }, v = { 5, "value" };
	cr_assert_eq(mdb_put(txn, dbi, &k, &v, 0), 0);
	cr_assert_eq(mdb_txn_commit(txn), 0);
	mdb_env_close(env);
	refused_unchanged(path, SDB_RDONLY, SDB_ECORRUPT);
	refused_unchanged(path, SDB_CREATE, SDB_ECORRUPT);

	/* Someone else's LMDB file whose sub-databases happen to have our names:
	 * a writer must not add our format marker and take it over. */
	tk_tmp_path(path, sizeof path, "lookalike.lmdb");
	cr_assert_eq(mdb_env_create(&env), 0);
	cr_assert_eq(mdb_env_set_maxdbs(env, 4), 0);
	cr_assert_eq(mdb_env_open(env, path, MDB_NOSUBDIR, 0644), 0);
	cr_assert_eq(mdb_txn_begin(env, NULL, 0, &txn), 0);
	static const char *const ours[] = { "info", "catalog", "tables" };
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(mdb_dbi_open(txn, ours[i], MDB_CREATE, &dbi), 0);
		cr_assert_eq(mdb_put(txn, dbi, &k, &v, 0), 0);
	}
	cr_assert_eq(mdb_txn_commit(txn), 0);
	mdb_env_close(env);
	refused_unchanged(path, SDB_RDONLY, SDB_ECORRUPT);
	refused_unchanged(path, SDB_CREATE, SDB_ECORRUPT);
}

/* A first build killed before it wrote anything leaves an empty LMDB file:
 * readers say what happened, and the next build takes the file as new. */
Test(store, empty_lmdb_file_of_a_stopped_build)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "stopped.lmdb");
	MDB_env *env;
	cr_assert_eq(mdb_env_create(&env), 0);
	cr_assert_eq(mdb_env_set_mapsize(env, (size_t)1 << 30), 0);
	cr_assert_eq(mdb_env_open(env, path, MDB_NOSUBDIR, 0644), 0);
	MDB_txn *txn;   /* a write that commits nothing: LMDB writes its meta pages */
	cr_assert_eq(mdb_txn_begin(env, NULL, 0, &txn), 0);
	cr_assert_eq(mdb_txn_commit(txn), 0);
	mdb_env_close(env);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), SDB_ECORRUPT);
	cr_assert(strstr(sdb_error_detail(), "empty LMDB file") && strstr(sdb_error_detail(), "slidedb-gen"),
	          "%s", sdb_error_detail());
	tk_build_lib(path, 2, 2, corner, 1);
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	cr_assert_eq(sdb_table_count(db), 1);
	sdb_db_close(db);
	unlink(path);
}

/* Database files that crashed the programs in a fuzz campaign (a zero page
 * size, pages past the end of the file, a root page of 0 or 1 in a meta
 * page, a catalog claiming billions of tables): each is refused with
 * SDB_ECORRUPT before LMDB or slidedb trusts what it says. */
Test(store, fuzzed_files_that_crashed_are_refused)
{
	char cmd[4096], list[512], *names;
	snprintf(list, sizeof list, "%s/tests/store/data/damaged", SLIDEDB_SOURCE_DIR);
	snprintf(cmd, sizeof cmd, "ls '%s'", list);
	cr_assert_eq(tk_run(cmd, NULL, &names, NULL), 0);
	int n = 0;
	for (char *name = strtok(names, "\n"); name; name = strtok(NULL, "\n")) {
		char src[1024], path[512];
		snprintf(src, sizeof src, "%s/%s", list, name);
		tk_tmp_path(path, sizeof path, "fuzzed.lmdb");
		snprintf(cmd, sizeof cmd, "cp '%s' '%s'", src, path);
		cr_assert_eq(system(cmd), 0);
		sdb_db *db;
		int err = sdb_db_open(&db, path, SDB_RDONLY);
		cr_assert_eq(err, SDB_ECORRUPT, "%s: opened (%d: %s)", name, err, sdb_error_detail());
		snprintf(cmd, sizeof cmd, "rm -f '%s' '%s-lock'", path, path);
		cr_assert_eq(system(cmd), 0);
		n++;
	}
	cr_assert_geq(n, 8, "the fixtures are missing: %d files", n);
	free(names);
}

Test(store, other_format_version_is_refused)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "v99.lmdb");
	tk_build_lib(path, 2, 2, corner, 1);
	MDB_env *env;
	MDB_dbi dbi;
	MDB_txn *txn = raw_open(&env, &dbi, path, "info", 0);
	uint32_t v99 = 99;
	MDB_val k = { 6, "format" }, v = { 4, &v99 };
	cr_assert_eq(mdb_put(txn, dbi, &k, &v, 0), 0);
	cr_assert_eq(mdb_txn_commit(txn), 0);
	mdb_env_close(env);
	refused_unchanged(path, SDB_RDONLY, SDB_EVERSION);
	refused_unchanged(path, 0, SDB_EVERSION);
	cr_assert(strstr(sdb_error_detail(), "version 99"));
}

Test(store, truncated_file_is_refused)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "trunc.lmdb");
	tk_build_lib(path, 3, 3, corner, 1);
	struct stat st;
	cr_assert_eq(stat(path, &st), 0);
	for (int part = 1; part < 4; part++) {
		char cut[600];
		snprintf(cut, sizeof cut, "%s.%d", path, part);
		char cmd[1400];
		snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path, cut);
		cr_assert_eq(system(cmd), 0);
		cr_assert_eq(truncate(cut, st.st_size * part / 4), 0);
		sdb_db *db;
		int err = sdb_db_open(&db, cut, SDB_RDONLY);
		cr_assert_eq(err, SDB_ECORRUPT, "%s: %d %s", cut, err, sdb_error_detail());
	}
}

Test(store, altered_entries_fail_verify)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "alter.lmdb");
	tk_build_lib(path, 3, 3, corner, 1);
	/* The table is one run of 181440 bytes in the file; change one in its middle. */
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	size_t len;
	char *file = ck_read_file(path, &len);
	const uint8_t *data = sdb_table_data(sdb_table_at(db, 0));
	const char *at = memmem(file, len, data + 90000, 64);
	cr_assert_not_null(at);
	long off = at - file;
	sdb_db_close(db);
	free(file);
	int fd = open(path, O_RDWR);
	unsigned char c;
	cr_assert_eq(pread(fd, &c, 1, off), 1);
	c ^= 0x01;
	cr_assert_eq(pwrite(fd, &c, 1, off), 1);
	close(fd);
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	cr_assert_eq(sdb_table_verify(sdb_table_at(db, 0)), SDB_ECORRUPT);
	cr_assert(strstr(sdb_error_detail(), "full-3x3-b0"));
	cr_assert(strstr(sdb_error_detail(), "CRC"));
	sdb_db_close(db);
}

Test(store, errors_have_texts)
{
	/* Every code up to the last one has a text of its own. */
	for (int e = 0; e >= SDB_ELAST; e--) {
		cr_assert_not_null(sdb_strerror(e));
		cr_assert_str_neq(sdb_strerror(e), "unknown error", "code %d has no text", e);
		for (int f = 0; f > e; f--)
			cr_assert_str_neq(sdb_strerror(e), sdb_strerror(f), "codes %d and %d", e, f);
	}
	cr_assert_eq(SDB_ELAST, SDB_EEXIST, "a code added to the header must move SDB_ELAST");
	cr_assert_str_eq(sdb_strerror(SDB_ELIMIT), "search limit reached");
	cr_assert_str_eq(sdb_strerror(SDB_ELAST - 1), "unknown error");
	cr_assert_str_eq(sdb_strerror(1), "unknown error");
	cr_assert_str_eq(sdb_strerror(-100), "unknown error");
	cr_assert_str_eq(sdb_version(), SDB_VERSION_STRING);
}

/* A failure's detail does not outlive the next successful call. */
Test(store, detail_is_cleared_by_a_success)
{
	sdb_board b;
	cr_assert_eq(sdb_board_parse(&b, "1 2 3 3", 0, 0), SDB_EINVAL);
	cr_assert(strstr(sdb_error_detail(), "tile 3 appears twice"));
	cr_assert_eq(sdb_board_parse(&b, "1 2 3 0", 0, 0), 0);
	cr_assert_str_empty(sdb_error_detail(), "stale: '%s'", sdb_error_detail());

	char path[512];
	tk_tmp_path(path, sizeof path, "detail.lmdb");
	tk_build_lib(path, 2, 2, corner, 1);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, "/nonexistent/x.lmdb", SDB_RDONLY), SDB_ENOTFOUND);
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	cr_assert_str_empty(sdb_error_detail(), "stale after open: '%s'", sdb_error_detail());
	cr_assert_null(sdb_table_find(db, "nope"));
	cr_assert(strstr(sdb_error_detail(), "nope"));
	sdb_board s, g;
	sdb_board_parse(&s, "1 2 0 3", 0, 0);
	sdb_board_parse(&g, "1 2 3 0", 0, 0);
	sdb_answer a;
	cr_assert_eq(sdb_answer_query(&a, db, &s, &g, NULL), 0);
	cr_assert_str_empty(sdb_error_detail(), "stale after an answer: '%s'", sdb_error_detail());
	sdb_query q;
	cr_assert_eq(sdb_query_parse(&q, "1 2 3", 0, 0, db), SDB_EINVAL);
	cr_assert_eq(sdb_query_parse(&q, "1 2 0 3 ; 1 2 3 0", 0, 0, db), 0);
	cr_assert_str_empty(sdb_error_detail(), "stale after a query: '%s'", sdb_error_detail());
	sdb_db_close(db);
	unlink(path);
}

/* A database of format version 2 (slidedb 0.1.0's memcpy of its table info,
 * kept as a file made by that release) is read as it is, and converted to
 * version 4 by the first write; after that it still answers the same. */
Test(store, format_2_is_read_and_converted_by_a_write)
{
	char path[512], cmd[1200];
	tk_tmp_path(path, sizeof path, "format2.lmdb");
	snprintf(cmd, sizeof cmd, "cp '%s/tests/store/data/format2.lmdb' '%s'", SLIDEDB_SOURCE_DIR, path);
	cr_assert_eq(system(cmd), 0);
	uint32_t version;
	sdb_db *db;
	for (int pass = 0; pass < 2; pass++) {
		cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "pass %d: %s", pass, sdb_error_detail());
		cr_assert_eq(sdb_table_count(db), pass ? 2 : 1);
		const sdb_table *t = sdb_table_find(db, "full-2x2-b0");
		cr_assert_not_null(t);
		const sdb_table_info *in = sdb_table_meta(t);
		cr_assert_eq(in->states, 12);
		cr_assert_eq(in->max_distance, 6);
		cr_assert_eq(in->crc32, 0x8f76141au, "the CRC the 0.1.0 file records");
		cr_assert_eq(in->format_version, 2, "built under format 2");
		cr_assert_str_eq(in->tool_version, "0.1.0");
		uint64_t total = 0;
		for (int d = 0; d <= in->max_distance; d++)
			total += in->counts[d];
		cr_assert_eq(total, 12);
		cr_assert_eq(sdb_table_verify(t), 0, "%s", sdb_error_detail());
		sdb_board s, g;
		sdb_board_parse(&s, "0 1 2 3", 0, 0);
		sdb_board_goal(&g, 2, 2, 3);
		sdb_answer a;
		cr_assert_eq(sdb_answer_query(&a, db, &s, &g, NULL), 0, "%s", sdb_error_detail());
		cr_assert(!a.solvable || tk_replay(&s, a.moves, &g));
		sdb_db_close(db);
		/* The file's own format marker. */
		MDB_env *env;
		MDB_dbi dbi;
		MDB_val k = { 6, "format" }, v;
		MDB_txn *txn = raw_open(&env, &dbi, path, "info", 1);
		cr_assert_eq(mdb_get(txn, dbi, &k, &v), 0);
		memcpy(&version, v.mv_data, sizeof version);
		mdb_txn_abort(txn);
		mdb_env_close(env);
		cr_assert_eq(version, pass ? (uint32_t)SDB_FORMAT_VERSION : 2u, "pass %d: format %u",
		             pass, version);
		if (!pass)   /* a write: one more table, and the catalog converted */
			tk_build_lib(path, 2, 3, corner, 1);
	}
	unlink(path);
}

/* The file format's version, from the file's own marker. */
static uint32_t file_format(const char *path)
{
	MDB_env *env;
	MDB_dbi dbi;
	MDB_val k = { 6, "format" }, v;
	uint32_t version;
	MDB_txn *txn = raw_open(&env, &dbi, path, "info", 1);
	cr_assert_eq(mdb_get(txn, dbi, &k, &v), 0);
	memcpy(&version, v.mv_data, sizeof version);
	mdb_txn_abort(txn);
	mdb_env_close(env);
	return version;
}

/* Format 4 stored a pattern group's tiles in 32 bits, format 5 in 64 (boards
 * to 8x8): a version-4 file with a 2x3 set (made by slidedb 0.1) is read as
 * it is, converted by the first write, and gives the same tiles and
 * heuristic values before and after. */
Test(store, format_4_pattern_tiles_survive_the_conversion)
{
	char path[512], cmd[1200];
	tk_tmp_path(path, sizeof path, "format4.lmdb");
	snprintf(cmd, sizeof cmd, "cp '%s/tests/store/data/format4.lmdb' '%s'", SLIDEDB_SOURCE_DIR, path);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(file_format(path), 4);
	int values[2][360];
	for (int pass = 0; pass < 2; pass++) {
		sdb_db *db;
		cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "pass %d: %s", pass, sdb_error_detail());
		const sdb_table *t = sdb_table_find(db, "pdb-2x3-b0-1,2_3,4,5/g1");
		cr_assert_not_null(t);
		uint64_t tiles, left;
		sdb_board ordered;
		cr_assert_eq(sdb_table_tiles(&tiles, &left, &ordered, sdb_table_meta(t)), 0);
		cr_assert_eq(tiles, 0x38, "pass %d: tiles %#llx", pass, (unsigned long long)tiles);
		cr_assert_eq(left, 0);
		sdb_board goal;
		sdb_board_goal(&goal, 2, 3, 0);
		sdb_heuristic *h;
		cr_assert_eq(sdb_heuristic_open(&h, db, &goal, NULL), 0, "%s", sdb_error_detail());
		for (uint64_t i = 0; i < 360; i++) {
			sdb_board s;
			sdb_board_unrank(&s, 2, 3, sdb_rank_class(&goal), i);
			values[pass][i] = sdb_heuristic_value(h, &s);
			cr_assert_geq(values[pass][i], 0);
		}
		sdb_heuristic_close(h);
		sdb_db_close(db);
		if (!pass) {
			int corner[] = { 0 };
			tk_build_lib(path, 2, 3, corner, 1);
			cr_assert_eq(file_format(path), SDB_FORMAT_VERSION);
		}
	}
	cr_assert_arr_eq(values[0], values[1], sizeof values[0]);
	unlink(path);
}

/* Seal an edited record as a writer would: its last 4 bytes are the
 * CRC-32 of the name and the bytes before them (db/store/record.c, version 4). */
static void reseal(uint8_t *rec, size_t len, const char *name)
{
	uLong crc = crc32(crc32(0L, Z_NULL, 0), (const Bytef *)name, (uInt)strlen(name));
	crc = crc32(crc, rec, (uInt)(len - 4));
	for (int i = 0; i < 4; i++)
		rec[len - 4 + i] = (uint8_t)(crc >> (8 * i));
}

/* Replace the catalog record of full-2x2-b0 by edit(rec, len); return the
 * database opened read-only, and the table. */
static sdb_db *edit_record(const char *path, void (*edit)(uint8_t *rec, size_t *len, void *),
                           void *ctx, const sdb_table **t)
{
	tk_build_lib(path, 2, 2, corner, 1);
	MDB_env *env;
	MDB_dbi dbi;
	MDB_val k = { 11, "full-2x2-b0" }, v;
	MDB_txn *txn = raw_open(&env, &dbi, path, "catalog", 0);
	cr_assert_eq(mdb_get(txn, dbi, &k, &v), 0);
	uint8_t rec[4096];
	cr_assert_lt(v.mv_size, sizeof rec);
	size_t len = v.mv_size;
	memcpy(rec, v.mv_data, len);
	edit(rec, &len, ctx);
	MDB_val changed = { len, rec };
	cr_assert_eq(mdb_put(txn, dbi, &k, &changed, 0), 0);
	cr_assert_eq(mdb_txn_commit(txn), 0);
	mdb_env_close(env);
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "a damaged entry leaves the rest: %s",
	             sdb_error_detail());
	*t = sdb_table_find(db, "full-2x2-b0");
	cr_assert_not_null(*t, "the damaged entry is listed under its name");
	return db;
}

/* What a damaged entry must do: say why, answer nothing, and go with rm. */
static void expect_damaged(sdb_db *db, const sdb_table *t, const char *path, const char *why)
{
	cr_assert(sdb_table_problem(t) && strstr(sdb_table_problem(t), why), "%s",
	          sdb_table_problem(t) ? sdb_table_problem(t) : "(no problem)");
	sdb_board s, g;
	sdb_board_goal(&g, 2, 2, 0);
	s = g;
	sdb_board_apply(&s, SDB_RIGHT);
	sdb_answer a;
	cr_assert_lt(sdb_answer_query(&a, db, &s, &g, NULL), 0, "answered from a damaged entry");
	cr_assert_eq(sdb_table_verify(t), SDB_ECORRUPT);
	sdb_db_close(db);
	/* the programs list it as damaged, verify fails, and rm removes it */
	char cmd[1200], *out, *err;
	snprintf(cmd, sizeof cmd, "%s --db '%s' info", SLIDEDB_LOOKUP, path);
	cr_assert_eq(tk_run(cmd, NULL, &out, &err), 0, "%s", err);
	cr_assert(strstr(out, "full-2x2-b0") && strstr(out, "damaged"), "%s", out);
	free(out);
	free(err);
	snprintf(cmd, sizeof cmd, "%s --db '%s' verify", SLIDEDB_LOOKUP, path);
	cr_assert_eq(tk_run(cmd, NULL, &out, &err), 1, "verify of a damaged entry: %s", out);
	free(out);
	free(err);
	snprintf(cmd, sizeof cmd, "%s rm full-2x2-b0 --db '%s'", SLIDEDB_GEN, path);
	cr_assert_eq(tk_run(cmd, NULL, &out, &err), 0, "rm of a damaged entry: %s", err);
	cr_assert(strstr(out, "removed 1 table"), "%s", out);
	free(out);
	free(err);
	sdb_db *rw;
	cr_assert_eq(sdb_db_open(&rw, path, SDB_RDONLY), 0);
	cr_assert_eq(sdb_table_count(rw), 0, "removed with its values");
	sdb_db_close(rw);
	unlink(path);
}

typedef struct field_edit {
	size_t offset;
	uint8_t value;
	const char *why;
} field_edit;

static void edit_field(uint8_t *rec, size_t *len, void *ctx)
{
	const field_edit *e = ctx;
	rec[e->offset] = e->value;
	if (e->offset == 16)
		rec[17] = 1;   /* ... -> 0 2 1 3: a board, not the canonical goal */
	reseal(rec, *len, "full-2x2-b0");
}

/* Catalog records whose fields cannot describe a usable table are never
 * used: fields changed one at a time in a valid record, resealed with a
 * correct checksum (layout in db/store/record.c), each give the reason. */
Test(store, catalog_fields_are_checked_on_open)
{
	static const field_edit edits[] = {
		{ 4, 9, "unknown kind" },        /* kind */
		{ 4, 3, "not its own" },         /* full-2x2-b0 said to be in the multi-tile metric */
		{ 8, 2, "wrong format" },        /* entry format: one byte per pattern entry */
		{ 14, 1, "not a catalog record" },   /* the blank field disagrees with the cells */
		{ 16, 2, "canonical goal" },     /* goal cells 0 1 2 3 -> 0 2 2 3 ... */
		{ 19, 0x7f, "wrong format or size" },   /* states: 12 -> 127 */
		{ 27, 0x90, "not a catalog record" },   /* max_distance 144: no such counts */
		{ 12, 16, "not a catalog record" },  /* width 16: the record no longer adds up */
	};
	for (size_t e = 0; e < sizeof edits / sizeof *edits; e++) {
		char path[512];
		tk_tmp_path(path, sizeof path, "fields.lmdb");
		const sdb_table *t;
		sdb_db *db = edit_record(path, edit_field, (void *)&edits[e], &t);
		expect_damaged(db, t, path, edits[e].why);
	}
}

static void cut_short(uint8_t *rec, size_t *len, void *ctx)
{
	(void)rec;
	(void)ctx;
	*len -= 3;
}

static void flip_byte(uint8_t *rec, size_t *len, void *ctx)
{
	rec[*(size_t *)ctx % *len] ^= 0x10;
}

/* A catalog record that is not what its format says, cut short or with any
 * one byte changed (its checksum), is never read into wrong metadata. */
Test(store, damaged_catalog_record_is_refused)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "record.lmdb");
	const sdb_table *t;
	sdb_db *db = edit_record(path, cut_short, NULL, &t);
	expect_damaged(db, t, path, "not a catalog record");
	for (size_t at = 0; at < 200; at += 7) {
		db = edit_record(path, flip_byte, &at, &t);
		expect_damaged(db, t, path, "not a catalog record");
	}
}

/* A long-running reader sees new tables through a fresh snapshot that
 * shares its LMDB environment; the old snapshot stays whole until closed,
 * and the handles close in any order. */
Test(store, snapshots_see_new_tables_and_close_in_any_order)
{
	char path[512];
	tk_tmp_path(path, sizeof path, "snap.lmdb");
	tk_build_lib(path, 2, 2, corner, 1);
	sdb_db *old, *fresh, *third;
	cr_assert_eq(sdb_db_open(&old, path, SDB_RDONLY), 0);
	cr_assert_eq(sdb_table_count(old), 1);
	cr_assert_eq(sdb_db_changed(old), 0, "nothing committed yet");
	tk_build(path, "2x3", NULL);   /* another process commits */
	cr_assert_eq(sdb_db_changed(old), 1);
	cr_assert_eq(sdb_table_count(old), 1, "the old snapshot is unchanged");
	cr_assert_eq(sdb_db_reopen(&fresh, old), 0, "%s", sdb_error_detail());
	cr_assert_eq(sdb_db_changed(fresh), 0);
	cr_assert_gt(sdb_table_count(fresh), 1);
	cr_assert_not_null(sdb_table_find(fresh, "full-2x3-b0"));
	cr_assert_null(sdb_table_find(old, "full-2x3-b0"));
	/* both answer; the old one is closed first, the fresh one goes on */
	sdb_board start, goal;
	sdb_board_goal(&goal, 2, 2, 3);
	start = goal;
	sdb_board_apply(&start, SDB_UP);
	sdb_answer a;
	cr_assert_eq(sdb_answer_query(&a, old, &start, &goal, NULL), 0);
	cr_assert_eq(sdb_db_reopen(&third, fresh), 0);
	sdb_db_close(old);
	cr_assert_eq(sdb_answer_query(&a, fresh, &start, &goal, NULL), 0);
	cr_assert_eq(a.distance, 1);
	sdb_board_goal(&goal, 2, 3, 5);
	start = goal;
	sdb_board_apply(&start, SDB_LEFT);
	cr_assert_eq(sdb_answer_query(&a, third, &start, &goal, NULL), 0);
	cr_assert_eq(a.distance, 1);
	sdb_db_close(fresh);
	cr_assert_eq(sdb_answer_query(&a, third, &start, &goal, NULL), 0, "the last handle works");
	sdb_db_close(third);
	/* read-write handles have no snapshots */
	sdb_db *rw;
	cr_assert_eq(sdb_db_open(&rw, path, 0), 0);
	cr_assert_eq(sdb_db_reopen(&fresh, rw), SDB_EINVAL);
	cr_assert_null(fresh);
	sdb_db_close(rw);
}

/* A file replaced under an open handle (moved over by another program) is
 * noticed: sdb_db_changed() says so, a reopen refuses, and a writer in
 * another process refuses to commit through the lock file the old file's
 * readers keep (it describes the old file: committing would lose tables). */
Test(store, a_replaced_file_is_noticed_and_never_written_blind)
{
	char path[512], other[512];
	tk_tmp_path(path, sizeof path, "replaced.lmdb");
	tk_tmp_path(other, sizeof other, "replacement.lmdb");
	tk_build(path, "2x2", NULL);
	tk_build(other, "2x3", NULL);
	tk_build(other, "2x3", NULL);
	tk_build(other, "2x3", NULL);   /* more commits: other transaction ids */
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	cr_assert_eq(sdb_db_changed(db), 0);
	cr_assert_eq(rename(other, path), 0);
	cr_assert_eq(sdb_db_changed(db), SDB_DB_REPLACED);
	sdb_db *fresh;
	cr_assert_eq(sdb_db_reopen(&fresh, db), SDB_EIO);
	cr_assert(strstr(sdb_error_detail(), "replaced"), "%s", sdb_error_detail());
	char cmd[1200], *err;
	snprintf(cmd, sizeof cmd, "%s full 2x2 --db '%s' -q", SLIDEDB_GEN, path);
	cr_assert_eq(tk_run(cmd, NULL, NULL, &err), 1, "a writer went on: %s", err);
	cr_assert(strstr(err, "lock file") && strstr(err, "another file"), "%s", err);
	free(err);
	sdb_db_close(db);
	/* once the old file's last reader has gone, the new file is used */
	cr_assert_eq(tk_run(cmd, NULL, NULL, &err), 0, "%s", err);
	free(err);
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0);
	cr_assert_not_null(sdb_table_find(db, "full-2x3-b0"), "the replacement's tables are kept");
	cr_assert_not_null(sdb_table_find(db, "full-2x2-b0"));
	sdb_db_close(db);
}

/* Every 3x3 board's value under the set `set` of the database at path; the
 * layout its tables were stored in. */
static int layout_and_values(const char *path, const char *set, int *values)
{
	sdb_db *db;
	cr_assert_eq(sdb_db_open(&db, path, SDB_RDONLY), 0, "%s", sdb_error_detail());
	sdb_board goal;
	sdb_board_goal(&goal, 3, 3, 0);
	sdb_heuristic *h;
	cr_assert_eq(sdb_heuristic_open(&h, db, &goal, set), 0, "%s: %s", path, sdb_error_detail());
	for (uint64_t i = 0; i < 181440; i++) {
		sdb_board s;
		sdb_board_unrank(&s, 3, 3, sdb_rank_class(&goal), i);
		values[i] = sdb_heuristic_value(h, &s);
	}
	sdb_heuristic_close(h);
	char name[SDB_NAME_MAX + 4];
	snprintf(name, sizeof name, "%s/g1", set);
	const sdb_table *t = sdb_table_find(db, name);
	cr_assert_not_null(t, "%s", name);
	const int layout = sdb_table_layout(sdb_table_meta(t));
	sdb_db_close(db);
	return layout;
}

/* Format 6 stores pattern tables order by order (SDB_LAYOUT_ORDERS). The
 * sets of a format-5 file (tests/store/data/format5.lmdb, built by 0.2.0 before
 * the change: 3x3, 1,2,3,4/5,6,7,8 and 1,2,3/4,5,6,7,8 in min mode) keep
 * the blocks layout they were built in: read as they are, after the first
 * write converted the file, and exported and imported into another file,
 * they give every 3x3 board the value the same sets built now give; and
 * each file verifies (its counts recounted in either layout). */
Test(store, format_5_pattern_sets_keep_their_layout)
{
	const char *sets[2][2] = { { "pdb-3x3-b0-1,2,3,4_5,6,7,8", "1,2,3,4/5,6,7,8" },
	                           { "pdb-3x3-b0-1,2,3_4,5,6,7,8-min", "1,2,3/4,5,6,7,8 --blank min" } };
	char old[512], fresh[512], moved[512], gz[512], cmd[1200], *err;
	tk_tmp_path(old, sizeof old, "format5.lmdb");
	tk_tmp_path(fresh, sizeof fresh, "format6.lmdb");
	tk_tmp_path(moved, sizeof moved, "format5-moved.lmdb");
	tk_tmp_path(gz, sizeof gz, "format5.gz");
	snprintf(cmd, sizeof cmd, "cp '%s/tests/store/data/format5.lmdb' '%s'", SLIDEDB_SOURCE_DIR, old);
	cr_assert_eq(system(cmd), 0);
	cr_assert_eq(file_format(old), 5);
	static int now[181440], then[181440];
	for (int s = 0; s < 2; s++) {
		cr_assert_eq(ck_gen(fresh, NULL, &err, "pdb 3x3 --partition %s -q", sets[s][1]), 0,
		             "%s", err);
		free(err);
		cr_assert_eq(layout_and_values(fresh, sets[s][0], now), SDB_LAYOUT_ORDERS);
		cr_assert_eq(layout_and_values(old, sets[s][0], then), SDB_LAYOUT_BLOCKS);
		cr_assert_arr_eq(then, now, sizeof now, "%s as format 5 stored it", sets[s][0]);
	}
	tk_build_lib(old, 2, 2, corner, 1);   /* a first write converts the file */
	cr_assert_eq(file_format(old), SDB_FORMAT_VERSION);
	cr_assert_eq(ck_gen(old, NULL, &err, "export %s %s -o '%s' -q", sets[0][0], sets[1][0], gz),
	             0, "%s", err);
	free(err);
	cr_assert_eq(ck_gen(moved, NULL, &err, "import '%s' -q", gz), 0, "%s", err);
	free(err);
	const char *files[3] = { old, moved, fresh };
	for (int s = 0; s < 2; s++) {
		layout_and_values(fresh, sets[s][0], now);
		for (int f = 0; f < 2; f++) {
			cr_assert_eq(layout_and_values(files[f], sets[s][0], then), SDB_LAYOUT_BLOCKS);
			cr_assert_arr_eq(then, now, sizeof now, "%s in %s", sets[s][0], files[f]);
		}
	}
	for (int f = 0; f < 3; f++) {
		cr_assert_eq(ck_lookup(files[f], NULL, NULL, &err, "verify"), 0, "%s: %s", files[f], err);
		free(err);
	}
	unlink(old);
	unlink(fresh);
	unlink(moved);
	unlink(gz);
}
