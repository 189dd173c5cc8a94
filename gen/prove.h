/* The proof a resumed build gives of its table before it commits (prove.c). */
#ifndef SLIDEDB_PROVE_H
#define SLIDEDB_PROVE_H

#include <stddef.h>

#include "bfs.h"

/* Check table (the engine's: bytes, or two bits per entry) over space sp,
 * every entry against its neighbours, and its counts by distance against
 * the search's (res) in one pass on threads (<= 0: every core). 0, or
 * SDB_ECORRUPT with the first wrong entry, or the count, in why. */
int bfs_prove(const uint8_t *table, const bfs_space *sp, int two_bit, const bfs_result *res,
              int threads, char *why, size_t cap);

#endif
