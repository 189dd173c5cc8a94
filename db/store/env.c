/* SPDX-License-Identifier: MIT */
/* A database handle's LMDB environment, as every part of the store uses it:
 * the named databases (info, catalog, tables, blocks) and their keys, the
 * format marker, transactions whose pages are checked before LMDB reads
 * them, and LMDB's errors said in our words; and what the layers above ask
 * of a handle (its path, its lock, its slot, the sizes it has tables for). */
#define _GNU_SOURCE   /* fallocate */
#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "store/env.h"
#include "store/pages.h"

#define FORMAT_KEY "format"

/* The oldest format this slidedb reads (and converts on the first write). */
#define OLDEST_FORMAT 2u

const char *sdb_db_default_path(void)
{
	const char *env = getenv("SLIDEDB_DB");
	return env && *env ? env : "slidedb.lmdb";
}

const char *sdb_db_path(const sdb_db *db)
{
	return db->path;
}

int sdbi_lmdb_fail(const sdb_db *db, int rc, const char *what)
{
	if (rc == MDB_INVALID || rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND)
		return sdbi_fail(SDB_ECORRUPT, "%s: not a valid slidedb database (%s)",
		                db->path, mdb_strerror(rc));
	if (rc == MDB_VERSION_MISMATCH)
		return sdbi_fail(SDB_EVERSION, "%s: written by another LMDB version", db->path);
	if (rc == ENOMEM)
		return sdbi_fail(SDB_ENOMEM, "%s: %s: out of memory", db->path, what);
	/* LMDB reports a write that ran out of space as EIO: say so when the
	 * file system is (nearly) full, so the user knows what to free. */
	struct statvfs fs;
	if ((rc == EIO || rc == ENOSPC) && statvfs(db->path, &fs) == 0 &&
	    (uint64_t)fs.f_bavail * fs.f_frsize < ((uint64_t)64 << 20))
		return sdbi_fail(SDB_EIO, "%s: %s: no space left on the device (%llu KiB free)",
		                db->path, what,
		                (unsigned long long)((uint64_t)fs.f_bavail * fs.f_frsize >> 10));
	return sdbi_fail(SDB_EIO, "%s: %s: %s", db->path, what, mdb_strerror(rc));
}

/* LMDB counts a page a transaction allocated and then freed (a loose page)
 * in the file's last page number without ever writing it: a commit can
 * leave the file a few pages short of what the check on open wants. Give the
 * last page blocks after every commit, so that a file we wrote is whole by
 * that rule and a short one is truly damaged. fallocate, not ftruncate: it
 * only ever grows the file, so another process's commit that grew it
 * meanwhile (this runs after the write lock is released) is never cut back;
 * and not posix_fallocate, whose emulation on file systems without it
 * writes bytes that a concurrent writer may own. */
void sdbi_env_fill_to_last_page(const sdb_db *db)
{
	MDB_envinfo ei;
	MDB_stat st;
	int fd;
	if (mdb_env_info(db->env, &ei) || mdb_env_stat(db->env, &st) ||
	    mdb_env_get_fd(db->env, &fd))
		return;
	/* a failure leaves the file as LMDB wrote it: the next open says so */
	(void)fallocate(fd, 0, (off_t)((uint64_t)ei.me_last_pgno * st.ms_psize),
	                (off_t)st.ms_psize);
}

int sdbi_env_read_format(sdb_db *db, MDB_txn *txn)
{
	MDB_val key = { strlen(FORMAT_KEY), FORMAT_KEY }, val;
	int rc = mdb_get(txn, db->info, &key, &val);
	if (rc == MDB_NOTFOUND || (rc == 0 && val.mv_size != sizeof(uint32_t)))
		return sdbi_fail(SDB_ECORRUPT, "%s: an LMDB file but not a slidedb database",
		                db->path);
	if (rc)
		return sdbi_lmdb_fail(db, rc, "reading the format");
	uint32_t version;
	memcpy(&version, val.mv_data, sizeof version);
	if (version < OLDEST_FORMAT || version > SDB_FORMAT_VERSION)
		return sdbi_fail(SDB_EVERSION, "%s: database format version %u, this slidedb "
		                "(%s) reads versions %u to %u: %s", db->path, version,
		                SDB_VERSION_STRING, OLDEST_FORMAT, SDB_FORMAT_VERSION,
		                version > SDB_FORMAT_VERSION ? "use a newer slidedb"
		                : "rebuild its tables with slidedb-gen");
	db->version = version;
	if (version >= 4 && !db->has_blocks)
		return sdbi_fail(SDB_ECORRUPT, "%s: the tables' block checksums are missing (damaged)",
		                db->path);
	return SDB_OK;
}

int sdbi_env_put_format(sdb_db *db, MDB_txn *txn)
{
	uint32_t version = SDB_FORMAT_VERSION;
	MDB_val key = { strlen(FORMAT_KEY), FORMAT_KEY }, val = { sizeof version, &version };
	return mdb_put(txn, db->info, &key, &val, 0);
}

/* Whether the LMDB file holds nothing at all: a first build killed before
 * it wrote the layout leaves such a file, which is then taken as new. */
int sdbi_env_is_empty(MDB_txn *txn)
{
	MDB_dbi main;
	MDB_stat st;
	return mdb_dbi_open(txn, NULL, 0, &main) == 0 && mdb_stat(txn, main, &st) == 0 &&
	       st.ms_entries == 0;
}

int sdbi_env_open_dbis(sdb_db *db, MDB_txn *txn, unsigned flags)
{
	int rc = mdb_dbi_open(txn, "info", flags, &db->info);
	if (rc == MDB_NOTFOUND && sdbi_env_is_empty(txn))
		return sdbi_fail(SDB_ECORRUPT, "%s: an empty LMDB file, not yet a slidedb database (a "
		                "first build that was stopped?): build its tables with slidedb-gen",
		                db->path);
	if (rc == MDB_NOTFOUND || rc == MDB_INCOMPATIBLE)
		return sdbi_fail(SDB_ECORRUPT, "%s: an LMDB file but not a slidedb database",
		                db->path);
	if (!rc)
		rc = mdb_dbi_open(txn, "catalog", flags, &db->catalog);
	if (!rc)
		rc = mdb_dbi_open(txn, "tables", flags, &db->tables);
	if (rc == MDB_NOTFOUND)
		return sdbi_fail(SDB_ECORRUPT, "%s: the slidedb catalog is missing", db->path);
	if (!rc) {   /* format 4: required, and checked once the version is known */
		int brc = mdb_dbi_open(txn, "blocks", flags, &db->blocks);
		db->has_blocks = brc == 0;
		rc = brc == MDB_NOTFOUND ? 0 : brc;
	}
	return rc ? sdbi_lmdb_fail(db, rc, "opening the catalog") : SDB_OK;
}

/* The key of chunk c (c >= 1) of table name. */
MDB_val sdbi_chunk_key(char *buf, const char *name, uint32_t c)
{
	size_t len = strlen(name);
	memcpy(buf, name, len + 1);
	for (int i = 0; i < 4; i++)
		buf[len + 1 + i] = (char)(c >> (24 - 8 * i));
	return (MDB_val){ len + 5, buf };
}

/* Store a table's block checksums, computed from sum (finished). */
int sdbi_env_put_blocks(sdb_db *db, MDB_txn *txn, const char *name, const sdbi_blocksum *sum)
{
	MDB_val key = { strlen(name), (void *)name }, val = { 4 + 4 * sum->nblocks, NULL };
	int rc = mdb_put(txn, db->blocks, &key, &val, MDB_RESERVE);
	if (!rc)
		memcpy(val.mv_data, sum->crc, val.mv_size);
	return rc;
}

/* Begin a transaction whose snapshot has had its pages checked (pages.c)
 * before LMDB reads them. A read transaction whose meta page writers have
 * meanwhile rewritten is renewed and checked again. */
int sdbi_env_begin(sdb_db *db, unsigned flags, MDB_txn **txn, const char *what)
{
	int rc = mdb_txn_begin(db->env, NULL, flags, txn);
	if (rc)
		return sdbi_lmdb_fail(db, rc, what);
	const unsigned how = flags & MDB_RDONLY ? 0 : SDBI_PAGES_WRITE;
	int err = sdbi_pages_check(db->env, *txn, db->path, how);
	for (int tries = 0; err == SDBI_PAGES_MOVED && (flags & MDB_RDONLY) && tries < 100; tries++) {
		mdb_txn_reset(*txn);
		if ((rc = mdb_txn_renew(*txn)))
			break;
		err = sdbi_pages_check(db->env, *txn, db->path, how);
	}
	if (err == SDBI_PAGES_MOVED || rc)
		err = rc ? sdbi_lmdb_fail(db, rc, what)
		         : sdbi_fail(SDB_EIO, "%s: its lock file %s-lock describes another file (was "
		                    "the database replaced while programs had it open?): stop the "
		                    "programs that use it, then try again", db->path, db->path);
	if (err) {
		mdb_txn_abort(*txn);
		*txn = NULL;
	}
	return err;
}

void **sdbi_db_slot(const sdb_db *cdb, void (**free_fn)(void *))
{
	sdb_db *db = (sdb_db *)cdb;   /* the slot is not part of the value */
	if (free_fn)
		*free_fn = db->free_slot;
	return &db->slot;
}

void sdbi_db_set_slot_free(const sdb_db *cdb, void (*free_fn)(void *))
{
	((sdb_db *)cdb)->free_slot = free_fn;
}

sdbi_sizes sdbi_db_sizes(const sdb_db *db)
{
	sdbi_sizes have = 0;
	for (int i = 0; i < db->ntables; i++)
		if (db->table[i].info.goal.w)
			have |= sdbi_size_bit(db->table[i].info.goal.w, db->table[i].info.goal.h);
	return have;
}

int sdb_db_has_size(const sdb_db *db, int w, int h)
{
	return w >= 2 && h >= 2 && w <= 8 && h <= 8 && (sdbi_db_sizes(db) & sdbi_size_bit(w, h)) != 0;
}

void sdbi_db_lock(const sdb_db *db)
{
	pthread_mutex_lock(&((sdb_db *)db)->lock);
}

void sdbi_db_unlock(const sdb_db *db)
{
	pthread_mutex_unlock(&((sdb_db *)db)->lock);
}
