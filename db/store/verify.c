/* SPDX-License-Identifier: MIT */
/* A table checked whole: its CRC-32 over every block on the usable cores
 * (sdb_table_verify(), and the check once per handle before answers are
 * read from it), and its entries counted per distance (sdb_table_recount())
 * to compare with the counts its catalog entry claims. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "store/store.h"
#include "store/blocks.h"
#include "store/crc.h"
#include "store/threads.h"

void sdb_table_expected_counts(uint64_t *counts, const sdb_table_info *info)
{
	memset(counts, 0, SDB_MAX_DISTANCE * sizeof *counts);
	for (int d = 0; d <= info->max_distance && d < SDB_MAX_DISTANCE; d++)
		counts[info->entry_format == SDB_ENTRY_MOD3 ? d % 3 : d] += info->counts[d];
}

void sdbi_count_mod3(uint64_t *counts, const uint8_t *data, uint64_t states)
{
	for (uint64_t i = 0; i < states; i++) {
		unsigned v = sdb_mod3(data, i);
		if (v != SDB_UNREACHED_MOD3)
			counts[v]++;
	}
}

enum { MOST_NIBBLE_MD = 255 + 2 * 15 };   /* a byte of Manhattan distance, a nibble */

/* One thread's share of a nibble table's recount: blocks [first, end). */
typedef struct recount_range {
	const sdb_pattern *p;
	const uint8_t *data;
	uint64_t first, end;
	int err;
	uint64_t pair[2][MOST_NIBBLE_MD + 1];
} recount_range;

/* Two entries a byte when a block starts on one (k! is even from 2 tiles
 * on), into two histograms: one histogram's increments of the same value
 * wait on each other. */
static void *recount_blocks(void *arg)
{
	recount_range *r = arg;
	const uint64_t kfact = sdb_pattern_size(r->p) / sdb_pattern_blocks(r->p);
	uint8_t *md = malloc(kfact);
	if (!md) {
		r->err = SDB_ENOMEM;
		return NULL;
	}
	for (uint64_t b = r->first; b < r->end; b++) {
		sdb_pattern_block_manhattan(r->p, b, md);
		uint64_t x = 0, i = b * kfact;
		if (!(i & 1))
			for (const uint8_t *byte = r->data + i / 2; x + 2 <= kfact; x += 2, i += 2, byte++) {
				r->pair[0][md[x] + 2 * (*byte & 15u)]++;
				r->pair[1][md[x + 1] + 2 * (*byte >> 4)]++;
			}
		for (; x < kfact; x++, i++)
			r->pair[0][md[x] + 2 * sdb_nibble(r->data, i)]++;
	}
	free(md);
	return NULL;
}

enum { STRIP = 128, LANES = 8, AHEAD = 8 };

/* recount_blocks() for a table in SDB_LAYOUT_ORDERS, where a block's entries
 * lie a row of blocks apart. A row's STRIP blocks are a line of nibbles, read
 * whole; their Manhattan distances for an order are summed LANES blocks at a
 * time from their cells' costs (one 64-bit add per tile), so that no block's
 * k! distances are kept: read from a buffer of each block's, they were loads
 * of rows a page apart, and the recount took far longer than in the blocks
 * layout. */
static void *recount_strips(void *arg)
{
	recount_range *r = arg;
	const sdb_pattern *p = r->p;
	const uint64_t blocks = sdb_pattern_blocks(p), kfact = sdb_pattern_size(p) / blocks;
	const int k = p->k;
	typedef uint8_t costs[SDB_MAX_PATTERN][SDB_MAX_PATTERN][STRIP];   /* [j][slot][block] */
	uint8_t (*cost)[SDB_MAX_PATTERN][STRIP] = malloc(sizeof(costs));
	uint8_t *slots = malloc(kfact * SDB_MAX_PATTERN);
	if (!cost || !slots) {
		free(cost);
		free(slots);
		r->err = SDB_ENOMEM;
		return NULL;
	}
	for (uint64_t q = 0; q < kfact; q++)
		sdbi_pattern_order_slots(p, q, slots + q * SDB_MAX_PATTERN);
	for (uint64_t b0 = r->first; b0 < r->end; b0 += STRIP) {
		const uint64_t width = r->end - b0 < STRIP ? r->end - b0 : STRIP;
		memset(cost, 0, sizeof(costs));
		for (uint64_t x = 0; x < width; x++) {
			uint8_t c[SDB_MAX_PATTERN][SDB_MAX_PATTERN];
			sdbi_pattern_cell_costs(p, b0 + x, c);
			for (int j = 0; j < k; j++)
				for (int s = 0; s < k; s++)
					cost[j][s][x] = c[j][s];
		}
		for (uint64_t q = 0, i = b0; q < kfact; q++, i += blocks) {
			/* a row's line is a page or more from the last: the hardware
			 * does not see the stride */
			if (q + AHEAD < kfact)
				__builtin_prefetch(r->data + (i + AHEAD * blocks) / 2);
			const uint8_t *seq = slots + q * SDB_MAX_PATTERN;
			for (uint64_t x0 = 0; x0 < width; x0 += LANES) {
				uint64_t md = 0;   /* eight sums of at most 8 * 14 < 256: no carries */
				for (int j = 0; j < k; j++) {
					uint64_t c;
					memcpy(&c, &cost[j][seq[j]][x0], sizeof c);
					md += c;
				}
				const uint64_t n = width - x0 < LANES ? width - x0 : LANES;
				for (uint64_t x = 0; x < n; x++, md >>= 8)
					r->pair[x & 1][(md & 0xff) + 2 * sdb_nibble(r->data, i + x0 + x)]++;
			}
		}
	}
	free(cost);
	free(slots);
	return NULL;
}

int sdb_table_recount(uint64_t *counts, const sdb_table_info *info, const uint8_t *data)
{
	memset(counts, 0, SDB_MAX_DISTANCE * sizeof *counts);
	if (info->entry_format == SDB_ENTRY_DIST6_MOVE2 || info->entry_format == SDB_ENTRY_DIST8) {
		const int dist6 = info->entry_format == SDB_ENTRY_DIST6_MOVE2;
		const unsigned unreached = dist6 ? SDB_DIST6_UNREACHED : SDB_UNREACHED_BYTE;
		for (uint64_t i = 0; i < info->states; i++) {
			unsigned d = dist6 ? (unsigned)sdb_dist6(data[i]) : data[i];
			if (d != unreached)
				counts[d < SDB_MAX_DISTANCE ? d : SDB_MAX_DISTANCE - 1]++;
		}
		return SDB_OK;
	}
	if (info->entry_format == SDB_ENTRY_MOD3) {
		sdbi_count_mod3(counts, data, info->states);
		return SDB_OK;
	}
	if (info->entry_format != SDB_ENTRY_NIBBLE_MD)
		return sdbi_fail(SDB_EINVAL, "table '%s': unknown entry format %d", info->name,
		                info->entry_format);
	sdb_pattern *p;
	int err = sdb_pattern_of_table(&p, info);
	if (err)
		return err;
	const uint64_t blocks = sdb_pattern_blocks(p),
	               threads = (uint64_t)sdbi_threads_for(sdb_table_bytes(info), blocks, 0);
	recount_range *r = calloc(threads, sizeof *r);
	if (!r || sdb_pattern_size(p) != info->states) {
		free(r);
		sdb_pattern_free(p);
		return r ? sdbi_fail(SDB_EINVAL, "table '%s': its size does not match its pattern",
		                    info->name) : sdbi_fail(SDB_ENOMEM, "out of memory");
	}
	for (uint64_t i = 0; i < threads; i++)
		r[i] = (recount_range){ .p = p, .data = data, .first = blocks * i / threads,
		                        .end = blocks * (i + 1) / threads };
	sdbi_on_threads((int)threads, sdb_pattern_layout(p) == SDB_LAYOUT_ORDERS ? recount_strips
	                : recount_blocks, r, sizeof *r);
	for (uint64_t i = 0; i < threads; i++) {
		err = err ? err : r[i].err;
		for (int d = 0; d <= MOST_NIBBLE_MD; d++)
			counts[d < SDB_MAX_DISTANCE ? d : SDB_MAX_DISTANCE - 1] +=
				r[i].pair[0][d] + r[i].pair[1][d];
	}
	free(r);
	sdb_pattern_free(p);
	return err ? sdbi_fail(err, "out of memory") : SDB_OK;
}

int sdb_table_count_entries(uint64_t *counts, const sdb_table *t)
{
	if (!sdbi_table_resolved(t))
		return SDB_ECORRUPT;
	if (t->nchunks == 1)
		return sdb_table_recount(counts, &t->info, t->data ? t->data : t->chunk[0]);
	/* chunked: two-bit tables only, four entries a byte */
	memset(counts, 0, SDB_MAX_DISTANCE * sizeof *counts);
	uint64_t left = t->info.states;
	for (int c = 0; c < t->nchunks; c++) {
		uint64_t bytes;
		const uint8_t *data = sdb_table_chunk(t, c, &bytes);
		uint64_t states = left < 4 * bytes ? left : 4 * bytes;
		sdbi_count_mod3(counts, data, states);
		left -= states;
	}
	return SDB_OK;
}

enum { VERIFY_SLICE = 64 << 20 };   /* bytes between looks at a pace */

/* One thread's share of a verify: blocks [first, end). */
typedef struct verify_range {
	const sdb_table *t;
	uint64_t first, end;
	uLong op;          /* crc32_combine_gen(SDBI_BLOCK_SIZE) */
	uint32_t crc;      /* of the range's bytes */
	uint64_t bad;      /* its first block unlike its stored CRC, or UINT64_MAX */
} verify_range;

static void *verify_blocks(void *arg)
{
	verify_range *r = arg;
	const sdb_table *t = r->t;
	uLong crc = sdbi_crc_start();
	r->bad = UINT64_MAX;
	for (uint64_t b = r->first; b < r->end; b++) {
		const uint64_t at = b << SDBI_BLOCK_SHIFT, bytes = sdbi_block_bytes(t, b);
		const uint8_t *p = t->chunk[at >> t->chunk_shift] + (at & t->chunk_mask);
		const uint32_t c = sdbi_crc_more(sdbi_crc_start(), p, bytes);
		if (r->bad == UINT64_MAX && c != sdbi_block_crc(t, b))
			r->bad = b;
		crc = bytes == SDBI_BLOCK_SIZE ? crc32_combine_op(crc, c, r->op)
		                               : crc32_combine(crc, c, (z_off_t)bytes);
	}
	r->crc = (uint32_t)crc;
	return NULL;
}

/* The byte after blocks [.., end) of t. */
static uint64_t end_byte(const sdb_table *t, uint64_t end)
{
	return end < t->nblocks ? end << SDBI_BLOCK_SHIFT : sdb_table_bytes(&t->info);
}

/* Blocks [first, end) of t on the usable cores but `leave` (at least one):
 * their CRC-32 (*crc) and the first whose bytes differ from its stored CRC
 * (*bad, UINT64_MAX if none). */
static void verify_slice(const sdb_table *t, uint64_t first, uint64_t end, int leave,
                         uint32_t *crc_out, uint64_t *bad)
{
	const uint64_t nblocks = end - first;
	const int threads = sdbi_threads_for(end_byte(t, end) - (first << SDBI_BLOCK_SHIFT), nblocks,
	                                     leave);
	verify_range r[SDBI_MAX_THREADS];
	const uLong op = crc32_combine_gen(SDBI_BLOCK_SIZE);
	for (int i = 0; i < threads; i++)
		r[i] = (verify_range){ .t = t, .op = op,
		                       .first = first + nblocks * (uint64_t)i / (uint64_t)threads,
		                       .end = first + nblocks * (uint64_t)(i + 1) / (uint64_t)threads };
	sdbi_on_threads(threads, verify_blocks, r, sizeof *r);
	uLong crc = sdbi_crc_start();
	*bad = UINT64_MAX;
	for (int i = 0; i < threads; i++) {
		crc = crc32_combine(crc, r[i].crc,
		                    (z_off_t)(end_byte(t, r[i].end) - (r[i].first << SDBI_BLOCK_SHIFT)));
		if (*bad == UINT64_MAX)
			*bad = r[i].bad;
	}
	*crc_out = (uint32_t)crc;
}

static void blocks_verify(const sdb_table *t, const sdbi_pace *pace, uint32_t *whole,
                          uint64_t *bad)
{
	const uint64_t slice = sdbi_tuning()->verify_slice ? sdbi_tuning()->verify_slice
	                                                   : VERIFY_SLICE;
	const uint64_t step = pace ? slice >> SDBI_BLOCK_SHIFT : t->nblocks;
	uLong crc = sdbi_crc_start();
	*bad = UINT64_MAX;
	for (uint64_t first = 0; first < t->nblocks; first += step) {
		const uint64_t end = t->nblocks - first > step ? first + step : t->nblocks;
		uint32_t c;
		uint64_t b;
		verify_slice(t, first, end, pace ? pace->leave(pace->ctx) : 0, &c, &b);
		crc = crc32_combine(crc, c, (z_off_t)(end_byte(t, end) - (first << SDBI_BLOCK_SHIFT)));
		if (*bad == UINT64_MAX)
			*bad = b;
	}
	*whole = (uint32_t)crc;
}

int sdb_table_verify(const sdb_table *t)
{
	return sdbi_table_verify_paced(t, NULL);
}

int sdbi_table_verify_paced(const sdb_table *t, const sdbi_pace *pace)
{
	if (!sdbi_table_resolved(t))
		return SDB_ECORRUPT;
	/* One pass: every block's CRC, and the whole table's from them. */
	uint32_t crc;
	uint64_t bad = UINT64_MAX;
	if (t->block_crc) {
		blocks_verify(t, pace, &crc, &bad);
	} else {   /* format 3: no block checksums */
		crc = sdbi_crc_start();
		for (int c = 0; c < t->nchunks; c++)
			crc = sdbi_crc_more(crc, t->chunk[c], sdbi_chunk_bytes(t, c));
	}
	if (crc != t->info.crc32)
		return sdbi_fail(SDB_ECORRUPT, "%s: table '%s' fails its CRC check (stored "
		                "%08x, computed %08x)", sdb_db_path(t->db), t->info.name,
		                t->info.crc32, crc);
	if (bad != UINT64_MAX)
		return sdbi_fail(SDB_ECORRUPT, "%s: table '%s': the checksum of its bytes %llu to "
		                "%llu is damaged", sdb_db_path(t->db), t->info.name,
		                (unsigned long long)(bad << SDBI_BLOCK_SHIFT),
		                (unsigned long long)((bad << SDBI_BLOCK_SHIFT) + sdbi_block_bytes(t, bad) - 1));
	__atomic_store_n(&((struct sdb_table *)t)->verified, 1, __ATOMIC_RELEASE);
	return SDB_OK;
}

int sdbi_table_verified(const sdb_table *t)
{
	return __atomic_load_n(&t->verified, __ATOMIC_ACQUIRE);
}

int sdbi_table_verify_once(const sdb_table *t, const sdbi_pace *pace)
{
	return sdbi_table_verified(t) ? SDB_OK : sdbi_table_verify_paced(t, pace);
}
