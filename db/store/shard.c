/* SPDX-License-Identifier: MIT */
/* Shards: one rank's slices of the tables a distributed build made
 * (slidedb-gen-mpi --shards), in an LMDB file of its own that
 * `slidedb-gen assemble` joins with the other ranks' into an ordinary
 * database.
 *
 * Layout (MDB_NOSUBDIR, one unnamed database), per table NAME:
 *   "h" NAME           u32 version, u32 rank, u32 nranks, u32 crc32 of the
 *                      slice, u64 run, u64 lo, u64 hi (the slice's entries),
 *                      u64 bytes, then the table's catalog record (record.c)
 *   "d" NAME \0 u32 c  the slice's bytes in chunks of SHARD_CHUNK
 * little-endian but the chunk numbers (big-endian, so that they sort). The
 * file is written beside its path and renamed over it when the run ends
 * well: a rank that dies leaves no shard, or the one of an earlier run
 * (another run id), never half of one. */
#include <errno.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "puzzle/puzzle.h"
#include "store/pages.h"
#include "store/record.h"

enum { SHARD_VERSION = 1, HEADER = 48, KEY_MAX = SDB_NAME_MAX + 8, MAX_SHARD_TABLES = 256 };
/* Small enough that LMDB never spills a chunk of the transaction while the
 * next is reserved (see writer.c). */
#define SHARD_CHUNK ((uint64_t)1 << 27)
#define SHARD_MAP ((size_t)1 << 42)

struct sdb_shard {
	MDB_env *env;
	MDB_txn *txn;       /* reading: held until close */
	MDB_dbi dbi;
	int writing, ntables;
	sdb_shard_info table[MAX_SHARD_TABLES];
	char tmp[4096 + 32];
	char path[];
};

static void le32_put(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void le64_put(uint8_t *p, uint64_t v)
{
	le32_put(p, (uint32_t)v);
	le32_put(p + 4, (uint32_t)(v >> 32));
}

static uint32_t le32_get(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64_get(const uint8_t *p)
{
	return (uint64_t)le32_get(p) | (uint64_t)le32_get(p + 4) << 32;
}

static MDB_val header_key(char *buf, const char *name)
{
	size_t len = strlen(name);
	buf[0] = 'h';
	memcpy(buf + 1, name, len);
	return (MDB_val){ len + 1, buf };
}

static MDB_val chunk_key(char *buf, const char *name, uint32_t c)
{
	size_t len = strlen(name);
	buf[0] = 'd';
	memcpy(buf + 1, name, len + 1);
	for (int i = 0; i < 4; i++)
		buf[len + 2 + i] = (char)(c >> (24 - 8 * i));
	return (MDB_val){ len + 6, buf };
}

static int shard_fail(const char *path, int rc, const char *what)
{
	if (rc == MDB_INVALID || rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND)
		return sdbi_fail(SDB_ECORRUPT, "%s: not a slidedb shard (%s)", path, mdb_strerror(rc));
	if (rc == ENOENT)
		return sdbi_fail(SDB_ENOTFOUND, "%s: no such shard", path);
	return sdbi_fail(SDB_EIO, "%s: %s: %s", path, what, mdb_strerror(rc));
}

static uint64_t slice_bytes(const sdb_shard_info *s)
{
	const uint64_t n = s->hi - s->lo;
	return s->table.entry_format == SDB_ENTRY_MOD3 ? (n + 3) / 4 : n;
}

static int open_env(sdb_shard *sh, const char *file, unsigned flags)
{
	int rc = mdb_env_create(&sh->env);
	if (!rc)
		rc = mdb_env_set_mapsize(sh->env, SHARD_MAP);
	if (!rc)
		rc = mdb_env_open(sh->env, file, MDB_NOSUBDIR | MDB_NOLOCK | flags, 0644);
	return rc;
}

int sdb_shard_create(sdb_shard **out, const char *path)
{
	*out = NULL;
	sdb_shard *sh = calloc(1, sizeof *sh + strlen(path) + 1);
	if (!sh)
		return sdbi_fail(SDB_ENOMEM, "%s: out of memory", path);
	strcpy(sh->path, path);
	sh->writing = 1;
	snprintf(sh->tmp, sizeof sh->tmp, "%s.tmp%d", path, (int)getpid());
	unlink(sh->tmp);
	int rc = open_env(sh, sh->tmp, 0);
	if (rc) {
		int err = shard_fail(sh->tmp, rc, "creating the shard");
		sdb_shard_abort(sh);
		return err;
	}
	*out = sh;
	return sdbi_done(SDB_OK);
}

static int put_table(MDB_txn *txn, MDB_dbi dbi, const sdb_shard_info *s, const uint8_t *data)
{
	char key[KEY_MAX];
	const size_t rec = sdbi_record_size(&s->table);
	MDB_val k = header_key(key, s->table.name), val = { HEADER + rec, NULL };
	int rc = mdb_put(txn, dbi, &k, &val, MDB_RESERVE);
	if (rc)
		return rc;
	uint8_t *h = val.mv_data;
	const uint64_t bytes = slice_bytes(s);
	le32_put(h, SHARD_VERSION);
	le32_put(h + 4, (uint32_t)s->rank);
	le32_put(h + 8, (uint32_t)s->nranks);
	le32_put(h + 12, (uint32_t)crc32_z(crc32(0L, Z_NULL, 0), data, bytes));
	le64_put(h + 16, s->run);
	le64_put(h + 24, s->lo);
	le64_put(h + 32, s->hi);
	le64_put(h + 40, bytes);
	sdbi_record_encode(h + HEADER, &s->table);
	for (uint64_t at = 0, c = 0; at < bytes; at += SHARD_CHUNK, c++) {
		MDB_val ck = chunk_key(key, s->table.name, (uint32_t)c);
		MDB_val v = { bytes - at < SHARD_CHUNK ? bytes - at : SHARD_CHUNK, NULL };
		if ((rc = mdb_put(txn, dbi, &ck, &v, MDB_RESERVE)))
			return rc;
		memcpy(v.mv_data, data + at, v.mv_size);
	}
	return 0;
}

int sdb_shard_add(sdb_shard *sh, const sdb_shard_info *s, const uint8_t *data)
{
	MDB_txn *txn;
	MDB_dbi dbi;
	int rc = mdb_txn_begin(sh->env, NULL, 0, &txn);
	if (rc)
		return shard_fail(sh->tmp, rc, "writing the shard");
	rc = mdb_dbi_open(txn, NULL, 0, &dbi);
	if (!rc)
		rc = put_table(txn, dbi, s, data);
	if (rc) {
		mdb_txn_abort(txn);
		return shard_fail(sh->tmp, rc, "writing the shard");
	}
	rc = mdb_txn_commit(txn);
	return rc ? shard_fail(sh->tmp, rc, "writing the shard") : sdbi_done(SDB_OK);
}

int sdb_shard_commit(sdb_shard *sh)
{
	int rc = mdb_env_sync(sh->env, 1);
	mdb_env_close(sh->env);
	sh->env = NULL;
	int err = rc ? shard_fail(sh->tmp, rc, "writing the shard") : SDB_OK;
	if (!err && rename(sh->tmp, sh->path))
		err = sdbi_fail(SDB_EIO, "%s: cannot rename %s to it: %s", sh->path, sh->tmp,
		               strerror(errno));
	sdb_shard_abort(sh);
	return err ? err : sdbi_done(SDB_OK);
}

void sdb_shard_abort(sdb_shard *sh)
{
	if (!sh)
		return;
	if (sh->env)
		mdb_env_close(sh->env);
	unlink(sh->tmp);   /* gone already after a commit */
	free(sh);
}

/* A table's header: checked field by field against what it must be. */
static int read_header(const sdb_shard *sh, sdb_shard_info *s, const MDB_val *key,
                       const MDB_val *val)
{
	const uint8_t *h = val->mv_data;
	const char *bad = NULL;
	if (val->mv_size < HEADER + 2 || le32_get(h) != SHARD_VERSION)
		bad = "an unknown shard version";
	if (!bad && (key->mv_size < 2 || key->mv_size > SDB_NAME_MAX ||
	             sdbi_record_decode(&s->table, (const char *)key->mv_data + 1, key->mv_size - 1,
	                               h + HEADER, val->mv_size - HEADER, SDB_FORMAT_VERSION)))
		bad = "a damaged catalog record";
	if (!bad && (bad = sdbi_info_problem(&s->table)) == NULL) {
		s->rank = (int)le32_get(h + 4);
		s->nranks = (int)le32_get(h + 8);
		s->crc32 = le32_get(h + 12);
		s->run = le64_get(h + 16);
		s->lo = le64_get(h + 24);
		s->hi = le64_get(h + 32);
		const int two_bit = s->table.entry_format == SDB_ENTRY_MOD3;
		if (s->nranks < 1 || s->rank < 0 || s->rank >= s->nranks || s->lo > s->hi ||
		    s->hi > s->table.states || le64_get(h + 40) != slice_bytes(s) ||
		    (two_bit && (s->lo % 4 || (s->hi < s->table.states && s->hi % 4))) ||
		    !sdb_kind_is_full(s->table.kind))
			bad = "a slice that does not fit its table";
	}
	return bad ? sdbi_fail(SDB_ECORRUPT, "%s: not a valid slidedb shard (%s)", sh->path, bad)
	           : SDB_OK;
}

static int read_headers(sdb_shard *sh)
{
	MDB_cursor *cur;
	int rc = mdb_cursor_open(sh->txn, sh->dbi, &cur);
	if (rc)
		return shard_fail(sh->path, rc, "reading");
	MDB_val key = { 1, "h" }, val;
	int err = SDB_OK;
	for (rc = mdb_cursor_get(cur, &key, &val, MDB_SET_RANGE);
	     rc == 0 && !err && ((const char *)key.mv_data)[0] == 'h';
	     rc = mdb_cursor_get(cur, &key, &val, MDB_NEXT)) {
		if (sh->ntables == MAX_SHARD_TABLES)
			err = sdbi_fail(SDB_ECORRUPT, "%s: more than %d tables", sh->path,
			               MAX_SHARD_TABLES);
		else
			err = read_header(sh, &sh->table[sh->ntables++], &key, &val);
	}
	mdb_cursor_close(cur);
	if (!err && rc && rc != MDB_NOTFOUND)
		err = shard_fail(sh->path, rc, "reading");
	if (!err && sh->ntables == 0)
		err = sdbi_fail(SDB_ECORRUPT, "%s: not a slidedb shard (no table in it)", sh->path);
	return err;
}

int sdb_shard_open(sdb_shard **out, const char *path)
{
	*out = NULL;
	sdb_shard *sh = calloc(1, sizeof *sh + strlen(path) + 1);
	if (!sh)
		return sdbi_fail(SDB_ENOMEM, "%s: out of memory", path);
	strcpy(sh->path, path);
	/* A shard is read as a database file is: its meta and B-tree pages are
	 * checked before LMDB reads them (pages.c). */
	int err = access(path, R_OK) ? 0 : sdbi_pages_check_meta(path);
	int rc = err ? 0 : access(path, R_OK) ? errno : open_env(sh, path, MDB_RDONLY);
	if (!err && !rc)
		rc = mdb_txn_begin(sh->env, NULL, MDB_RDONLY, &sh->txn);
	if (!err && !rc && (err = sdbi_pages_check(sh->env, sh->txn, path, SDBI_PAGES_PLAIN)) ==
	    SDBI_PAGES_MOVED)   /* no writer may touch a shard being read */
		err = sdbi_fail(SDB_ECORRUPT, "%s: changed while it was being read", path);
	if (!err && !rc)
		rc = mdb_dbi_open(sh->txn, NULL, 0, &sh->dbi);
	if (!err)
		err = rc ? shard_fail(path, rc, "opening") : read_headers(sh);
	if (err) {
		sdb_shard_close(sh);
		return err;
	}
	*out = sh;
	return sdbi_done(SDB_OK);
}

int sdb_shard_tables(const sdb_shard *sh)
{
	return sh->ntables;
}

const sdb_shard_info *sdb_shard_table(const sdb_shard *sh, int i)
{
	return i >= 0 && i < sh->ntables ? &sh->table[i] : NULL;
}

const uint8_t *sdb_shard_chunk(const sdb_shard *sh, int i, uint64_t at, uint64_t *bytes)
{
	const sdb_shard_info *s = sdb_shard_table(sh, i);
	*bytes = 0;
	if (!s || at % SHARD_CHUNK || at >= slice_bytes(s)) {
		sdbi_fail(SDB_EINVAL, "%s: no chunk at byte %llu", sh->path, (unsigned long long)at);
		return NULL;
	}
	char key[KEY_MAX];
	MDB_val k = chunk_key(key, s->table.name, (uint32_t)(at / SHARD_CHUNK)), val;
	const uint64_t want = slice_bytes(s) - at < SHARD_CHUNK ? slice_bytes(s) - at : SHARD_CHUNK;
	int rc = mdb_get(sh->txn, sh->dbi, &k, &val);
	if (rc || val.mv_size != want) {
		sdbi_fail(SDB_ECORRUPT, "%s: table '%s': the chunk at byte %llu is %s", sh->path,
		         s->table.name, (unsigned long long)at, rc ? "missing" : "of the wrong size");
		return NULL;
	}
	*bytes = want;
	return val.mv_data;
}

void sdb_shard_close(sdb_shard *sh)
{
	if (!sh)
		return;
	if (sh->txn)
		mdb_txn_abort(sh->txn);
	if (sh->env)
		mdb_env_close(sh->env);
	free(sh);
}
