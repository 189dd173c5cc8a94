/* SPDX-License-Identifier: MIT */
/* Entries of the BFS tables, read and written by concurrent passes (the
 * threads of one process, or a rank applying updates from others): relaxed
 * atomics, since every writer of an entry stores the same value or the
 * smaller best move. Shared by the OpenMP engine (bfs.c) and the MPI one. */
#ifndef SLIDEDB_GEN_BFS_ENTRY_H
#define SLIDEDB_GEN_BFS_ENTRY_H

#include <stdint.h>

#include "slidedb_engine.h"

enum { UNSEEN = SDB_UNREACHED_BYTE };

/* The distance bits of a table's entries: a full table's keep the best move
 * beside them, a pattern group's are all distance. */
static inline uint8_t dist_mask(int best_moves)
{
	return best_moves ? SDB_DIST6_MASK : 0xff;
}

static inline uint8_t load(const uint8_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void store(uint8_t *p, uint8_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* Claim an unreached entry for level v; true for the one thread that did. */
static inline int claim(uint8_t *p, uint8_t v)
{
	uint8_t expected = UNSEEN;
	return load(p) == UNSEEN &&
	       __atomic_compare_exchange_n(p, &expected, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* Full tables: mark a neighbour reached from here by blank move m. Its best
 * move is back, m ^ 1; of several parents on this level the smallest move
 * wins (an atomic minimum of the byte, whose distance bits are equal), the
 * same move a pull would pick: the first direction to level k. Returns 1 if
 * this call reached the entry first. */
static inline int reach_with_move(uint8_t *p, int k, int m)
{
	const uint8_t want = sdb_dist6_move2(k + 1, m ^ 1);
	uint8_t cur = load(p);
	for (;;) {
		if (cur == UNSEEN) {
			if (__atomic_compare_exchange_n(p, &cur, want, 0, __ATOMIC_RELAXED,
			                                __ATOMIC_RELAXED))
				return 1;
		} else if (sdb_dist6(cur) != k + 1 || cur <= want) {
			return 0;
		} else if (__atomic_compare_exchange_n(p, &cur, want, 0, __ATOMIC_RELAXED,
		                                       __ATOMIC_RELAXED)) {
			return 0;
		}
	}
}

enum { UNSEEN2 = SDB_UNREACHED_MOD3 };

static inline unsigned get2(const uint8_t *t, uint64_t i)
{
	const uint8_t byte = load(&t[i >> 2]);
	return sdb_mod3(&byte, i & 3);
}

/* Mark entry n of a two-bit table, seen unreached, with value v (0..2): an
 * atomic AND of the bits that differ, so 1 if this call reached it first
 * (others that reached it meanwhile wrote the same v). Never on an entry
 * known to be reached: the AND would change its value. */
static inline int claim2(uint8_t *t, uint64_t n, unsigned v)
{
	const int shift = (int)(n & 3) * 2;
	const uint8_t clear = (uint8_t)(((UNSEEN2 ^ v) & 3u) << shift);
	uint8_t old = __atomic_fetch_and(&t[n >> 2], (uint8_t)~clear, __ATOMIC_RELAXED);
	return ((old >> shift) & 3u) == UNSEEN2;
}

/* --- A 64-bit word of a table at once: 8 byte entries or 32 two-bit ones.
 * Groups of 8 two-bit entries (16 bits) are what the engines mark as
 * holding a level's new entries. */

/* Bit 7 of each byte of the result is set where (byte & mask) == v: a SWAR
 * compare of 8 entries at once, exact. */
static inline uint64_t match_bytes(uint64_t x, uint64_t mask, unsigned v)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	uint64_t y = (x & mask) ^ (0x0101010101010101ull * v);
	return ~(((y & low7) + low7) | y | low7);
}

/* Entries of x (32 per word) equal to v, as bit 2j set for entry j. */
static inline uint64_t match2(uint64_t x, unsigned v)
{
	uint64_t y = x ^ (0x5555555555555555ull * v);
	return ~(y | y >> 1) & 0x5555555555555555ull;
}

/* A table word's four groups of 8 entries (one mark bit each) and the
 * match2() bits of their entries, both ways. */
static inline unsigned groups_of(uint64_t entries)
{
	unsigned groups = 0;
	for (int g = 0; g < 4; g++)
		if (entries >> (16 * g) & 0xffff)
			groups |= 1u << g;
	return groups;
}

static inline uint64_t entries_of(unsigned groups)
{
	uint64_t entries = 0;
	for (int g = 0; g < 4; g++)
		if (groups >> g & 1)
			entries |= 0x5555ull << (16 * g);
	return entries;
}

#endif
