/* SPDX-License-Identifier: MIT */
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
 * uses precomputed reciprocals (a multiply and a shift). Boards of up to 14
 * cells: the index within a blank's block, < 13!/2, fits 32 bits. */
#include <stdio.h>
#include <string.h>

#include "puzzle/puzzle.h"

enum { MAX_TILES = SDB_MAX_FULL_CELLS - 1 };

/* weight[m][i] = (m-1-i)!/2 for i <= m-3 and 0 for the last two positions
 * (their digits are the parity bit and 0); half_fact[m] = m!/2;
 * recip = ceil(2^64 / divisor), for divisors >= 2. */
static uint32_t weight[MAX_TILES + 1][MAX_TILES + 1];
static uint64_t recip[MAX_TILES + 1][MAX_TILES];
static uint64_t half_fact[MAX_TILES + 1];
static uint64_t recip_half_fact[MAX_TILES + 1];
static uint8_t select8[256][8];   /* position of the k-th set bit of a byte */
static uint8_t pop8[256];

static uint64_t reciprocal(uint64_t d)
{
	return UINT64_MAX / d + 1;
}

/* Quotient of a 32-bit x by a divisor d >= 2 from its reciprocal: exact for
 * every x < 2^32 (Lemire, Kaser and Kurz, "Faster remainder by direct
 * computation", 2019). */
static inline uint32_t fast_div(uint32_t x, uint64_t rec)
{
	return (uint32_t)(((unsigned __int128)rec * x) >> 64);
}

__attribute__((constructor)) static void rank_tables_init(void)
{
	uint64_t fact[MAX_TILES + 1];
	fact[0] = 1;
	for (int k = 1; k <= MAX_TILES; k++)
		fact[k] = fact[k - 1] * (uint64_t)k;
	for (int m = 3; m <= MAX_TILES; m++) {
		half_fact[m] = fact[m] / 2;
		recip_half_fact[m] = reciprocal(half_fact[m]);
		for (int i = 0; i + 2 < m; i++) {
			weight[m][i] = (uint32_t)(fact[m - 1 - i] / 2);
			recip[m][i] = weight[m][i] > 1 ? reciprocal(weight[m][i]) : 0;
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
	if (!sdb_board_size_valid(w, h))
		return 0;
	uint64_t c = 1;
	for (int k = 3; k <= n; k++) {
		if (c > UINT64_MAX / (uint64_t)k)
			return UINT64_MAX;   /* 21 cells and more: see sdb_rank_count_format() */
		c *= (uint64_t)k;
	}
	return c;   /* n!/2 */
}

int sdb_rank_count_format(char *buf, size_t cap, int w, int h)
{
	if (!sdb_board_size_valid(w, h))
		return sdbi_fail(SDB_EINVAL, "%dx%d is not a board slidedb models", w, h);
	/* n!/2 in limbs of 9 decimal digits, the lowest first: 64!/2 has 89
	 * digits, and a limb times k <= 64 plus its carry fits 64 bits */
	enum { LIMBS = 10 };
	const uint32_t base = 1000000000u;
	uint32_t limb[LIMBS] = { 1 };
	int used = 1;
	for (int k = 3; k <= w * h; k++) {
		uint64_t carry = 0;
		for (int i = 0; i < used; i++) {
			const uint64_t v = (uint64_t)limb[i] * (uint64_t)k + carry;
			limb[i] = (uint32_t)(v % base);
			carry = v / base;
		}
		if (carry)
			limb[used++] = (uint32_t)carry;
	}
	char digits[LIMBS * 9 + 1];
	int len = snprintf(digits, sizeof digits, "%u", limb[used - 1]);
	for (int i = used - 2; i >= 0; i--)
		len += snprintf(digits + len, sizeof digits - (size_t)len, "%09u", limb[i]);
	if ((size_t)len >= cap)
		return sdbi_fail(SDB_EINVAL, "buffer too small for a count of states");
	memcpy(buf, digits, (size_t)len + 1);
	return len;
}

int sdb_rank_class(const sdb_board *b)
{
	int row = b->w % 2 ? 0 : b->blank / b->w;
	return (sdbi_board_parity(b) ^ row) & 1;
}

uint64_t sdb_board_rank(const sdb_board *b)
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

/* Move the walk to index: its blank cell and its index within the blank's
 * block, and how many leading digits (wk->known) it shares with the walk's
 * last index, which walk_decode() then keeps. */
static int walk_locate(sdb_rank_walk *wk, uint64_t index)
{
	const int n = wk->n, m = n - 1;
	const uint64_t block = half_fact[m];
	if (index >= (uint64_t)n * block)
		return sdbi_fail(SDB_EINVAL, "index %llu out of range for %dx%d",
		                (unsigned long long)index, wk->w, wk->h);
	if (wk->blank == UINT32_MAX || index - wk->block_start >= block) {
		/* Another blank cell. Up to 12 cells every index is below 2^32;
		 * 13 and 14 cells need a 64-bit division (a block, 13!/2, still
		 * fits 32 bits), a slow instruction: the walk spares most of them. */
		wk->blank = index >> 32 ? (uint32_t)(index / block)
		                        : fast_div((uint32_t)index, recip_half_fact[m]);
		wk->block_start = wk->blank * block;
		wk->half = (uint32_t)(index - wk->block_start);
		wk->known = 0;
		wk->delta_kept = 0;
		wk->base[0] = 0;
		wk->unseen[0] = (uint16_t)((1u << m) - 1);
		wk->sum[0] = 0;
		return SDB_OK;
	}
	/* The same blank cell: digits 0..j-1 are unchanged iff half is within
	 * one weight of the part they make, base[j]. */
	const uint32_t half = (uint32_t)(index - wk->block_start);
	int j = wk->known;
	while (j > 0 && (half < wk->base[j] || half - wk->base[j] >= weight[m][j - 1]))
		j--;
	wk->known = (uint8_t)j;
	/* a vertical move's delta depends on the digits of sequence positions
	 * 0..blank-1 (up) or 0..blank+w-1 (down) */
	if (j < (int)wk->blank)
		wk->delta_kept &= ~1u;
	if (j < (int)wk->blank + wk->w)
		wk->delta_kept &= ~2u;
	wk->half = half;
	return SDB_OK;
}

/* The tiles and Lehmer digits of the walk's index at sequence positions
 * 0..need-1 (the tiles in row-major order, blank skipped, values 0..m-1):
 * those it does not know yet. A move's index needs only the positions up
 * to the tiles it passes, and consecutive indices differ in the last few
 * digits, so most calls compute a digit or two of the thirteen, or none. */
static void walk_decode(sdb_rank_walk *wk, int need)
{
	const int m = wk->n - 1;
	const int div_end = need < m - 3 ? need : m - 3;   /* digits by division */
	int i = wk->known;
	if (i < div_end) {
		uint32_t r = wk->half - wk->base[i];
		unsigned unseen = wk->unseen[i], digit_sum = wk->sum[i];
		for (; i < div_end; i++) {
			uint32_t d = fast_div(r, recip[m][i]);
			r -= d * weight[m][i];
			unsigned t = select16(unseen, d);
			wk->tile[i] = (uint8_t)t;
			wk->digit[i] = (uint8_t)d;
			unseen &= ~(1u << t);
			digit_sum += d;
			wk->base[i + 1] = wk->base[i] + d * weight[m][i];
			wk->unseen[i + 1] = (uint16_t)unseen;
			wk->sum[i + 1] = (uint8_t)digit_sum;
		}
		wk->known = (uint8_t)i;
	}
	if (need <= m - 3)
		return;
	/* weight 1: the remainder is the digit */
	const uint32_t r = wk->half - wk->base[m - 3];
	unsigned unseen = wk->unseen[m - 3];
	unsigned t = select16(unseen, r);
	wk->tile[m - 3] = (uint8_t)t;
	wk->digit[m - 3] = (uint8_t)r;
	unseen &= ~(1u << t);
	/* The last two tiles, in the order that gives the class's parity. */
	unsigned lo = select16(unseen, 0), hi = select16(unseen, 1);
	unsigned row = wk->w % 2 ? 0 : wk->blank / wk->w;
	unsigned swap = ((wk->sum[m - 3] + r) ^ wk->cls ^ row) & 1;
	wk->tile[m - 2] = (uint8_t)(swap ? hi : lo);
	wk->tile[m - 1] = (uint8_t)(swap ? lo : hi);
	wk->digit[m - 2] = (uint8_t)swap;
	wk->digit[m - 1] = 0;
}

int sdb_rank_walk_init(sdb_rank_walk *wk, int w, int h, int cls)
{
	memset(wk, 0, sizeof *wk);
	if (w < 2 || h < 2 || w * h > SDB_MAX_FULL_CELLS)
		return sdbi_fail(SDB_EINVAL, "%dx%d has no full-table index", w, h);
	wk->w = (uint8_t)w;
	wk->h = (uint8_t)h;
	wk->n = (uint8_t)(w * h);
	wk->cls = (uint8_t)(cls & 1);
	wk->blank = UINT32_MAX;
	return SDB_OK;
}

static void fill_board(sdb_board *b, const sdb_rank_walk *wk)
{
	const int n = wk->n;
	b->w = wk->w;
	b->h = wk->h;
	b->n = (uint8_t)n;
	b->blank = (uint8_t)wk->blank;
	memset(b->cell, 0, sizeof b->cell);
	for (int c = 0, i = 0; c < n; c++)
		b->cell[c] = c == (int)wk->blank ? 0 : (uint8_t)(wk->tile[i++] + 1);
}

int sdb_board_unrank(sdb_board *b, int w, int h, int cls, uint64_t index)
{
	sdb_rank_walk wk;
	int err = sdb_rank_walk_init(&wk, w, h, cls);
	if (!err)
		err = walk_locate(&wk, index);
	if (!err) {
		walk_decode(&wk, w * h - 1);
		fill_board(b, &wk);
	}
	return err;
}

/* Index change when the tile at sequence position p moves to position q and
 * the tiles between shift one place towards p: only their digits and
 * weights change. A tile that moves behind smaller tiles loses them from its
 * digit; each tile it passes gains (or loses) it. */
static int64_t vertical_delta(const sdb_rank_walk *dc, const uint32_t *wt, int p, int q)
{
	const unsigned t = dc->tile[p];
	int64_t delta = 0;
	int passed_smaller = 0;
	if (q > p) {   /* moves later: the passed tiles now have t after them */
		for (int j = p + 1; j <= q; j++) {
			unsigned u = dc->tile[j];
			delta += (int64_t)(dc->digit[j] + (t < u)) * wt[j - 1] - (int64_t)dc->digit[j] * wt[j];
			passed_smaller += u < t;
		}
		delta += (int64_t)(dc->digit[p] - passed_smaller) * wt[q] - (int64_t)dc->digit[p] * wt[p];
	} else {       /* moves earlier: the passed tiles lose t from after them */
		for (int j = q; j < p; j++) {
			unsigned u = dc->tile[j];
			delta += (int64_t)(dc->digit[j] - (t < u)) * wt[j + 1] - (int64_t)dc->digit[j] * wt[j];
			passed_smaller += u < t;
		}
		delta += (int64_t)(dc->digit[p] + passed_smaller) * wt[q] - (int64_t)dc->digit[p] * wt[p];
	}
	return delta;
}

/* The index change of vertical move dir (0 up, 1 down) from the walk's
 * index: the tiles it passes lie between sequence positions p and q, so it
 * depends only on the digits up to the later of the two. While the walk
 * keeps those digits (wk->known) it keeps the delta too: on 7x2, the blank
 * in cells 0-2 or 7-9 reuses it over runs of 12 to 360 indices. */
static int64_t walk_delta(sdb_rank_walk *wk, int dir, int p, int q)
{
	if (!(wk->delta_kept >> dir & 1)) {
		wk->delta[dir] = vertical_delta(wk, weight[wk->n - 1], p, q);
		/* digits past m-4 are worked out again each time (walk_decode) */
		if ((p > q ? p : q) < wk->n - 1 - 3)
			wk->delta_kept |= 1u << dir;
	}
	return wk->delta[dir];
}

/* sdb_rank_walk_neighbors() once the walk is at index (walk_locate()). */
static void walk_neighbors(sdb_rank_walk *wk, uint64_t nbr[4], sdb_board *b, uint64_t index)
{
	const int w = wk->w, h = wk->h, m = wk->n - 1;
	const uint64_t block = half_fact[m];
	const int blank = (int)wk->blank, x = blank % w, y = blank / w;
	const int up = y > 0, down = y < h - 1;
	/* the tiles a vertical move passes end at position blank-1 (up) or
	 * blank+w-1 (down): decode up to there, unless the deltas are kept */
	int need = 0;
	if (b)
		need = m;
	else if (down && !(wk->delta_kept & 2))
		need = blank + w;
	else if (up && !(wk->delta_kept & 1))
		need = blank;
	walk_decode(wk, need);
	if (b)
		fill_board(b, wk);
	/* A vertical move carries one tile over the w-1 tiles between its cell
	 * and the blank's in row-major order: from sequence position blank-w to
	 * blank-1 (up), or from blank+w-1 to blank (down). */
	nbr[SDB_UP] = up ? (uint64_t)(blank - w) * block + wk->half +
	                   (uint64_t)walk_delta(wk, 0, blank - w, blank - 1)
	                 : UINT64_MAX;
	nbr[SDB_DOWN] = down ? (uint64_t)(blank + w) * block + wk->half +
	                       (uint64_t)walk_delta(wk, 1, blank + w - 1, blank)
	                     : UINT64_MAX;
	nbr[SDB_LEFT] = x > 0 ? index - block : UINT64_MAX;
	nbr[SDB_RIGHT] = x < w - 1 ? index + block : UINT64_MAX;
}

int sdb_rank_walk_neighbors(sdb_rank_walk *wk, uint64_t nbr[4], sdb_board *b, uint64_t index)
{
	int err = walk_locate(wk, index);
	if (!err)
		walk_neighbors(wk, nbr, b, index);
	return err;
}

int sdb_rank_walk_mtm_neighbors(sdb_rank_walk *wk, uint64_t *nbr, uint64_t index)
{
	const int w = wk->w, h = wk->h, run = sdb_mtm_run(w, h);
	for (int s = 0; s < 4 * run; s++)
		nbr[s] = UINT64_MAX;
	/* where the blank is decides whether the board is wanted */
	int err = walk_locate(wk, index);
	if (err)
		return err;
	const int y = (int)wk->blank / w;
	const int far_up = y, far_down = h - 1 - y;
	sdb_board b;
	uint64_t one[4];
	walk_neighbors(wk, one, far_up > 1 || far_down > 1 ? &b : NULL, index);
	const uint64_t block = half_fact[wk->n - 1];
	const int x = (int)wk->blank % w;
	for (int m = 0; m < 4; m++)
		nbr[m * run] = one[m];
	for (int k = 2; k <= x; k++)
		nbr[SDB_LEFT * run + k - 1] = index - (uint64_t)k * block;
	for (int k = 2; k <= w - 1 - x; k++)
		nbr[SDB_RIGHT * run + k - 1] = index + (uint64_t)k * block;
	for (int m = SDB_UP; m <= SDB_DOWN; m++) {
		const int far = m == SDB_UP ? far_up : far_down;
		if (far < 2)
			continue;
		/* the tiles of the blank's column slide one row each, toward its cell */
		const int step = m == SDB_UP ? -w : w;
		sdb_board c = b;
		for (int k = 1; k <= far; k++) {
			const int to = c.blank + step;
			c.cell[c.blank] = c.cell[to];
			c.cell[to] = 0;
			c.blank = (uint8_t)to;
			if (k > 1)
				nbr[m * run + k - 1] = sdb_board_rank(&c);
		}
	}
	return SDB_OK;
}

int sdb_rank_neighbors(uint64_t nbr[4], sdb_board *b, int w, int h, int cls, uint64_t index)
{
	sdb_rank_walk wk;
	int err = sdb_rank_walk_init(&wk, w, h, cls);
	return err ? err : sdb_rank_walk_neighbors(&wk, nbr, b, index);
}
