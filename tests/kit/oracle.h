/* SPDX-License-Identifier: MIT */
/* The oracle the suites check answers against: a second BFS, written for
 * obviousness, not speed (a FIFO queue of boards packed 4 bits per cell and
 * a hash set of the boards seen), and the published counts per distance. */
#ifndef SLIDEDB_TESTS_KIT_ORACLE_H
#define SLIDEDB_TESTS_KIT_ORACLE_H

#include <stdint.h>

#include "slidedb_engine.h"

typedef struct simple_bfs {
	uint64_t *keys;     /* packed boards, 0 = empty slot (no board packs to 0) */
	uint8_t *dist;
	uint64_t cap;       /* power of two */
	uint64_t count;     /* states reached */
	int w, h, max;
	int metric;         /* enum sdb_metric */
	uint64_t counts[64];
} simple_bfs;

/* A board of up to 16 cells, 4 bits a cell, and back. */
uint64_t tk_pack(const sdb_board *b);
void tk_unpack(sdb_board *b, int w, int h, uint64_t key);

void simple_bfs_run(simple_bfs *s, const sdb_board *goal);
/* The same in metric: in the multi-tile metric a board's neighbours are the
 * boards after the blank moves 1, 2, ... cells one way, as long as
 * sdb_board_apply() lets it go on (no index, no table: the definition). */
void simple_bfs_run_metric(simple_bfs *s, const sdb_board *goal, int metric);
/* Distance of b from the goal, or -1 if unreachable. */
int simple_bfs_dist(const simple_bfs *s, const sdb_board *b);
void simple_bfs_free(simple_bfs *s);
/* A state at the largest distance from the goal: the k-th found, modulo
 * how many there are. */
sdb_board simple_bfs_farthest(const simple_bfs *s, int k);
/* The slot of b in s->keys and s->dist, or UINT64_MAX if unreachable: for
 * computations that keep a value per state beside the BFS. */
uint64_t simple_bfs_slot(const simple_bfs *s, const sdb_board *b);

/* OEIS A089473: 3x3 states by distance from a corner-blank goal (the
 * standard goal's), published counts to check against. */
enum { TK_A089473_LEN = 32 };
extern const uint64_t tk_a089473[TK_A089473_LEN];

/* The simple BFS with the number of shortest paths of every state counted
 * beside it, by dynamic programming over its layers (paths(goal) = 1;
 * paths(x) = the sum over the neighbours one step closer): the number of
 * optimal solutions, and every first move of one. */
typedef unsigned __int128 tk_u128;

typedef struct tk_oracle {
	sdb_board goal;
	simple_bfs bfs;
	tk_u128 *paths;   /* per slot of bfs */
} tk_oracle;

void tk_oracle_init(tk_oracle *o, const sdb_board *goal);
/* The same in metric (tk_oracle_best() then names directions). */
void tk_oracle_init_metric(tk_oracle *o, const sdb_board *goal, int metric);
void tk_oracle_free(tk_oracle *o);
/* The number of optimal solutions from b (0 when unsolvable). */
tk_u128 tk_oracle_paths(const tk_oracle *o, const sdb_board *b);
/* Every first move of a shortest path from b, as bits of enum sdb_move
 * (none at the goal, none when unsolvable). */
unsigned tk_oracle_best(const tk_oracle *o, const sdb_board *b);

#endif
