/* SPDX-License-Identifier: MIT */
/* One breadth-first search over an index space, shared by every table the
 * generator builds: full tables and pattern databases. */
#ifndef SLIDEDB_GEN_BFS_H
#define SLIDEDB_GEN_BFS_H

#include <stdint.h>

#include "slidedb_engine.h"

/* Called by the search as it goes (from the calling thread only, often:
 * rate-limit the display): the level being worked on and the states reached
 * so far. */
typedef void bfs_progress_fn(void *ctx, int level, uint64_t states_reached);

/* What a space's neighbours keep between the calls of one thread, if
 * anything: a full table's rank walk (consecutive indices unrank in a digit
 * or two), a pattern's walk (a block's moves worked out once). Set up with
 * bfs_cursor_init() before a scan. */
typedef union bfs_cursor {
	sdb_rank_walk rank;
	sdb_pattern_walk pattern;
} bfs_cursor;

/* Writes the neighbours of index into out (room for 4 * SDB_MAX_PATTERN)
 * and returns how many. With best_moves, slots m * run .. m * run + run - 1
 * hold the neighbours reached by blank move m (one cell, then more in the
 * multi-tile metric), or UINT64_MAX. */
typedef int bfs_neighbors_fn(const void *ctx, bfs_cursor *cur, uint64_t index, uint64_t *out);

typedef struct bfs_space {
	uint64_t size;                /* entries */
	uint64_t start;               /* the goal's index: distance 0 */
	bfs_neighbors_fn *neighbors;
	void (*cursor_init)(const void *ctx, bfs_cursor *cur);   /* NULL: nothing kept */
	const void *ctx;
	int best_moves;               /* entries SDB_ENTRY_DIST6_MOVE2, else SDB_ENTRY_DIST8 */
	int run;                      /* best_moves: neighbour slots a direction (1, or
	                                 sdb_mtm_run() in the multi-tile metric) */
	/* Full tables: a horizontal move of the blank keeps the tiles' order,
	 * so it changes only the blank's cell, the index's leading part: the
	 * neighbours in slots SDB_LEFT and SDB_RIGHT are index - row_block and
	 * index + row_block, the cells (index / row_block) in rows of
	 * row_cells. The two-bit engine compares and claims those 32 entries
	 * a word at a time instead of through neighbors() when row_block is a
	 * multiple of 32; 0 otherwise (pattern groups, boards under 9 cells). */
	uint64_t row_block;
	int row_cells;
	const sdb_pattern *pattern;   /* a pattern group's space (NULL: a full table's) */
} bfs_space;

/* The direction of neighbour slot j of a space with best moves (no
 * division on the single-tile metric's hot path). */
static inline int bfs_slot_move(const bfs_space *sp, int j)
{
	return sp->run == 1 ? j : j / sp->run;
}

static inline void bfs_cursor_init(const bfs_space *sp, bfs_cursor *cur)
{
	if (sp->cursor_init)
		sp->cursor_init(sp->ctx, cur);
}

typedef struct bfs_result {
	uint64_t counts[SDB_MAX_DISTANCE];   /* states at each distance */
	int max_distance;
	uint64_t reached;
} bfs_result;

/* Restartable levels. After each level the engine hands its whole state
 * to save() (which may keep it, or let it go); before the first, load() may
 * put a kept state back, and the search goes on from there with the same
 * bytes as one that never stopped. The state is the table, the counts so
 * far and, for two-bit tables, the marks of the groups reached at the last
 * level (bfs_2bit_mark_bytes()). */
typedef struct bfs_state {
	bfs_result res;      /* counts up to res.max_distance, the last level done */
	uint8_t *table;
	uint64_t table_bytes;
	uint64_t *marks;     /* two-bit tables; NULL for bytes */
	uint64_t mark_bytes;
} bfs_state;

typedef struct bfs_restart {
	/* Fill st->res, and st->table and st->marks (allocated, of
	 * st->table_bytes and st->mark_bytes) whole, from a kept state: 1 if
	 * it did, 0 (touching nothing) to start afresh, or an SDB_E* code. */
	int (*load)(void *ctx, bfs_state *st);
	/* A level is done; 0 to go on, or an SDB_E* code to stop the search. */
	int (*save)(void *ctx, const bfs_state *st);
	void *ctx;
} bfs_restart;

/* Fill table (space->size bytes) with the distance from space->start of every
 * index reached, and with best_moves the first move (u, d, l, r order) to a
 * neighbour one closer; unreached entries stay 0xff. The bytes are the same
 * for any thread count (threads <= 0: every core). Returns 0, SDB_ETOOBIG
 * when a distance does not fit the entry format, or what restart's
 * functions returned (restart may be NULL). */
int bfs_run(bfs_result *res, uint8_t *table, const bfs_space *space, int threads,
            bfs_progress_fn *progress, void *ctx, const bfs_restart *restart);

/* The index space of the full table of W x H for the canonical goal with the
 * blank in goal_blank (ctx is filled and must outlive the space). */
typedef struct bfs_full_ctx {
	int w, h, cls;
} bfs_full_ctx;
void bfs_full_space(bfs_space *sp, bfs_full_ctx *ctx, int w, int h, int goal_blank);

/* The same space in metric (enum sdb_metric): in the multi-tile metric a
 * state's neighbours are every slide of the blank along its row and column
 * (4 * sdb_mtm_run() slots), and the two-bit engine's row shortcut is off
 * (row_block 0: a slide of k cells is k blocks away, not one). Every move
 * can still be undone, so neighbours' distances differ by at most one: the
 * level rules of both engines hold as they are (bfs.c). */
void bfs_full_space_metric(bfs_space *sp, bfs_full_ctx *ctx, int w, int h, int goal_blank,
                           int metric);

/* The index space of a pattern group (region mode); p must outlive it. */
void bfs_pattern_space(bfs_space *sp, const sdb_pattern *p);

/* The full table of W x H for the canonical goal with the blank in
 * goal_blank, format SDB_ENTRY_DIST6_MOVE2 (sdb_rank_count(w, h) bytes). */
int bfs_full(bfs_result *res, uint8_t *table, int w, int h, int goal_blank, int threads,
             bfs_progress_fn *progress, void *ctx);

/* Bytes of a two-bit table of n states: four states a byte. */
static inline uint64_t bfs_2bit_bytes(uint64_t n)
{
	return (n + 3) / 4;
}

/* The same search in two bits per state (bfs_2bit_bytes(space->size) bytes):
 * state i holds its distance mod 3 in bits 2(i%4) .. 2(i%4)+1 of byte i/4,
 * 3 when unreached; no best move (it is the neighbour holding the distance
 * minus one, mod 3). res gets the same counts as bfs_run(). The bytes are the
 * same for any thread count. */
int bfs_run_2bit(bfs_result *res, uint8_t *table, const bfs_space *space, int threads,
                 bfs_progress_fn *progress, void *ctx, const bfs_restart *restart);

/* The bytes of a two-bit search's marks (bfs_state.marks). */
uint64_t bfs_2bit_mark_bytes(uint64_t size);

/* The full table of W x H in two bits per state, as bfs_full(). */
int bfs_full_2bit(bfs_result *res, uint8_t *table, int w, int h, int goal_blank, int threads,
                  bfs_progress_fn *progress, void *ctx);

#endif
