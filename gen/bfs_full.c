/* Level-synchronous breadth-first search over the index space of a full table.
 *
 * Level k scans the table for entries at distance k and expands each: every
 * neighbour not yet reached gets distance k+1, and the state's own best move
 * is the first direction (u, d, l, r) whose neighbour is at distance k-1.
 * Concurrent writers of one entry always store the same byte, and a state's
 * best-move bits are written only by the thread expanding it, so the table is
 * the same for any number of threads. No queue: working memory is the table.
 *
 * Neighbour indices come from sdb_rank_neighbors(): one decode of the index,
 * then O(1) per horizontal move and O(W) per vertical one. */
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bfs_full.h"

enum { DIST_MASK = 0x3f, UNSEEN = 0xff, CHUNK = 1 << 12 };

static inline uint8_t load(const uint8_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void store(uint8_t *p, uint8_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* Expand state i, at distance k, of class cls. */
static void expand(uint8_t *table, uint64_t i, int k, int w, int h, int cls)
{
	uint64_t nbr[4];
	sdb_rank_neighbors(nbr, NULL, w, h, cls, i);
	int best = 0, found = k == 0;
	for (int m = 0; m < 4; m++) {
		if (nbr[m] == UINT64_MAX)
			continue;
		uint8_t v = load(&table[nbr[m]]);
		if (v == UNSEEN)
			store(&table[nbr[m]], (uint8_t)(k + 1));
		else if (!found && (v & DIST_MASK) == k - 1) {
			best = m;
			found = 1;
		}
	}
	if (k > 0)
		store(&table[i], (uint8_t)(k | best << 6));
}

/* Bit 7 of each byte of the result is set where the byte of x holds
 * distance k (SWAR compare of 8 entries at once; exact, no false hits). */
static inline uint64_t match_bytes(uint64_t x, int k)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	uint64_t y = (x & 0x3f3f3f3f3f3f3f3full) ^ (0x0101010101010101ull * (uint64_t)k);
	return ~(((y & low7) + low7) | y | low7);
}

/* Expand every entry at distance k in [lo, hi); returns how many. */
static uint64_t scan_range(uint8_t *table, uint64_t lo, uint64_t hi, int k, int w, int h,
                           int cls)
{
	uint64_t count = 0, i = lo;
	for (; i + 8 <= hi; i += 8) {
		uint64_t x;
		memcpy(&x, table + i, 8);   /* a racy read is fine: only k-entries matter,
		                                and no other thread changes those */
		for (uint64_t hits = match_bytes(x, k); hits; hits &= hits - 1) {
			expand(table, i + (uint64_t)(__builtin_ctzll(hits) >> 3), k, w, h, cls);
			count++;
		}
	}
	for (; i < hi; i++)
		if ((load(&table[i]) & DIST_MASK) == k) {
			expand(table, i, k, w, h, cls);
			count++;
		}
	return count;
}

int bfs_full(bfs_result *res, uint8_t *table, int w, int h, int goal_blank, int threads,
             bfs_progress_fn *progress, void *ctx)
{
	const uint64_t total = sdb_rank_count(w, h);
	sdb_board goal;
	sdb_board_goal(&goal, w, h, goal_blank);
	const int cls = sdb_rank_class(&goal);
	memset(res, 0, sizeof *res);
	memset(table, UNSEEN, total);
	table[sdb_rank(&goal)] = 0;
#ifdef _OPENMP
	if (threads <= 0)
		threads = omp_get_max_threads();
#else
	(void)threads;
#endif
	uint64_t reached = 1;
	for (int k = 0;; k++) {
		if (k >= SDB_MAX_DISTANCE - 2)
			return SDB_ETOOBIG;   /* k+1 would collide with the unseen marker */
		uint64_t count = 0;
		const uint64_t nchunks = (total + CHUNK - 1) / CHUNK;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : count) num_threads(threads)
		for (uint64_t c = 0; c < nchunks; c++) {
			uint64_t lo = c * CHUNK, hi = lo + CHUNK < total ? lo + CHUNK : total;
			count += scan_range(table, lo, hi, k, w, h, cls);
		}
		if (count == 0)
			break;
		res->counts[k] = count;
		res->max_distance = k;
		reached += count;
		if (progress)
			progress(ctx, k, reached - count);
	}
	return SDB_OK;
}
