/* SPDX-License-Identifier: MIT */
/* The puzzle layer's own declarations (db/puzzle/: boards, cells and sizes,
 * rank, symmetry, frames, pattern spaces, partitions, errors). Pure: no
 * LMDB, no sdb_db, no I/O. Not installed. */
#ifndef SLIDEDB_PUZZLE_PUZZLE_H
#define SLIDEDB_PUZZLE_PUZZLE_H

#include "slidedb_engine.h"

/* Record a one-line detail for sdb_error_detail() and return err, so that a
 * failing function can end with `return sdbi_fail(SDB_EINVAL, "...", ...)`. */
int sdbi_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One move of a sequence at text[*k] (*k < len): a letter u d l r (either
 * case), then an optional count ("r3": the blank travels 3 cells). Its
 * direction and count, *k moved past it; SDB_EINVAL with the detail naming
 * the 1-based position for anything else, or a count not 1 .. SDB_MAX_MOVES.
 * The one reader of move sequences (sdb_moves_parse(), the checker). */
int sdbi_moves_token(const char *text, size_t len, size_t *k, int *move, int *count);

/* Empty the detail and return rc: the end of a public function that
 * succeeded, so sdb_error_detail() never shows an older, unrelated failure
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

/* Symmetry s of w x h boards undone, as a map: cell of the mapped board ->
 * cell of the board (symmetry.c). */
const uint8_t *sdbi_sym_map_back(int w, int h, int s);

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
 * SDB_EAMBIGUOUS with the detail, which says what a square board would lack
 * when cells (or NULL) are the tiles 0..count-1 and one short of it. */
int sdbi_size_for_cells(int *w, int *h, const uint8_t *cells, int count, sdbi_sizes have);
/* Before a size is inferred from a count that does not settle one (see
 * sdbi_size_for_cells), what is wrong with the tiles themselves: more than
 * one blank, a tile twice, no blank, or a tile missing below the largest.
 * These are the cause, the count only their consequence, so they are said
 * first. SDB_EINVAL with the detail, or SDB_OK (a count that settles a size
 * leaves the tiles to sdb_board_set, which names them against that size). */
int sdbi_cells_fault(const uint8_t *cells, int count, sdbi_sizes have);
/* A board from scanned cells: the rows' shape, else w x h, else inferred. */
int sdbi_board_from_cells(sdb_board *b, const sdbi_cells *c, int w, int h);

/* Permutation parity (0 or 1) of the tiles of b read row-major, blank skipped. */
int sdbi_board_parity(const sdb_board *b);

/* A pattern's index space (pattern.c; here so that searches rank inline). */
struct sdb_pattern {
	int w, h, n, k, mode;
	uint64_t tiles;
	int8_t slot[SDB_MAX_CELLS];      /* tile -> its number in the group, or -1 */
	int8_t nbr[SDB_MAX_CELLS][4];    /* cell -> neighbour cell per move, or -1 */
	uint32_t fact[SDB_MAX_PATTERN + 1];   /* fact[i] = i! */
	uint64_t recip[SDB_MAX_PATTERN + 1];  /* ceil(2^64 / i!) for i >= 2 */
	uint32_t kfact;
	int layout;                      /* SDB_LAYOUT_*: how an index is made of a */
	uint64_t block_mul, order_mul;   /* block and an order: block * block_mul +
	                                    order * order_mul */
	uint32_t ncomb, nblocks;
	uint64_t *comb_mask;             /* comb -> occupied cells */
	uint64_t *comb_block;            /* comb -> its first block (low 32 bits) and the
	                                    start of its row of region_rows (high 32
	                                    bits: row * n; row 0 when its free cells make
	                                    one region); SDBI_REGIONS_IN_WORD: the first
	                                    block (low 16 bits) and each cell's region
	                                    (3 bits a cell from bit 16);
	                                    SDBI_REGIONS_BY_CELL: each cell's region (2
	                                    bits a cell), or for a set of more than 4
	                                    regions bit 63 and its row's start (low 32
	                                    bits) */
	uint32_t *comb_first;            /* SDBI_REGIONS_BY_CELL: comb -> its first block */
	uint8_t *region_rows;            /* row * n + cell -> region, 0xff if occupied;
	                                    row 0 all region 0; NULL when not read */
	int regions_packed;              /* 0, or how pack_regions() (pattern.c) packed
	                                    them: SDBI_REGIONS_* */
	uint32_t *block_comb;            /* block -> comb */
	uint64_t *block_cells;           /* block -> cells of its region (region mode) */
	uint8_t *block_region;           /* block -> region number */
	uint64_t goal_index;
	uint8_t goal_cell[SDB_MAX_PATTERN];   /* slot -> the cell of that tile in the goal */
	struct sdbi_pattern_kept {       /* built by the first walk, then read-only */
		int32_t *delta;          /* rank changes per order and move (pattern.c) */
	} *kept;
	struct sdbi_pattern_shape *shape;   /* the tables from ncomb to block_region,
	                                       shared by every pattern of the same board,
	                                       group size and blank mode (pattern.c);
	                                       NULL while they are its own */
};

/* Binomials a choose b (b <= k+1) and bit counts of bytes, filled by the
 * first sdb_pattern_new(). */
extern uint64_t sdbi_binom[SDB_MAX_CELLS + 1][SDB_MAX_PATTERN + 2];
extern uint8_t sdbi_popcount8[256];

/* How a pattern's regions are packed (sdb_pattern.regions_packed). */
enum { SDBI_REGIONS_IN_WORD = 1, SDBI_REGIONS_BY_CELL = 2 };

/* The block of a set of occupied cells (its colex rank comb) with the blank
 * in cell blank: one read with the regions in the word (boards of up to 16
 * cells), two reads side by side with them by cell (up to 31 cells; a rare
 * set of more than 4 regions reads its row after), else two in a chain (a
 * set whose free cells make one region reads row 0, all zeros). A search
 * computes one per child: the reads miss the caches, and a chain waits on
 * both. */
static inline uint64_t sdbi_pattern_block(const sdb_pattern *p, uint32_t comb, int blank)
{
	if (p->mode != SDB_BLANK_REGION)
		return comb;
	const uint64_t b = p->comb_block[comb];
	if (p->regions_packed == SDBI_REGIONS_BY_CELL)
		return p->comb_first[comb] + (b >> 63 ? p->region_rows[(uint32_t)b + (unsigned)blank]
		                                      : (b >> (2 * blank) & 3));
	if (p->regions_packed)
		return (b & 0xffff) + (b >> (16 + 3 * blank) & 7);
	return (uint32_t)b + p->region_rows[(b >> 32) + (unsigned)blank];
}

/* The two parts of the index of the group's tiles on the cells of mask
 * (cell[] says which tile is where): the cells' colex rank (*comb) and the
 * tiles' Lehmer code in cell order (*order), in one pass over the k cells. */
static inline void sdbi_pattern_rank_parts(const sdb_pattern *p, const uint8_t *cell,
                                           uint64_t mask, uint32_t *comb, uint32_t *order)
{
	uint64_t colex = 0;
	uint32_t perm = 0;
	unsigned seen = 0;
	const uint32_t *fact = p->fact + p->k - 1;
	for (int j = 0; mask; mask &= mask - 1, j++) {
		const int c = __builtin_ctzll(mask);
		const unsigned s = (unsigned)p->slot[cell[c]];
		colex += sdbi_binom[c][j + 1];
		perm += (s - sdbi_popcount8[seen & ((1u << s) - 1)]) * fact[-j];
		seen |= 1u << s;
	}
	*comb = (uint32_t)colex;
	*order = perm;
}

/* The index of a block's entry of an order, in the pattern's layout (the
 * one spelling of the layouts, enum sdb_pattern_layout). */
static inline uint64_t sdbi_pattern_join(const sdb_pattern *p, uint64_t block, uint64_t order)
{
	return block * p->block_mul + order * p->order_mul;
}

/* The index of those parts with the blank in cell blank, in the pattern's
 * layout. */
static inline uint64_t sdbi_pattern_index_of(const sdb_pattern *p, uint32_t comb,
                                             uint32_t order, int blank)
{
	return sdbi_pattern_join(p, sdbi_pattern_block(p, comb, blank), order);
}

/* Index of the group's tiles on the cells of mask, the blank in cell blank,
 * in the pattern's layout. The hot path of searches. */
static inline uint64_t sdbi_pattern_rank_cells(const sdb_pattern *p, const uint8_t *cell,
                                               uint64_t mask, int blank)
{
	uint32_t comb, order;
	sdbi_pattern_rank_parts(p, cell, mask, &comb, &order);
	return sdbi_pattern_index_of(p, comb, order, blank);
}

/* The cells between a and b (neither included). */
static inline uint64_t sdbi_cells_between(int a, int b)
{
	const int lo = a < b ? a : b, hi = a < b ? b : a;
	return ((1ull << hi) - 1) & ~((2ull << lo) - 1);
}

/* The colex rank after one of the group's tiles slides from cell a to cell
 * b when no other tile of the group (mask: their cells before) lies between
 * them: the tile keeps its place j among the occupied cells, and so the
 * tiles keep their order (the Lehmer code is unchanged). Every horizontal
 * move, and a vertical one passing none of the group's tiles. */
static inline uint32_t sdbi_pattern_comb_slide(uint32_t comb, uint64_t mask, int a, int b)
{
	const int j = (int)sdbi_popcount64(mask & ((1ull << a) - 1));
	return (uint32_t)(comb - sdbi_binom[a][j + 1] + sdbi_binom[b][j + 1]);
}

/* The Manhattan distance of the group's slot s from the j-th occupied cell
 * of block (cost[j][s]), and the slots of an order's tiles on the occupied
 * cells in cell order: an entry's distance is the sum over j of
 * cost[j][seq[j]]. */
void sdbi_pattern_cell_costs(const sdb_pattern *p, uint64_t block,
                             uint8_t cost[SDB_MAX_PATTERN][SDB_MAX_PATTERN]);
void sdbi_pattern_order_slots(const sdb_pattern *p, uint64_t order, uint8_t *seq);

/* One move of a group tile from a block, for a reader of every entry (a
 * proof): the block it leads to (to), its column in the rank changes of
 * sdbi_pattern_deltas(), the moving tile's place among the occupied cells
 * (j), and by slot s the change of the Manhattan distance when the tile in
 * place j is slot s. The neighbour of the block's entry of order q is
 * sdbi_pattern_join(p, to, q + deltas[q * cols + col]). */
typedef struct sdbi_pattern_move {
	uint32_t to;
	uint8_t col, j;
	int8_t dmd[SDB_MAX_PATTERN];
} sdbi_pattern_move;
/* The moves of block (at most 4k, in sdb_pattern_neighbors()'s order) into
 * mv; how many. Any blank mode: a min-mode block's moves go to every free
 * cell beside a tile. */
int sdbi_pattern_moves(const sdb_pattern *p, uint32_t block, sdbi_pattern_move *mv);
/* The rank change of every order for every column (k! rows of *cols), kept
 * with the pattern (built by its first caller); NULL when memory is short. */
const int32_t *sdbi_pattern_deltas(const sdb_pattern *p, int *cols);

/* Rank of a board's pattern when the cells of the group's tiles (mask) are
 * known: O(k) instead of O(n). */
uint64_t sdbi_pattern_rank_mask(const sdb_pattern *p, const sdb_board *b, uint64_t mask);

#endif
