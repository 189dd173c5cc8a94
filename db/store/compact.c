/* SPDX-License-Identifier: MIT */
/* Compact: the database copied without its free pages (LMDB's compacting
 * copy) under an exclusive hold, and the copy renamed over the file once it
 * is on the disk. */
#define _GNU_SOURCE   /* O_DIRECT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/env.h"
#include "store/file.h"

static uint64_t file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

typedef struct copy_job {
	MDB_env *env;
	const char *to;
	int rc;
} copy_job;

/* LMDB's compacting copy, on a thread of its own: it takes a read
 * transaction, and the calling thread holds the write one. The copy is on
 * the disk, bytes and size, before it may take the database's name
 * (mdb_env_copy2 does not sync: a power cut after the rename could leave a
 * short file under the name). */
static void *copy_compacted(void *arg)
{
	copy_job *job = arg;
	const int fd = open(job->to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		job->rc = errno;
		return NULL;
	}
#ifdef O_DIRECT
	/* as mdb_env_copy2: LMDB writes the copy from page-aligned buffers,
	 * past the page cache (which would keep it in 1 MiB folios: a search's
	 * reads want the 2 MiB ones a reader brings in, advise_huge) */
	const int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl | O_DIRECT);
#endif
	job->rc = mdb_env_copyfd2(job->env, fd, MDB_CP_COMPACT);
	if (!job->rc && fsync(fd))
		job->rc = errno;
	if (close(fd) && !job->rc)
		job->rc = errno;
	return NULL;
}

/* The folder of path into dir ("." for a bare name); 0 if it does not fit. */
static int dir_of(const char *path, char *dir, size_t cap)
{
	const char *slash = strrchr(path, '/');
	const size_t n = slash ? (size_t)(slash - path) : 0;
	if (n + 2 > cap)
		return 0;
	memcpy(dir, path, n);
	strcpy(dir + n, n ? "" : slash ? "/" : ".");
	return 1;
}

/* The directory entry of path (a rename into it) on the disk. */
static void sync_dir_of(const char *path)
{
	char dir[4096];
	if (!dir_of(path, dir, sizeof dir))
		return;
	const int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

/* The processes that have the file open, this one's own handle aside.
 * mdb_reader_list calls count_line once per line: a header, or "(no active
 * readers)", then "PID THREAD TXNID" per reader slot, TXNID "-" for a slot
 * that holds no transaction. This handle keeps an idle slot of its own (from
 * the read transaction sdb_db_open took); any other slot of this process
 * that holds a transaction is another handle reading the file. */
typedef struct other_readers {
	int n;
	int pid[64];
} other_readers;

static int count_line(const char *msg, void *ctx)
{
	other_readers *r = ctx;
	int pid, seen = 0;
	size_t tid;
	char txnid[32];
	if (sscanf(msg, "%d %zx %31s", &pid, &tid, txnid) != 3 ||
	    (pid == (int)getpid() && !strcmp(txnid, "-")))
		return 0;
	for (int i = 0; i < r->n && i < 64 && !seen; i++)
		seen = r->pid[i] == pid;
	if (!seen) {
		if (r->n < 64)
			r->pid[r->n] = pid;
		r->n++;
	}
	return 0;
}

/* Test hook: the tuning's compact_pause sleeps that many seconds between
 * the copy and the rename, so that the tests can race other programs
 * against a compact. */
static void test_pause(void)
{
	const double s = sdbi_tuning()->compact_pause;
	if (s > 0)
		nanosleep(&(struct timespec){ (time_t)s, (long)((s - (time_t)s) * 1e9) }, NULL);
}

/* The compacted copy of the open database db into tmp, under its write
 * lock. */
static int copy_database(sdb_db *db, const char *tmp)
{
	/* Readers of processes that take no hold (an older slidedb) would keep
	 * the old file: none may be reading (mdb_reader_check has cleared the
	 * slots of dead ones). */
	other_readers readers = { 0 };
	mdb_reader_list(db->env, count_line, &readers);
	if (readers.n > 0)
		return sdbi_fail(SDB_EIO, "%s: %d process%s reading it; compact it when they have "
		                "closed it", db->path, readers.n, readers.n == 1 ? " is" : "es are");
	MDB_txn *wtxn;
	int rc = mdb_txn_begin(db->env, NULL, 0, &wtxn);
	if (rc)
		return sdbi_lmdb_fail(db, rc, "compacting");
	unlink(tmp);
	copy_job job = { db->env, tmp, 0 };
	pthread_t th;
	if (pthread_create(&th, NULL, copy_compacted, &job))
		job.rc = EAGAIN;
	else
		pthread_join(th, NULL);
	mdb_txn_abort(wtxn);
	return job.rc ? sdbi_lmdb_fail(db, job.rc, "writing the compacted copy") : SDB_OK;
}

/* The copies compacts that were killed left beside the file
 * (PATH.compact-PID). A compact holds the file exclusively from before it
 * starts its copy until the copy has the file's name, so under that hold
 * no copy of a running compact is there to be taken. */
static void sweep_copies(const char *path)
{
	char dir[4096];
	if (!dir_of(path, dir, sizeof dir))
		return;
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	const size_t len = strlen(base), tag = strlen(".compact-");
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (const struct dirent *e; (e = readdir(d));) {
		if (strncmp(e->d_name, base, len) || strncmp(e->d_name + len, ".compact-", tag))
			continue;
		const char *pid = e->d_name + len + tag;
		if (*pid && strspn(pid, "0123456789") == strlen(pid))
			(void)unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

int sdb_db_compact(const char *path, uint64_t *before, uint64_t *after)
{
	/* The exclusive hold first (hold.c): no other process has the file
	 * open, and none opens it until the new file has its name. */
	const int hold = sdbi_hold_exclusive(path);
	if (hold < 0 && hold != SDBI_HOLD_NONE)
		return hold;
	sdb_db *db;
	int err = sdbi_db_open_plain(&db, path, SDBI_OPEN_HELD);   /* checks the file; converts an old one */
	if (err) {
		if (hold >= 0)
			close(hold);
		return err;
	}
	if (hold >= 0)
		sweep_copies(db->path);
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.compact-%d", db->path, (int)getpid());
	const uint64_t size0 = file_size(db->path);
	err = copy_database(db, tmp);
	/* The environment closes before the rename: its lock file must be free
	 * for the first process to open the new file, which then starts it
	 * afresh from the new file's meta pages. */
	sdb_db_close(db);
	test_pause();
	if (!err && rename(tmp, path))
		err = sdbi_fail(SDB_EIO, "%s: cannot rename the compacted copy over it: %s", path,
		               strerror(errno));
	if (!err)
		sync_dir_of(path);
	if (err)
		unlink(tmp);
	if (hold >= 0)
		close(hold);   /* the processes waiting to open it go on, with the new file */
	if (!err) {
		if (before)
			*before = size0;
		if (after)
			*after = file_size(path);
	}
	return sdbi_done(err);
}
