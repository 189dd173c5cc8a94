/* SPDX-License-Identifier: MIT */
/* The LMDB page checker (pages.c): LMDB trusts the pages of its file, so a
 * damaged file could crash it (SIGSEGV, SIGBUS), make it loop or assert.
 * Before LMDB reads a snapshot's B-trees, we read them ourselves and check
 * every page against what LMDB assumes of it. */
#ifndef SLIDEDB_STORE_PAGES_H
#define SLIDEDB_STORE_PAGES_H

#include <lmdb.h>

/* Check the snapshot txn reads (for a write transaction: the snapshot it
 * starts from). Every page reachable from the meta page's roots (the free
 * list, the main database and every named database in it) is read with
 * pread and checked: its number and kind, its bounds, its nodes' offsets and
 * sizes, keys in strict order within the bounds its parents give, one depth
 * for all leaves, the databases' statistics, overflow runs and free-list
 * page lists inside the file; and every page of the snapshot is used exactly
 * once (a tree or the free list), so no page is shared and nothing loops.
 * Only slidedb's own layout is accepted (no duplicate-key databases).
 * how: SDBI_PAGES_WRITE for a write transaction, SDBI_PAGES_PLAIN when the
 * main database holds data itself (shards) rather than named databases.
 * Returns 0, SDB_ECORRUPT with a detail naming path and the page, or
 * SDBI_PAGES_MOVED when neither meta page holds the snapshot LMDB's lock file
 * names (the txn's id): for a read transaction, writers may have committed
 * twice since it began (renew it and check again); for a write transaction,
 * or when it lasts, the lock file describes another file (the file was
 * replaced while other processes kept the lock file open), and a writer
 * that went on would commit over the new file's meta page. */
enum { SDBI_PAGES_WRITE = 1, SDBI_PAGES_PLAIN = 2, SDBI_PAGES_MOVED = 1 };
int sdbi_pages_check(MDB_env *env, MDB_txn *txn, const char *path, unsigned how);

/* The two meta pages of the file at path, before LMDB opens it: magic,
 * version, page size, roots, and a file long enough for the last page
 * either names. 0 (also when the file is new or cannot be opened: LMDB's
 * open says why), SDB_ECORRUPT with the detail, or SDB_EIO when the path
 * holds no regular file (sdb_file_open(): LMDB's open would wait on a
 * FIFO). */
int sdbi_pages_check_meta(const char *path);


#endif
