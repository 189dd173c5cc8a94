/* The store layer's own declarations (db/store/: the LMDB environment,
 * catalog, writer, records, block checksums, page checks, holds, shards,
 * transfer, table selection, upkeep). Uses the puzzle layer, never the
 * answer layer. Not installed. */
#ifndef SLIDEDB_STORE_H
#define SLIDEDB_STORE_H

#include "puzzle/puzzle.h"

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

/* --- Block checksums (blocks.c). */
enum { SDBI_BLOCK_SHIFT = 12, SDBI_BLOCK_SIZE = 1 << SDBI_BLOCK_SHIFT };

/* Check block b of t against its CRC (once: a match sets its bit). 1 if
 * intact; 0 if damaged, which marks the calling thread's damage flag. */
int sdbi_block_check(const sdb_table *t, uint64_t b);
/* Bytes of block b (the last may be short). */
uint64_t sdbi_block_bytes(const sdb_table *t, uint64_t b);
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
/* The pattern of a pattern table (sdb_pattern_of_table()), made on its first
 * use and kept with the table until the handle closes: every heuristic of
 * the handle reads it. 0, or the error of sdb_pattern_of_table(). */
int sdbi_table_pattern(const sdb_pattern **out, const sdb_table *t);
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

/* The cores this process may run on (its affinity: taskset, mpirun's
 * binding), at most SDBI_MAX_THREADS. */
enum { SDBI_MAX_THREADS = 16 };
int sdbi_usable_cores(void);

/* Threads for work over `bytes` of a table in `parts` that can go apart: the
 * usable cores but `leave` (one at least), at most one per 16 MiB
 * ($SLIDEDB_VERIFY_BYTES: tests on small tables), at most one a part. */
int sdbi_threads_for(uint64_t bytes, uint64_t parts, int leave);

/* A size in bytes from the environment, at least a block, else dflt: the
 * tests split small tables over threads and slices with it. */
uint64_t sdbi_env_bytes(const char *name, uint64_t dflt);

/* fn on each of n (<= SDBI_MAX_THREADS) arguments of `size` bytes at args,
 * on threads of their own but the first (the calling thread's); returns
 * when every one is done. */
void sdbi_on_threads(int n, void *(*fn)(void *), void *args, size_t size);

/* CRC-32 (zlib's) of any size. */
uint32_t sdbi_crc_start(void);
uint32_t sdbi_crc_more(uint32_t crc, const uint8_t *data, uint64_t size);

/* The checksums of bytes as they are written: crc is the value stored
 * (a 4-byte header, the block size, then one CRC per block), whole the
 * CRC-32 of all the bytes. */
typedef struct sdbi_blocksum {
	uint8_t *crc;
	uint64_t nblocks, cap, bytes;
	uint32_t cur, whole;
	unsigned long op;          /* zlib's combine operator for a whole block */
} sdbi_blocksum;
void sdbi_blocksum_init(sdbi_blocksum *s);
int sdbi_blocksum_add(sdbi_blocksum *s, const uint8_t *data, uint64_t n);
int sdbi_blocksum_finish(sdbi_blocksum *s);
void sdbi_blocksum_free(sdbi_blocksum *s);

/* --- Files a user named (file.c): sdb_file_open() opens them; this is its
 * refusal of a path that holds no regular file (mode: st_mode), for a check
 * made by stat: SDB_EIO with the detail, errno EINVAL. */
int sdbi_not_regular(const char *path, unsigned mode);

/* --- Holds on a database file (hold.c): a shared flock for a handle's
 * life, an exclusive one for compact. Each returns the descriptor that
 * holds it, SDBI_HOLD_NONE when no hold could be taken for a reason the
 * caller's own open will report (no such file, no flock), or SDB_EIO with
 * the detail (a compact under way past $SLIDEDB_BUSY_TIMEOUT seconds, or,
 * for the exclusive hold, another process holding the file). */
enum { SDBI_HOLD_NONE = -1000 };
int sdbi_hold_shared(const char *path, int create);
int sdbi_hold_exclusive(const char *path);
/* Whether fd is the file path names now (not replaced since). */
int sdbi_hold_same_file(int fd, const char *path);

/* The database's lock (env.c), for state kept beside its values. */
void sdbi_db_lock(const sdb_db *db);
void sdbi_db_unlock(const sdb_db *db);
/* Bytes of chunk c of a resolved table. */
uint64_t sdbi_chunk_bytes(const sdb_table *t, int c);

/* Add the distances mod 3 of a two-bit table's first states entries of
 * data to counts[0..2] (3, unreached, is not counted). */
void sdbi_count_mod3(uint64_t *counts, const uint8_t *data, uint64_t states);

/* Whether a table's entries were resolved on open; if not, the detail says
 * why (as sdb_table_data()) and the result is 0. */
int sdbi_table_resolved(const sdb_table *t);

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

/* The tables some names mean (each as sdb_table_select(), each table once,
 * in the order the names give): a malloc'ed array in *out, and how many;
 * SDB_ENOTFOUND if a name means none. */
int sdbi_tables_chosen(const sdb_table ***out, const sdb_db *db, const char *const *names,
                      int nnames);

/* --- Proofs (prove.c). A table's entries as a proof reads them: chunks
 * of 2^shift bytes, in order (a whole table: one chunk, shift 63). */
typedef struct sdbi_entries {
	const uint8_t *const *chunk;
	int shift;
} sdbi_entries;
/* sdb_entries_prove() of entries in chunks: a table being imported. */
int sdbi_prove(int *proof, const sdb_table_info *info, const sdb_pattern *p,
               const sdbi_entries *e, const sdb_prove_opts *opts);
/* The entries of the table the writer recorded last (sdb_writer_put_meta()),
 * read back from its transaction: a malloc'ed array of its chunks in *chunk
 * (valid until the transaction's next write) and their size's *shift. */
int sdbi_writer_entries(sdb_writer *w, const uint8_t ***chunk, int *shift);

/* A catalog entry of db whose record is damaged (only a printable form of
 * its key is known, table.c) that may be a group of a pattern set for w x h
 * boards: its name is neither a full table's nor a set's of another size.
 * NULL if none: a search that finds no set for such boards may then say
 * there is none, rather than that one is damaged. */
const sdb_table *sdbi_damaged_group(const sdb_db *db, int w, int h);

/* Catalog records (record.c): the bytes stored for a table's catalog entry.
 * Decode takes the file's format version (2 or 3); -1 if the bytes are not
 * a record of it. */
size_t sdbi_record_size(const sdb_table_info *in);
void sdbi_record_encode(uint8_t *buf, const sdb_table_info *in);
int sdbi_record_decode(sdb_table_info *in, const char *name, size_t name_len, const void *buf,
                      size_t len, uint32_t file_version);

/* Why a catalog entry cannot describe a table this slidedb can use (sizes,
 * goal, format, kind, counts), or NULL: every entry is checked before use,
 * on open and on import. The pattern's exact size is checked where the
 * pattern is built (import, heuristic). */
const char *sdbi_info_problem(const sdb_table_info *in);

#endif
