/* SPDX-License-Identifier: MIT */
/* Boards for the suites: move strings replayed, boards made unsolvable or
 * scrambled, boards as text and from text. Every helper fails the running
 * test (cr_assert) when it cannot do its job. */
#ifndef SLIDEDB_TESTS_KIT_BOARDS_H
#define SLIDEDB_TESTS_KIT_BOARDS_H

#include "kit/text.h"
#include "slidedb_engine.h"

/* Apply moves (letters u d l r) to start: 1 if every move is legal and the
 * result is goal after exactly strlen(moves) moves. */
int tk_replay(const sdb_board *start, const char *moves, const sdb_board *goal);

/* b with its first two tiles (row-major, blank skipped) swapped: the other
 * parity class, so unsolvable for every goal b could reach. */
sdb_board tk_swap_two_tiles(const sdb_board *b);

/* A random board reachable from goal (random walk of `steps` moves). */
void tk_random_walk(sdb_board *b, const sdb_board *goal, int steps, unsigned *seed);

/* A board as text, held by value. */
typedef struct ck_btext {
	char s[3 * SDB_MAX_CELLS];
} ck_btext;

/* The board as space-separated numbers, 0 for the blank. */
ck_btext ck_board_text(const sdb_board *b);

/* The board in the compact notation: one character per cell, digits, then
 * a..f for tiles 10..15. */
ck_btext ck_board_compact(const sdb_board *b);

/* The board of text, of size w x h (0, 0: inferred from the text). */
sdb_board ck_parse_board(const char *text, int w, int h);

/* Append the query line "START ; GOAL" of start and goal to b. */
void ck_sb_query(ck_sbuf *b, const sdb_board *start, const sdb_board *goal);

/* count query lines "START ; GOAL" on 3x3 (malloc'ed): goals of every
 * class (random walks from the standard goal), starts random walks of up to
 * 60 moves from their goal. */
char *ck_random_queries(int count, unsigned seed);

/* The standard goal of w x h: tiles in order, the blank in the last cell. */
sdb_board ck_std_goal(int w, int h);

#endif
