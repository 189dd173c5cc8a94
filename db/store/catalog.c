/* SPDX-License-Identifier: MIT */
/* The catalog as a handle holds it: every entry read and checked on open
 * (a damaged one kept under a printable form of its key, so that `rm` can
 * remove it), each table's entries found in the map (whole or in chunks,
 * with their block checksums), and an older file's catalog converted to
 * this format by its first writer. */
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "store/env.h"
#include "store/crc.h"
#include "store/record.h"

enum { MAX_CATALOG = 1 << 16 };

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

int sdbi_catalog_load(sdb_db *db, MDB_txn *txn)
{
	MDB_stat st;
	int rc = mdb_stat(txn, db->catalog, &st);
	if (rc)
		return sdbi_lmdb_fail(db, rc, "reading the catalog");
	if (st.ms_entries > MAX_CATALOG)
		return sdbi_fail(SDB_ECORRUPT, "%s: the catalog claims %zu tables (damaged)", db->path,
		                st.ms_entries);
	db->table = calloc(st.ms_entries ? st.ms_entries : 1, sizeof *db->table);
	if (!db->table)
		return sdbi_fail(SDB_ENOMEM, "%s: out of memory", db->path);
	MDB_cursor *cur;
	if ((rc = mdb_cursor_open(txn, db->catalog, &cur)))
		return sdbi_lmdb_fail(db, rc, "reading the catalog");
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
		if (sdb_kind_is_full(t->info.kind) && t->info.goal.n <= SDB_MAX_FULL_CELLS)
			t->goal_index = sdb_board_rank(&t->info.goal);
	}
	mdb_cursor_close(cur);
	if (!err && rc != 0 && rc != MDB_NOTFOUND)
		err = sdbi_lmdb_fail(db, rc, "reading the catalog");
	/* The tiles each set covers: a partial partition leaves the others out. */
	for (int i = 0; i < db->ntables; i++)
		for (int j = 0; j < db->ntables; j++)
			if (db->table[i].info.kind == SDB_KIND_PATTERN &&
			    db->table[j].info.kind == SDB_KIND_PATTERN &&
			    !strcmp(db->table[i].info.set, db->table[j].info.set))
				db->table[i].info.set_tiles |= db->table[j].info.pattern;
	return err;
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
		char buf[SDBI_CHUNK_KEY_MAX];
		MDB_val key = sdbi_chunk_key(buf, t->info.name, (uint32_t)c), val;
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

/* Resolve every table's entries once, on open (read-only handles): the
 * handle is never written after that, so threads may share it freely. A
 * table whose entries are missing or of the wrong size keeps the reason. */
void sdbi_catalog_resolve(sdb_db *db)
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

void sdbi_catalog_free(sdb_db *db)
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

/* The checksums of a table as stored in txn (whole or in chunks): 0, or -1
 * when its values are missing or of the wrong size. */
static int sum_stored(sdb_db *db, MDB_txn *txn, const sdb_table_info *in, sdbi_blocksum *sum)
{
	const uint64_t bytes = sdb_table_bytes(in);
	char buf[SDBI_CHUNK_KEY_MAX];
	MDB_val key = { strlen(in->name), (void *)in->name }, val;
	for (uint32_t c = 0; sum->bytes < bytes; c++) {
		if (c > 0)
			key = sdbi_chunk_key(buf, in->name, c);
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
int sdbi_catalog_upgrade(sdb_db *db, MDB_txn *txn)
{
	int err = sdbi_catalog_load(db, txn);
	int rc = err ? 0 : mdb_dbi_open(txn, "blocks", MDB_CREATE, &db->blocks);
	if (rc)
		err = sdbi_lmdb_fail(db, rc, "converting the catalog");
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
			rc = sdbi_env_put_blocks(db, txn, in->name, &sum);
		sdbi_blocksum_free(&sum);
		if (rc)
			err = sdbi_lmdb_fail(db, rc, "converting the catalog");
	}
	sdbi_catalog_free(db);
	rc = err ? 0 : sdbi_env_put_format(db, txn);
	if (rc)
		err = sdbi_lmdb_fail(db, rc, "converting the catalog");
	if (!err)
		db->version = SDB_FORMAT_VERSION;
	return err;
}
