/* SPDX-License-Identifier: MIT */
/* The writer: one write transaction in which tables are reserved whole or
 * appended in chunks, with their block checksums and catalog records beside
 * them, or deleted; committed or abandoned as one, so a killed writer leaves
 * the database as it was. `rm` (sdb_db_remove()) is such a transaction. */
#include <lmdb.h>
#include <stdlib.h>
#include <string.h>

#include "store/env.h"
#include "store/crc.h"
#include "store/prove.h"
#include "store/record.h"

/* Tables over 4 GiB do not fit one LMDB value (its size has 32 bits): they
 * are stored in chunks of 128 MiB under "NAME\0" and a 4-byte big-endian
 * chunk number (chunk 0 under NAME itself). Chunks are reserved one after
 * another and filled before the next: a chunk of 32768 pages keeps LMDB from
 * spilling (writing out and freeing) dirty pages of the transaction while
 * they are still being written. Readers find the layout from the size of the
 * first value. The tuning's chunk_bytes (sdb_engine_tune()) makes every
 * two-bit table larger than it chunked at that size: how the tests
 * exercise chunks on small boards. */
#define WHOLE_MAX ((uint64_t)UINT32_MAX)

#define CHUNK_BYTES ((uint64_t)1 << 27)

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
	if (sdbi_tuning()->chunk_bytes)   /* checked by sdb_engine_tune() */
		w->whole_max = w->chunk_size = sdbi_tuning()->chunk_bytes;
	int err = sdbi_env_begin(db, 0, &w->txn, "starting a write");
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
		return sdbi_lmdb_fail(w->db, rc, "reserving a table");
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
		return sdbi_lmdb_fail(w->db, rc, "replacing a table");
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
			char buf[SDBI_CHUNK_KEY_MAX];
			uint64_t c = w->appended / w->chunk_bytes, left = w->reserved_size - w->appended;
			MDB_val key = sdbi_chunk_key(buf, w->reserved_name, (uint32_t)c);
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
		rc = sdbi_env_put_blocks(w->db, w->txn, info->name, &w->sum);
	sdbi_blocksum_free(&w->sum);
	w->reserved = NULL;
	return rc ? sdbi_lmdb_fail(w->db, rc, "writing the catalog") : sdbi_done(SDB_OK);
}

int sdbi_writer_entries(sdb_writer *w, const uint8_t ***chunk, int *shift)
{
	const uint64_t size = w->chunk_bytes ? w->chunk_bytes : w->reserved_size;
	const int n = (int)((w->reserved_size + size - 1) / size);
	const uint8_t **list = calloc((size_t)(n ? n : 1), sizeof *list);
	if (!list)
		return sdbi_fail(SDB_ENOMEM, "table '%s': out of memory", w->reserved_name);
	for (int c = 0; c < n; c++) {
		char buf[SDBI_CHUNK_KEY_MAX];
		MDB_val key = c ? sdbi_chunk_key(buf, w->reserved_name, (uint32_t)c)
		                : (MDB_val){ strlen(w->reserved_name), w->reserved_name }, val;
		const uint64_t want = c + 1 < n ? size : w->reserved_size - (uint64_t)c * size;
		const int rc = mdb_get(w->txn, w->db->tables, &key, &val);
		if (rc || val.mv_size != want) {
			free(list);
			return rc ? sdbi_lmdb_fail(w->db, rc, "reading a table back")
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
		return sdbi_lmdb_fail(w->db, rc, "removing a table");
	rc = mdb_del(w->txn, w->db->tables, &key, NULL);
	int rc2 = mdb_del(w->txn, w->db->catalog, &key, NULL);
	if (rc == MDB_NOTFOUND)
		rc = rc2 == MDB_NOTFOUND ? 0 : rc2;
	return rc ? sdbi_lmdb_fail(w->db, rc, "removing a table") : sdbi_done(SDB_OK);
}

int sdb_writer_commit(sdb_writer *w)
{
	int rc = mdb_txn_commit(w->txn);
	sdb_db *db = w->db;
	if (!rc)
		sdbi_env_fill_to_last_page(db);
	sdbi_blocksum_free(&w->sum);
	free(w);
	return rc ? sdbi_lmdb_fail(db, rc, "committing") : SDB_OK;
}

void sdb_writer_abort(sdb_writer *w)
{
	if (!w)
		return;
	mdb_txn_abort(w->txn);
	sdbi_blocksum_free(&w->sum);
	free(w);
}

int sdb_db_remove(sdb_db *db, const char *const *names, int nnames, int *ntables)
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
			err = sdbi_lmdb_fail(db, rc, "removing a table");
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
