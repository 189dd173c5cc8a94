/* SPDX-License-Identifier: MIT */
/* A distributed search's restart point (slidedb-lookup-mpi --checkpoint):
 * the bound of the iteration under way, its cut, and the subtrees searched
 * to the end at it; sealed with the user's key (ckpt_key.h). */
#ifndef SLIDEDB_LOOKUP_SEARCH_CKPT_H
#define SLIDEDB_LOOKUP_SEARCH_CKPT_H

#include <stddef.h>
#include <stdint.h>

#include "lookup/ckpt_key.h"
#include "slidedb.h"

/* Which search a file is for: boards, sets, and the tables' digest. */
typedef struct search_id {
	sdb_board start, goal;
	char sets[SDB_MAX_SETS * SDB_NAME_MAX];
	uint32_t tables;
} search_id;

typedef struct search_ckpt {
	int bound, depth, n;      /* the iteration, its cut: n subtrees of depth moves */
	int next_bound;           /* the smallest f cut off so far (INT_MAX: none) */
	uint64_t nodes;           /* the search's nodes until then, over every run */
	uint8_t *done;            /* bit per subtree searched to the end (malloc'ed) */
} search_ckpt;

/* DIR/search-XXXXXXXX.ckpt, XXXXXXXX a CRC-32 of the search's identity. 0,
 * or -1 when it does not fit. */
int search_ckpt_path(char *buf, size_t cap, const char *dir, const search_id *id);

/* The file at path, every byte checked before use: 1 (c filled), 0 (none),
 * or -1 with why (not a regular file, damaged, another version, not sealed
 * by key, another search's). */
int search_ckpt_load(const char *path, const search_id *id, const ckpt_key *key, search_ckpt *c,
                     char *why, size_t cap);

/* c to path, sealed by key, whole or not at all: 0 or an errno. */
int search_ckpt_save(const char *path, const char *dir, const search_id *id, const ckpt_key *key,
                     const search_ckpt *c);

#endif
