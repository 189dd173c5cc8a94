/* SPDX-License-Identifier: MIT */
/* A table's entries as they are read (blocks.c): each 4 KiB block checked
 * against its stored CRC-32 the first time this process reads from it, the
 * damage a thread has read, and the entries of full tables as a walk
 * compares them. Not installed. */
#ifndef SLIDEDB_STORE_BLOCKS_H
#define SLIDEDB_STORE_BLOCKS_H

#include "store/store.h"

/* Check block b of t against its CRC (once: a match sets its bit). 1 if
 * intact; 0 if damaged, which marks the calling thread's damage flag. */
int sdbi_block_check(const sdb_table *t, uint64_t b);
/* Bytes of block b (the last may be short). */
uint64_t sdbi_block_bytes(const sdb_table *t, uint64_t b);

/* Forget the damage this thread has read; then 0, or SDB_ECORRUPT with the
 * detail naming the first damaged block read since the reset. Every public
 * function that answers from full tables brackets its reads with these. */
void sdbi_damage_reset(void);
int sdbi_damage_check(void);

/* The CRC-32 stored for block b of t (little-endian in the file). */
static inline uint32_t sdbi_block_crc(const sdb_table *t, uint64_t b)
{
	const uint8_t *p = t->block_crc + 4 * b;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline int sdbi_block_checked(const sdb_table *t, uint64_t b)
{
	return (int)(__atomic_load_n(&t->checked[b >> 6], __ATOMIC_RELAXED) >> (b & 63) & 1);
}

/* Whether byte i of t's entries may be read: its block is intact. */
static inline int sdbi_byte_ok(const sdb_table *t, uint64_t i)
{
	const uint64_t b = i >> SDBI_BLOCK_SHIFT;
	return __builtin_expect(b < t->nblocks && sdbi_block_checked(t, b), 1) ||
	       sdbi_block_check(t, b);
}

/* Full tables' entries as a walk compares them: the distance (one byte per
 * state), or the distance mod 3 (SDB_ENTRY_MOD3, two bits per state, 3 when
 * unreached). Along a walk a neighbour is one closer exactly when its level
 * is sdbi_level_of(t, d - 1): the neighbours of a state at d are at d-1 or
 * d+1, which differ mod 3. */
static inline int sdbi_entry_level(const sdb_table *t, uint64_t i)
{
	if (t->info.entry_format == SDB_ENTRY_MOD3) {
		const uint64_t b = i >> 2;
		if (!sdbi_byte_ok(t, b))
			return SDB_UNREACHED_MOD3;   /* damaged: and the thread's flag is set */
		return sdb_mod3(t->chunk[b >> t->chunk_shift] + (b & t->chunk_mask), i & 3);
	}
	return sdb_dist6(sdbi_byte_ok(t, i) ? t->data[i] : SDB_UNREACHED_BYTE);
}

/* Entry i of a one-byte full table (distance and best move), or unreached
 * (unreached) where its block is damaged (the thread's flag is then set). */
static inline int sdbi_entry_byte(const sdb_table *t, uint64_t i)
{
	return sdbi_byte_ok(t, i) ? t->data[i] : SDB_UNREACHED_BYTE;
}

/* The distance of entry i of a one-byte full table (SDB_DIST6_UNREACHED). */
static inline int sdbi_entry_dist(const sdb_table *t, uint64_t i)
{
	return sdb_dist6((unsigned)sdbi_entry_byte(t, i));
}

static inline int sdbi_level_of(const sdb_table *t, int d)
{
	return t->info.entry_format == SDB_ENTRY_MOD3 ? d % 3 : d;
}

#endif
