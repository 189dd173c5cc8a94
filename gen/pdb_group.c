/* SPDX-License-Identifier: MIT */
/* One group of a pattern-database set: searched (the blank's regions kept,
 * folded to their minimum for min mode), its entries packed into nibbles
 * where they fit and laid out as the format stores them, and stored; and
 * the proof of a min-mode group, which is to build it again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/bigmem.h"
#include "gen/gen.h"
#include "gen/gen_mpi.h"
#include "gen/pdb_group.h"

/* The minimum over the blank's regions, folded in place: the min-mode index
 * of an entry is never above its region-mode index, and each placement's
 * first region comes first. */
static void fold_min(uint8_t *table, const sdb_pattern *p)
{
	for (uint64_t i = 0; i < sdb_pattern_size(p); i++) {
		uint64_t j = sdb_pattern_min_index(p, i);
		if (sdb_pattern_region(p, i) == 0 || table[i] < table[j])
			table[j] = table[i];
	}
}

/* Counts per distance of a one-byte table, unreached entries left out. */
static void count_values(sdb_table_info *info, const uint8_t *table)
{
	sdb_table_recount(info->counts, info, table);
	info->max_distance = 0;
	for (int d = 0; d < SDB_MAX_DISTANCE; d++)
		if (info->counts[d])
			info->max_distance = d;
}

/* Turn each entry of blocks [lo, hi) into (value - Manhattan) / 2 in place;
 * false (the table unchanged) if one does not fit in 4 bits. */
static int to_excess(uint8_t *table, const sdb_pattern *p, uint64_t lo, uint64_t hi, uint8_t *md)
{
	uint64_t kfact = sdb_pattern_size(p) / sdb_pattern_blocks(p);
	for (uint64_t b = lo; b < hi; b++) {
		uint8_t *e = table + b * kfact;
		sdb_pattern_block_manhattan(p, b, md);
		for (uint64_t i = 0; i < kfact; i++)
			if (e[i] < md[i] || (e[i] - md[i]) % 2 || (e[i] - md[i]) / 2 > 15) {
				for (uint64_t u = lo; u < b; u++) {   /* undo */
					sdb_pattern_block_manhattan(p, u, md);
					for (uint64_t x = 0; x < kfact; x++)
						table[u * kfact + x] = (uint8_t)(md[x] + 2 * table[u * kfact + x]);
				}
				return 0;
			}
		for (uint64_t i = 0; i < kfact; i++)
			e[i] = (uint8_t)((e[i] - md[i]) / 2);
	}
	return 1;
}

/* Pack into nibbles in place: each entry becomes (value - Manhattan) / 2,
 * two to a byte. Returns the packed size, or 0 (table unchanged) when an
 * entry does not fit in 4 bits. */
static uint64_t pack_nibbles(uint8_t *table, uint64_t n, const sdb_pattern *p, int threads)
{
	const uint64_t blocks = sdb_pattern_blocks(p), slices = 256;
	uint8_t ok[256];
#pragma omp parallel num_threads(threads)
	{
		uint8_t *md = malloc(n / blocks);
#pragma omp for schedule(dynamic, 1)
		for (uint64_t s = 0; s < slices; s++)
			ok[s] = md && to_excess(table, p, blocks * s / slices, blocks * (s + 1) / slices, md);
		free(md);
	}
	int fits = 1;
	for (uint64_t s = 0; s < slices; s++)
		fits &= ok[s];
	if (!fits) {   /* put back the slices that were converted */
		uint8_t *md = malloc(n / blocks);
		for (uint64_t s = 0; s < slices && md; s++)
			for (uint64_t b = blocks * s / slices; ok[s] && b < blocks * (s + 1) / slices; b++) {
				uint64_t kfact = n / blocks;
				sdb_pattern_block_manhattan(p, b, md);
				for (uint64_t x = 0; x < kfact; x++)
					table[b * kfact + x] = (uint8_t)(md[x] + 2 * table[b * kfact + x]);
			}
		free(md);
		return 0;
	}
	for (uint64_t i = 0; i < n; i += 2)   /* in order: byte i/2 is read before written */
		table[i / 2] = (uint8_t)(table[i] | (i + 1 < n ? table[i + 1] << 4 : 0));
	return (n + 1) / 2;
}

/* Copy a table built block by block (SDB_LAYOUT_BLOCKS) into dst in the
 * layout the format stores (SDB_LAYOUT_ORDERS): the entry of block b and
 * order q goes to q * blocks + b. In tiles of ROWS orders by COLS blocks, so
 * that each line read serves every order it holds while it is in the L1
 * cache (read row by row, each line is fetched again for every order it
 * holds: bench/RESULTS.md). A thread takes ROWS orders at a time: they
 * start on a byte (ROWS is even), so threads share no byte of nibbles. */
enum { ROWS = 128, COLS = 256 };

/* Nibbles j .. j + n - 1 of dst set to v[0 .. n-1], two a byte where both
 * are v's; a byte shared with a neighbour (a row's ends) keeps its other
 * nibble, which may be written before or after. */
static void put_nibbles(uint8_t *dst, uint64_t j, const uint8_t *v, uint64_t n)
{
	uint64_t x = 0;
	if (j & 1) {
		dst[j >> 1] = (uint8_t)((dst[j >> 1] & 0x0f) | v[0] << 4);
		x = 1;
	}
	for (; x + 2 <= n; x += 2)
		dst[(j + x) >> 1] = (uint8_t)(v[x] | v[x + 1] << 4);
	if (x < n)
		dst[(j + x) >> 1] = (uint8_t)((dst[(j + x) >> 1] & 0xf0) | v[x]);
}

static void copy_to_orders(uint8_t *dst, const uint8_t *src, const sdb_pattern *p, int nibbles,
                           int threads)
{
	const uint64_t blocks = sdb_pattern_blocks(p), kfact = sdb_pattern_size(p) / blocks;
	const int64_t tiles = (int64_t)((kfact + ROWS - 1) / ROWS);
	if (nibbles && (blocks * kfact) & 1)
		dst[blocks * kfact / 2] = 0;   /* the last byte's unused nibble, as packed */
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
	for (int64_t tile = 0; tile < tiles; tile++) {
		const uint64_t q0 = (uint64_t)tile * ROWS, q1 = q0 + ROWS < kfact ? q0 + ROWS : kfact;
		for (uint64_t b0 = 0; b0 < blocks; b0 += COLS) {
			const uint64_t b1 = b0 + COLS < blocks ? b0 + COLS : blocks;
			for (uint64_t q = q0; q < q1; q++) {
				const uint64_t j = q * blocks + b0, width = b1 - b0;
				if (!nibbles) {
					for (uint64_t x = 0; x < width; x++)
						dst[j + x] = src[(b0 + x) * kfact + q];
					continue;
				}
				uint8_t v[COLS];
				for (uint64_t x = 0; x < width; x++)
					v[x] = (uint8_t)sdb_nibble(src, (b0 + x) * kfact + q);
				put_nibbles(dst, j, v, width);
			}
		}
	}
}

/* A group's entries as the table stores them, into dst: copied to the
 * orders layout, or as they are; work holds them folded and, for nibble
 * tables, packed. */
static void lay_out(uint8_t *dst, const uint8_t *work, uint64_t bytes, const sdb_pattern *p,
                    int nibbles, int layout, int threads)
{
	if (layout == SDB_LAYOUT_ORDERS)
		copy_to_orders(dst, work, p, nibbles, threads);
	else
		memcpy(dst, work, bytes);
}

int pdb_group_build(run *r, const sdb_board *canon, const char *setname, uint64_t tiles,
                       const sdb_pattern *p, int group, int ngroups, int mode)
{
	sdb_pattern *compact = NULL;
	uint8_t *work = NULL, *data;
	uint64_t work_bytes = 0;
	char name[SDB_NAME_MAX];
	snprintf(name, sizeof name, "%.*s/g%u", SDB_NAME_MAX - 5, setname,
	         (unsigned)group % SDB_MAX_GROUPS);
	int err = mode == SDB_BLANK_MIN ? sdb_pattern_new(&compact, canon, tiles, SDB_BLANK_MIN) : 0;
	if (err) {
		run_fail_lib(r, err);
		goto done;
	}
	/* The search runs in a working table of its own; the stored table, packed,
	 * is reserved only once the working one has shrunk to it. */
	sdb_table_info info;
	run_info_init(&info, name, SDB_KIND_PATTERN, SDB_ENTRY_DIST8, canon, sdb_pattern_size(p));
	snprintf(info.set, sizeof info.set, "%s", setname);
	info.pattern = tiles;
	info.blank_mode = mode;
	info.group = group;
	info.ngroups = ngroups;
	/* bigmem_alloc, not malloc: the search reads this table at random, and
	 * in huge pages its translations stay in the TLB (bench/RESULTS.md) */
	if (gen_mpi_writes_db(r->o->mpi) && !(work = bigmem_alloc(work_bytes = info.states))) {
		err = run_fail(r, SDB_ENOMEM, "%s: out of memory for %llu entries", name,
		               (unsigned long long)info.states);
		goto done;
	}
	bfs_space space;
	bfs_pattern_space(&space, p);
	if ((err = run_bfs(r, &info, work, &space)) || !gen_mpi_writes_db(r->o->mpi))
		goto done;   /* slidedb-gen-mpi: rank 0 has every entry and goes on alone */
	const sdb_pattern *final = p;
	if (compact) {
		fold_min(work, p);
		final = compact;
		info.states = sdb_pattern_size(compact);
	}
	count_values(&info, work);
	uint64_t bytes = pack_nibbles(work, info.states, final, r->o->threads);
	if (bytes) {
		info.entry_format = SDB_ENTRY_NIBBLE_MD;
		/* give the rest back before reserving */
		const uint64_t keep = (bytes + BIGMEM_PAGE - 1) / BIGMEM_PAGE * BIGMEM_PAGE;
		if (keep < work_bytes) {
			bigmem_free(work + keep, work_bytes - keep);
			work_bytes = keep;
		}
	} else {
		bytes = info.states;
	}
	if ((err = sdb_writer_reserve(r->wr, &data, name, bytes))) {
		run_fail_lib(r, err);
		goto done;
	}
	info.format_version = SDB_FORMAT_VERSION;   /* as sdb_writer_put_meta() will say */
	lay_out(data, work, bytes, final, info.entry_format == SDB_ENTRY_NIBBLE_MD,
	        sdb_table_layout(&info), r->o->threads);
	bigmem_free(work, work_bytes);
	work = NULL;
	err = run_put(r, &info);
done:
	bigmem_free(work, work_bytes);
	sdb_pattern_free(compact);
	return err;
}

/* The first byte where a and b differ (n bytes), or n. */
static uint64_t first_difference(const uint8_t *a, const uint8_t *b, uint64_t n)
{
	uint64_t i = 0;
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

int pdb_group_check_min(const sdb_table_info *info, const uint8_t *data, int threads,
                        progress *bar, char *why, size_t cap)
{
	sdb_pattern *p = NULL, *compact = NULL;
	uint8_t *work = NULL, *laid = NULL;
	uint64_t work_bytes = 0;
	const uint64_t bytes = sdb_table_bytes(info);
	const int nibbles = info->entry_format == SDB_ENTRY_NIBBLE_MD,
	          orders = sdb_table_layout(info) == SDB_LAYOUT_ORDERS;
	int err = sdb_pattern_new(&p, &info->goal, info->pattern, SDB_BLANK_REGION);
	if (!err)
		err = sdb_pattern_new(&compact, &info->goal, info->pattern, SDB_BLANK_MIN);
	if (!err && sdb_pattern_size(compact) != info->states)
		err = SDB_EINVAL;
	if (err) {
		snprintf(why, cap, "a min-mode group this slidedb cannot build (%s)",
		         sdb_error_detail());
		goto done;
	}
	if (!(work = bigmem_alloc(work_bytes = sdb_pattern_size(p))) ||
	    (orders && !(laid = malloc(bytes)))) {
		err = SDB_ENOMEM;
		snprintf(why, cap, "out of memory to build it again (%llu bytes), which proves a "
		         "min-mode group", (unsigned long long)(work_bytes + bytes));
		goto done;
	}
	bfs_space space;
	bfs_pattern_space(&space, p);
	bfs_result res;
	run_level_ctx levels = { bar, work_bytes };
	progress_begin(bar, info->name);
	err = bfs_run(&res, work, &space, threads, run_on_level, &levels, NULL);
	progress_end(bar);
	if (err) {
		snprintf(why, cap, "building it again failed (%s)", sdb_strerror(err));
		goto done;
	}
	fold_min(work, p);
	if (nibbles && !pack_nibbles(work, info->states, compact, threads)) {
		err = SDB_ECORRUPT;
		snprintf(why, cap, "its entries are nibbles, and the group built again does not fit "
		         "them: it is not this group");
		goto done;
	}
	if (orders)
		lay_out(laid, work, bytes, compact, nibbles, SDB_LAYOUT_ORDERS, threads);
	const uint64_t at = first_difference(orders ? laid : work, data, bytes);
	if (at < bytes) {
		err = SDB_ECORRUPT;
		snprintf(why, cap, "byte %llu of its entries differs from the group built again "
		         "(a min-mode group is proved by building it)", (unsigned long long)at);
	}
done:
	bigmem_free(work, work_bytes);
	free(laid);
	sdb_pattern_free(p);
	sdb_pattern_free(compact);
	return err;
}
