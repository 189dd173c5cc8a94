/* SPDX-License-Identifier: MIT */
/* Index spaces of pattern groups: where k tiles are, and (region mode) which
 * region of the other cells holds the blank.
 *
 * An entry's index is block * k! + perm. The block numbers the sets of
 * occupied cells (colex rank of the cell mask) and, in region mode, the
 * regions of each set's complement; the k! orders of the group's tiles on
 * the occupied cells (taken in ascending cell order) are ranked by their
 * Lehmer code. Regions depend only on the set of occupied cells, so they are
 * tabled once per set, and only for the sets that split the other cells:
 * every set whose other cells are connected shares row 0 (all region 0),
 * which keeps the region mode cheap on boards up to 8x8. On boards of up to
 * 16 cells each set's regions are packed in its word instead (pack_regions). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "puzzle/puzzle.h"

enum { MAX_CELLS = SDB_MAX_CELLS, K = SDB_MAX_PATTERN, NO_REGION = 0xff, PACKED_CELLS = 16 };

/* Largest index space a pattern may have: its sets of cells are numbered in
 * 32 bits, and its entries must fit a table (a terabyte of them). */
#define MAX_COMBS 0xffffffffull
#define MAX_ENTRIES (1ull << 40)

uint64_t sdbi_binom[SDB_MAX_CELLS + 1][SDB_MAX_PATTERN + 2];
uint8_t sdbi_popcount8[256];
static uint8_t select8[256][8];   /* position of the k-th set bit of a byte (k <= 8 tiles) */
static uint16_t colex16[1 << 16];  /* colex rank of each 16-bit mask: builds of up to 16 cells */

/* Rank of a set of cells among the sets of as many cells, in colex order:
 * the i-th cell c (from 0) adds c choose i+1. */
static inline uint32_t colex_rank(uint64_t mask)
{
	uint64_t r = 0;
	for (int i = 1; mask; mask &= mask - 1, i++)
		r += sdbi_binom[__builtin_ctzll(mask)][i];
	return (uint32_t)r;
}

static void pattern_tables_init(void)
{
	for (int a = 0; a <= MAX_CELLS; a++) {
		sdbi_binom[a][0] = 1;
		for (int b = 1; b <= K + 1; b++)
			sdbi_binom[a][b] = a ? sdbi_binom[a - 1][b - 1] + sdbi_binom[a - 1][b] : 0;
	}
	for (uint32_t mask = 0; mask < 1u << 16; mask++)   /* (groups have at most K tiles) */
		colex16[mask] = sdbi_popcount16(mask) <= K ? (uint16_t)colex_rank(mask) : 0;
	for (int x = 0; x < 256; x++) {
		sdbi_popcount8[x] = (uint8_t)sdbi_popcount16((unsigned)x);
		for (int bit = 0, k = 0; bit < 8; bit++)
			if (x >> bit & 1)
				select8[x][k++] = (uint8_t)bit;
	}
}

static inline uint32_t div_by(uint32_t x, uint32_t d, uint64_t rec)
{
	return d == 1 ? x : (uint32_t)(((unsigned __int128)rec * x) >> 64);
}

/* Lehmer rank of the group's tiles in ascending cell order. */
static inline uint32_t perm_rank(const sdb_pattern *p, const uint8_t *seq)
{
	unsigned seen = 0;
	uint32_t r = 0;
	for (int j = 0; j < p->k; j++) {
		unsigned s = seq[j];
		r += (s - sdbi_popcount16(seen & ((1u << s) - 1))) * p->fact[p->k - 1 - j];
		seen |= 1u << s;
	}
	return r;
}

/* The order of the group's tiles (seq) and their Lehmer digits for rank r. */
static inline void perm_unrank(const sdb_pattern *p, uint32_t r, uint8_t *seq, uint8_t *digit)
{
	unsigned unseen = (1u << p->k) - 1;
	for (int j = 0; j < p->k && j < K; j++) {
		uint32_t f = p->fact[p->k - 1 - j];
		uint32_t d = div_by(r, f, p->recip[p->k - 1 - j]);
		r -= d * f;
		unsigned s = select8[unseen][d];
		seq[j] = (uint8_t)s;
		digit[j] = (uint8_t)d;
		unseen &= ~(1u << s);
	}
}

/* Rank change when the tile at sorted position j moves to position q and the
 * tiles between shift one place towards j: their digits gain (or lose) the
 * moved tile, the moved tile's digit loses (or gains) the smaller of them. */
static inline int32_t move_delta(const sdb_pattern *p, const uint8_t *seq, const uint8_t *digit,
                                 int j, int q)
{
	const uint32_t *f = p->fact;
	const int last = p->k - 1;
	const unsigned t = seq[j];
	int32_t delta = 0;
	int passed_smaller = 0;
	if (q > j) {
		for (int i = j + 1; i <= q; i++) {
			delta += (int32_t)((digit[i] + (t < seq[i])) * f[last - (i - 1)]) -
			         (int32_t)(digit[i] * f[last - i]);
			passed_smaller += seq[i] < t;
		}
		delta += (int32_t)((digit[j] - passed_smaller) * f[last - q]) - (int32_t)(digit[j] * f[last - j]);
	} else {
		for (int i = q; i < j; i++) {
			delta += (int32_t)((digit[i] - (t < seq[i])) * f[last - (i + 1)]) -
			         (int32_t)(digit[i] * f[last - i]);
			passed_smaller += seq[i] < t;
		}
		delta += (int32_t)((digit[j] + passed_smaller) * f[last - q]) - (int32_t)(digit[j] * f[last - j]);
	}
	return delta;
}

/* Label regions of the cells not in mask; returns how many. */
static int label_regions(const sdb_pattern *p, uint64_t mask, uint8_t *region_of)
{
	int regions = 0;
	for (int c = 0; c < p->n; c++)
		region_of[c] = (mask >> c & 1) ? NO_REGION : 0xfe;
	for (int c = 0; c < p->n; c++) {
		if (region_of[c] != 0xfe)
			continue;
		int stack[MAX_CELLS], top = 0;
		stack[top++] = c;
		region_of[c] = (uint8_t)regions;
		while (top) {
			int x = stack[--top];
			for (int m = 0; m < 4; m++) {
				int y = p->nbr[x][m];
				if (y >= 0 && region_of[y] == 0xfe) {
					region_of[y] = (uint8_t)regions;
					stack[top++] = y;
				}
			}
		}
		regions++;
	}
	return regions;
}

static inline uint64_t block_index(const sdb_pattern *p, uint32_t comb, int blank)
{
	return sdbi_pattern_block(p, comb, blank);
}

/* A search reads a child's block from comb_block and region_rows, two
 * reads in a chain, the second waiting on the first, in tables of a few
 * megabytes that miss the caches (on 5x5 with groups of 6, 1.4 and 1.6 MB).
 * Packed, the chain goes:
 * - SDBI_REGIONS_IN_WORD: on boards of up to 16 cells with under 2^16
 *   blocks (every pattern on 4x4) a set's regions fit its comb_block word:
 *   the first block in the low 16 bits, then 3 bits per cell, the region of
 *   a free cell (0 for an occupied one, where the blank never is). One read.
 * - SDBI_REGIONS_BY_CELL: on boards of up to 31 cells, the region of each
 *   cell in 2 bits of the comb_block word and the first block in comb_first:
 *   two reads side by side. A set of more than 4 regions (on 5x5 with 6
 *   tiles 5 at most, in 12 sets of 177,100) keeps its row: bit 63 and the
 *   row's start.
 * Other patterns keep the rows. */
static int pack_regions(sdb_pattern *p)
{
	if (p->mode != SDB_BLANK_REGION || p->n > 31)
		return SDB_OK;
	int in_word = p->n <= PACKED_CELLS && p->nblocks <= 0xffff, rows_read = 0;
	for (uint32_t comb = 0; comb < p->ncomb && in_word; comb++) {
		const uint8_t *r_of = p->region_rows + (p->comb_block[comb] >> 32);
		for (int c = 0; c < p->n; c++)
			if (r_of[c] != NO_REGION && r_of[c] > 7)
				in_word = 0;
	}
	if (!in_word && !(p->comb_first = malloc(p->ncomb * sizeof *p->comb_first)))
		return SDB_ENOMEM;
	const int shift = in_word ? 16 : 0, bits = in_word ? 3 : 2;
	for (uint32_t comb = 0; comb < p->ncomb; comb++) {
		const uint64_t row = p->comb_block[comb] >> 32;
		const uint8_t *r_of = p->region_rows + row;
		uint64_t word = in_word ? (uint32_t)p->comb_block[comb] : 0;
		int many = 0;
		for (int c = 0; c < p->n; c++)
			if (r_of[c] != NO_REGION) {
				word |= (uint64_t)r_of[c] << (shift + bits * c);
				many |= r_of[c] > 3;
			}
		if (!in_word) {
			p->comb_first[comb] = (uint32_t)p->comb_block[comb];
			if (many)
				word = 1ull << 63 | row;
			rows_read |= many;
		}
		p->comb_block[comb] = word;
	}
	if (!rows_read) {
		free(p->region_rows);
		p->region_rows = NULL;
	}
	p->regions_packed = in_word ? SDBI_REGIONS_IN_WORD : SDBI_REGIONS_BY_CELL;
	return SDB_OK;
}

/* The sets of k cells in colex order (Gosper's successor: the next larger
 * number with as many bits), their regions and blocks. */
static int build_tables(sdb_pattern *p)
{
	const uint64_t full = p->n == 64 ? ~0ull : (1ull << p->n) - 1;
	uint64_t ncomb = sdbi_binom[p->n][p->k];
	if (ncomb > MAX_COMBS || ncomb * p->kfact > MAX_ENTRIES)
		return SDB_ETOOBIG;
	p->ncomb = (uint32_t)ncomb;
	p->comb_mask = malloc(ncomb * sizeof *p->comb_mask);
	p->comb_block = malloc(ncomb * sizeof *p->comb_block);
	size_t rows_cap = 64;
	p->region_rows = calloc(rows_cap, (size_t)p->n);
	if (!p->comb_mask || !p->comb_block || !p->region_rows)
		return SDB_ENOMEM;
	uint32_t nrows = 1;   /* row 0: every free cell in region 0 */
	uint8_t row[MAX_CELLS];
	uint64_t nblocks = 0, mask = (1ull << p->k) - 1;
	for (uint32_t comb = 0; comb < p->ncomb; comb++) {
		p->comb_mask[comb] = mask;
		int regions = label_regions(p, mask, row);
		uint64_t row_start = 0;
		if (regions > 1 && p->mode == SDB_BLANK_REGION) {
			if (nrows == rows_cap) {
				uint8_t *more = realloc(p->region_rows, 2 * rows_cap * (size_t)p->n);
				if (!more)
					return SDB_ENOMEM;
				p->region_rows = more;
				rows_cap *= 2;
			}
			row_start = (uint64_t)nrows++ * (uint64_t)p->n;
			memcpy(p->region_rows + row_start, row, (size_t)p->n);
		}
		p->comb_block[comb] = nblocks | row_start << 32;
		nblocks += p->mode == SDB_BLANK_REGION ? (uint32_t)regions : 1;
		if (nblocks > UINT32_MAX || row_start > UINT32_MAX - MAX_CELLS)
			return SDB_ETOOBIG;
		uint64_t low = mask & -mask, up = mask + low;   /* Gosper's hack */
		mask = up | (((mask ^ up) >> 2) / low);
	}
	p->nblocks = (uint32_t)nblocks;
	p->block_comb = malloc(nblocks * sizeof *p->block_comb);
	p->block_cells = malloc(nblocks * sizeof *p->block_cells);
	p->block_region = malloc(nblocks);
	if (!p->block_comb || !p->block_cells || !p->block_region)
		return SDB_ENOMEM;
	for (uint32_t comb = 0; comb < p->ncomb; comb++) {
		uint32_t b0 = (uint32_t)p->comb_block[comb];
		uint32_t nb = (comb + 1 < p->ncomb ? (uint32_t)p->comb_block[comb + 1] : p->nblocks) - b0;
		const uint8_t *r_of = p->region_rows + (p->comb_block[comb] >> 32);
		for (uint32_t r = 0; r < nb; r++) {
			uint64_t cells = 0;
			for (int c = 0; c < p->n; c++)
				if (!(p->comb_mask[comb] >> c & 1) && r_of[c] == r)
					cells |= 1ull << c;
			p->block_comb[b0 + r] = comb;
			p->block_region[b0 + r] = (uint8_t)r;
			p->block_cells[b0 + r] = p->mode == SDB_BLANK_REGION ? cells
			                         : (~p->comb_mask[comb] & full);
		}
	}
	return pack_regions(p);
}

/* The tables build_tables() makes depend on the board, the group's size and
 * the blank mode, not on its tiles: the four groups of 6-6-6-6 would build
 * the same ones four times (0.12 of the 0.17 s a 5x5 search spends before
 * its first node). A process builds each shape's once; its patterns share
 * them, and the last to go frees them. */
struct sdbi_pattern_shape {
	struct sdbi_pattern_shape *next;
	unsigned refs;
	sdb_pattern tables;   /* the key (w, h, k, mode) and the fields from ncomb to
	                         block_region; nothing else */
};
static pthread_mutex_t shapes_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sdbi_pattern_shape *shapes;

static void copy_tables(sdb_pattern *to, const sdb_pattern *from)
{
	to->w = from->w;
	to->h = from->h;
	to->k = from->k;
	to->mode = from->mode;
	to->ncomb = from->ncomb;
	to->nblocks = from->nblocks;
	to->comb_mask = from->comb_mask;
	to->comb_block = from->comb_block;
	to->comb_first = from->comb_first;
	to->region_rows = from->region_rows;
	to->regions_packed = from->regions_packed;
	to->block_comb = from->block_comb;
	to->block_cells = from->block_cells;
	to->block_region = from->block_region;
}

static void free_tables(sdb_pattern *p)
{
	free(p->comb_mask);
	free(p->comb_block);
	free(p->comb_first);
	free(p->region_rows);
	free(p->block_comb);
	free(p->block_cells);
	free(p->block_region);
}

/* p's tables: its shape's, built now if no pattern of the process has them. */
static int share_tables(sdb_pattern *p)
{
	int err = SDB_OK;
	pthread_mutex_lock(&shapes_lock);
	struct sdbi_pattern_shape *s = shapes;
	while (s && (s->tables.w != p->w || s->tables.h != p->h || s->tables.k != p->k ||
	             s->tables.mode != p->mode))
		s = s->next;
	if (!s) {
		err = build_tables(p);   /* on failure p keeps what it built, for sdb_pattern_free */
		if (!err && !(s = calloc(1, sizeof *s)))
			err = SDB_ENOMEM;
		if (!err) {
			copy_tables(&s->tables, p);
			s->next = shapes;
			shapes = s;
		}
	}
	if (!err) {
		copy_tables(p, &s->tables);
		s->refs++;
		p->shape = s;
	}
	pthread_mutex_unlock(&shapes_lock);
	return err;
}

int sdb_pattern_new(sdb_pattern **out, const sdb_board *goal, uint64_t tiles, int blank_mode)
{
	*out = NULL;
	int n = goal->n, k = (int)sdbi_popcount64(tiles);
	if (tiles == 0 || (n < 64 && tiles >> n) || (tiles & 1) || k > K)
		return sdbi_fail(SDB_EINVAL, "a pattern group has 1 to %d tiles of the board "
		                "(1..%d)", K, n - 1);
	if (blank_mode != SDB_BLANK_REGION && blank_mode != SDB_BLANK_MIN)
		return sdbi_fail(SDB_EINVAL, "unknown blank mode %d", blank_mode);
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, pattern_tables_init);
	sdb_pattern *p = calloc(1, sizeof *p);
	if (!p || !(p->kept = calloc(1, sizeof *p->kept))) {
		free(p);
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	}
	p->w = goal->w;
	p->h = goal->h;
	p->n = n;
	p->k = k;
	p->mode = blank_mode;
	p->tiles = tiles;
	memset(p->slot, -1, sizeof p->slot);
	for (int t = 1, s = 0; t < n; t++)
		if (tiles >> t & 1)
			p->slot[t] = (int8_t)s++;
	for (int c = 0; c < n; c++) {
		int x = c % p->w, y = c / p->w;
		p->nbr[c][SDB_UP] = (int8_t)(y > 0 ? c - p->w : -1);
		p->nbr[c][SDB_DOWN] = (int8_t)(y < p->h - 1 ? c + p->w : -1);
		p->nbr[c][SDB_LEFT] = (int8_t)(x > 0 ? c - 1 : -1);
		p->nbr[c][SDB_RIGHT] = (int8_t)(x < p->w - 1 ? c + 1 : -1);
	}
	p->fact[0] = 1;
	for (int i = 1; i <= K; i++) {
		p->fact[i] = p->fact[i - 1] * (uint32_t)i;
		p->recip[i] = UINT64_MAX / p->fact[i] + 1;
	}
	p->kfact = p->fact[k];
	int err = share_tables(p);
	p->layout = SDB_LAYOUT_BLOCKS;
	p->block_mul = p->kfact;
	p->order_mul = 1;
	if (err != SDB_OK) {
		sdb_pattern_free(p);
		if (err == SDB_ETOOBIG)
			return sdbi_fail(SDB_ETOOBIG, "a group of %d tiles on %d cells has too many "
			                "entries for a table (%d cells choose %d, times %d!)", k, n, n, k, k);
		return sdbi_fail(SDB_ENOMEM, "out of memory for the pattern's tables");
	}
	for (int c = 0; c < n; c++)
		if (p->slot[goal->cell[c]] >= 0)
			p->goal_cell[p->slot[goal->cell[c]]] = (uint8_t)c;
	p->goal_index = sdb_pattern_rank(p, goal);
	*out = p;
	return SDB_OK;
}

void sdb_pattern_free(sdb_pattern *p)
{
	if (!p)
		return;
	struct sdbi_pattern_shape *s = p->shape;
	if (!s) {
		free_tables(p);
	} else {
		pthread_mutex_lock(&shapes_lock);
		if (!--s->refs) {
			struct sdbi_pattern_shape **at = &shapes;
			while (*at != s)
				at = &(*at)->next;
			*at = s->next;
			free_tables(&s->tables);
			free(s);
		}
		pthread_mutex_unlock(&shapes_lock);
	}
	if (p->kept)
		free(p->kept->delta);
	free(p->kept);
	free(p);
}

uint64_t sdb_pattern_size(const sdb_pattern *p)
{
	return (uint64_t)p->nblocks * p->kfact;
}

uint64_t sdb_pattern_goal_index(const sdb_pattern *p)
{
	return p->goal_index;
}

/* An index's block and order, in the pattern's layout. */
static inline void index_split(const sdb_pattern *p, uint64_t index, uint32_t *block,
                               uint32_t *order)
{
	if (p->layout == SDB_LAYOUT_ORDERS) {
		*order = (uint32_t)(index / p->nblocks);
		*block = (uint32_t)(index - (uint64_t)*order * p->nblocks);
	} else {
		*block = (uint32_t)(index / p->kfact);
		*order = (uint32_t)(index - (uint64_t)*block * p->kfact);
	}
}

static inline uint64_t index_join(const sdb_pattern *p, uint64_t block, uint64_t order)
{
	return sdbi_pattern_join(p, block, order);
}

int sdb_pattern_set_layout(sdb_pattern *p, int layout)
{
	if (layout != SDB_LAYOUT_BLOCKS && layout != SDB_LAYOUT_ORDERS)
		return sdbi_fail(SDB_EINVAL, "unknown pattern layout %d", layout);
	uint32_t block, order;
	index_split(p, p->goal_index, &block, &order);
	p->layout = layout;
	p->block_mul = layout == SDB_LAYOUT_ORDERS ? 1 : p->kfact;
	p->order_mul = layout == SDB_LAYOUT_ORDERS ? p->nblocks : 1;
	p->goal_index = index_join(p, block, order);
	return SDB_OK;
}

int sdb_pattern_layout(const sdb_pattern *p)
{
	return p->layout;
}

int sdb_table_layout(const sdb_table_info *in)
{
	return in->kind == SDB_KIND_PATTERN && in->format_version >= 6 ? SDB_LAYOUT_ORDERS
	                                                               : SDB_LAYOUT_BLOCKS;
}

int sdb_pattern_of_table(sdb_pattern **out, const sdb_table_info *in)
{
	int err = sdb_pattern_new(out, &in->goal, in->pattern, in->blank_mode);
	if (!err)
		sdb_pattern_set_layout(*out, sdb_table_layout(in));
	return err;
}

uint64_t sdbi_pattern_rank_mask(const sdb_pattern *p, const sdb_board *b, uint64_t mask)
{
	return sdbi_pattern_rank_cells(p, b->cell, mask, b->blank);
}

int sdb_pattern_manhattan(const sdb_pattern *p, uint64_t index)
{
	uint32_t block, perm;
	index_split(p, index, &block, &perm);
	uint8_t seq[K], digit[K];
	perm_unrank(p, perm, seq, digit);
	int md = 0, j = 0;
	for (uint64_t rest = p->comb_mask[p->block_comb[block]]; rest && j < K; rest &= rest - 1) {
		int c = __builtin_ctzll(rest), g = p->goal_cell[seq[j++]];
		md += abs(c % p->w - g % p->w) + abs(c / p->w - g / p->w);
	}
	return md;
}

/* Lexicographic orders of the tiles on the block's cells, depth first: the
 * k! entries in index order, with the Manhattan distance summed on the way. */
static void block_md(const sdb_pattern *p, const uint8_t cost[K][K], int j, unsigned unseen,
                     int md, uint8_t **out)
{
	if (j == p->k) {
		*(*out)++ = (uint8_t)md;
		return;
	}
	if (j == p->k - 2) {   /* the last two tiles in both orders, without two more calls a leaf */
		const int a = __builtin_ctz(unseen), b = __builtin_ctz(unseen & (unseen - 1));
		*(*out)++ = (uint8_t)(md + cost[j][a] + cost[j + 1][b]);
		*(*out)++ = (uint8_t)(md + cost[j][b] + cost[j + 1][a]);
		return;
	}
	for (unsigned rest = unseen; rest; rest &= rest - 1) {
		int s = __builtin_ctz(rest);
		block_md(p, cost, j + 1, unseen & ~(1u << s), md + cost[j][s], out);
	}
}

uint64_t sdb_pattern_blocks(const sdb_pattern *p)
{
	return p->nblocks;
}

void sdbi_pattern_cell_costs(const sdb_pattern *p, uint64_t block, uint8_t cost[K][K])
{
	int j = 0;
	for (uint64_t rest = p->comb_mask[p->block_comb[block]]; rest && j < K; rest &= rest - 1, j++) {
		int c = __builtin_ctzll(rest);
		for (int s = 0; s < p->k; s++) {
			int g = p->goal_cell[s];
			cost[j][s] = (uint8_t)(abs(c % p->w - g % p->w) + abs(c / p->w - g / p->w));
		}
	}
}

void sdbi_pattern_order_slots(const sdb_pattern *p, uint64_t order, uint8_t *seq)
{
	uint8_t digit[K];
	perm_unrank(p, (uint32_t)order, seq, digit);
}

void sdb_pattern_block_manhattan(const sdb_pattern *p, uint64_t block, uint8_t *md)
{
	uint8_t cost[K][K];
	sdbi_pattern_cell_costs(p, block, cost);
	block_md(p, cost, 0, (1u << p->k) - 1, 0, &md);
}

int sdb_pattern_region(const sdb_pattern *p, uint64_t index)
{
	uint32_t block, order;
	index_split(p, index, &block, &order);
	return p->mode == SDB_BLANK_REGION ? p->block_region[block] : 0;
}

uint64_t sdb_pattern_rank(const sdb_pattern *p, const sdb_board *b)
{
	uint8_t seq[K];
	uint64_t mask = 0;
	int j = 0;
	for (int c = 0; c < p->n; c++) {
		int s = p->slot[b->cell[c]];
		if (s >= 0) {
			mask |= 1ull << c;
			seq[j++] = (uint8_t)s;
		}
	}
	return index_join(p, block_index(p, colex_rank(mask), b->blank), perm_rank(p, seq));
}

/* The moves of the tiles of a block, the same for every order of them: for
 * each, the block it leads to (to), the moving tile's
 * place among the occupied cells (j), its place after (q) and, when e_of is
 * not NULL, the cell it lands on. In the order of the occupied cells, then
 * of enum sdb_move. */
static int block_moves(const sdb_pattern *p, uint32_t block, uint64_t *to, uint8_t *j_of,
                       uint8_t *q_of, uint8_t *e_of)
{
	const uint32_t comb = p->block_comb[block];
	const uint64_t mask = p->comb_mask[comb], region = p->block_cells[block];
	int count = 0;
	uint64_t rest = mask;
	for (int j = 0; j < p->k; j++, rest &= rest - 1) {
		int a = __builtin_ctzll(rest);   /* the j-th occupied cell */
		for (int m = 0; m < 4; m++) {
			int e = p->nbr[a][m];
			if (e < 0 || !(region >> e & 1))
				continue;
			/* The tile steps from a to e, the blank is left at a. Its place
			 * among the occupied cells goes from j to q, and the cells it
			 * passes (a vertical move's) shift one place the other way: the
			 * colex rank changes by those terms only. */
			uint64_t nmask = (mask ^ (1ull << a)) | (1ull << e);
			int q = (int)sdbi_popcount64(nmask & ((1ull << e) - 1));
			int64_t colex = (int64_t)comb - (int64_t)sdbi_binom[a][j + 1] +
			                (int64_t)sdbi_binom[e][q + 1];
			if (p->n <= 16) {
				colex = colex16[nmask];
			} else if (q != j) {
				const int lo = a < e ? a : e, hi = a < e ? e : a, up = e > a;
				uint64_t passed = mask & ~((2ull << lo) - 1) & ((1ull << hi) - 1);
				for (int i = up ? j + 1 : q; passed; passed &= passed - 1, i++) {
					const int c = __builtin_ctzll(passed);
					colex += up ? (int64_t)sdbi_binom[c][i] - (int64_t)sdbi_binom[c][i + 1]
					            : (int64_t)sdbi_binom[c][i + 2] - (int64_t)sdbi_binom[c][i + 1];
				}
			}
			to[count] = block_index(p, (uint32_t)colex, a);
			if (e_of)
				e_of[count] = (uint8_t)e;
			j_of[count] = (uint8_t)j;
			q_of[count++] = (uint8_t)q;
		}
	}
	return count;
}

int sdb_pattern_neighbors(const sdb_pattern *p, uint64_t index, uint64_t *out)
{
	if (p->mode != SDB_BLANK_REGION || index >= sdb_pattern_size(p))
		return sdbi_fail(SDB_EINVAL, "pattern index %llu out of range",
		                (unsigned long long)index);
	uint32_t block, perm;
	index_split(p, index, &block, &perm);
	uint8_t seq[K], digit[K], j[4 * K], q[4 * K];
	perm_unrank(p, perm, seq, digit);
	const int count = block_moves(p, block, out, j, q, NULL);
	for (int i = 0; i < count; i++)
		out[i] = index_join(p, out[i], (uint32_t)((int32_t)perm +
		                    (q[i] == j[i] ? 0 : move_delta(p, seq, digit, j[i], q[i]))));
	return count;
}

/* A move's column in the table of rank changes: 0 when the order of the
 * tiles keeps its rank (q == j), else 1 + one of the k(k-1) pairs (j, q). */
static inline int delta_column(const sdb_pattern *p, int j, int q)
{
	return q == j ? 0 : 1 + j * (p->k - 1) + (q < j ? q : q - 1);
}

static inline int delta_columns(const sdb_pattern *p)
{
	return p->k * (p->k - 1) + 1;
}

/* The rank change of every order of the tiles for every (j, q): k! rows of
 * k(k-1) + 1 columns (9.2 MB for 8 tiles), built by the first walk and
 * kept with the pattern. NULL if memory is short (walks then compute). */
static const int32_t *delta_table(const sdb_pattern *p)
{
	int32_t *d = __atomic_load_n(&p->kept->delta, __ATOMIC_ACQUIRE);
	if (d)
		return d;
	const int cols = delta_columns(p);
	if (!(d = malloc((size_t)p->kfact * (size_t)cols * sizeof *d)))
		return NULL;
	uint8_t seq[K], digit[K];
	for (uint32_t perm = 0; perm < p->kfact; perm++) {
		int32_t *row = d + (size_t)perm * (size_t)cols;
		perm_unrank(p, perm, seq, digit);
		row[0] = 0;
		for (int j = 0; j < p->k; j++)
			for (int q = 0; q < p->k; q++)
				if (q != j)
					row[delta_column(p, j, q)] = move_delta(p, seq, digit, j, q);
	}
	int32_t *none = NULL;   /* another thread may have built it meanwhile */
	if (!__atomic_compare_exchange_n(&p->kept->delta, &none, d, 0, __ATOMIC_ACQ_REL,
	                                 __ATOMIC_ACQUIRE)) {
		free(d);
		d = none;
	}
	return d;
}

int sdb_pattern_walk_init(sdb_pattern_walk *w, const sdb_pattern *p)
{
	memset(w, 0, sizeof *w);
	if (p->mode != SDB_BLANK_REGION || p->layout != SDB_LAYOUT_BLOCKS)
		return sdbi_fail(SDB_EINVAL, "a walk needs a pattern of blank mode region, in "
		                "layout blocks");
	w->p = p;
	w->delta = delta_table(p);
	w->cols = delta_columns(p);
	w->first = 0 - (uint64_t)p->kfact;   /* no block: index - first >= k! for every index */
	return SDB_OK;
}

int sdb_pattern_walk_neighbors(sdb_pattern_walk *w, uint64_t index, uint64_t *out)
{
	const sdb_pattern *p = w->p;
	uint64_t perm = index - w->first;
	if (perm >= p->kfact) {   /* another block (or the first) */
		if (index >= sdb_pattern_size(p))
			return sdbi_fail(SDB_EINVAL, "pattern index %llu out of range",
			                (unsigned long long)index);
		const uint32_t block = (uint32_t)(index / p->kfact);
		uint8_t j[4 * K], q[4 * K];
		w->moves = block_moves(p, block, w->to, j, q, NULL);
		for (int i = 0; i < w->moves; i++) {
			w->to[i] *= p->kfact;   /* the block's first index (layout blocks) */
			w->col[i] = (uint8_t)delta_column(p, j[i], q[i]);
		}
		w->first = (uint64_t)block * p->kfact;
		perm = index - w->first;
	}
	if (!w->delta)
		return sdb_pattern_neighbors(p, index, out);
	const int32_t *row = w->delta + perm * (uint64_t)w->cols;
	for (int i = 0; i < w->moves; i++)
		out[i] = w->to[i] + (uint64_t)((int64_t)perm + row[w->col[i]]);
	return w->moves;
}

uint64_t sdb_pattern_min_index(const sdb_pattern *p, uint64_t index)
{
	uint32_t block, order;
	index_split(p, index, &block, &order);
	return p->layout == SDB_LAYOUT_ORDERS ? (uint64_t)order * p->ncomb + p->block_comb[block]
	                                      : (uint64_t)p->block_comb[block] * p->kfact + order;
}

const int32_t *sdbi_pattern_deltas(const sdb_pattern *p, int *cols)
{
	*cols = delta_columns(p);
	return delta_table(p);
}

static inline int cell_distance(const sdb_pattern *p, int a, int b)
{
	return abs(a % p->w - b % p->w) + abs(a / p->w - b / p->w);
}

int sdbi_pattern_moves(const sdb_pattern *p, uint32_t block, sdbi_pattern_move *mv)
{
	uint64_t to[4 * K];
	uint8_t j[4 * K], q[4 * K], e[4 * K];
	const int count = block_moves(p, block, to, j, q, e);
	uint64_t rest = p->comb_mask[p->block_comb[block]];
	int from[K];
	for (int x = 0; x < p->k; x++, rest &= rest - 1)
		from[x] = __builtin_ctzll(rest);
	for (int i = 0; i < count; i++) {
		mv[i].to = (uint32_t)to[i];
		mv[i].col = (uint8_t)delta_column(p, j[i], q[i]);
		mv[i].j = j[i];
		for (int s = 0; s < p->k; s++)
			mv[i].dmd[s] = (int8_t)(cell_distance(p, e[i], p->goal_cell[s]) -
			                        cell_distance(p, from[j[i]], p->goal_cell[s]));
	}
	return count;
}
