/* SPDX-License-Identifier: MIT */
/* The key that seals slidedb-lookup-mpi's search checkpoints (search_ckpt.h):
 * 32 random bytes in a file of this user's alone, as ssh keeps its keys. A
 * checkpoint claims that no solution lies below its bound; nothing short of
 * the search proves that, so a file is believed only when this user's key
 * sealed it, which a file crafted elsewhere cannot have. */
#ifndef SLIDEDB_LOOKUP_CKPT_KEY_H
#define SLIDEDB_LOOKUP_CKPT_KEY_H

#include <stddef.h>
#include <stdint.h>

enum { CKPT_KEY_BYTES = 32 };

typedef struct ckpt_key {
	uint8_t bytes[CKPT_KEY_BYTES];
	char path[4096];
} ckpt_key;

/* The key at $SLIDEDB_KEY_FILE, else at
 * ${XDG_STATE_HOME:-$HOME/.local/state}/slidedb/checkpoint.key; when there
 * is none it is made (getrandom, O_EXCL, mode 0600, missing folders 0700)
 * and *created is set. 0, or -1 with why naming the file: not a regular
 * file (or a link), not 32 bytes, another user's, readable or writable by
 * others, or in a folder others may write to. */
int ckpt_key_load(ckpt_key *k, int *created, char *why, size_t cap);

#endif
