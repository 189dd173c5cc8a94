/* SPDX-License-Identifier: MIT */
/* The IDA* engine's node level (engine.c): one thread's depth-first search
 * under a bound, the state changed in place and back, and the cut of an
 * iteration into subtrees. The iterations, their threads and the split API
 * of slidedb_engine.h are solve.c's. Internal to the answer layer. */
#ifndef SLIDEDB_ANSWER_ENGINE_H
#define SLIDEDB_ANSWER_ENGINE_H

#include <stdatomic.h>

#include "answer/heuristic.h"
#include "answer/mtm_split.h"

enum {
	CHECK_EVERY = 1 << 14,         /* nodes between looks at the clock */
	PUBLISH_EVERY = 1 << 10,       /* nodes between updates of the shared count */
	/* what a search (dfs) ends with; 0: the bound searched, no goal */
	FOUND = 1, STOPPED = 2, NEXT_FIRST = 3, LIMIT_DONE = 4, ABANDONED = 5,
};

/* What a view (plain or mirrored) keeps of the state. */
typedef struct view {
	uint8_t cell[SDB_MAX_CELLS];       /* tile of each cell, in the view's labels */
	uint64_t mask[SDB_MAX_GROUPS];     /* cells of each group's tiles */
	uint8_t md[SDB_MAX_GROUPS];        /* their Manhattan sum */
	uint8_t part[SDB_MAX_GROUPS];      /* the group's entry */
	uint32_t comb[SDB_MAX_GROUPS];     /* its index's parts (sdbi_pattern_rank_parts) */
	uint32_t order[SDB_MAX_GROUPS];
	int sum[SDB_MAX_SETS];             /* each set's bound */
} view;

/* The search's fixed facts, shared by its threads. */
typedef struct engine {
	const sdb_heuristic *h;
	int n, views, nsets;
	int manhattan;
	int8_t nbr[SDB_MAX_CELLS][4];       /* blank's cell -> its cell after move m, or -1 */
	int8_t group[SDB_MAX_SETS][SDB_MAX_CELLS];   /* set -> tile -> group, or -1 (either
	                                                view: the mirror relabels tiles) */
	uint8_t dist[SDB_MAX_CELLS][SDB_MAX_CELLS];  /* tile -> cell -> to its goal */
	uint8_t tcell[SDB_MAX_CELLS];       /* cell -> transposed cell */
	uint8_t mlabel[SDB_MAX_CELLS];      /* tile -> mirrored tile */
	uint8_t goal[SDB_MAX_CELLS];
	int goal_blank;
	uint8_t order[4];                   /* frame moves in the caller's order u d l r */
	uint8_t back[4];                    /* frame move -> caller's move */
	const uint32_t (*dup)[4];           /* the duplicate-word automaton (prune.h) */
	int others;                         /* entries beside the plain first set's (a mirror,
	                                       other sets) */
	int others_early;                   /* those fetched with the first (engine.c says when) */
	const sdbi_mtm_split *mtm;          /* the multi-tile metric's tables (engine_mtm.c), or
	                                       NULL: single-tile moves */
	const sdbi_mtm_walk *walk;          /* and its walking distance, or NULL */
	int run;                            /* the most cells one move slides */
} engine;

/* What the threads of one search share. */
typedef struct shared {
	const engine *e;
	const sdb_solve_limits *limits;
	uint64_t max_nodes;
	double started, deadline;
	int prune;                          /* duplicate words pruned (not when enumerating) */
	sdbi_optimal *en;                   /* enumerating every optimal sequence, or NULL */
	_Atomic uint64_t nodes;             /* published by every thread */
	atomic_int stop;                    /* STOPPED: a limit; set once */
	int polled_stop;
	atomic_int first_found;             /* a split iteration's subtrees after this one
	                                       are abandoned (INT_MAX: none) */
} shared;

/* One thread's search: the state, followed in place. */
typedef struct worker {
	shared *s;
	const engine *e;
	view v[2];
	int blank;
	int bound, next_bound;
	uint64_t nodes, pending;            /* all, and not yet published */
	unsigned publishes;
	int subtree;                        /* the subtree being searched, or -1 */
	int main_thread;                    /* the caller's: it alone calls the poll */
	int found_depth;
	uint8_t path[SDB_MAX_MOVES];        /* frame moves (multi-tile: sdbi_mtm_step) */
	sdb_hstate *hs;                     /* Manhattan: one per depth */
	uint8_t pos[2][SDB_MAX_CELLS];      /* multi-tile: each tile's cell in each view */
	uint64_t walk_key[2];               /* and its walking distance's rows, columns */
} worker;

/* What a move changed in the views, to change it back. */
typedef struct undo {
	uint8_t md[2][SDB_MAX_SETS], part[2][SDB_MAX_SETS];
	uint32_t comb[2][SDB_MAX_SETS], order[2][SDB_MAX_SETS];
	int sum[2][SDB_MAX_SETS];
} undo;

/* The nodes of an iteration at a depth, in order, as paths of frame moves:
 * its subtrees. A goal met above the depth ends the list (goal_at). */
typedef struct frontier {
	uint8_t *paths;
	int n, cap, depth;
	int goal_at;   /* the subtree index a goal above the depth takes, or -1 */
	uint8_t goal_path[SDB_MAX_MOVES];
	int goal_depth;
} frontier;

/* A worker moved down a subtree's path, to be moved back. */
typedef struct descent {
	int depth, prev;
	unsigned dup;    /* the duplicate automaton's state after the path */
	int from[SDB_MAX_MOVES];
	undo u[SDB_MAX_MOVES];
} descent;

double sdbi_now(void);

/* Every CHECK_EVERY nodes: the clock, the tables' check, the caller's poll.
 * 1 to stop. */
int sdbi_checkpoint(worker *w);

/* Count a node; STOPPED at a limit, ABANDONED when an earlier subtree has
 * found a solution. The shared count is published every PUBLISH_EVERY nodes
 * a thread, so several threads may pass max_nodes by that much each. */
static inline int sdbi_count_node(worker *w)
{
	shared *s = w->s;
	if (s->max_nodes &&
	    w->pending + atomic_load_explicit(&s->nodes, memory_order_relaxed) >= s->max_nodes) {
		atomic_store(&s->stop, STOPPED);
		return STOPPED;
	}
	w->nodes++;
	if (++w->pending < PUBLISH_EVERY)
		return 0;
	atomic_fetch_add_explicit(&s->nodes, w->pending, memory_order_relaxed);
	w->pending = 0;
	if (++w->publishes % (CHECK_EVERY / PUBLISH_EVERY) == 0 && sdbi_checkpoint(w))
		atomic_store(&s->stop, STOPPED);
	if (atomic_load_explicit(&s->stop, memory_order_relaxed))
		return STOPPED;
	if (w->subtree >= 0 && atomic_load_explicit(&s->first_found, memory_order_relaxed) < w->subtree)
		return ABANDONED;
	return 0;
}

/* An optimal sequence of g moves found while enumerating, its first move
 * first (the caller's, -1 at the goal), its letters written by letters()
 * only when they are wanted: 0, or what the enumeration ends with
 * (STOPPED, LIMIT_DONE, NEXT_FIRST). */
int sdbi_visit(worker *w, int g, int first, int (*letters)(const worker *w, int g, char *out));

/* The letters (the caller's) of w->path[0 .. depth): their number. */
int sdbi_path_letters(const worker *w, int depth, char *out);

/* The multi-tile metric's node level (engine_mtm.c): as the functions
 * below, which call them when e->mtm is set. A move in a path is
 * sdbi_mtm_step(m, k): the blank k cells in frame direction m. */
static inline uint8_t sdbi_mtm_step(int m, int k)
{
	return (uint8_t)(m | (k - 1) << 2);
}
int sdbi_mtm_worker_start(worker *w, const sdb_board *plain);
int sdbi_mtm_dfs(worker *w, int g, int prev);
int sdbi_mtm_collect(worker *w, frontier *f);
void sdbi_mtm_descend(worker *w, const uint8_t *path, int depth, descent *d);
void sdbi_mtm_ascend(worker *w, const descent *d);
int sdbi_mtm_letters(const worker *w, int depth, char *out);

/* The engine of h, searching in frame towards goal_in_frame. */
void sdbi_engine_init(engine *e, const sdb_heuristic *h, const sdb_frame *frame,
                      const sdb_board *goal_in_frame);

/* w at start (the caller's board); its h, or an error. */
int sdbi_worker_start(worker *w, shared *s, const sdb_frame *frame, const sdb_board *start);

/* IDA*'s depth-first search from w's state at depth g under w->bound
 * (prev: the last move, or -1; dup: the duplicate automaton's state after
 * the path, prune.h): 0,
 * FOUND (the path in w->path[0..w->found_depth)), STOPPED, ABANDONED, or
 * while enumerating NEXT_FIRST and LIMIT_DONE. */
int sdbi_dfs(worker *w, int g, int prev, unsigned dup);

/* Fill f with the nodes at depth f->depth under w->bound (f->n, f->paths;
 * f->goal_at), lowering w->next_bound for the nodes cut: 0 or SDB_ENOMEM. */
int sdbi_collect(worker *w, frontier *f);

/* The goal, met at depth above f->depth by path: a subtree of its own, in
 * its place (f->goal_at). */
void sdbi_frontier_goal(frontier *f, const uint8_t *path, int depth);

/* A path of f->depth moves appended to f: 0 or SDB_ENOMEM. */
int sdbi_frontier_add(frontier *f, const uint8_t *path);

/* Move w down path (depth moves, taken from a frontier) and back. */
void sdbi_descend(worker *w, const uint8_t *path, int depth, descent *d);
void sdbi_ascend(worker *w, const descent *d);

#endif
