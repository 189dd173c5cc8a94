/* SPDX-License-Identifier: MIT */
/* Level-synchronous breadth-first search over an index space, in place.
 *
 * Each pass turns level k into level k+1 in one of two directions (Beamer's
 * direction-optimizing BFS): while the frontier is small, push: every entry
 * at distance k marks its unreached neighbours k+1; once the frontier is
 * large beside what is left, pull: every unreached entry looks for a
 * neighbour at distance k and stops at the first. Both give the same table;
 * pulling reads far less when most of the space is already reached.
 *
 * Full tables also store each state's best move: the first direction (u, d,
 * l, r) whose neighbour is one closer, set when the state is reached (by the
 * smallest of its parents' moves when pushed, by the first hit when pulled).
 * Concurrent writers agree on every byte, so the table is the same for any
 * number of threads. No queue: the table is the memory. */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "gen/bfs.h"
#include "gen/bfs_entry.h"
#include "gen/bigmem.h"

/* Passes hand out chunks of 4096 entries to 64 Ki (a multiple of 512, the
 * entries of a frontier word): at least 1024 chunks a pass for balance,
 * and few enough on a big table that handing them out costs nothing (with
 * a fixed 4 Ki, a 7x2 table's passes spent a measurable part of each level
 * scheduling them: bench/RESULTS.md). */
enum { MIN_CHUNK = 1 << 12, MAX_CHUNK = 1 << 16, MAX_OUT = 4 * SDB_MAX_PATTERN };

static uint64_t chunk_for(uint64_t total)
{
	uint64_t c = MIN_CHUNK;
	while (c < MAX_CHUNK && c * 1024 < total)
		c *= 2;
	return c;
}

static int resolve_threads(int threads)
{
#ifdef _OPENMP
	return threads > 0 ? threads : omp_get_max_threads();
#else
	(void)threads;
	return 1;
#endif
}

/* memset on threads: on a fresh table of gigabytes the page faults (and
 * the kernel's zeroing) are most of the work, and they run in parallel. */
static void fill(uint8_t *table, int byte, uint64_t bytes, int threads)
{
	const uint64_t part = (uint64_t)1 << 24;
	const int64_t parts = (int64_t)((bytes + part - 1) / part);
#pragma omp parallel for schedule(dynamic, 1) num_threads(resolve_threads(threads))
	for (int64_t p = 0; p < parts; p++) {
		const uint64_t lo = (uint64_t)p * part;
		memset(table + lo, byte, bytes - lo < part ? bytes - lo : part);
	}
}

/* Pull once the frontier is at least twice the unreached entries
 * (frontier * PULL_NUM >= unreached * PULL_DEN): on 3x3 and the 6-6-3
 * groups this was as fast as any ratio tried (1/4 .. 8), and pulling always
 * or never was slower; on the 7-8 set it, 8 and never were alike within the
 * machine's drift, and pulling earlier was slower (bench/RESULTS.md). */
enum { PULL_NUM = 1, PULL_DEN = 2 };

typedef struct pass {
	uint8_t *table;
	const bfs_space *sp;
	int k;              /* the level being turned into k+1 */
	int pull;           /* direction */
	uint8_t distmask;   /* the distance bits of an entry */
} pass;

static inline int is_calling_thread(void)
{
#ifdef _OPENMP
	return omp_get_thread_num() == 0;
#else
	return 1;
#endif
}

/* The first move whose neighbour is at distance d, or -1. */
static int first_at(const pass *ps, const uint64_t *nbr, int count, int d)
{
	for (int m = 0; m < count; m++)
		if (nbr[m] != UINT64_MAX && (load(&ps->table[nbr[m]]) & ps->distmask) == d)
			return m;
	return -1;
}

/* Entries are visited in batches of up to BATCH: every entry's neighbours
 * are worked out and their table bytes prefetched before any is read or
 * claimed. A claim is an atomic operation, which waits for its line before
 * the next one starts: one entry's claims alone were a chain of cache
 * misses. 16 was the best size tried on the 7-8 set and the 4x3 full table
 * (32 no better; bench/RESULTS.md). The two-bit engine's batches are these
 * too. */
enum { BATCH = 16 };

typedef struct visits {
	uint64_t id[BATCH], nbr[BATCH][MAX_OUT];
	int count[BATCH], n;
	bfs_cursor cur;
} visits;

/* Entry i's neighbours in the batch's next slot (*count of them), for the
 * engine to prefetch before it keeps the slot (visits_keep). */
static inline uint64_t *visits_next(visits *b, const bfs_space *sp, uint64_t i, int *count)
{
	b->id[b->n] = i;
	*count = sp->neighbors(sp->ctx, &b->cur, i, b->nbr[b->n]);
	return b->nbr[b->n];
}

static inline void visits_keep(visits *b, int count)
{
	b->count[b->n++] = count;
}

static void visits_add(const pass *ps, visits *b, uint64_t i)
{
	int count;
	const uint64_t *nbr = visits_next(b, ps->sp, i, &count);
	for (int j = 0; j < count; j++)
		if (nbr[j] != UINT64_MAX) {
			if (ps->pull)
				__builtin_prefetch(&ps->table[nbr[j]]);
			else
				__builtin_prefetch(&ps->table[nbr[j]], 1);   /* to own: it may claim */
		}
	visits_keep(b, count);
}

/* Push from an entry at distance k: the neighbours it claimed. */
static uint64_t push(const pass *ps, const uint64_t *nbr, int count)
{
	uint64_t claimed = 0;
	for (int j = 0; j < count; j++) {
		if (nbr[j] == UINT64_MAX)
			continue;
		if (ps->sp->best_moves)
			claimed += (uint64_t)reach_with_move(&ps->table[nbr[j]], ps->k, bfs_slot_move(ps->sp, j));
		else
			claimed += (uint64_t)claim(&ps->table[nbr[j]], (uint8_t)(ps->k + 1));
	}
	return claimed;
}

/* Pull for unreached entry i: 1 if it joins level k+1. */
static uint64_t pull(const pass *ps, uint64_t i, const uint64_t *nbr, int count)
{
	int m = first_at(ps, nbr, count, ps->k);
	if (m < 0)
		return 0;
	store(&ps->table[i], ps->sp->best_moves ? sdb_dist6_move2(ps->k + 1, bfs_slot_move(ps->sp, m))
	                                        : (uint8_t)(ps->k + 1));
	return 1;
}

/* Visit the batch's entries: the entries that joined level k+1. */
static uint64_t visits_run(const pass *ps, visits *b)
{
	uint64_t got = 0;
	for (int e = 0; e < b->n; e++)
		got += ps->pull ? pull(ps, b->id[e], b->nbr[e], b->count[e])
		                : push(ps, b->nbr[e], b->count[e]);
	b->n = 0;
	return got;
}

/* One entry of a pass: added to the batch if it acts, the batch run when
 * full. */
static inline uint64_t visit(const pass *ps, visits *b, uint64_t i, uint8_t v)
{
	if (ps->pull ? v != UNSEEN : (v & ps->distmask) != ps->k)
		return 0;
	visits_add(ps, b, i);
	return b->n == BATCH ? visits_run(ps, b) : 0;
}

/* The pass over [lo, hi); returns the entries that joined level k+1. */
static uint64_t scan_range(const pass *ps, uint64_t lo, uint64_t hi)
{
	const uint64_t mask = 0x0101010101010101ull * ps->distmask;
	uint64_t count = 0, i = lo;
	visits b;
	b.n = 0;
	bfs_cursor_init(ps->sp, &b.cur);
	for (; i + 8 <= hi; i += 8) {
		uint64_t x;
		memcpy(&x, ps->table + i, 8);   /* racy, but the bytes this pass acts on
		                                    change only by this thread */
		uint64_t hits = ps->pull ? match_bytes(x, ~0ull, UNSEEN) : match_bytes(x, mask, ps->k);
		for (; hits; hits &= hits - 1) {
			uint64_t j = i + (uint64_t)(__builtin_ctzll(hits) >> 3);
			count += visit(ps, &b, j, load(&ps->table[j]));
		}
	}
	for (; i < hi; i++)
		count += visit(ps, &b, i, load(&ps->table[i]));
	return count + visits_run(ps, &b);
}

/* The level loop both engines share: pass k over the index space in chunks
 * on threads, each chunk scanned by the engine, until a pass adds nothing.
 * begin() sets the engine's pass up for level k (its direction from the
 * counts so far); scan() returns the entries of [lo, hi) that joined k+1;
 * marks(), if any, gives the engine's marks of the groups reached at the
 * last level, for a restart. */
typedef struct engine {
	void (*begin)(void *pass, const bfs_result *res, int k, uint64_t total);
	uint64_t (*scan)(const void *pass, uint64_t lo, uint64_t hi);
	uint64_t *(*marks)(const void *pass);
	void *pass;
	uint64_t size;   /* entries of the index space */
	int max_level;   /* the first level the entry format cannot hold */
} engine;

/* Before the first level: a kept state put back by restart->load into
 * st->table and st->marks (the engine's, allocated; it overwrites them
 * whole). 1 if it did, 0 to start afresh, or an error. */
static int resume(bfs_result *res, bfs_state *st, const bfs_restart *restart)
{
	memset(res, 0, sizeof *res);
	const int got = restart && restart->load ? restart->load(restart->ctx, st) : 0;
	if (got == 1)
		*res = st->res;
	return got;
}

static int run_levels(bfs_result *res, bfs_state *st, const engine *e, int threads,
                      bfs_progress_fn *progress, void *ctx, const bfs_restart *restart)
{
	threads = resolve_threads(threads);
	const uint64_t total = e->size;
	const uint64_t chunk = chunk_for(total), nchunks = (total + chunk - 1) / chunk;
	int err = SDB_OK;
	for (int k = res->max_distance; !err; k++) {
		e->begin(e->pass, res, k, total);
		uint64_t count = 0, found = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : count) num_threads(threads)
		for (uint64_t c = 0; c < nchunks; c++) {
			uint64_t lo = c * chunk, hi = lo + chunk < total ? lo + chunk : total;
			uint64_t n = e->scan(e->pass, lo, hi);
			count += n;
			/* long levels: the calling thread reports progress as it goes */
			uint64_t so_far = __atomic_add_fetch(&found, n, __ATOMIC_RELAXED);
			if (progress && is_calling_thread())
				progress(ctx, k, res->reached + so_far);
		}
		if (progress)
			progress(ctx, k, res->reached + count);
		if (count == 0)
			break;
		if (k + 1 >= e->max_level || k + 1 >= SDB_MAX_DISTANCE)
			return SDB_ETOOBIG;   /* level k+1 would not fit the entry format */
		res->counts[k + 1] = count;
		res->max_distance = k + 1;
		res->reached += count;
		if (restart && restart->save) {
			st->res = *res;
			st->marks = e->marks ? e->marks(e->pass) : NULL;
			err = restart->save(restart->ctx, st);
		}
	}
	return err;
}

static void begin_bytes(void *arg, const bfs_result *res, int k, uint64_t total)
{
	pass *ps = arg;
	uint64_t frontier = res->counts[k], unreached = total - res->reached;
	ps->k = k;
	ps->pull = frontier * PULL_NUM >= unreached * PULL_DEN;
}

static uint64_t scan_bytes(const void *ps, uint64_t lo, uint64_t hi)
{
	return scan_range(ps, lo, hi);
}

int bfs_run(bfs_result *res, uint8_t *table, const bfs_space *sp, int threads,
            bfs_progress_fn *progress, void *ctx, const bfs_restart *restart)
{
	bfs_state st = { .table = table, .table_bytes = sp->size };
	const int resumed = resume(res, &st, restart);
	if (resumed < 0)
		return resumed;
	if (!resumed) {
		fill(table, UNSEEN, sp->size, threads);
		table[sp->start] = 0;
		res->counts[0] = res->reached = 1;
	}
	pass ps = { .table = table, .sp = sp, .distmask = dist_mask(sp->best_moves) };
	const engine e = { begin_bytes, scan_bytes, NULL, &ps, sp->size,
		           sp->best_moves ? SDB_DIST6_UNREACHED : UNSEEN };   /* the unseen marker */
	return run_levels(res, &st, &e, threads, progress, ctx, restart);
}

/* Full tables: the neighbours of an index by the four blank moves. */
static int full_neighbors(const void *ctx, bfs_cursor *cur, uint64_t index, uint64_t *out)
{
	(void)ctx;
	sdb_rank_walk_neighbors(&cur->rank, out, NULL, index);
	return 4;
}

/* ... and by every slide of the blank in the multi-tile metric. */
static int full_mtm_neighbors(const void *ctx, bfs_cursor *cur, uint64_t index, uint64_t *out)
{
	const bfs_full_ctx *f = ctx;
	sdb_rank_walk_mtm_neighbors(&cur->rank, out, index);
	return 4 * sdb_mtm_run(f->w, f->h);
}

static void full_cursor_init(const void *ctx, bfs_cursor *cur)
{
	const bfs_full_ctx *f = ctx;
	sdb_rank_walk_init(&cur->rank, f->w, f->h, f->cls);
}

void bfs_full_space(bfs_space *sp, bfs_full_ctx *ctx, int w, int h, int goal_blank)
{
	bfs_full_space_metric(sp, ctx, w, h, goal_blank, SDB_METRIC_STM);
}

void bfs_full_space_metric(bfs_space *sp, bfs_full_ctx *ctx, int w, int h, int goal_blank,
                           int metric)
{
	sdb_board goal;
	sdb_board_goal(&goal, w, h, goal_blank);
	ctx->w = w;
	ctx->h = h;
	ctx->cls = sdb_rank_class(&goal);
	memset(sp, 0, sizeof *sp);
	sp->size = sdb_rank_count(w, h);
	sp->start = sdb_board_rank(&goal);
	sp->neighbors = full_neighbors;
	sp->cursor_init = full_cursor_init;
	sp->ctx = ctx;
	sp->best_moves = 1;
	sp->run = 1;
	if (metric == SDB_METRIC_MTM) {
		sp->neighbors = full_mtm_neighbors;
		sp->run = sdb_mtm_run(w, h);
		return;
	}
	const uint64_t block = sp->size / (uint64_t)(w * h);   /* the states of one blank cell */
	if (block % 32 == 0) {
		sp->row_block = block;
		sp->row_cells = w;
	}
}

int bfs_full(bfs_result *res, uint8_t *table, int w, int h, int goal_blank, int threads,
             bfs_progress_fn *progress, void *ctx)
{
	bfs_full_ctx f;
	bfs_space sp;
	bfs_full_space(&sp, &f, w, h, goal_blank);
	return bfs_run(res, table, &sp, threads, progress, ctx, NULL);
}

/* Pattern groups: the neighbours are the moves of the group's tiles. */
static int pattern_neighbors(const void *ctx, bfs_cursor *cur, uint64_t index, uint64_t *out)
{
	(void)ctx;
	return sdb_pattern_walk_neighbors(&cur->pattern, index, out);
}

static void pattern_cursor_init(const void *ctx, bfs_cursor *cur)
{
	sdb_pattern_walk_init(&cur->pattern, ctx);   /* (a region pattern: it cannot fail) */
}

void bfs_pattern_space(bfs_space *sp, const sdb_pattern *p)
{
	memset(sp, 0, sizeof *sp);
	sp->size = sdb_pattern_size(p);
	sp->start = sdb_pattern_goal_index(p);
	sp->neighbors = pattern_neighbors;
	sp->cursor_init = pattern_cursor_init;
	sp->ctx = p;
	sp->pattern = p;
}

/* --- Two bits per state: the distance modulo 3 (issue #11).
 *
 * Values 0, 1, 2 are the distance mod 3 and 3 is "unreached", four states
 * to a byte, low bits first. Pass k turns level k into k+1 without knowing
 * any distance whole: an unreached state whose neighbour holds k mod 3 is at
 * k+1, because no neighbour of an unreached state is closer than k (pull);
 * and every state holding k mod 3 may mark its unreached neighbours k+1,
 * because a state at k-3, k-6, ... has none left (push). Each state's value
 * is its distance mod 3 whoever writes it, so the bytes are the same for any
 * number of threads. */

/* The entries a match2() result holds: a popcount of bit pairs without
 * the libgcc call __builtin_popcountll is where POPCNT is not assumed. */
static inline uint64_t count2(uint64_t m)
{
	m = (m & 0x3333333333333333ull) + (m >> 2 & 0x3333333333333333ull);
	m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (m * 0x0101010101010101ull) >> 56;
}

/* Which entries a push must expand: one bit per group of 8 entries (two
 * bytes of the table) that holds an entry reached at the last level. Without
 * them a push would expand every entry holding k mod 3, levels k-3, k-6, ...
 * included: each state several times over a build instead of about once
 * (bench/RESULTS.md). Two sets (this level's, the next one's) cost an eighth
 * of the table together. */
enum { GROUP_SHIFT = 3, WORD_SHIFT = GROUP_SHIFT + 6 };   /* 8 entries a bit, 512 a word */

typedef struct pass2 {
	uint8_t *table;
	const bfs_space *sp;
	unsigned cur, next;    /* k mod 3, (k+1) mod 3 */
	int pull;
	int sweep;             /* horizontal moves a word at a time (row_block) */
	uint64_t bytes;        /* of the table */
	uint64_t *front;       /* groups with an entry at level k: expanded, then cleared */
	uint64_t *reached;     /* groups with an entry reached at level k+1 */
	uint64_t words;        /* of each set */
} pass2;

/* Neighbours claimed together often share a group: a plain read first
 * spares most of the locked writes (a fifth of a 7x2 build's time when each
 * was locked). */
static inline void mark_groups(const pass2 *ps, uint64_t word, uint64_t bits)
{
	uint64_t *p = &ps->reached[word];
	if ((__atomic_load_n(p, __ATOMIC_RELAXED) & bits) != bits)
		__atomic_fetch_or(p, bits, __ATOMIC_RELAXED);
}

/* Entry n joins level k+1 if no other thread took it first; 1 if it did. */
static inline uint64_t reach2(const pass2 *ps, uint64_t n)
{
	if (!claim2(ps->table, n, ps->next))
		return 0;
	mark_groups(ps, n >> WORD_SHIFT, 1ull << ((n >> GROUP_SHIFT) & 63));
	return 1;
}

/* --- Horizontal moves a word at a time (bfs_space.row_block).
 *
 * Entry i and entry i +- row_block are the same tiles with the blank one
 * cell apart: table word t (entries 32t .. 32t+31) faces word t +- row_block
 * / 32 entry for entry, so a push claims a word's unreached entries whose
 * partners hold k mod 3 with one compare and one atomic AND, and a pull
 * finds them the same way. The walk is left only the vertical moves: on
 * 7x2, one of a state's 2.7 moves. Every word of a table with a row_block
 * lies whole inside one blank cell's block and inside the table.
 *
 * Table words are read and claimed as 64-bit atomics, beside the byte
 * atomics of claim2() on the same memory: both are locked read-modify-
 * writes of one cache line on the machines this runs on. */

static inline uint64_t *table_word(const pass2 *ps, uint64_t t)
{
	return (uint64_t *)(void *)ps->table + t;
}

/* Table word t: entries 32t .. 32t+31. Past the table's last byte (its
 * size need not be a multiple of 8) entries read as unreached. */
static inline uint64_t load_word(const pass2 *ps, uint64_t t)
{
	if (t < ps->bytes / 8)
		return __atomic_load_n(table_word(ps, t), __ATOMIC_RELAXED);
	uint64_t x = ~0ull;
	for (uint64_t byte = t << 3, j = 0; byte + j < ps->bytes; j++)
		x &= ~(0xffull << (8 * j)) | (uint64_t)load(&ps->table[byte + j]) << (8 * j);
	return x;
}

/* The bits of match2() for the first n entries of a word. */
static inline uint64_t entries_before(uint64_t n)
{
	return n >= 32 ? 0x5555555555555555ull : ((1ull << (2 * n)) - 1) & 0x5555555555555555ull;
}

/* Claim for level k+1 the entries of table word t that want holds (bit 2j
 * for entry j), each seen unreached: the entries this call reached, their
 * groups marked. Others may reach some meanwhile, with the same value. */
static uint64_t claim_word(const pass2 *ps, uint64_t t, uint64_t want)
{
	const unsigned lose = UNSEEN2 ^ ps->next;   /* the bits an entry clears */
	const uint64_t bits = (lose & 1 ? want : 0) | (lose & 2 ? want << 1 : 0);
	const uint64_t got = want & match2(__atomic_fetch_and(table_word(ps, t), ~bits,
	                                                      __ATOMIC_RELAXED), UNSEEN2);
	if (!got)
		return 0;
	mark_groups(ps, t >> 4, (uint64_t)groups_of(got) << ((t & 15) * 4));
	return count2(got);
}

/* The blank cell of the entries a scan is at: [start, end) and whether
 * it has a cell on its left and on its right in its row. Moved on with a
 * division only when the scan enters another cell's block. */
typedef struct cell_span {
	uint64_t start, end;
	int left, right;
} cell_span;

static inline void span_at(const pass2 *ps, cell_span *c, uint64_t i)
{
	if (i >= c->start && i < c->end)
		return;
	const uint64_t block = ps->sp->row_block, cell = i / block;
	const int x = (int)(cell % (uint64_t)ps->sp->row_cells);
	c->start = cell * block;
	c->end = c->start + block;
	c->left = x > 0;
	c->right = x < ps->sp->row_cells - 1;
}

/* Push from the entries of word t that from holds (bit 2j for entry j):
 * claim their partners in the cells left and right. */
static uint64_t push_across(const pass2 *ps, const cell_span *c, uint64_t t, uint64_t from)
{
	const uint64_t apart = ps->sp->row_block >> 5;   /* words */
	uint64_t got = 0, want;
	if (c->left && (want = from & match2(load_word(ps, t - apart), UNSEEN2)))
		got += claim_word(ps, t - apart, want);
	if (c->right && (want = from & match2(load_word(ps, t + apart), UNSEEN2)))
		got += claim_word(ps, t + apart, want);
	return got;
}

/* Of the entries of word t that unseen holds, those whose partner left or
 * right holds k mod 3. */
static uint64_t pull_across(const pass2 *ps, const cell_span *c, uint64_t t, uint64_t unseen)
{
	const uint64_t apart = ps->sp->row_block >> 5;
	uint64_t hit = 0;
	if (c->left)
		hit |= match2(load_word(ps, t - apart), ps->cur);
	if (c->right)
		hit |= match2(load_word(ps, t + apart), ps->cur);
	return hit & unseen;
}

/* Entries are visited in batches of up to BATCH (visits): every entry's neighbours
 * are computed and their table bytes prefetched before any is read, so that
 * the cache misses of a large table overlap (the claims' atomic operations
 * would otherwise wait for each miss in turn); a 7x2 table is 10.9 GB.
 * Batches of 8 and 16 measured alike on 7x2. A push also prefetches the
 * table lines of the marked groups LOOKAHEAD mark words (2048 entries)
 * ahead of its scan. */
enum { LOOKAHEAD = 4 };

static void batch_add(const pass2 *ps, visits *b, uint64_t i)
{
	int count;
	const uint64_t *nbr = visits_next(b, ps->sp, i, &count);
	if (ps->sweep)
		count = SDB_LEFT;   /* u and d only: the sweep has l and r */
	/* a push writes what it reads (with its group's mark): fetch the lines
	 * to own, or each claim waits again for them */
	if (ps->pull) {
		for (int j = 0; j < count; j++)
			if (nbr[j] != UINT64_MAX)
				__builtin_prefetch(&ps->table[nbr[j] >> 2]);
	} else {
		for (int j = 0; j < count; j++)
			if (nbr[j] != UINT64_MAX) {
				__builtin_prefetch(&ps->table[nbr[j] >> 2], 1);
				__builtin_prefetch(&ps->reached[nbr[j] >> WORD_SHIFT], 1);
			}
	}
	visits_keep(b, count);
}

/* Visit the batch's entries: push marks their unreached neighbours, pull
 * takes an entry whose neighbour holds k mod 3. The entries that joined
 * level k+1. */
static uint64_t batch_run(const pass2 *ps, visits *b)
{
	uint64_t got = 0;
	for (int e = 0; e < b->n; e++) {
		const uint64_t *nbr = b->nbr[e];
		for (int j = 0; j < b->count[e]; j++) {
			if (nbr[j] == UINT64_MAX)
				continue;
			const unsigned v = get2(ps->table, nbr[j]);
			if (!ps->pull && v == UNSEEN2) {
				got += reach2(ps, nbr[j]);
			} else if (ps->pull && v == ps->cur) {
				got += reach2(ps, b->id[e]);
				break;
			}
		}
	}
	b->n = 0;
	return got;
}

/* Add entry i to the batch, running it when full. */
static inline uint64_t visit2(const pass2 *ps, visits *b, uint64_t i)
{
	batch_add(ps, b, i);
	return b->n == BATCH ? batch_run(ps, b) : 0;
}

/* Pull: every unreached entry of [lo, hi), lo a multiple of 32. */
static uint64_t pull_range(const pass2 *ps, uint64_t lo, uint64_t hi)
{
	visits b;
	b.n = 0;
	bfs_cursor_init(ps->sp, &b.cur);
	cell_span span = { 0, 0, 0, 0 };
	uint64_t count = 0;
	for (uint64_t i = lo; i < hi; i += 32) {
		const uint64_t t = i >> 5;   /* only this thread writes its entries in a pull */
		uint64_t unseen = match2(load_word(ps, t), UNSEEN2) & entries_before(hi - i);
		if (ps->sweep && unseen) {
			span_at(ps, &span, i);
			const uint64_t hit = pull_across(ps, &span, t, unseen);
			if (hit) {
				count += claim_word(ps, t, hit);
				unseen &= ~hit;
			}
		}
		for (; unseen; unseen &= unseen - 1)
			count += visit2(ps, &b, i + (uint64_t)(__builtin_ctzll(unseen) >> 1));
	}
	return count + batch_run(ps, &b);
}

/* Push: the entries holding k mod 3 in the marked groups of [lo, hi), lo a
 * multiple of 512, table word by table word; the marks are cleared as they
 * are read. */
static uint64_t push_range(const pass2 *ps, uint64_t lo, uint64_t hi)
{
	visits b;
	b.n = 0;
	bfs_cursor_init(ps->sp, &b.cur);
	cell_span span = { 0, 0, 0, 0 };
	uint64_t count = 0;
	const uint64_t end_word = (hi + (1u << WORD_SHIFT) - 1) >> WORD_SHIFT;
	for (uint64_t w = lo >> WORD_SHIFT; w < end_word; w++) {
		/* the table lines of the marked groups a few words on: the marks
		 * are last level's claims, so those lines are cold */
		if (w + LOOKAHEAD < end_word && __atomic_load_n(&ps->front[w + LOOKAHEAD], __ATOMIC_RELAXED)) {
			const uint8_t *ahead = ps->table + ((w + LOOKAHEAD) << (WORD_SHIFT - 2));
			__builtin_prefetch(ahead);
			__builtin_prefetch(ahead + 64);
		}
		const uint64_t bits = __atomic_load_n(&ps->front[w], __ATOMIC_RELAXED);
		if (!bits)
			continue;
		__atomic_store_n(&ps->front[w], 0, __ATOMIC_RELAXED);
		for (int q = 0; q < 16; q++) {   /* its table words */
			const unsigned groups = (unsigned)(bits >> (4 * q)) & 0xf;
			if (!groups)
				continue;
			const uint64_t t = (w << 4) + (uint64_t)q;
			uint64_t from = entries_of(groups) & match2(load_word(ps, t), ps->cur);
			if (ps->sweep && from) {
				span_at(ps, &span, t << 5);
				count += push_across(ps, &span, t, from);
			}
			for (; from; from &= from - 1)
				count += visit2(ps, &b, (t << 5) + (uint64_t)(__builtin_ctzll(from) >> 1));
		}
	}
	return count + batch_run(ps, &b);
}

/* Push from the marked groups while the frontier is smaller than what is
 * left unreached, then pull. */
static void begin_2bit(void *arg, const bfs_result *res, int k, uint64_t total)
{
	pass2 *ps = arg;
	const uint64_t unreached = total - res->reached;
	uint64_t *t = ps->front;   /* last pass's reached groups are this pass's front */
	ps->front = ps->reached;
	ps->reached = t;
	if (ps->pull)   /* a push clears its front as it goes, a pull does not */
		memset(ps->reached, 0, ps->words * sizeof *ps->reached);
	ps->cur = (unsigned)(k % 3);
	ps->next = (unsigned)((k + 1) % 3);
	/* 2, 4 or 8 times the frontier: slower before the sweep; 2 and 4 alike
	 * with it (6x2, 4x3) */
	ps->pull = unreached <= res->counts[k];
}

static uint64_t scan_2bit(const void *arg, uint64_t lo, uint64_t hi)
{
	const pass2 *ps = arg;   /* lo: a multiple of the chunk, so of 512 */
	return ps->pull ? pull_range(ps, lo, hi) : push_range(ps, lo, hi);
}

static uint64_t *marks_2bit(const void *arg)
{
	return ((const pass2 *)arg)->reached;   /* the next pass's front */
}

uint64_t bfs_2bit_mark_bytes(uint64_t size)
{
	return ((size >> WORD_SHIFT) + 1) * sizeof(uint64_t);
}

int bfs_run_2bit(bfs_result *res, uint8_t *table, const bfs_space *sp, int threads,
                 bfs_progress_fn *progress, void *ctx, const bfs_restart *restart)
{
	memset(res, 0, sizeof *res);
	const uint64_t set_bytes = bfs_2bit_mark_bytes(sp->size);
	pass2 ps = { .table = table, .sp = sp, .words = set_bytes / sizeof *ps.front,
		     .sweep = sp->row_block > 0, .bytes = bfs_2bit_bytes(sp->size) };
	ps.front = bigmem_alloc(set_bytes);
	ps.reached = bigmem_alloc(set_bytes);
	int err = SDB_ENOMEM;
	bfs_state st = { .table = table, .table_bytes = ps.bytes, .marks = ps.reached,
		         .mark_bytes = set_bytes };
	if (ps.front && ps.reached && (err = resume(res, &st, restart)) == 0) {
		fill(table, UNSEEN, ps.bytes, threads);
		table[sp->start >> 2] &= (uint8_t)~(3u << ((sp->start & 3) * 2));   /* distance 0 */
		res->counts[0] = res->reached = 1;
		/* level 0's group, as if reached by a pass before the first (a
		 * restart has put its own marks there instead) */
		ps.reached[sp->start >> WORD_SHIFT] |= 1ull << ((sp->start >> GROUP_SHIFT) & 63);
	}
	if (err >= 0 && ps.front && ps.reached) {
		const engine e = { begin_2bit, scan_2bit, marks_2bit, &ps, sp->size, SDB_MAX_DISTANCE };
		err = run_levels(res, &st, &e, threads, progress, ctx, restart);
	}
	bigmem_free(ps.front, set_bytes);
	bigmem_free(ps.reached, set_bytes);
	return err;
}

int bfs_full_2bit(bfs_result *res, uint8_t *table, int w, int h, int goal_blank, int threads,
                  bfs_progress_fn *progress, void *ctx)
{
	bfs_full_ctx f;
	bfs_space sp;
	bfs_full_space(&sp, &f, w, h, goal_blank);
	return bfs_run_2bit(res, table, &sp, threads, progress, ctx, NULL);
}
