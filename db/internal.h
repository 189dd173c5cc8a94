/* Declarations shared by the library's own files; not installed. */
#ifndef SLIDEDB_INTERNAL_H
#define SLIDEDB_INTERNAL_H

#include "slidedb.h"

/* Record a one-line detail for sdb_errdetail() and return err, so that a
 * failing function can end with `return sdb_fail(SDB_EINVAL, "...", ...)`. */
int sdb_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Population count of a 16-bit mask without the libgcc call that
 * __builtin_popcount becomes on CPUs the build does not assume POPCNT for. */
static inline unsigned sdb_popcount16(unsigned x)
{
	x = x - ((x >> 1) & 0x5555u);
	x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
	x = (x + (x >> 4)) & 0x0f0fu;
	return (x + (x >> 8)) & 0x1fu;
}

/* Reset an answer to "unsolvable"; then 1 if goal can be reached from start
 * (the caller goes on), 0 if not (the answer is complete), or SDB_EINVAL. */
int sdb_answer_begin(sdb_answer *a, const sdb_board *start, const sdb_board *goal);

/* Permutation parity (0 or 1) of the tiles of b read row-major, blank skipped. */
int sdb_board_parity(const sdb_board *b);

/* A full table's catalog entry, kept inside the library. */
struct sdb_table {
	sdb_table_info info;
	const sdb_db *db;
	const uint8_t *data;   /* resolved lazily by sdb_table_data() */
	int blank;             /* blank cell of the table's goal */
	uint64_t goal_index;   /* index of the goal itself */
};

/* Rank of a board's pattern when the cells of the group's tiles (mask) are
 * known: O(k) instead of O(n). */
uint64_t sdb_pattern_rank_mask(const sdb_pattern *p, const sdb_board *b, unsigned mask);

/* How a goal is brought onto a heuristic's canonical goal: a symmetry, then
 * labels (caller's tile -> set's tile). */
typedef struct sdb_frame {
	int sym;
	uint8_t label[SDB_MAX_CELLS];
} sdb_frame;
/* The frame of goal; SDB_EINVAL if the heuristic does not serve its class. */
int sdb_heuristic_frame(const sdb_heuristic *h, sdb_frame *f, const sdb_board *goal);
void sdb_heuristic_frame_board(const sdb_heuristic *h, const sdb_frame *f, sdb_board *out,
                               const sdb_board *b);
/* sdb_heuristic_start() in a given frame. */
int sdb_heuristic_start_in(const sdb_heuristic *h, const sdb_frame *f, sdb_hstate *st,
                           const sdb_board *state);
/* sdb_heuristic_move() with a move of the set's frame, known to be legal. */
int sdb_heuristic_move_frame(const sdb_heuristic *h, sdb_hstate *st, int m);

#endif
