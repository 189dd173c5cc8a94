/* The puzzle layer's own declarations (db/puzzle/: boards, cells and sizes,
 * rank, symmetry, frames, pattern spaces, partitions, errors). Pure: no
 * LMDB, no sdb_db, no I/O. Not installed. */
#ifndef SLIDEDB_PUZZLE_H
#define SLIDEDB_PUZZLE_H

#include "slidedb_engine.h"

/* Record a one-line detail for sdb_errdetail() and return err, so that a
 * failing function can end with `return sdbi_fail(SDB_EINVAL, "...", ...)`. */
int sdbi_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Empty the detail and return rc: the end of a public function that
 * succeeded, so sdb_errdetail() never shows an older, unrelated failure
 * (rc < 0 is passed through with its detail). */
int sdbi_done(int rc);

/* Population count of a 16-bit mask without the libgcc call that
 * __builtin_popcount becomes on CPUs the build does not assume POPCNT for. */
static inline unsigned sdbi_popcount16(unsigned x)
{
	x = x - ((x >> 1) & 0x5555u);
	x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
	x = (x + (x >> 4)) & 0x0f0fu;
	return (x + (x >> 8)) & 0x1fu;
}

/* The same for a 64-bit mask (cells or tiles of boards up to 8x8). */
static inline unsigned sdbi_popcount64(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

/* Bits 1..n-1: every tile of a board of n cells (n <= 64). */
static inline uint64_t sdbi_tiles_all(int n)
{
	return (n >= 64 ? ~0ull : (1ull << n) - 1) & ~1ull;
}

/* The cells of a text before a size is decided (board.c): up to two
 * boards' worth, and the shape rows give it (nested brackets, or lines),
 * cols = rows = 0 when it has none. */
enum { SDBI_CELLS_CAP = 2 * SDB_MAX_CELLS };
typedef struct sdbi_cells {
	uint8_t cell[SDBI_CELLS_CAP];
	int count;
	int cols, rows;
} sdbi_cells;
/* Read text into c; with check_shape, rows of unequal length are an error. */
int sdbi_cells_scan(sdbi_cells *c, const char *text, int check_shape);

/* A set of board sizes, as a value: bit sdbi_size_bit(w, h) for each. What a
 * database has tables for, handed down to settle a count of cells that fits
 * several sizes (the puzzle layer never sees the database). */
typedef uint64_t sdbi_sizes;
static inline sdbi_sizes sdbi_size_bit(int w, int h)
{
	return (sdbi_sizes)1 << ((w - 2) * 7 + (h - 2));
}

/* The size of a board of count cells: a square count is the square board,
 * else the one size that fits, else the one of those in have. SDB_EINVAL or
 * SDB_EAMBIGUOUS with the detail. */
int sdbi_size_for_cells(int *w, int *h, int count, sdbi_sizes have);
/* A board from scanned cells: the rows' shape, else w x h, else inferred. */
int sdbi_board_from_cells(sdb_board *b, const sdbi_cells *c, int w, int h);

/* Permutation parity (0 or 1) of the tiles of b read row-major, blank skipped. */
int sdbi_board_parity(const sdb_board *b);

/* Rank of a board's pattern when the cells of the group's tiles (mask) are
 * known: O(k) instead of O(n). */
uint64_t sdbi_pattern_rank_mask(const sdb_pattern *p, const sdb_board *b, uint64_t mask);

#endif
