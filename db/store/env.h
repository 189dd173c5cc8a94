/* SPDX-License-Identifier: MIT */
/* A database handle's insides, for the store's files that work with LMDB
 * (env.c, open.c, catalog.c, table.c, writer.c, compact.c): the handle, and
 * the environment's helpers they share (env.c). The answer layer sees a
 * handle only through store/store.h. Not installed. */
#ifndef SLIDEDB_STORE_ENV_H
#define SLIDEDB_STORE_ENV_H

#include <lmdb.h>
#include <pthread.h>

#include "store/crc.h"
#include "store/store.h"

/* LMDB allows one environment per file and process: handles of one file
 * made by sdb_db_reopen() share it, and the last to close closes it. */
typedef struct shared_env {
	pthread_mutex_t lock;
	int refs;
} shared_env;

/* sdb_db_open()'s own flag: the caller (compact) holds the file already. */
#define SDBI_OPEN_HELD 0x100

struct sdb_db {
	MDB_env *env;
	int hold_fd;              /* the file's shared hold (hold.c), -1 if none; shared
	                             with the environment, closed with it */
	shared_env *shared;       /* NULL until a reopen shares env */
	MDB_txn *rtxn;            /* read-only handles: held until close */
	MDB_dbi info, catalog, tables;
	MDB_dbi blocks;           /* the tables' block checksums (format 4) */
	int has_blocks;           /* the file has them (format 3 files do not) */
	unsigned flags;
	uint32_t version;         /* the file's format version */
	int ntables;
	struct sdb_table *table;  /* catalog, in name order */
	pthread_mutex_t lock;     /* for state kept beside the values (sdbi_db_lock) */
	void *slot;               /* a higher layer's state (sdbi_db_slot) */
	void (*free_slot)(void *);
	char path[];
};

/* LMDB's error rc while doing `what` to db, as SDB_E* with the detail. */
int sdbi_lmdb_fail(const sdb_db *db, int rc, const char *what);

/* Begin a transaction (flags: LMDB's, 0 or MDB_RDONLY) whose pages were
 * checked before LMDB reads them; 0, or the error with `what` in it. */
int sdbi_env_begin(sdb_db *db, unsigned flags, MDB_txn **txn, const char *what);

/* After a commit: the file grown to its last page (see env.c). */
void sdbi_env_fill_to_last_page(const sdb_db *db);

/* The named databases of the file (flags: MDB_CREATE for a new file): 0,
 * or the error (SDB_ECORRUPT for an LMDB file that is not a slidedb one). */
int sdbi_env_open_dbis(sdb_db *db, MDB_txn *txn, unsigned flags);
/* Whether the LMDB file holds nothing at all yet (a first build killed
 * before it wrote the layout leaves such a file). */
int sdbi_env_is_empty(MDB_txn *txn);
/* The file's format version, into db->version: 0, or SDB_EVERSION for one
 * this slidedb does not read, SDB_ECORRUPT for a file without it. */
int sdbi_env_read_format(sdb_db *db, MDB_txn *txn);
/* This slidedb's format version written as the file's: LMDB's rc. */
int sdbi_env_put_format(sdb_db *db, MDB_txn *txn);

/* A table's key for chunk c (c >= 1) of a table stored in chunks (writer.c
 * says why), written into buf, which has room for SDBI_CHUNK_KEY_MAX. */
enum { SDBI_CHUNK_KEY_MAX = SDB_NAME_MAX + 5 };
MDB_val sdbi_chunk_key(char *buf, const char *name, uint32_t c);

/* Store a table's block checksums, computed from sum (finished); LMDB's rc. */
int sdbi_env_put_blocks(sdb_db *db, MDB_txn *txn, const char *name, const sdbi_blocksum *sum);

/* The catalog (catalog.c): read into db->table in txn, each entry checked;
 * the tables' entries found in the map of a read-only handle's snapshot;
 * db->table freed; an older file's catalog converted to this format in a
 * writer's transaction. */
int sdbi_catalog_load(sdb_db *db, MDB_txn *txn);
void sdbi_catalog_resolve(sdb_db *db);
void sdbi_catalog_free(sdb_db *db);
int sdbi_catalog_upgrade(sdb_db *db, MDB_txn *txn);

#endif
