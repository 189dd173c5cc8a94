/* SPDX-License-Identifier: MIT */
/* Opening and closing a database handle: the environment on the file (its
 * lock file first, a file replaced meanwhile or truncated refused), the
 * layout a writer gives a new file, the snapshot a reader keeps, handles
 * that share one environment (sdb_db_reopen()), and whether a snapshot is
 * still the newest. */
#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/env.h"
#include "store/file.h"
#include "store/pages.h"

/* Address space reserved for the map. Only what is written takes disk space;
 * readers map the same size, which costs no memory. */
#define MAP_SIZE ((size_t)64 << 30)
enum { MAX_DBS = 8 };

/* A file shorter than LMDB's last page is truncated: reading past its end
 * through the map would kill the process with SIGBUS, so refuse it now. */
static int check_not_truncated(const sdb_db *db)
{
	MDB_envinfo ei;
	MDB_stat st;
	struct stat fs;
	if (mdb_env_info(db->env, &ei) || mdb_env_stat(db->env, &st) || stat(db->path, &fs))
		return sdbi_fail(SDB_EIO, "%s: cannot read its size", db->path);
	uint64_t need = ((uint64_t)ei.me_last_pgno + 1) * st.ms_psize;
	if ((uint64_t)fs.st_size < need)
		return sdbi_fail(SDB_ECORRUPT, "%s: truncated (%lld bytes, the database "
		                "needs %llu)", db->path, (long long)fs.st_size,
		                (unsigned long long)need);
	return SDB_OK;
}

/* Give a new file the slidedb layout; an existing file must have it already
 * (a writer never adds our tables to someone else's LMDB file). */
static int create_layout(sdb_db *db, int existed)
{
	MDB_txn *txn;
	int rc, err = sdbi_env_begin(db, 0, &txn, "creating the database");
	if (err)
		return err;
	const int fresh = !existed || sdbi_env_is_empty(txn);
	err = sdbi_env_open_dbis(db, txn, fresh ? MDB_CREATE : 0);
	/* an existing file never gets our marker added */
	if (!err && fresh && (rc = sdbi_env_put_format(db, txn)))
		err = sdbi_lmdb_fail(db, rc, "creating the database");
	if (!err)
		err = sdbi_env_read_format(db, txn);
	if (!err && db->version != SDB_FORMAT_VERSION)
		err = sdbi_catalog_upgrade(db, txn);
	if (err) {
		mdb_txn_abort(txn);
		return err;
	}
	rc = mdb_txn_commit(txn);
	if (!rc)
		sdbi_env_fill_to_last_page(db);
	return rc ? sdbi_lmdb_fail(db, rc, "creating the database") : SDB_OK;
}

static int same_inode(int a, int b)
{
	struct stat x, y;
	return fstat(a, &x) == 0 && fstat(b, &y) == 0 && x.st_dev == y.st_dev &&
	       x.st_ino == y.st_ino;
}

/* LMDB sizes a new lock file with ftruncate and writes it through a memory
 * map: on a full file system the first write is a SIGBUS. Give the lock
 * file real blocks first, so that a full disk is an error, not a crash.
 * Where we may not create it, LMDB's own open says why; a FIFO or a device
 * there is refused (LMDB's open would fail on it without naming it). */
static int prepare_lock_file(const sdb_db *db)
{
	char lock[4096 + 8];
	snprintf(lock, sizeof lock, "%s-lock", db->path);
	int fd = sdb_file_open(lock, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		return errno == EINVAL ? fd : SDB_OK;
	/* LMDB's lock file: a header and 126 reader slots of 64 bytes, 8 KiB */
	int rc = posix_fallocate(fd, 0, 8192);
	close(fd);
	if (rc == ENOSPC || rc == EDQUOT)
		return sdbi_fail(SDB_EIO, "%s: no space left on the device for its lock file %s (%s)",
		                db->path, lock, strerror(rc));
	return SDB_OK;
}

static int open_env(sdb_db *db, int rdonly)
{
	int rc = mdb_env_create(&db->env);
	if (!rc)
		rc = mdb_env_set_maxdbs(db->env, MAX_DBS);
	if (!rc && !rdonly)
		rc = mdb_env_set_mapsize(db->env, MAP_SIZE);
	if (rc)
		return sdbi_lmdb_fail(db, rc, "opening");
	/* Readers tie their lock-table slot to the transaction, not the thread:
	 * a thread may then hold several snapshots (sdb_db_reopen()). */
	unsigned fl = MDB_NOSUBDIR | (rdonly ? MDB_RDONLY | MDB_NOTLS : 0);
	int err = sdbi_pages_check_meta(db->path);
	if (!err)
		err = prepare_lock_file(db);
	if (err)
		return err;
	rc = mdb_env_open(db->env, db->path, fl, 0644);
	if (rdonly && rc == EROFS) {
		/* A read-only file system: no writer can exist (none can commit to
		 * this file), so reading without the lock file is safe. */
		mdb_env_close(db->env);
		db->env = NULL;
		if ((rc = mdb_env_create(&db->env)) == 0 && (rc = mdb_env_set_maxdbs(db->env, MAX_DBS)) == 0)
			rc = mdb_env_open(db->env, db->path, fl | MDB_NOLOCK, 0644);
	}
	/* A reader that cannot write the lock file cannot register its snapshot,
	 * and a writer would reuse the pages it reads: wrong answers. Refused. */
	if (rc == EACCES && rdonly)
		return sdbi_fail(SDB_EIO, "%s: cannot write its lock file %s-lock (permission denied), "
		                "which keeps writers from reusing the pages a reader reads: make the "
		                "lock file writable for readers (chmod a+rw %s-lock), or keep the "
		                "database on a read-only file system", db->path, db->path, db->path);
	if (rc == EACCES)
		return sdbi_fail(SDB_EIO, "%s: cannot write the file or its lock file %s-lock "
		                "(permission denied)", db->path, db->path);
	if (rc)
		return sdbi_lmdb_fail(db, rc, "opening");
	int dead;
	mdb_reader_check(db->env, &dead);   /* clear slots of killed readers */
	int fd;
	if (db->hold_fd >= 0 && (mdb_env_get_fd(db->env, &fd) || !same_inode(fd, db->hold_fd)))
		return sdbi_fail(SDB_EIO, "%s: replaced while it was being opened: try again",
		                db->path);
	return check_not_truncated(db);
}

/* Readers: the named databases, opened in a transaction of their own that
 * commits, so that they belong to the environment and later snapshots
 * (sdb_db_reopen()) use them without opening them again. */
static int open_dbis_for_env(sdb_db *db)
{
	MDB_txn *txn;
	int rc, err = sdbi_env_begin(db, MDB_RDONLY, &txn, "reading");
	if (err)
		return err;
	err = sdbi_env_open_dbis(db, txn, 0);
	if (err) {
		mdb_txn_abort(txn);
		return err;
	}
	return (rc = mdb_txn_commit(txn)) ? sdbi_lmdb_fail(db, rc, "reading") : SDB_OK;
}

/* A file of format 3 that a writer has converted since the environment was
 * opened: its block checksums' database, opened for the environment (in a
 * transaction of its own that commits, under the lock of the handles that
 * share it: LMDB opens one database at a time). */
static int open_blocks_for_env(sdb_db *db)
{
	pthread_mutex_lock(&db->shared->lock);
	MDB_txn *txn;
	int err = sdbi_env_begin(db, MDB_RDONLY, &txn, "reading"), rc = 0;
	if (!err) {
		rc = mdb_dbi_open(txn, "blocks", 0, &db->blocks);
		db->has_blocks = rc == 0;
		rc = rc == MDB_NOTFOUND ? 0 : rc;
		if (rc)
			mdb_txn_abort(txn);
		else
			rc = mdb_txn_commit(txn);
	}
	pthread_mutex_unlock(&db->shared->lock);
	return err ? err : rc ? sdbi_lmdb_fail(db, rc, "reading") : SDB_OK;
}

/* Read the format and the catalog in a read transaction; keep it for a
 * read-only handle (its table pointers live as long as the handle), else
 * end it (a thread may hold only one transaction; writers need theirs). */
static int read_snapshot(sdb_db *db, int keep)
{
	MDB_txn *txn;
	int err = sdbi_env_begin(db, MDB_RDONLY, &txn, "reading");
	if (err)
		return err;
	err = sdbi_env_read_format(db, txn);
	if (!err)
		err = sdbi_catalog_load(db, txn);
	if (err || !keep) {
		mdb_txn_abort(txn);
		return err;
	}
	db->rtxn = txn;
	sdbi_catalog_resolve(db);
	return SDB_OK;
}

int sdbi_db_open_plain(sdb_db **out, const char *path, unsigned flags)
{
	*out = NULL;
	if (!path)
		path = sdb_db_default_path();
	struct stat st;
	int existed = stat(path, &st) == 0 && st.st_size > 0;
	if (stat(path, &st) != 0) {
		if (errno != ENOENT || !(flags & SDB_CREATE) || (flags & SDB_RDONLY)) {
			int err = errno == ENOENT ? SDB_ENOTFOUND : SDB_EIO;
			return sdbi_fail(err, "%s: %s", path, strerror(errno));
		}
	} else if (!S_ISREG(st.st_mode)) {
		return sdbi_not_regular(path, st.st_mode);
	} else if (st.st_size == 0 && (flags & SDB_RDONLY)) {
		return sdbi_fail(SDB_ECORRUPT, "%s: empty file, not a slidedb database", path);
	}
	const int hold = flags & SDBI_OPEN_HELD ? SDBI_HOLD_NONE
	                 : sdbi_hold_shared(path, (flags & SDB_CREATE) && !(flags & SDB_RDONLY));
	if (hold < 0 && hold != SDBI_HOLD_NONE)
		return hold;
	sdb_db *db = calloc(1, sizeof *db + strlen(path) + 1);
	if (!db) {
		if (hold >= 0)
			close(hold);
		return sdbi_fail(SDB_ENOMEM, "%s: out of memory", path);
	}
	strcpy(db->path, path);
	db->flags = flags & ~SDBI_OPEN_HELD;
	db->hold_fd = hold >= 0 ? hold : -1;
	pthread_mutex_init(&db->lock, NULL);
	int rdonly = (flags & SDB_RDONLY) != 0;
	int err = open_env(db, rdonly);
	if (!err && !rdonly)
		err = create_layout(db, existed);
	if (!err && rdonly)
		err = open_dbis_for_env(db);
	if (!err)
		err = read_snapshot(db, rdonly);
	if (err) {
		sdb_db_close(db);
		return err;
	}
	*out = db;
	return sdbi_done(SDB_OK);
}

/* Whether the path names the file db has open. */
static int still_the_file(const sdb_db *db)
{
	int fd;
	if (db->hold_fd >= 0)
		return sdbi_hold_same_file(db->hold_fd, db->path);
	return mdb_env_get_fd(db->env, &fd) || sdbi_hold_same_file(fd, db->path);
}

int sdb_db_reopen(sdb_db **out, sdb_db *old)
{
	*out = NULL;
	if (!old->rtxn)
		return sdbi_fail(SDB_EINVAL, "%s: only a read-only handle has snapshots", old->path);
	if (!still_the_file(old))
		return sdbi_fail(SDB_EIO, "%s: replaced by another file since it was opened: close "
		                "every handle of it, then open it again", old->path);
	sdb_db *db = calloc(1, sizeof *db + strlen(old->path) + 1);
	shared_env *shared = old->shared ? NULL : calloc(1, sizeof *shared);
	if (!db || (!old->shared && !shared)) {
		free(db);
		free(shared);
		return sdbi_fail(SDB_ENOMEM, "%s: out of memory", old->path);
	}
	static pthread_mutex_t first_share = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&first_share);
	if (shared && !old->shared) {   /* the first reopen: old shares its environment */
		pthread_mutex_init(&shared->lock, NULL);
		shared->refs = 1;
		old->shared = shared;
		shared = NULL;
	}
	pthread_mutex_unlock(&first_share);
	free(shared);   /* another thread's first reopen came first */
	strcpy(db->path, old->path);
	db->flags = old->flags;
	db->env = old->env;
	db->hold_fd = old->hold_fd;
	db->shared = old->shared;
	db->info = old->info;
	db->catalog = old->catalog;
	db->tables = old->tables;
	db->blocks = old->blocks;
	db->has_blocks = old->has_blocks;
	pthread_mutex_init(&db->lock, NULL);
	pthread_mutex_lock(&db->shared->lock);
	db->shared->refs++;
	pthread_mutex_unlock(&db->shared->lock);
	int err = db->has_blocks ? SDB_OK : open_blocks_for_env(db);
	if (!err)
		err = read_snapshot(db, 1);
	if (err) {
		sdb_db_close(db);
		return err;
	}
	*out = db;
	return sdbi_done(SDB_OK);
}

int sdb_db_changed(const sdb_db *db)
{
	MDB_envinfo info;
	if (!db->rtxn || mdb_env_info(db->env, &info))
		return 0;
	if (!still_the_file(db))
		return SDB_DB_REPLACED;
	return info.me_last_txnid != mdb_txn_id(db->rtxn);
}

void sdb_db_close(sdb_db *db)
{
	if (!db)
		return;
	if (db->free_slot)   /* first: what it holds reads the tables (a set's check may run) */
		db->free_slot(db->slot);
	if (db->rtxn)
		mdb_txn_abort(db->rtxn);
	int last = 1;
	if (db->shared) {
		pthread_mutex_lock(&db->shared->lock);
		last = --db->shared->refs == 0;
		pthread_mutex_unlock(&db->shared->lock);
		if (last) {
			pthread_mutex_destroy(&db->shared->lock);
			free(db->shared);
		}
	}
	if (db->env && last)
		mdb_env_close(db->env);
	if (db->hold_fd >= 0 && last)
		close(db->hold_fd);   /* after the environment: compact may go on */
	pthread_mutex_destroy(&db->lock);
	sdbi_catalog_free(db);
	free(db);
}
