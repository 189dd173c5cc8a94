/* SPDX-License-Identifier: MIT */
/* The store layer's own declarations (db/store/): a database handle and its
 * tables as the store's files share them and the answer layer uses them.
 * Uses the puzzle layer, never the answer layer. What only some of the
 * store's files need has a header of its own: blocks.h (a table's entries
 * read block by block, checked), crc.h, threads.h, record.h, prove.h,
 * file.h, pages.h, and env.h (the handle's insides). Not installed. */
#ifndef SLIDEDB_STORE_STORE_H
#define SLIDEDB_STORE_STORE_H

#include "puzzle/puzzle.h"

/* A table's entries are checked 4 KiB at a time (blocks.c). */
enum { SDBI_BLOCK_SHIFT = 12, SDBI_BLOCK_SIZE = 1 << SDBI_BLOCK_SHIFT };

/* A full table's catalog entry, kept inside the library. */
struct sdb_table {
	sdb_table_info info;
	const sdb_db *db;
	const uint8_t *data;   /* resolved on open (read-only handles), else NULL;
	                          NULL too for a table stored in chunks */
	const uint8_t **chunk; /* the entries' chunks in order: &data for a whole
	                          table; NULL until resolved */
	int nchunks;
	int chunk_shift;       /* a chunk is 2^chunk_shift bytes (63: whole) */
	uint64_t chunk_mask;   /* 2^chunk_shift - 1 */
	const char *problem;   /* why data is NULL: "missing", "of the wrong size",
	                          or damage (below) */
	char damage[128];      /* a damaged catalog entry: why */
	char *raw_key;         /* its key as stored (info.name is printable) */
	size_t raw_key_len;
	int blank;             /* blank cell of the table's goal */
	uint64_t goal_index;   /* index of the goal itself */
	/* Block checksums (blocks.c), for tables whose entries were resolved: */
	const uint8_t *block_crc;  /* the little-endian CRC-32 of each block (the
	                              stored value past its header); NULL: a format-3 table,
	                              checked whole on first touch */
	uint64_t nblocks;
	uint64_t *checked;         /* bit b: block b matched its CRC (atomic) */
	int whole_checked;         /* format 3: 0 not yet, 1 intact, -1 damaged */
	/* What this handle learnt of the table once, for every later use: */
	int verified;              /* 1: its bytes passed sdbi_table_verify_paced() (atomic) */
	sdb_pattern *pattern;      /* a pattern table's pattern, made on first use (atomic) */
};

/* The tuning set with sdb_engine_tune() (tuning.c): read where a piece of
 * work begins, never on a hot path. */
const sdb_tuning *sdbi_tuning(void);

/* --- The handle (open.c, env.c). */

/* The plain open of a database (open.c): sdb_db_open() without the advice a
 * missing file gets (the answer layer adds what to build). */
int sdbi_db_open_plain(sdb_db **db, const char *path, unsigned flags);

/* The sizes db has tables for (full tables and pattern sets alike). */
sdbi_sizes sdbi_db_sizes(const sdb_db *db);

/* A slot on a handle for a higher layer's state (the answer layer's cache of
 * heuristics), read and set under sdbi_db_lock(): its address (and, when
 * free_fn is not NULL, the function set to free it). The function set with
 * sdbi_db_set_slot_free() frees the slot's value when the handle closes. */
void **sdbi_db_slot(const sdb_db *db, void (**free_fn)(void *));
void sdbi_db_set_slot_free(const sdb_db *db, void (*free_fn)(void *));

/* The database's lock (env.c), for state kept beside its values. */
void sdbi_db_lock(const sdb_db *db);
void sdbi_db_unlock(const sdb_db *db);

/* --- Its tables (table.c). */

/* Whether a table's entries were resolved on open; if not, the detail says
 * why (as sdb_table_data()) and the result is 0. */
int sdbi_table_resolved(const sdb_table *t);

/* Bytes of chunk c of a resolved table. */
uint64_t sdbi_chunk_bytes(const sdb_table *t, int c);

/* The pattern of a pattern table (sdb_pattern_of_table()), made on its first
 * use and kept with the table until the handle closes: every heuristic of
 * the handle reads it. 0, or the error of sdb_pattern_of_table(). */
int sdbi_table_pattern(const sdb_pattern **out, const sdb_table *t);

/* The tables some names mean (each as sdb_table_select(), each table once,
 * in the order the names give): a malloc'ed array in *out, and how many;
 * SDB_ENOTFOUND if a name means none. */
int sdbi_tables_chosen(const sdb_table ***out, const sdb_db *db, const char *const *names,
                      int nnames);

/* A catalog entry of db whose record is damaged (only a printable form of
 * its key is known) that may be a group of a pattern set for w x h boards:
 * its name is neither a full table's nor a set's of another size.
 * NULL if none: a search that finds no set for such boards may then say
 * there is none, rather than that one is damaged. */
const sdb_table *sdbi_damaged_group(const sdb_db *db, int w, int h);

/* --- A table checked whole (verify.c). */

/* How many of the usable cores a verify leaves to other work, asked again
 * every 64 MiB (a check beside a search leaves it one until the search is
 * over and its caller waits). */
typedef struct sdbi_pace {
	int (*leave)(void *ctx);
	void *ctx;
} sdbi_pace;
/* sdb_table_verify() at a pace (NULL: on every usable core). */
int sdbi_table_verify_paced(const sdb_table *t, const sdbi_pace *pace);
/* The check of a table before answers are read from it: sdbi_table_verify_paced()
 * once per handle. A pass is bound to the handle's table, i.e. to the bytes of
 * its snapshot, which no writer changes while the handle reads them; a handle
 * opened or renewed later (sdb_db_reopen()) checks again, since its table may
 * be another. A failure is not kept: it is found again, and said, each time. */
int sdbi_table_verify_once(const sdb_table *t, const sdbi_pace *pace);
/* Whether t passed its check on this handle (sdbi_table_verify_once() would
 * return at once). */
int sdbi_table_verified(const sdb_table *t);

/* Add the distances mod 3 of a two-bit table's first states entries of
 * data to counts[0..2] (3, unreached, is not counted). */
void sdbi_count_mod3(uint64_t *counts, const uint8_t *data, uint64_t states);

#endif
