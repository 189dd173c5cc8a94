/* Index spaces of pattern groups: where k tiles are, and (region mode) which
 * region of the other cells holds the blank.
 *
 * An entry's index is block * k! + perm. The block numbers the sets of
 * occupied cells (colex rank of the cell mask) and, in region mode, the
 * regions of each set's complement; the k! orders of the group's tiles on
 * the occupied cells (taken in ascending cell order) are ranked by their
 * Lehmer code. Regions depend only on the set of occupied cells, so they are
 * tabled once per set: the region mode costs one small table, not an entry
 * per blank cell. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "puzzle/puzzle.h"

enum { MAX_CELLS = SDB_MAX_CELLS, K = SDB_MAX_PATTERN, NO_REGION = 0xff };

static uint16_t colex_rank[1 << MAX_CELLS];   /* among masks of equal popcount */
static uint8_t select8[256][8];   /* position of the k-th set bit of a byte (k <= 8 tiles) */

struct sdb_pattern {
	int w, h, n, k, mode;
	uint32_t tiles;
	int8_t slot[MAX_CELLS];          /* tile -> its number in the group, or -1 */
	int8_t nbr[MAX_CELLS][4];        /* cell -> neighbour cell per move, or -1 */
	uint32_t fact[K + 1];            /* fact[i] = i! */
	uint64_t recip[K + 1];           /* ceil(2^64 / i!) for i >= 2 */
	uint32_t kfact;
	uint32_t ncomb, nblocks;
	uint16_t *comb_mask;             /* comb -> occupied cells */
	uint32_t *comb_block;            /* comb -> its first block */
	uint8_t *region_of;              /* comb * n + cell -> region, NO_REGION if occupied */
	uint16_t *block_comb;            /* block -> comb */
	uint16_t *block_cells;           /* block -> cells of its region (region mode) */
	uint8_t *block_region;           /* block -> region number */
	uint64_t goal_index;
	uint8_t goal_cell[K];            /* slot -> the cell of that tile in the goal */
};

/* Built on first use, not at load: 64K masks cost a millisecond that programs
 * answering one full-table query should not pay at start. */
static void pattern_tables_init(void)
{
	uint32_t binom[MAX_CELLS + 1][MAX_CELLS + 2] = { { 0 } };
	for (int a = 0; a <= MAX_CELLS; a++) {
		binom[a][0] = 1;
		for (int b = 1; b <= a; b++)
			binom[a][b] = binom[a - 1][b - 1] + (b <= a - 1 ? binom[a - 1][b] : 0);
	}
	for (uint32_t mask = 0; mask < (1u << MAX_CELLS); mask++) {
		uint32_t r = 0;
		int i = 0;
		for (int c = 0; c < MAX_CELLS; c++)
			if (mask >> c & 1) {
				i++;
				r += c >= i ? binom[c][i] : 0;
			}
		colex_rank[mask] = (uint16_t)r;
	}
	for (int x = 0; x < 256; x++)
		for (int bit = 0, k = 0; bit < 8; bit++)
			if (x >> bit & 1)
				select8[x][k++] = (uint8_t)bit;
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
static int label_regions(const sdb_pattern *p, uint16_t mask, uint8_t *region_of)
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

static uint64_t block_index(const sdb_pattern *p, uint32_t comb, int blank)
{
	return p->mode == SDB_BLANK_REGION ? p->comb_block[comb] + p->region_of[comb * p->n + blank]
	                                   : comb;
}

static int build_tables(sdb_pattern *p)
{
	uint32_t full = (1u << p->n) - 1;
	for (uint32_t mask = 0; mask <= full; mask++)
		if ((int)sdbi_popcount16(mask) == p->k)
			p->ncomb++;
	p->comb_mask = malloc(p->ncomb * sizeof *p->comb_mask);
	p->comb_block = malloc(p->ncomb * sizeof *p->comb_block);
	p->region_of = malloc((size_t)p->ncomb * (size_t)p->n);
	if (!p->comb_mask || !p->comb_block || !p->region_of)
		return SDB_ENOMEM;
	for (uint32_t mask = 0; mask <= full; mask++)
		if ((int)sdbi_popcount16(mask) == p->k)
			p->comb_mask[colex_rank[mask]] = (uint16_t)mask;
	for (uint32_t comb = 0; comb < p->ncomb; comb++) {
		int regions = label_regions(p, p->comb_mask[comb], p->region_of + comb * p->n);
		p->comb_block[comb] = p->nblocks;
		p->nblocks += p->mode == SDB_BLANK_REGION ? (uint32_t)regions : 1;
	}
	p->block_comb = malloc(p->nblocks * sizeof *p->block_comb);
	p->block_cells = malloc(p->nblocks * sizeof *p->block_cells);
	p->block_region = malloc(p->nblocks);
	if (!p->block_comb || !p->block_cells || !p->block_region)
		return SDB_ENOMEM;
	for (uint32_t comb = 0; comb < p->ncomb; comb++) {
		uint32_t b0 = p->comb_block[comb];
		uint32_t nb = (comb + 1 < p->ncomb ? p->comb_block[comb + 1] : p->nblocks) - b0;
		for (uint32_t r = 0; r < nb; r++) {
			uint16_t cells = 0;
			for (int c = 0; c < p->n; c++)
				if (p->region_of[comb * p->n + c] == r)
					cells |= (uint16_t)(1u << c);
			p->block_comb[b0 + r] = (uint16_t)comb;
			p->block_region[b0 + r] = (uint8_t)r;
			p->block_cells[b0 + r] = p->mode == SDB_BLANK_REGION ? cells
			                         : (uint16_t)(~p->comb_mask[comb] & full);
		}
	}
	return SDB_OK;
}

int sdb_pattern_new(sdb_pattern **out, const sdb_board *goal, uint32_t tiles, int blank_mode)
{
	*out = NULL;
	int n = goal->n, k = (int)sdbi_popcount16(tiles & 0xffff);
	if (tiles == 0 || tiles >> n || (tiles & 1) || k > K)
		return sdbi_fail(SDB_EINVAL, "a pattern group has 1 to %d tiles of the board "
		                "(1..%d)", K, n - 1);
	if (blank_mode != SDB_BLANK_REGION && blank_mode != SDB_BLANK_MIN)
		return sdbi_fail(SDB_EINVAL, "unknown blank mode %d", blank_mode);
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, pattern_tables_init);
	sdb_pattern *p = calloc(1, sizeof *p);
	if (!p)
		return sdbi_fail(SDB_ENOMEM, "out of memory");
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
	if (build_tables(p) != SDB_OK) {
		sdb_pattern_free(p);
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
	free(p->comb_mask);
	free(p->comb_block);
	free(p->region_of);
	free(p->block_comb);
	free(p->block_cells);
	free(p->block_region);
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

uint64_t sdbi_pattern_rank_mask(const sdb_pattern *p, const sdb_board *b, unsigned mask)
{
	uint8_t seq[K];
	int j = 0;
	for (unsigned rest = mask; rest && j < K; rest &= rest - 1)
		seq[j++] = (uint8_t)p->slot[b->cell[__builtin_ctz(rest)]];
	return block_index(p, colex_rank[mask], b->blank) * p->kfact + perm_rank(p, seq);
}

int sdb_pattern_manhattan(const sdb_pattern *p, uint64_t index)
{
	uint32_t block = (uint32_t)(index / p->kfact);
	uint32_t perm = (uint32_t)(index - (uint64_t)block * p->kfact);
	uint8_t seq[K], digit[K];
	perm_unrank(p, perm, seq, digit);
	int md = 0, j = 0;
	for (unsigned rest = p->comb_mask[p->block_comb[block]]; rest && j < K; rest &= rest - 1) {
		int c = __builtin_ctz(rest), g = p->goal_cell[seq[j++]];
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
	for (unsigned rest = unseen; rest; rest &= rest - 1) {
		int s = __builtin_ctz(rest);
		block_md(p, cost, j + 1, unseen & ~(1u << s), md + cost[j][s], out);
	}
}

uint64_t sdb_pattern_blocks(const sdb_pattern *p)
{
	return p->nblocks;
}

void sdb_pattern_block_manhattan(const sdb_pattern *p, uint64_t block, uint8_t *md)
{
	uint8_t cost[K][K];
	int j = 0;
	for (unsigned rest = p->comb_mask[p->block_comb[block]]; rest && j < K; rest &= rest - 1, j++) {
		int c = __builtin_ctz(rest);
		for (int s = 0; s < p->k; s++) {
			int g = p->goal_cell[s];
			cost[j][s] = (uint8_t)(abs(c % p->w - g % p->w) + abs(c / p->w - g / p->w));
		}
	}
	block_md(p, cost, 0, (1u << p->k) - 1, 0, &md);
}

int sdb_pattern_region(const sdb_pattern *p, uint64_t index)
{
	return p->mode == SDB_BLANK_REGION ? p->block_region[index / p->kfact] : 0;
}

uint64_t sdb_pattern_rank(const sdb_pattern *p, const sdb_board *b)
{
	uint8_t seq[K];
	uint32_t mask = 0;
	int j = 0;
	for (int c = 0; c < p->n; c++) {
		int s = p->slot[b->cell[c]];
		if (s >= 0) {
			mask |= 1u << c;
			seq[j++] = (uint8_t)s;
		}
	}
	return block_index(p, colex_rank[mask], b->blank) * p->kfact + perm_rank(p, seq);
}

int sdb_pattern_neighbors(const sdb_pattern *p, uint64_t index, uint64_t *out)
{
	if (p->mode != SDB_BLANK_REGION || index >= sdb_pattern_size(p))
		return sdbi_fail(SDB_EINVAL, "pattern index %llu out of range",
		                (unsigned long long)index);
	uint32_t block = (uint32_t)(index / p->kfact);
	uint32_t perm = (uint32_t)(index - (uint64_t)block * p->kfact);
	uint16_t mask = p->comb_mask[p->block_comb[block]];
	uint16_t region = p->block_cells[block];
	uint8_t seq[K], digit[K];
	perm_unrank(p, perm, seq, digit);
	int count = 0;
	unsigned rest = mask;
	for (int j = 0; j < p->k; j++, rest &= rest - 1) {
		int a = __builtin_ctz(rest);   /* the j-th occupied cell */
		for (int m = 0; m < 4; m++) {
			int e = p->nbr[a][m];
			if (e < 0 || !(region >> e & 1))
				continue;
			/* The tile steps from a to e, the blank is left at a. Its place
			 * among the occupied cells goes from j to q. */
			uint32_t nmask = (mask ^ (1u << a)) | (1u << e);
			int q = (int)sdbi_popcount16(nmask & ((1u << e) - 1));
			uint32_t nperm = q == j ? perm : (uint32_t)((int32_t)perm + move_delta(p, seq, digit, j, q));
			out[count++] = block_index(p, colex_rank[nmask], a) * p->kfact + nperm;
		}
	}
	return count;
}

uint64_t sdb_pattern_min_index(const sdb_pattern *p, uint64_t index)
{
	uint32_t block = (uint32_t)(index / p->kfact);
	return (uint64_t)p->block_comb[block] * p->kfact + (index - (uint64_t)block * p->kfact);
}
