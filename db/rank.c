/* The perfect index of full tables: rank and unrank in O(n).
 *
 * index = blank_cell * (m!/2) + sum over the first m-2 tiles of
 *         digit_i * (m-1-i)!/2
 * where m = n-1 is the number of tiles, the tiles are read row-major with the
 * blank skipped, and digit_i (the Lehmer digit) is the number of tiles not yet
 * seen that are smaller than tile i. That sum is the Cantor expansion halved:
 * the last two digits are 0 and the parity bit, and the parity is fixed by
 * the blank cell and the class (see slidedb.h), so dropping it loses nothing.
 *
 * Lehmer digits come from a bit mask of the tiles seen and a popcount; unrank
 * selects the k-th unseen tile with two byte tables; division by the radixes
 * uses precomputed reciprocals (a multiply and a shift). */
#include <string.h>

#include "internal.h"

enum { MAX_TILES = SDB_MAX_FULL_CELLS - 1 };

typedef unsigned __int128 u128;

/* weight[m][i] = (m-1-i)!/2, half_fact[m] = m!/2, recip = ceil(2^64 / divisor)
 * (65 bits when the divisor is 1, hence 128-bit storage) */
static uint32_t weight[MAX_TILES + 1][MAX_TILES];
static u128 recip[MAX_TILES + 1][MAX_TILES];
static uint64_t half_fact[MAX_TILES + 1];
static u128 recip_half_fact[MAX_TILES + 1];
static uint8_t select8[256][8];   /* position of the k-th set bit of a byte */
static uint8_t pop8[256];

static u128 reciprocal(uint64_t d)
{
	return (((u128)1 << 64) - 1) / d + 1;
}

/* Quotient of a 32-bit x by d from its reciprocal: exact for every x < 2^32
 * (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019). */
static inline uint32_t fast_div(uint32_t x, u128 rec)
{
	return (uint32_t)((rec * x) >> 64);
}

__attribute__((constructor)) static void rank_tables_init(void)
{
	uint64_t fact[MAX_TILES + 1];
	fact[0] = 1;
	for (int k = 1; k <= MAX_TILES; k++)
		fact[k] = fact[k - 1] * (uint64_t)k;
	for (int m = 2; m <= MAX_TILES; m++) {
		half_fact[m] = fact[m] / 2;
		recip_half_fact[m] = reciprocal(half_fact[m]);
		for (int i = 0; i + 2 < m; i++) {
			weight[m][i] = (uint32_t)(fact[m - 1 - i] / 2);
			recip[m][i] = reciprocal(weight[m][i]);
		}
	}
	for (int x = 0; x < 256; x++) {
		int k = 0;
		for (int bit = 0; bit < 8; bit++)
			if (x >> bit & 1)
				select8[x][k++] = (uint8_t)bit;
		pop8[x] = (uint8_t)k;
	}
}

static inline unsigned popcount16(unsigned x)
{
	return pop8[x & 0xff] + pop8[x >> 8];
}

/* Position of the k-th (from 0) set bit of a 16-bit mask. */
static inline unsigned select16(unsigned x, unsigned k)
{
	unsigned low = pop8[x & 0xff];
	return k < low ? select8[x & 0xff][k] : 8u + select8[(x >> 8) & 0xff][k - low];
}

uint64_t sdb_rank_count(int w, int h)
{
	int n = w * h;
	if (!sdb_size_valid(w, h))
		return 0;
	uint64_t c = 1;
	for (int k = 3; k <= n; k++)
		c *= (uint64_t)k;
	return c;   /* n!/2 */
}

int sdb_rank_class(const sdb_board *b)
{
	int row = b->w % 2 ? 0 : b->blank / b->w;
	return (sdb_board_parity(b) ^ row) & 1;
}

uint64_t sdb_rank(const sdb_board *b)
{
	const int m = b->n - 1;
	const uint32_t *wt = weight[m];
	unsigned seen = 0;
	uint32_t r = 0;
	int i = 0;
	for (int c = 0; i < m - 2; c++) {
		unsigned t = b->cell[c];
		if (!t)
			continue;
		t--;
		r += (t - popcount16(seen & ((1u << t) - 1))) * wt[i++];
		seen |= 1u << t;
	}
	return b->blank * half_fact[m] + r;
}

int sdb_unrank(sdb_board *b, int w, int h, int cls, uint64_t index)
{
	int n = w * h, m = n - 1;
	if (w < 2 || h < 2 || n > SDB_MAX_FULL_CELLS)
		return sdb_fail(SDB_EINVAL, "%dx%d has no full-table index", w, h);
	if (index >= (uint64_t)n * half_fact[m])
		return sdb_fail(SDB_EINVAL, "index %llu out of range for %dx%d",
		                (unsigned long long)index, w, h);
	uint32_t blank = fast_div((uint32_t)index, recip_half_fact[m]);
	uint32_t r = (uint32_t)index - blank * (uint32_t)half_fact[m];
	uint8_t tiles[MAX_TILES];
	unsigned unseen = (1u << m) - 1, digit_sum = 0;
	for (int i = 0; i < m - 2; i++) {
		uint32_t d = fast_div(r, recip[m][i]);
		r -= d * weight[m][i];
		unsigned t = select16(unseen, d);
		tiles[i] = (uint8_t)(t + 1);
		unseen &= ~(1u << t);
		digit_sum += d;
	}
	/* The last two tiles, in the order that gives the class's parity. */
	unsigned lo = select16(unseen, 0), hi = select16(unseen, 1);
	int row = w % 2 ? 0 : (int)blank / w;
	unsigned swap = (digit_sum ^ (unsigned)cls ^ (unsigned)row) & 1;
	tiles[m - 2] = (uint8_t)((swap ? hi : lo) + 1);
	tiles[m - 1] = (uint8_t)((swap ? lo : hi) + 1);

	b->w = (uint8_t)w;
	b->h = (uint8_t)h;
	b->n = (uint8_t)n;
	b->blank = (uint8_t)blank;
	for (int c = 0, i = 0; c < n; c++)
		b->cell[c] = c == (int)blank ? 0 : tiles[i++];
	memset(b->cell + n, 0, SDB_MAX_CELLS - (size_t)n);
	return SDB_OK;
}
