/* SPDX-License-Identifier: MIT */
/* Block checksums: a table's entries are trusted 4 KiB at a time. Every
 * block has a CRC-32 stored beside the table (the "blocks" database of the
 * file); a reader checks a block the first time this process reads from it
 * and remembers the result in a bitmap, so a damaged byte is found before
 * any answer uses it, and a 10.9 GB table costs a query only the blocks its
 * walk touches. Tables written before block checksums (format 3) are
 * checked whole on first touch instead.
 *
 * A read of a block that fails gives the value "unreached" and marks the
 * calling thread's damage flag; every public function that answers from a
 * table clears the flag first and checks it last, so an answer that read a
 * damaged byte anywhere is an error, whatever the code did with the value. */
#include <string.h>

#include "store/blocks.h"
#include "store/crc.h"

/* The first damaged block this thread read since the last reset. */
static __thread const sdb_table *damaged_table;
static __thread uint64_t damaged_block;

void sdbi_damage_reset(void)
{
	damaged_table = NULL;
}

int sdbi_damage_check(void)
{
	const sdb_table *t = damaged_table;
	if (!t)
		return SDB_OK;
	damaged_table = NULL;
	if (!t->block_crc)
		return sdbi_fail(SDB_ECORRUPT, "%s: table '%s' fails its CRC check (run `slidedb-lookup "
		                "verify`; build it again or import it)", t->db ? sdb_db_path(t->db) : "",
		                t->info.name);
	const uint64_t first = damaged_block << SDBI_BLOCK_SHIFT;
	return sdbi_fail(SDB_ECORRUPT, "%s: table '%s' is damaged: bytes %llu to %llu fail their "
	                "CRC-32 (run `slidedb-lookup verify`; build it again or import it)",
	                sdb_db_path(t->db), t->info.name, (unsigned long long)first,
	                (unsigned long long)(first + sdbi_block_bytes(t, damaged_block) - 1));
}

static void mark_damaged(const sdb_table *t, uint64_t b)
{
	if (!damaged_table) {
		damaged_table = t;
		damaged_block = b;
	}
}

uint64_t sdbi_block_bytes(const sdb_table *t, uint64_t b)
{
	const uint64_t bytes = sdb_table_bytes(&t->info), at = b << SDBI_BLOCK_SHIFT;
	return bytes - at < SDBI_BLOCK_SIZE ? bytes - at : SDBI_BLOCK_SIZE;
}

/* A table of format 3 (no block checksums): the whole table against its
 * CRC, once per process (under the database's lock). */
static int check_whole(const sdb_table *ct)
{
	struct sdb_table *t = (struct sdb_table *)ct;   /* its check state is not its value */
	sdbi_db_lock(t->db);
	if (!t->whole_checked) {
		uint32_t crc = sdbi_crc_start();
		for (int c = 0; c < t->nchunks; c++)
			crc = sdbi_crc_more(crc, t->chunk[c], sdbi_chunk_bytes(t, c));
		t->whole_checked = crc == t->info.crc32 ? 1 : -1;
		if (t->whole_checked == 1)
			memset(t->checked, 0xff, ((t->nblocks + 63) / 64) * sizeof *t->checked);
	}
	const int ok = t->whole_checked == 1;
	sdbi_db_unlock(t->db);
	return ok;
}

int sdbi_block_check(const sdb_table *t, uint64_t b)
{
	if (b >= t->nblocks) {   /* an index past the table: a caller's bug, never a read */
		mark_damaged(t, b);
		return 0;
	}
	int ok;
	if (!t->block_crc) {
		ok = check_whole(t);
	} else {
		const uint64_t at = b << SDBI_BLOCK_SHIFT;
		const uint8_t *p = t->chunk[at >> t->chunk_shift] + (at & t->chunk_mask);
		ok = sdbi_crc_more(sdbi_crc_start(), p, sdbi_block_bytes(t, b)) ==
		     sdbi_block_crc(t, b);
		if (ok)
			__atomic_fetch_or(&t->checked[b >> 6], (uint64_t)1 << (b & 63),
			                  __ATOMIC_RELAXED);
	}
	if (!ok)
		mark_damaged(t, b);
	return ok;
}
