/* Helpers shared by the test suites: a deliberately simple BFS to check
 * tables against, path replay, and running the programs. */
#ifndef SLIDEDB_TESTKIT_H
#define SLIDEDB_TESTKIT_H

#include <criterion/criterion.h>
#include <stdint.h>

#include "slidedb_engine.h"

/* --- A second BFS, written for obviousness, not speed: a FIFO queue of
 * boards packed 4 bits per cell and a hash set of the boards seen. */
typedef struct simple_bfs {
	uint64_t *keys;     /* packed boards, 0 = empty slot (no board packs to 0) */
	uint8_t *dist;
	uint64_t cap;       /* power of two */
	uint64_t count;     /* states reached */
	int w, h, max;
	uint64_t counts[64];
} simple_bfs;

uint64_t tk_pack(const sdb_board *b);
void tk_unpack(sdb_board *b, int w, int h, uint64_t key);
void simple_bfs_run(simple_bfs *s, const sdb_board *goal);
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

/* Apply moves (letters u d l r) to start: 1 if every move is legal and the
 * result is goal after exactly strlen(moves) moves. */
int tk_replay(const sdb_board *start, const char *moves, const sdb_board *goal);

/* b with its first two tiles (row-major, blank skipped) swapped: the other
 * parity class, so unsolvable for every goal b could reach. */
sdb_board tk_swap_two_tiles(const sdb_board *b);

/* A random board reachable from goal (random walk of `steps` moves). */
void tk_random_walk(sdb_board *b, const sdb_board *goal, int steps, unsigned *seed);

/* --- Programs. A fresh path under the test scratch folder. */
void tk_tmp_path(char *buf, size_t cap, const char *name);
/* Run a shell command with `input` on stdin (NULL: empty); stdout and stderr
 * are returned (malloc'ed, NUL-terminated). Returns the exit code. */
int tk_run(const char *cmd, const char *input, char **out, char **err);
/* Build full tables of size WxH into db (extra: more slidedb-gen options). */
void tk_build(const char *db, const char *size, const char *extra);
/* Count lines of s. */
int tk_lines(const char *s);

/* A malloc'ed copy of a table's entries, whole or in chunks (asserts). */
uint8_t *tk_table_copy(const sdb_table *t);

/* --- Crafted tables (issue #35, forge.h): two entries of a table swapped,
 * so that its counts stay as they were, with every checksum made to match.
 * Two such entries from a third of the way on (asserts there are). */
void tk_entries_to_swap(uint64_t at[2], const sdb_table_info *in, const uint8_t *data);
/* Write table `name` of the database at path again, through the library's
 * writer (which computes its CRC-32 and block checksums), with two of its
 * entries swapped (tk_entries_to_swap): a table changed in place whose
 * checksums match. */
void tk_rewrite_swapped(const char *path, const char *name);

/* Build the full tables of the given blank cells (representatives) of WxH
 * into db at path through the library and the engine, in one transaction. */
void tk_build_lib(const char *path, int w, int h, const int *blanks, int nblanks);
#endif
