/* The LMDB store: one file holding a catalog (table name -> sdb_table_info)
 * and the tables (table name -> entries), plus a format marker.
 *
 * Readers hold one read transaction for the life of the handle and read
 * entries straight out of the memory map. Writers put every table and its
 * catalog entry in one write transaction, so a killed writer leaves the
 * previous database intact. */
#define _GNU_SOURCE   /* fallocate */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "store/store.h"
#include "store/pages.h"

/* Address space reserved for the map. Only what is written takes disk space;
 * readers map the same size, which costs no memory. */
#define MAP_SIZE ((size_t)64 << 30)
#define FORMAT_KEY "format"
/* The oldest format this slidedb reads (and converts on the first write). */
#define OLDEST_FORMAT 2u
enum { MAX_CATALOG = 1 << 16, MAX_DBS = 8 };

/* LMDB allows one environment per file and process: handles of one file
 * made by sdb_db_reopen() share it, and the last to close closes it. */
typedef struct shared_env {
	pthread_mutex_t lock;
	int refs;
} shared_env;

/* sdb_db_open()'s own flag: the caller (compact) holds the file already. */
#define OPEN_HELD 0x100

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

/* A table is written either reserved whole (the caller fills the pages) or
 * appended (sdb_writer_open_table): whole as well when it fits one LMDB
 * value, else in chunks (chunk_bytes > 0), each reserved when the previous
 * one is full. */
struct sdb_writer {
	sdb_db *db;
	MDB_txn *txn;
	uint8_t *reserved;        /* a whole table's pages, or the current chunk's */
	uint64_t reserved_size;   /* the table's bytes */
	char reserved_name[SDB_NAME_MAX];
	int appending;
	uint64_t appended;        /* bytes appended so far */
	uint64_t chunk_bytes;     /* chunked: each chunk's bytes; 0 when whole */
	uint64_t chunk_size;      /* the chunks of tables over whole_max */
	uint64_t whole_max;       /* largest table stored whole */
	sdbi_blocksum sum;         /* the checksums of what was appended */
};

/* Tables over 4 GiB do not fit one LMDB value (its size has 32 bits): they
 * are stored in chunks of 128 MiB under "NAME\0" and a 4-byte big-endian
 * chunk number (chunk 0 under NAME itself). Chunks are reserved one after
 * another and filled before the next: a chunk of 32768 pages keeps LMDB from
 * spilling (writing out and freeing) dirty pages of the transaction while
 * they are still being written. Readers find the layout from the size of the
 * first value. SLIDEDB_CHUNK_BYTES (a power of two, at least 4096) makes
 * every two-bit table larger than it chunked at that size: how the tests
 * exercise chunks on small boards. */
#define WHOLE_MAX ((uint64_t)UINT32_MAX)
#define CHUNK_BYTES ((uint64_t)1 << 27)
enum { CHUNK_KEY_MAX = SDB_NAME_MAX + 5 };

const char *sdb_db_default_path(void)
{
	const char *env = getenv("SLIDEDB_DB");
	return env && *env ? env : "slidedb.lmdb";
}

const char *sdb_db_path(const sdb_db *db)
{
	return db->path;
}

static int lmdb_fail(const sdb_db *db, int rc, const char *what)
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
 * leave the file a few pages short of what the check below wants. Give the
 * last page blocks after every commit, so that a file we wrote is whole by
 * that rule and a short one is truly damaged. fallocate, not ftruncate: it
 * only ever grows the file, so another process's commit that grew it
 * meanwhile (this runs after the write lock is released) is never cut back;
 * and not posix_fallocate, whose emulation on file systems without it
 * writes bytes that a concurrent writer may own. */
static void fill_to_last_page(const sdb_db *db)
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

static int read_format(sdb_db *db, MDB_txn *txn)
{
	MDB_val key = { strlen(FORMAT_KEY), FORMAT_KEY }, val;
	int rc = mdb_get(txn, db->info, &key, &val);
	if (rc == MDB_NOTFOUND || (rc == 0 && val.mv_size != sizeof(uint32_t)))
		return sdbi_fail(SDB_ECORRUPT, "%s: an LMDB file but not a slidedb database",
		                db->path);
	if (rc)
		return lmdb_fail(db, rc, "reading the format");
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

/* Whether the LMDB file holds nothing at all: a first build killed before
 * it wrote the layout leaves such a file, which is then taken as new. */
static int lmdb_empty(MDB_txn *txn)
{
	MDB_dbi main;
	MDB_stat st;
	return mdb_dbi_open(txn, NULL, 0, &main) == 0 && mdb_stat(txn, main, &st) == 0 &&
	       st.ms_entries == 0;
}

static int open_dbis(sdb_db *db, MDB_txn *txn, unsigned flags)
{
	int rc = mdb_dbi_open(txn, "info", flags, &db->info);
	if (rc == MDB_NOTFOUND && lmdb_empty(txn))
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
	return rc ? lmdb_fail(db, rc, "opening the catalog") : SDB_OK;
}

/* A key as a name for a message: control and non-ASCII bytes become '?'. */
static void printable_name(char *name, const char *key, size_t len)
{
	size_t n = len < SDB_NAME_MAX - 1 ? len : SDB_NAME_MAX - 1;
	for (size_t i = 0; i < n; i++)
		name[i] = key[i] >= 0x20 && key[i] < 0x7f ? key[i] : '?';
	name[n] = '\0';
}

/* A catalog entry that cannot be used: kept under a printable form of its
 * key, with its raw key (so that `rm` can remove it) and the reason. */
static int keep_damaged(struct sdb_table *t, const MDB_val *key, const char *why)
{
	memset(&t->info, 0, sizeof t->info);
	printable_name(t->info.name, key->mv_data, key->mv_size);
	snprintf(t->damage, sizeof t->damage, "damaged (its catalog entry: %s)", why);
	t->problem = t->damage;
	t->raw_key_len = key->mv_size;
	if (!(t->raw_key = malloc(key->mv_size ? key->mv_size : 1)))
		return SDB_ENOMEM;
	memcpy(t->raw_key, key->mv_data, key->mv_size);
	return SDB_OK;
}

static int load_catalog(sdb_db *db, MDB_txn *txn)
{
	MDB_stat st;
	int rc = mdb_stat(txn, db->catalog, &st);
	if (rc)
		return lmdb_fail(db, rc, "reading the catalog");
	if (st.ms_entries > MAX_CATALOG)
		return sdbi_fail(SDB_ECORRUPT, "%s: the catalog claims %zu tables (damaged)", db->path,
		                st.ms_entries);
	db->table = calloc(st.ms_entries ? st.ms_entries : 1, sizeof *db->table);
	if (!db->table)
		return sdbi_fail(SDB_ENOMEM, "%s: out of memory", db->path);
	MDB_cursor *cur;
	if ((rc = mdb_cursor_open(txn, db->catalog, &cur)))
		return lmdb_fail(db, rc, "reading the catalog");
	MDB_val key, val;
	int err = SDB_OK;
	db->ntables = 0;
	for (rc = mdb_cursor_get(cur, &key, &val, MDB_FIRST);
	     rc == 0 && !err && db->ntables < (int)st.ms_entries;
	     rc = mdb_cursor_get(cur, &key, &val, MDB_NEXT)) {
		struct sdb_table *t = &db->table[db->ntables++];
		const char *why = sdbi_record_decode(&t->info, key.mv_data, key.mv_size, val.mv_data,
		                                    val.mv_size, db->version)
		                  ? "not a catalog record" : sdbi_info_problem(&t->info);
		t->db = db;
		if (why) {   /* the others stay usable, and `rm` can remove this one */
			if (keep_damaged(t, &key, why))
				err = sdbi_fail(SDB_ENOMEM, "%s: out of memory", db->path);
			continue;
		}
		t->blank = t->info.goal.blank;
		if (t->info.kind == SDB_KIND_FULL && t->info.goal.n <= SDB_MAX_FULL_CELLS)
			t->goal_index = sdb_rank(&t->info.goal);
	}
	mdb_cursor_close(cur);
	if (!err && rc != 0 && rc != MDB_NOTFOUND)
		err = lmdb_fail(db, rc, "reading the catalog");
	/* The tiles each set covers: a partial partition leaves the others out. */
	for (int i = 0; i < db->ntables; i++)
		for (int j = 0; j < db->ntables; j++)
			if (db->table[i].info.kind == SDB_KIND_PATTERN &&
			    db->table[j].info.kind == SDB_KIND_PATTERN &&
			    !strcmp(db->table[i].info.set, db->table[j].info.set))
				db->table[i].info.set_tiles |= db->table[j].info.pattern;
	return err;
}

/* Resolve every table's entries once, on open (read-only handles): the
 * handle is never written after that, so threads may share it freely. A
 * table whose entries are missing or of the wrong size keeps the reason. */
/* The key of chunk c (c >= 1) of table name. */
static MDB_val chunk_key(char *buf, const char *name, uint32_t c)
{
	size_t len = strlen(name);
	memcpy(buf, name, len + 1);
	for (int i = 0; i < 4; i++)
		buf[len + 1 + i] = (char)(c >> (24 - 8 * i));
	return (MDB_val){ len + 5, buf };
}

/* A chunked table's chunks after the first: each must be there with its
 * size; sets t->chunk or t->problem. */
static void resolve_chunks(const sdb_db *db, struct sdb_table *t, const MDB_val *first)
{
	const uint64_t bytes = sdb_table_bytes(&t->info), size = first->mv_size;
	if (t->info.entry_format != SDB_ENTRY_MOD3 || size < 4096 || (size & (size - 1)) ||
	    size > bytes) {
		t->problem = "of the wrong size";
		return;
	}
	const uint64_t n = (bytes + size - 1) / size;
	const uint8_t **chunk = n <= INT32_MAX ? malloc(n * sizeof *chunk) : NULL;
	if (!chunk) {
		t->problem = "too large for this machine's memory";
		return;
	}
	chunk[0] = first->mv_data;
	for (uint64_t c = 1; c < n; c++) {
		char buf[CHUNK_KEY_MAX];
		MDB_val key = chunk_key(buf, t->info.name, (uint32_t)c), val;
		uint64_t want = c + 1 < n ? size : bytes - c * size;
		int rc = mdb_get(db->rtxn, db->tables, &key, &val);
		if (rc || val.mv_size != want) {
			t->problem = rc == MDB_NOTFOUND ? "missing a chunk"
			             : rc ? mdb_strerror(rc) : "of the wrong size (a chunk)";
			free(chunk);
			return;
		}
		chunk[c] = val.mv_data;
	}
	t->chunk = chunk;
	t->nchunks = (int)n;
	t->chunk_shift = __builtin_ctzll(size);
	t->chunk_mask = size - 1;
}

/* A resolved table's block checksums (format 4), and the bitmap of the
 * blocks this process has checked; 0, or the problem that makes the table
 * unusable. Format-3 tables have none: they are checked whole. */
static const char *resolve_blocks(sdb_db *db, struct sdb_table *t)
{
	const uint64_t bytes = sdb_table_bytes(&t->info);
	t->nblocks = (bytes + SDBI_BLOCK_SIZE - 1) >> SDBI_BLOCK_SHIFT;
	if (!(t->checked = calloc((t->nblocks + 63) / 64 + 1, sizeof *t->checked)))
		return "too large for this machine's memory";
	if (!db->has_blocks)
		return NULL;
	MDB_val key = { strlen(t->info.name), t->info.name }, val;
	int rc = mdb_get(db->rtxn, db->blocks, &key, &val);
	const uint8_t *p = val.mv_data;
	if (rc == MDB_NOTFOUND)
		return "missing its block checksums";
	if (rc)
		return mdb_strerror(rc);
	if (val.mv_size != 4 + 4 * t->nblocks ||
	    (p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24) != SDBI_BLOCK_SIZE)
		return "of the wrong size (its block checksums)";
	t->block_crc = p + 4;
	return NULL;
}

/* Ask the kernel for 2 MiB pages where [p, p + bytes) of the map is filled
 * from the file (MADV_HUGEPAGE; the whole 2 MiB pages inside): a search's reads
 * scattered over hundreds of megabytes then rarely miss the TLB, and a
 * process maps the cached file with a fault per 2 MiB, not per 64 KiB.
 * Advice only: kernels and file systems that cannot keep the page cache in
 * large folios ignore it (recent Linux on ext4, XFS and tmpfs can). */
static void advise_huge(const void *p, uint64_t bytes)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;
	const uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	const uintptr_t hi = ((uintptr_t)p + bytes) & ~(huge - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

static void resolve_tables(sdb_db *db)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0;   /* the tables' span of the map */
	for (int i = 0; i < db->ntables; i++) {
		struct sdb_table *t = &db->table[i];
		if (t->problem)   /* a damaged catalog entry */
			continue;
		MDB_val key = { strlen(t->info.name), t->info.name }, val;
		int rc = mdb_get(db->rtxn, db->tables, &key, &val);
		if (rc == 0 && val.mv_size == sdb_table_bytes(&t->info)) {
			t->data = val.mv_data;
			t->chunk = &t->data;
			t->nchunks = 1;
			t->chunk_shift = 63;
			t->chunk_mask = ((uint64_t)1 << 63) - 1;
		} else if (rc == 0) {
			resolve_chunks(db, t, &val);
		} else {
			t->problem = rc == MDB_NOTFOUND ? "missing" : mdb_strerror(rc);
		}
		for (int c = 0; t->chunk && c < t->nchunks; c++) {
			const uintptr_t at = (uintptr_t)t->chunk[c];
			lo = at < lo ? at : lo;
			hi = at + sdbi_chunk_bytes(t, c) > hi ? at + sdbi_chunk_bytes(t, c) : hi;
		}
		const char *why = t->chunk ? resolve_blocks(db, t) : NULL;
		if (why) {   /* unusable: as if never resolved */
			if (t->chunk != &t->data)
				free((void *)t->chunk);
			t->chunk = NULL;
			t->data = NULL;
			t->problem = why;
		}
	}
	/* every table, and the B-tree pages between them: one map of the file
	 * (normal readahead around a B-tree page would fill its neighbours in
	 * small pages) */
	if (hi > lo)
		advise_huge((const void *)lo, hi - lo);
}

static void free_tables(sdb_db *db)
{
	for (int i = 0; i < db->ntables; i++) {
		struct sdb_table *t = &db->table[i];
		if (t->chunk != &t->data)
			free((void *)t->chunk);
		free(t->checked);
		free(t->raw_key);
		sdb_pattern_free(t->pattern);
	}
	free(db->table);
	db->table = NULL;
	db->ntables = 0;
}

/* Store a table's block checksums, computed from sum (finished). */
static int put_blocks(sdb_db *db, MDB_txn *txn, const char *name, const sdbi_blocksum *sum)
{
	MDB_val key = { strlen(name), (void *)name }, val = { 4 + 4 * sum->nblocks, NULL };
	int rc = mdb_put(txn, db->blocks, &key, &val, MDB_RESERVE);
	if (!rc)
		memcpy(val.mv_data, sum->crc, val.mv_size);
	return rc;
}

/* The checksums of a table as stored in txn (whole or in chunks): 0, or -1
 * when its values are missing or of the wrong size. */
static int sum_stored(sdb_db *db, MDB_txn *txn, const sdb_table_info *in, sdbi_blocksum *sum)
{
	const uint64_t bytes = sdb_table_bytes(in);
	char buf[CHUNK_KEY_MAX];
	MDB_val key = { strlen(in->name), (void *)in->name }, val;
	for (uint32_t c = 0; sum->bytes < bytes; c++) {
		if (c > 0)
			key = chunk_key(buf, in->name, c);
		if (mdb_get(txn, db->tables, &key, &val) || val.mv_size == 0 ||
		    val.mv_size > bytes - sum->bytes || sdbi_blocksum_add(sum, val.mv_data, val.mv_size))
			return -1;
	}
	return sdbi_blocksum_finish(sum) ? -1 : 0;
}

/* Convert an older file to this format inside a writer's transaction (the
 * first write to an old file converts it): version-2 and -3 catalogs become
 * version-4 records, and every table whose bytes match its CRC gets its
 * block checksums (a damaged one gets none, and stays an error to read). */
static int upgrade_catalog(sdb_db *db, MDB_txn *txn)
{
	int err = load_catalog(db, txn);
	int rc = err ? 0 : mdb_dbi_open(txn, "blocks", MDB_CREATE, &db->blocks);
	if (rc)
		err = lmdb_fail(db, rc, "converting the catalog");
	db->has_blocks = !err;
	for (int i = 0; i < db->ntables && !err; i++) {
		sdb_table_info *in = &db->table[i].info;
		if (db->table[i].problem)
			continue;   /* a damaged entry is left as it is */
		MDB_val key = { strlen(in->name), in->name }, val = { sdbi_record_size(in), NULL };
		rc = mdb_put(txn, db->catalog, &key, &val, MDB_RESERVE);
		if (!rc)
			sdbi_record_encode(val.mv_data, in);
		sdbi_blocksum sum;
		sdbi_blocksum_init(&sum);
		if (!rc && sum_stored(db, txn, in, &sum) == 0 && sum.whole == in->crc32)
			rc = put_blocks(db, txn, in->name, &sum);
		sdbi_blocksum_free(&sum);
		if (rc)
			err = lmdb_fail(db, rc, "converting the catalog");
	}
	free_tables(db);
	uint32_t version = SDB_FORMAT_VERSION;
	MDB_val key = { strlen(FORMAT_KEY), FORMAT_KEY }, val = { sizeof version, &version };
	rc = err ? 0 : mdb_put(txn, db->info, &key, &val, 0);
	if (rc)
		err = lmdb_fail(db, rc, "converting the catalog");
	if (!err)
		db->version = SDB_FORMAT_VERSION;
	return err;
}

/* Begin a transaction whose snapshot has had its pages checked (pages.c)
 * before LMDB reads them. A read transaction whose meta page writers have
 * meanwhile rewritten is renewed and checked again. */
static int begin_checked(sdb_db *db, unsigned flags, MDB_txn **txn, const char *what)
{
	int rc = mdb_txn_begin(db->env, NULL, flags, txn);
	if (rc)
		return lmdb_fail(db, rc, what);
	const unsigned how = flags & MDB_RDONLY ? 0 : SDBI_PAGES_WRITE;
	int err = sdbi_pages_check(db->env, *txn, db->path, how);
	for (int tries = 0; err == SDBI_PAGES_MOVED && (flags & MDB_RDONLY) && tries < 100; tries++) {
		mdb_txn_reset(*txn);
		if ((rc = mdb_txn_renew(*txn)))
			break;
		err = sdbi_pages_check(db->env, *txn, db->path, how);
	}
	if (err == SDBI_PAGES_MOVED || rc)
		err = rc ? lmdb_fail(db, rc, what)
		         : sdbi_fail(SDB_EIO, "%s: its lock file %s-lock describes another file (was "
		                    "the database replaced while programs had it open?): stop the "
		                    "programs that use it, then try again", db->path, db->path);
	if (err) {
		mdb_txn_abort(*txn);
		*txn = NULL;
	}
	return err;
}

/* Give a new file the slidedb layout; an existing file must have it already
 * (a writer never adds our tables to someone else's LMDB file). */
static int create_layout(sdb_db *db, int existed)
{
	MDB_txn *txn;
	int rc, err = begin_checked(db, 0, &txn, "creating the database");
	if (err)
		return err;
	const int fresh = !existed || lmdb_empty(txn);
	err = open_dbis(db, txn, fresh ? MDB_CREATE : 0);
	if (!err && fresh) {   /* an existing file never gets our marker added */
		uint32_t version = SDB_FORMAT_VERSION;
		MDB_val key = { strlen(FORMAT_KEY), FORMAT_KEY }, val = { sizeof version, &version };
		if ((rc = mdb_put(txn, db->info, &key, &val, 0)))
			err = lmdb_fail(db, rc, "creating the database");
	}
	if (!err)
		err = read_format(db, txn);
	if (!err && db->version != SDB_FORMAT_VERSION)
		err = upgrade_catalog(db, txn);
	if (err) {
		mdb_txn_abort(txn);
		return err;
	}
	rc = mdb_txn_commit(txn);
	if (!rc)
		fill_to_last_page(db);
	return rc ? lmdb_fail(db, rc, "creating the database") : SDB_OK;
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
		return lmdb_fail(db, rc, "opening");
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
		return lmdb_fail(db, rc, "opening");
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
	int rc, err = begin_checked(db, MDB_RDONLY, &txn, "reading");
	if (err)
		return err;
	err = open_dbis(db, txn, 0);
	if (err) {
		mdb_txn_abort(txn);
		return err;
	}
	return (rc = mdb_txn_commit(txn)) ? lmdb_fail(db, rc, "reading") : SDB_OK;
}

/* A file of format 3 that a writer has converted since the environment was
 * opened: its block checksums' database, opened for the environment (in a
 * transaction of its own that commits, under the lock of the handles that
 * share it: LMDB opens one database at a time). */
static int open_blocks_for_env(sdb_db *db)
{
	pthread_mutex_lock(&db->shared->lock);
	MDB_txn *txn;
	int err = begin_checked(db, MDB_RDONLY, &txn, "reading"), rc = 0;
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
	return err ? err : rc ? lmdb_fail(db, rc, "reading") : SDB_OK;
}

/* Read the format and the catalog in a read transaction; keep it for a
 * read-only handle (its table pointers live as long as the handle), else
 * end it (a thread may hold only one transaction; writers need theirs). */
static int read_snapshot(sdb_db *db, int keep)
{
	MDB_txn *txn;
	int err = begin_checked(db, MDB_RDONLY, &txn, "reading");
	if (err)
		return err;
	err = read_format(db, txn);
	if (!err)
		err = load_catalog(db, txn);
	if (err || !keep) {
		mdb_txn_abort(txn);
		return err;
	}
	db->rtxn = txn;
	resolve_tables(db);
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
	const int hold = flags & OPEN_HELD ? SDBI_HOLD_NONE
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
	db->flags = flags & ~OPEN_HELD;
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
	free_tables(db);
	free(db);
}

int sdb_table_count(const sdb_db *db)
{
	return db->ntables;
}

const sdb_table *sdb_table_at(const sdb_db *db, int i)
{
	return i >= 0 && i < db->ntables ? &db->table[i] : NULL;
}

const sdb_table *sdb_table_find(const sdb_db *db, const char *name)
{
	/* A handful of tables, and a damaged entry's printable name may be out
	 * of key order: a plain scan. */
	for (int i = 0; i < db->ntables; i++)
		if (!strcmp(db->table[i].info.name, name)) {
			sdbi_done(SDB_OK);
			return &db->table[i];
		}
	sdbi_fail(SDB_ENOTFOUND, "%s: no table named '%s'", db->path, name);
	return NULL;
}

const char *sdb_table_problem(const sdb_table *t)
{
	return t->raw_key || (t->db->rtxn && !t->chunk) ? t->problem : NULL;
}

const sdb_table_info *sdb_table_meta(const sdb_table *t)
{
	return &t->info;
}

int sdbi_table_resolved(const sdb_table *t)
{
	if (t->chunk)
		return 1;
	if (!t->db->rtxn)
		sdbi_fail(SDB_EINVAL, "%s: tables are read through a read-only handle", t->db->path);
	else
		sdbi_fail(SDB_ECORRUPT, "%s: table '%s' is %s", t->db->path, t->info.name, t->problem);
	return 0;
}

const uint8_t *sdb_table_data(const sdb_table *t)
{
	if (t->data || !sdbi_table_resolved(t))
		return t->data;
	sdbi_fail(SDB_EINVAL, "%s: table '%s' is stored in %d chunks: read it with "
	         "sdb_table_chunk()", t->db->path, t->info.name, t->nchunks);
	return NULL;
}

int sdb_table_chunks(const sdb_table *t)
{
	return sdbi_table_resolved(t) ? t->nchunks : SDB_ECORRUPT;
}

const uint8_t *sdb_table_chunk(const sdb_table *t, int i, uint64_t *bytes)
{
	*bytes = 0;
	if (!sdbi_table_resolved(t))
		return NULL;
	if (i < 0 || i >= t->nchunks) {
		sdbi_fail(SDB_EINVAL, "table '%s' has %d chunk%s, not %d", t->info.name, t->nchunks,
		         t->nchunks == 1 ? "" : "s", i + 1);
		return NULL;
	}
	*bytes = sdbi_chunk_bytes(t, i);
	return t->chunk[i];
}

uint64_t sdb_table_bytes(const sdb_table_info *info)
{
	if (info->entry_format == SDB_ENTRY_MOD3)
		return (info->states + 3) / 4;
	return info->entry_format == SDB_ENTRY_NIBBLE_MD ? (info->states + 1) / 2 : info->states;
}

void sdb_table_expected_counts(uint64_t *counts, const sdb_table_info *info)
{
	memset(counts, 0, SDB_MAX_DISTANCE * sizeof *counts);
	for (int d = 0; d <= info->max_distance && d < SDB_MAX_DISTANCE; d++)
		counts[info->entry_format == SDB_ENTRY_MOD3 ? d % 3 : d] += info->counts[d];
}

void sdbi_count_mod3(uint64_t *counts, const uint8_t *data, uint64_t states)
{
	for (uint64_t i = 0; i < states; i++) {
		unsigned v = sdb_mod3(data, i);
		if (v != SDB_UNREACHED_MOD3)
			counts[v]++;
	}
}

enum { MOST_NIBBLE_MD = 255 + 2 * 15 };   /* a byte of Manhattan distance, a nibble */

/* One thread's share of a nibble table's recount: blocks [first, end). */
typedef struct recount_range {
	const sdb_pattern *p;
	const uint8_t *data;
	uint64_t first, end;
	int err;
	uint64_t pair[2][MOST_NIBBLE_MD + 1];
} recount_range;

/* Two entries a byte when a block starts on one (k! is even from 2 tiles
 * on), into two histograms: one histogram's increments of the same value
 * wait on each other (`verify` of the 7-8 set 0.94x). */
static void *recount_blocks(void *arg)
{
	recount_range *r = arg;
	const uint64_t kfact = sdb_pattern_size(r->p) / sdb_pattern_blocks(r->p);
	uint8_t *md = malloc(kfact);
	if (!md) {
		r->err = SDB_ENOMEM;
		return NULL;
	}
	for (uint64_t b = r->first; b < r->end; b++) {
		sdb_pattern_block_manhattan(r->p, b, md);
		uint64_t x = 0, i = b * kfact;
		if (!(i & 1))
			for (const uint8_t *byte = r->data + i / 2; x + 2 <= kfact; x += 2, i += 2, byte++) {
				r->pair[0][md[x] + 2 * (*byte & 15u)]++;
				r->pair[1][md[x + 1] + 2 * (*byte >> 4)]++;
			}
		for (; x < kfact; x++, i++)
			r->pair[0][md[x] + 2 * sdb_nibble(r->data, i)]++;
	}
	free(md);
	return NULL;
}

enum { STRIP = 128, LANES = 8, AHEAD = 8 };

/* recount_blocks() for a table in SDB_LAYOUT_ORDERS, where a block's entries
 * lie a row of blocks apart. A row's STRIP blocks are a line of nibbles, read
 * whole; their Manhattan distances for an order are summed LANES blocks at a
 * time from their cells' costs (one 64-bit add per tile), so that no block's
 * k! distances are kept: verify of the 7-8 set in that layout took 1.75x
 * the blocks layout's time when it read them from a buffer of each block's. */
static void *recount_strips(void *arg)
{
	recount_range *r = arg;
	const sdb_pattern *p = r->p;
	const uint64_t blocks = sdb_pattern_blocks(p), kfact = sdb_pattern_size(p) / blocks;
	const int k = p->k;
	typedef uint8_t costs[SDB_MAX_PATTERN][SDB_MAX_PATTERN][STRIP];   /* [j][slot][block] */
	uint8_t (*cost)[SDB_MAX_PATTERN][STRIP] = malloc(sizeof(costs));
	uint8_t *slots = malloc(kfact * SDB_MAX_PATTERN);
	if (!cost || !slots) {
		free(cost);
		free(slots);
		r->err = SDB_ENOMEM;
		return NULL;
	}
	for (uint64_t q = 0; q < kfact; q++)
		sdbi_pattern_order_slots(p, q, slots + q * SDB_MAX_PATTERN);
	for (uint64_t b0 = r->first; b0 < r->end; b0 += STRIP) {
		const uint64_t width = r->end - b0 < STRIP ? r->end - b0 : STRIP;
		memset(cost, 0, sizeof(costs));
		for (uint64_t x = 0; x < width; x++) {
			uint8_t c[SDB_MAX_PATTERN][SDB_MAX_PATTERN];
			sdbi_pattern_cell_costs(p, b0 + x, c);
			for (int j = 0; j < k; j++)
				for (int s = 0; s < k; s++)
					cost[j][s][x] = c[j][s];
		}
		for (uint64_t q = 0, i = b0; q < kfact; q++, i += blocks) {
			/* a row's line is a page or more from the last: the hardware
			 * does not see the stride */
			if (q + AHEAD < kfact)
				__builtin_prefetch(r->data + (i + AHEAD * blocks) / 2);
			const uint8_t *seq = slots + q * SDB_MAX_PATTERN;
			for (uint64_t x0 = 0; x0 < width; x0 += LANES) {
				uint64_t md = 0;   /* eight sums of at most 8 * 14 < 256: no carries */
				for (int j = 0; j < k; j++) {
					uint64_t c;
					memcpy(&c, &cost[j][seq[j]][x0], sizeof c);
					md += c;
				}
				const uint64_t n = width - x0 < LANES ? width - x0 : LANES;
				for (uint64_t x = 0; x < n; x++, md >>= 8)
					r->pair[x & 1][(md & 0xff) + 2 * sdb_nibble(r->data, i + x0 + x)]++;
			}
		}
	}
	free(cost);
	free(slots);
	return NULL;
}

int sdb_table_recount(uint64_t *counts, const sdb_table_info *info, const uint8_t *data)
{
	memset(counts, 0, SDB_MAX_DISTANCE * sizeof *counts);
	if (info->entry_format == SDB_ENTRY_DIST6_MOVE2 || info->entry_format == SDB_ENTRY_DIST8) {
		const int dist6 = info->entry_format == SDB_ENTRY_DIST6_MOVE2;
		const unsigned unreached = dist6 ? SDB_DIST6_UNREACHED : SDB_UNREACHED_BYTE;
		for (uint64_t i = 0; i < info->states; i++) {
			unsigned d = dist6 ? (unsigned)sdb_dist6(data[i]) : data[i];
			if (d != unreached)
				counts[d < SDB_MAX_DISTANCE ? d : SDB_MAX_DISTANCE - 1]++;
		}
		return SDB_OK;
	}
	if (info->entry_format == SDB_ENTRY_MOD3) {
		sdbi_count_mod3(counts, data, info->states);
		return SDB_OK;
	}
	if (info->entry_format != SDB_ENTRY_NIBBLE_MD)
		return sdbi_fail(SDB_EINVAL, "table '%s': unknown entry format %d", info->name,
		                info->entry_format);
	sdb_pattern *p;
	int err = sdb_pattern_of_table(&p, info);
	if (err)
		return err;
	const uint64_t blocks = sdb_pattern_blocks(p),
	               threads = (uint64_t)sdbi_threads_for(sdb_table_bytes(info), blocks, 0);
	recount_range *r = calloc(threads, sizeof *r);
	if (!r || sdb_pattern_size(p) != info->states) {
		free(r);
		sdb_pattern_free(p);
		return r ? sdbi_fail(SDB_EINVAL, "table '%s': its size does not match its pattern",
		                    info->name) : sdbi_fail(SDB_ENOMEM, "out of memory");
	}
	for (uint64_t i = 0; i < threads; i++)
		r[i] = (recount_range){ .p = p, .data = data, .first = blocks * i / threads,
		                        .end = blocks * (i + 1) / threads };
	sdbi_on_threads((int)threads, sdb_pattern_layout(p) == SDB_LAYOUT_ORDERS ? recount_strips
	                : recount_blocks, r, sizeof *r);
	for (uint64_t i = 0; i < threads; i++) {
		err = err ? err : r[i].err;
		for (int d = 0; d <= MOST_NIBBLE_MD; d++)
			counts[d < SDB_MAX_DISTANCE ? d : SDB_MAX_DISTANCE - 1] +=
				r[i].pair[0][d] + r[i].pair[1][d];
	}
	free(r);
	sdb_pattern_free(p);
	return err ? sdbi_fail(err, "out of memory") : SDB_OK;
}

int sdb_table_count_entries(uint64_t *counts, const sdb_table *t)
{
	if (!sdbi_table_resolved(t))
		return SDB_ECORRUPT;
	if (t->nchunks == 1)
		return sdb_table_recount(counts, &t->info, t->data ? t->data : t->chunk[0]);
	/* chunked: two-bit tables only, four entries a byte */
	memset(counts, 0, SDB_MAX_DISTANCE * sizeof *counts);
	uint64_t left = t->info.states;
	for (int c = 0; c < t->nchunks; c++) {
		uint64_t bytes;
		const uint8_t *data = sdb_table_chunk(t, c, &bytes);
		uint64_t states = left < 4 * bytes ? left : 4 * bytes;
		sdbi_count_mod3(counts, data, states);
		left -= states;
	}
	return SDB_OK;
}

int sdb_table_verify(const sdb_table *t)
{
	return sdbi_table_verify_paced(t, NULL);
}

int sdbi_table_verify_paced(const sdb_table *t, const sdbi_pace *pace)
{
	if (!sdbi_table_resolved(t))
		return SDB_ECORRUPT;
	/* One pass: every block's CRC, and the whole table's from them. */
	uint32_t crc;
	uint64_t bad = UINT64_MAX;
	if (t->block_crc) {
		sdbi_blocks_verify(t, pace, &crc, &bad);
	} else {   /* format 3: no block checksums */
		crc = sdbi_crc_start();
		for (int c = 0; c < t->nchunks; c++)
			crc = sdbi_crc_more(crc, t->chunk[c], sdbi_chunk_bytes(t, c));
	}
	if (crc != t->info.crc32)
		return sdbi_fail(SDB_ECORRUPT, "%s: table '%s' fails its CRC check (stored "
		                "%08x, computed %08x)", t->db->path, t->info.name,
		                t->info.crc32, crc);
	if (bad != UINT64_MAX)
		return sdbi_fail(SDB_ECORRUPT, "%s: table '%s': the checksum of its bytes %llu to "
		                "%llu is damaged", t->db->path, t->info.name,
		                (unsigned long long)(bad << SDBI_BLOCK_SHIFT),
		                (unsigned long long)((bad << SDBI_BLOCK_SHIFT) + sdbi_block_bytes(t, bad) - 1));
	__atomic_store_n(&((struct sdb_table *)t)->verified, 1, __ATOMIC_RELEASE);
	return SDB_OK;
}

int sdbi_table_verified(const sdb_table *t)
{
	return __atomic_load_n(&t->verified, __ATOMIC_ACQUIRE);
}

int sdbi_table_verify_once(const sdb_table *t, const sdbi_pace *pace)
{
	return sdbi_table_verified(t) ? SDB_OK : sdbi_table_verify_paced(t, pace);
}

int sdbi_table_pattern(const sdb_pattern **out, const sdb_table *ct)
{
	struct sdb_table *t = (struct sdb_table *)ct;   /* made once: not part of its value */
	sdb_pattern *p = __atomic_load_n(&t->pattern, __ATOMIC_ACQUIRE), *none = NULL;
	if (!p) {   /* two threads may both make it: the first kept wins */
		const int err = sdb_pattern_of_table(&p, &t->info);
		if (err)
			return err;
		if (!__atomic_compare_exchange_n(&t->pattern, &none, p, 0, __ATOMIC_ACQ_REL,
		                                 __ATOMIC_ACQUIRE)) {
			sdb_pattern_free(p);
			p = none;
		}
	}
	*out = p;
	return SDB_OK;
}

uint64_t sdbi_chunk_bytes(const sdb_table *t, int c)
{
	const uint64_t total = sdb_table_bytes(&t->info), size = t->chunk_mask + 1;
	return t->nchunks == 1 ? total : c + 1 < t->nchunks ? size : total - (uint64_t)c * size;
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

int sdb_writer_begin(sdb_writer **out, sdb_db *db)
{
	*out = NULL;
	if (db->flags & SDB_RDONLY)
		return sdbi_fail(SDB_EINVAL, "%s: opened read-only", db->path);
	sdb_writer *w = calloc(1, sizeof *w);
	if (!w)
		return sdbi_fail(SDB_ENOMEM, "%s: out of memory", db->path);
	w->db = db;
	w->whole_max = WHOLE_MAX;
	w->chunk_size = CHUNK_BYTES;
	const char *env = getenv("SLIDEDB_CHUNK_BYTES");
	if (env && *env) {
		char *end;
		unsigned long long v = strtoull(env, &end, 10);
		if (*end || v < 4096 || v > CHUNK_BYTES || (v & (v - 1))) {
			free(w);
			return sdbi_fail(SDB_EINVAL, "SLIDEDB_CHUNK_BYTES='%s': not a power of two from "
			                "4096 to %llu", env, (unsigned long long)CHUNK_BYTES);
		}
		w->whole_max = w->chunk_size = v;
	}
	int err = begin_checked(db, 0, &w->txn, "starting a write");
	if (err) {
		free(w);
		return err;
	}
	*out = w;
	return SDB_OK;
}

/* Delete the chunks after the first of table name (any number, none is
 * fine) and its block checksums: a table replaced by a smaller one leaves
 * none behind. */
static int delete_chunks(sdb_writer *w, const char *name, size_t name_len)
{
	MDB_val bkey = { name_len, (void *)name };
	int rc = w->db->has_blocks ? mdb_del(w->txn, w->db->blocks, &bkey, NULL) : 0;
	if (rc && rc != MDB_NOTFOUND)
		return rc;
	MDB_cursor *cur;
	rc = mdb_cursor_open(w->txn, w->db->tables, &cur);
	if (rc)
		return rc;
	const size_t len = name_len + 1;   /* the prefix: the name and its '\0' */
	for (;;) {   /* seek again after each delete: the cursor is then unpositioned */
		MDB_val key = { len, (void *)name }, val;
		rc = mdb_cursor_get(cur, &key, &val, MDB_SET_RANGE);
		if (rc || key.mv_size != len + 4 || memcmp(key.mv_data, name, len) ||
		    (rc = mdb_cursor_del(cur, 0)))
			break;
	}
	mdb_cursor_close(cur);
	return rc == MDB_NOTFOUND ? 0 : rc;
}

static int reserve_value(sdb_writer *w, MDB_val *key, uint64_t size)
{
	MDB_val val = { (size_t)size, NULL };
	int rc = mdb_put(w->txn, w->db->tables, key, &val, MDB_RESERVE);
	if (rc)
		return lmdb_fail(w->db, rc, "reserving a table");
	w->reserved = val.mv_data;
	return SDB_OK;
}

/* Start table name of size bytes: chunk 0 (the whole table when it fits). */
static int start_table(sdb_writer *w, const char *name, uint64_t size, int appending)
{
	size_t len = strlen(name);
	w->reserved = NULL;
	if (len == 0 || len >= SDB_NAME_MAX)
		return sdbi_fail(SDB_EINVAL, "table name '%s' is empty or too long", name);
	int rc = delete_chunks(w, name, len);
	if (rc)
		return lmdb_fail(w->db, rc, "replacing a table");
	memcpy(w->reserved_name, name, len + 1);
	w->reserved_size = size;
	w->appending = appending;
	w->appended = 0;
	sdbi_blocksum_free(&w->sum);
	sdbi_blocksum_init(&w->sum);
	MDB_val key = { len, (void *)name };
	w->chunk_bytes = size > w->whole_max ? w->chunk_size : 0;
	uint64_t first = w->chunk_bytes ? w->chunk_bytes : size;
	if (w->chunk_bytes && !appending)
		return sdbi_fail(SDB_EINVAL, "table '%s' of %llu bytes is stored in chunks: write it "
		                "with sdb_writer_open_table()", name, (unsigned long long)size);
	return reserve_value(w, &key, first);
}

int sdb_writer_reserve(sdb_writer *w, uint8_t **data, const char *name, uint64_t size)
{
	int err = start_table(w, name, size, 0);
	*data = err ? NULL : w->reserved;
	return err;
}

uint64_t sdb_writer_max_whole(const sdb_writer *w)
{
	return w->whole_max;
}

int sdb_writer_open_table(sdb_writer *w, const char *name, uint64_t size)
{
	return start_table(w, name, size, 1);
}

int sdb_writer_append(sdb_writer *w, const void *data, uint64_t n)
{
	const uint8_t *from = data;
	if (!w->reserved || !w->appending || n > w->reserved_size - w->appended)
		return sdbi_fail(SDB_EINVAL, "table '%s': more bytes appended than opened",
		                w->reserved_name);
	while (n) {
		uint64_t at = w->chunk_bytes ? w->appended % w->chunk_bytes : w->appended;
		if (w->chunk_bytes && at == 0 && w->appended) {   /* the next chunk */
			char buf[CHUNK_KEY_MAX];
			uint64_t c = w->appended / w->chunk_bytes, left = w->reserved_size - w->appended;
			MDB_val key = chunk_key(buf, w->reserved_name, (uint32_t)c);
			int err = reserve_value(w, &key, left < w->chunk_bytes ? left : w->chunk_bytes);
			if (err)
				return err;
		}
		uint64_t room = w->chunk_bytes ? w->chunk_bytes - at : w->reserved_size - at;
		uint64_t k = n < room ? n : room;
		memcpy(w->reserved + at, from, k);
		if (sdbi_blocksum_add(&w->sum, from, k))
			return sdbi_fail(SDB_ENOMEM, "table '%s': out of memory for its checksums",
			                w->reserved_name);
		from += k;
		n -= k;
		w->appended += k;
	}
	return SDB_OK;
}

int sdb_writer_put_meta(sdb_writer *w, sdb_table_info *info)
{
	if (!w->reserved || strcmp(info->name, w->reserved_name) != 0 ||
	    sdb_table_bytes(info) != w->reserved_size ||
	    (w->appending && w->appended != w->reserved_size))
		return sdbi_fail(SDB_EINVAL, "catalog entry '%s' does not match the reserved table",
		                info->name);
	if (w->chunk_bytes && info->entry_format != SDB_ENTRY_MOD3)
		return sdbi_fail(SDB_EINVAL, "table '%s': only two-bit tables are stored in chunks",
		                info->name);
	if ((!w->appending && sdbi_blocksum_add(&w->sum, w->reserved, w->reserved_size)) ||
	    sdbi_blocksum_finish(&w->sum))
		return sdbi_fail(SDB_ENOMEM, "table '%s': out of memory for its checksums",
		                info->name);
	info->crc32 = w->sum.whole;
	/* A pattern table built under an earlier format keeps its number: its
	 * entries are in that format's layout (an import of an older export) */
	if (!(info->kind == SDB_KIND_PATTERN && info->format_version >= 2 &&
	      sdb_table_layout(info) == SDB_LAYOUT_BLOCKS))
		info->format_version = SDB_FORMAT_VERSION;
	MDB_val key = { strlen(info->name), info->name }, val = { sdbi_record_size(info), NULL };
	int rc = mdb_put(w->txn, w->db->catalog, &key, &val, MDB_RESERVE);
	if (!rc)
		sdbi_record_encode(val.mv_data, info);
	if (!rc)
		rc = put_blocks(w->db, w->txn, info->name, &w->sum);
	sdbi_blocksum_free(&w->sum);
	w->reserved = NULL;
	return rc ? lmdb_fail(w->db, rc, "writing the catalog") : sdbi_done(SDB_OK);
}

int sdbi_writer_entries(sdb_writer *w, const uint8_t ***chunk, int *shift)
{
	const uint64_t size = w->chunk_bytes ? w->chunk_bytes : w->reserved_size;
	const int n = (int)((w->reserved_size + size - 1) / size);
	const uint8_t **list = calloc((size_t)(n ? n : 1), sizeof *list);
	if (!list)
		return sdbi_fail(SDB_ENOMEM, "table '%s': out of memory", w->reserved_name);
	for (int c = 0; c < n; c++) {
		char buf[CHUNK_KEY_MAX];
		MDB_val key = c ? chunk_key(buf, w->reserved_name, (uint32_t)c)
		                : (MDB_val){ strlen(w->reserved_name), w->reserved_name }, val;
		const uint64_t want = c + 1 < n ? size : w->reserved_size - (uint64_t)c * size;
		const int rc = mdb_get(w->txn, w->db->tables, &key, &val);
		if (rc || val.mv_size != want) {
			free(list);
			return rc ? lmdb_fail(w->db, rc, "reading a table back")
			          : sdbi_fail(SDB_EIO, "table '%s': chunk %d read back with %zu bytes",
			                     w->reserved_name, c, val.mv_size);
		}
		list[c] = val.mv_data;
	}
	*chunk = list;
	*shift = w->chunk_bytes ? __builtin_ctzll(w->chunk_bytes) : 63;
	return SDB_OK;
}

int sdb_writer_delete(sdb_writer *w, const char *name)
{
	MDB_val key = { strlen(name), (void *)name };
	int rc = delete_chunks(w, name, key.mv_size);
	if (rc)
		return lmdb_fail(w->db, rc, "removing a table");
	rc = mdb_del(w->txn, w->db->tables, &key, NULL);
	int rc2 = mdb_del(w->txn, w->db->catalog, &key, NULL);
	if (rc == MDB_NOTFOUND)
		rc = rc2 == MDB_NOTFOUND ? 0 : rc2;
	return rc ? lmdb_fail(w->db, rc, "removing a table") : sdbi_done(SDB_OK);
}

int sdb_writer_commit(sdb_writer *w)
{
	int rc = mdb_txn_commit(w->txn);
	sdb_db *db = w->db;
	if (!rc)
		fill_to_last_page(db);
	sdbi_blocksum_free(&w->sum);
	free(w);
	return rc ? lmdb_fail(db, rc, "committing") : SDB_OK;
}

void sdb_writer_abort(sdb_writer *w)
{
	if (!w)
		return;
	mdb_txn_abort(w->txn);
	sdbi_blocksum_free(&w->sum);
	free(w);
}

int sdb_remove(sdb_db *db, const char *const *names, int nnames, int *ntables)
{
	*ntables = 0;
	const sdb_table **chosen;
	int n = sdbi_tables_chosen(&chosen, db, names, nnames);
	if (n < 0)
		return n;
	sdb_writer *w;
	int err = sdb_writer_begin(&w, db);
	for (int i = 0; i < n && !err; i++) {
		const sdb_table *t = chosen[i];   /* a damaged entry by its key as stored */
		MDB_val key = { t->raw_key ? t->raw_key_len : strlen(t->info.name),
		                t->raw_key ? t->raw_key : (void *)t->info.name };
		int rc = delete_chunks(w, key.mv_data, key.mv_size);
		if (!rc)
			rc = mdb_del(w->txn, db->tables, &key, NULL);
		if (!rc || rc == MDB_NOTFOUND)   /* a catalog entry without its table goes too */
			rc = mdb_del(w->txn, db->catalog, &key, NULL);
		if (rc)
			err = lmdb_fail(db, rc, "removing a table");
	}
	free(chosen);
	if (err) {
		sdb_writer_abort(w);
		return err;
	}
	if ((err = sdb_writer_commit(w)))
		return err;
	*ntables = n;
	return sdbi_done(SDB_OK);
}

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

/* The directory entry of path (a rename into it) on the disk. */
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

/* Test hook: SLIDEDB_COMPACT_PAUSE=S sleeps S seconds between the copy and
 * the rename, so that the tests can race other programs against a compact. */
static void test_pause(void)
{
	const char *env = getenv("SLIDEDB_COMPACT_PAUSE");
	const double s = env && *env ? atof(env) : 0;
	if (s > 0 && s < 3600)
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
		return lmdb_fail(db, rc, "compacting");
	unlink(tmp);
	copy_job job = { db->env, tmp, 0 };
	pthread_t th;
	if (pthread_create(&th, NULL, copy_compacted, &job))
		job.rc = EAGAIN;
	else
		pthread_join(th, NULL);
	mdb_txn_abort(wtxn);
	return job.rc ? lmdb_fail(db, job.rc, "writing the compacted copy") : SDB_OK;
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

int sdb_compact(const char *path, uint64_t *before, uint64_t *after)
{
	/* The exclusive hold first (hold.c): no other process has the file
	 * open, and none opens it until the new file has its name. */
	const int hold = sdbi_hold_exclusive(path);
	if (hold < 0 && hold != SDBI_HOLD_NONE)
		return hold;
	sdb_db *db;
	int err = sdbi_db_open_plain(&db, path, OPEN_HELD);   /* checks the file; converts an old one */
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
