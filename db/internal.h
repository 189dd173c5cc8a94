/* Declarations shared by the library's own files; not installed. */
#ifndef SLIDEDB_INTERNAL_H
#define SLIDEDB_INTERNAL_H

#include "slidedb_engine.h"

/* Record a one-line detail for sdb_errdetail() and return err, so that a
 * failing function can end with `return sdb_fail(SDB_EINVAL, "...", ...)`. */
int sdb_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Empty the detail and return rc: the end of a public function that
 * succeeded, so sdb_errdetail() never shows an older, unrelated failure
 * (rc < 0 is passed through with its detail). */
int sdb_done(int rc);

/* How a "build it with" hint names the database: " --db 'PATH'" when db was
 * not opened at the default path, else "" (so the hint, run as it is, writes
 * to the database that was asked). */
const char *sdb_hint_db(const sdb_db *db, char *buf, size_t cap);
/* The same for a database path. */
const char *sdb_hint_path(const char *path, char *buf, size_t cap);
/* " --goal 'G'" when the goal's blank is not in the class of the standard
 * goal's (what slidedb-gen builds without --goal), else "". */
const char *sdb_hint_goal(const sdb_board *goal, char *buf, size_t cap);

/* Population count of a 16-bit mask without the libgcc call that
 * __builtin_popcount becomes on CPUs the build does not assume POPCNT for. */
static inline unsigned sdb_popcount16(unsigned x)
{
	x = x - ((x >> 1) & 0x5555u);
	x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
	x = (x + (x >> 4)) & 0x0f0fu;
	return (x + (x >> 8)) & 0x1fu;
}

/* The cells of a text before a size is decided (board.c): up to two
 * boards' worth, and the shape rows give it (nested brackets, or lines),
 * cols = rows = 0 when it has none. */
enum { SDB_CELLS_CAP = 2 * SDB_MAX_CELLS };
typedef struct sdb_cells {
	uint8_t cell[SDB_CELLS_CAP];
	int count;
	int cols, rows;
} sdb_cells;
/* Read text into c; with check_shape, rows of unequal length are an error. */
int sdb_cells_scan(sdb_cells *c, const char *text, int check_shape);

/* The size of a board of count cells: a square count is the square board,
 * else the one size that fits, else the one of those db has tables for
 * (db may be NULL). SDB_EINVAL or SDB_EAMBIGUOUS with the detail. */
int sdb_size_for_cells(int *w, int *h, int count, const sdb_db *db);
/* A board from scanned cells: the rows' shape, else w x h, else inferred. */
int sdb_board_from_cells(sdb_board *b, const sdb_cells *c, int w, int h);

/* Reset an answer to "unsolvable"; then 1 if goal can be reached from start
 * (the caller goes on), 0 if not (the answer is complete), or SDB_EINVAL. */
int sdb_answer_begin(sdb_answer *a, const sdb_board *start, const sdb_board *goal);

/* What is wanted of the optimal sequences beyond the first (every best
 * move, their number, the sequences themselves), and what was found. */
typedef struct sdb_optimal {
	int count_all;           /* count every optimal sequence into count */
	uint64_t limit;          /* give at most this many sequences to fn */
	sdb_path_fn fn;
	void *ctx;
	unsigned best_moves;     /* out: first moves of optimal sequences (caller's) */
	sdb_count count;         /* out, with count_all */
	uint64_t emitted;        /* out: sequences given to fn */
	int stopped;             /* out: fn asked to stop */
} sdb_optimal;

/* c += v; -1 if the count passes 2^128 - 1 (c is then meaningless). */
static inline int sdb_count_add(sdb_count *c, uint64_t v)
{
	uint64_t lo = c->lo + v;
	int carry = lo < c->lo;
	c->lo = lo;
	return carry && ++c->hi == 0 ? -1 : 0;
}

/* sdb_solve(), then, with en, a second pass at the optimal bound that
 * visits the optimal sequences as en asks (solve.c). */
int sdb_solve_optimal(sdb_answer *a, sdb_solve_stats *stats, const sdb_heuristic *h,
                      const sdb_board *start, const sdb_board *goal,
                      const sdb_solve_limits *limits, sdb_optimal *en);

/* The same from a full table (optimal.c): cur is the start in the table's
 * frame f, at distance d. 0, SDB_ECORRUPT (the table contradicts itself;
 * the caller says so), SDB_ENOMEM or SDB_ETOOBIG (over 2^128). */
int sdb_table_optimal(const sdb_table *t, const sdb_frame *f, const sdb_board *cur, int d,
                      sdb_optimal *en);

/* The full table for goals like this one (its data resolved), or NULL with
 * *err and the detail set (SDB_ENOTFOUND naming the command, SDB_ETOOBIG,
 * SDB_ECORRUPT). */
const sdb_table *sdb_find_for_goal(const sdb_db *db, const sdb_board *goal, int *err);

/* Permutation parity (0 or 1) of the tiles of b read row-major, blank skipped. */
int sdb_board_parity(const sdb_board *b);

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
};

/* --- Block checksums (blocks.c). */
enum { SDB_BLOCK_SHIFT = 12, SDB_BLOCK_SIZE = 1 << SDB_BLOCK_SHIFT };

/* Check block b of t against its CRC (once: a match sets its bit). 1 if
 * intact; 0 if damaged, which marks the calling thread's damage flag. */
int sdb_block_check(const sdb_table *t, uint64_t b);
/* Bytes of block b (the last may be short). */
uint64_t sdb_block_bytes(const sdb_table *t, uint64_t b);
/* Check every block not yet checked: 0 or SDB_ECORRUPT with the detail. */
int sdb_blocks_check_all(const sdb_table *t);
/* Forget the damage this thread has read; then 0, or SDB_ECORRUPT with the
 * detail naming the first damaged block read since the reset. Every public
 * function that answers from full tables brackets its reads with these. */
void sdb_damage_reset(void);
int sdb_damage_check(void);

static inline int sdb_block_checked(const sdb_table *t, uint64_t b)
{
	return (int)(__atomic_load_n(&t->checked[b >> 6], __ATOMIC_RELAXED) >> (b & 63) & 1);
}

/* Whether byte i of t's entries may be read: its block is intact. */
static inline int sdb_byte_ok(const sdb_table *t, uint64_t i)
{
	const uint64_t b = i >> SDB_BLOCK_SHIFT;
	return __builtin_expect(b < t->nblocks && sdb_block_checked(t, b), 1) ||
	       sdb_block_check(t, b);
}

/* CRC-32 (zlib's) of any size. */
uint32_t sdb_crc_start(void);
uint32_t sdb_crc_more(uint32_t crc, const uint8_t *data, uint64_t size);

/* The checksums of bytes as they are written: crc is the value stored
 * (a 4-byte header, the block size, then one CRC per block), whole the
 * CRC-32 of all the bytes. */
typedef struct sdb_blocksum {
	uint8_t *crc;
	uint64_t nblocks, cap, bytes;
	uint32_t cur, whole;
	unsigned long op;          /* zlib's combine operator for a whole block */
} sdb_blocksum;
void sdb_blocksum_init(sdb_blocksum *s);
int sdb_blocksum_add(sdb_blocksum *s, const uint8_t *data, uint64_t n);
int sdb_blocksum_finish(sdb_blocksum *s);
void sdb_blocksum_free(sdb_blocksum *s);

/* --- Holds on a database file (hold.c): a shared flock for a handle's
 * life, an exclusive one for compact. Each returns the descriptor that
 * holds it, SDB_HOLD_NONE when no hold could be taken for a reason the
 * caller's own open will report (no such file, no flock), or SDB_EIO with
 * the detail (a compact under way past $SLIDEDB_BUSY_TIMEOUT seconds, or,
 * for the exclusive hold, another process holding the file). */
enum { SDB_HOLD_NONE = -1000 };
int sdb_hold_shared(const char *path, int create);
int sdb_hold_exclusive(const char *path);
/* Whether fd is the file path names now (not replaced since). */
int sdb_hold_same_file(int fd, const char *path);

/* The database's lock (store.c), for state kept beside its values. */
void sdb_db_lock(const sdb_db *db);
void sdb_db_unlock(const sdb_db *db);
/* Bytes of chunk c of a resolved table. */
uint64_t sdb_chunk_bytes(const sdb_table *t, int c);

/* Add the distances mod 3 of a two-bit table's first states entries of
 * data to counts[0..2] (3, unreached, is not counted). */
void sdb_count_mod3(uint64_t *counts, const uint8_t *data, uint64_t states);

/* Whether a table's entries were resolved on open; if not, the detail says
 * why (as sdb_table_data()) and the result is 0. */
int sdb_table_resolved(const sdb_table *t);

/* Full tables' entries as a walk compares them: the distance (one byte per
 * state), or the distance mod 3 (SDB_ENTRY_MOD3, two bits per state, 3 when
 * unreached). Along a walk a neighbour is one closer exactly when its level
 * is sdb_level_of(t, d - 1): the neighbours of a state at d are at d-1 or
 * d+1, which differ mod 3. */
static inline int sdb_entry_level(const sdb_table *t, uint64_t i)
{
	if (t->info.entry_format == SDB_ENTRY_MOD3) {
		const uint64_t b = i >> 2;
		if (!sdb_byte_ok(t, b))
			return 3;   /* damaged: "unreached", and the thread's flag is set */
		return t->chunk[b >> t->chunk_shift][b & t->chunk_mask] >> ((i & 3) * 2) & 3;
	}
	return sdb_byte_ok(t, i) ? t->data[i] & 0x3f : 0x3f;
}

/* Entry i of a one-byte full table (distance and best move), or 0xff
 * (unreached) where its block is damaged (the thread's flag is then set). */
static inline int sdb_entry_byte(const sdb_table *t, uint64_t i)
{
	return sdb_byte_ok(t, i) ? t->data[i] : 0xff;
}

/* The distance of entry i of a one-byte full table (0x3f: unreached). */
static inline int sdb_entry_dist(const sdb_table *t, uint64_t i)
{
	return sdb_entry_byte(t, i) & 0x3f;
}

/* The error for a distance asked of a two-bit table (random, states). */
int sdb_fail_mod3_distance(const sdb_table *t, const sdb_board *goal);

static inline int sdb_level_of(const sdb_table *t, int d)
{
	return t->info.entry_format == SDB_ENTRY_MOD3 ? d % 3 : d;
}

/* Rank of a board's pattern when the cells of the group's tiles (mask) are
 * known: O(k) instead of O(n). */
uint64_t sdb_pattern_rank_mask(const sdb_pattern *p, const sdb_board *b, unsigned mask);

/* The frame of goal; SDB_EINVAL if the heuristic does not serve its class. */
int sdb_heuristic_frame(const sdb_heuristic *h, sdb_frame *f, const sdb_board *goal);
/* sdb_heuristic_start() in a given frame. */
int sdb_heuristic_start_in(const sdb_heuristic *h, const sdb_frame *f, sdb_hstate *st,
                           const sdb_board *state);
/* sdb_heuristic_move() with a move of the set's frame, known to be legal. */
int sdb_heuristic_move_frame(const sdb_heuristic *h, sdb_hstate *st, int m);

/* The tables some names mean (each as sdb_table_select(), each table once,
 * in the order the names give): a malloc'ed array in *out, and how many;
 * SDB_ENOTFOUND if a name means none. */
int sdb_tables_chosen(const sdb_table ***out, const sdb_db *db, const char *const *names,
                      int nnames);

/* Catalog records (record.c): the bytes stored for a table's catalog entry.
 * Decode takes the file's format version (2 or 3); -1 if the bytes are not
 * a record of it. */
size_t sdb_record_size(const sdb_table_info *in);
void sdb_record_encode(uint8_t *buf, const sdb_table_info *in);
int sdb_record_decode(sdb_table_info *in, const char *name, size_t name_len, const void *buf,
                      size_t len, uint32_t file_version);

/* Why a catalog entry cannot describe a table this slidedb can use (sizes,
 * goal, format, kind, counts), or NULL: every entry is checked before use,
 * on open and on import. The pattern's exact size is checked where the
 * pattern is built (import, heuristic). */
const char *sdb_info_problem(const sdb_table_info *in);

/* The heuristic the database answers goals like this one with (larger
 * boards): the strongest set, else Manhattan with linear conflicts and a
 * note saying why. Opened on first use and kept until the database closes;
 * thread-safe. */
int sdb_db_heuristic(const sdb_heuristic **h, const char **note, const sdb_db *db,
                     const sdb_board *goal);

#endif
