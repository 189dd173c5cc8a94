/* SPDX-License-Identifier: MIT */
/* The answer layer's own declarations (db/answer/: queries and query
 * lines, searches, heuristics and their cache, optimal sets and counts,
 * checks, batches, random boards and states, the fields of answers, hints
 * and the public open). Uses the store and puzzle layers. Not installed. */
#ifndef SLIDEDB_ANSWER_ANSWER_H
#define SLIDEDB_ANSWER_ANSWER_H

#include "store/store.h"

/* How a "build it with" hint names the database: " --db 'PATH'" when db was
 * not opened at the default path, else "" (so the hint, run as it is, writes
 * to the database that was asked). */
const char *sdbi_hint_db(const sdb_db *db, char *buf, size_t cap);
/* The same for a database path. */
const char *sdbi_hint_path(const char *path, char *buf, size_t cap);
/* " --goal 'G'" when the goal's blank is not in the class of the standard
 * goal's (what slidedb-gen builds without --goal), else "". */
const char *sdbi_hint_goal(const sdb_board *goal, char *buf, size_t cap);

/* SDB_OK for NULL or options of this library's version, else SDB_EINVAL
 * with the reason in sdb_error_detail(). */
int sdbi_answer_opts_check(const sdb_answer_opts *opts);

/* The metric options ask for (enum sdb_metric; STM for NULL and versions
 * before 4), or -1 for a value that is none. */
int sdbi_answer_metric(const sdb_answer_opts *opts);

/* Reset an answer to "unsolvable"; then 1 if goal can be reached from start
 * (the caller goes on), 0 if not (the answer is complete), or SDB_EINVAL.
 * Every way of answering (tables, searches) starts here. */
static inline int sdbi_answer_begin(sdb_answer *a, const sdb_board *start, const sdb_board *goal)
{
	/* Field by field: the moves buffer is most of the struct, and only its
	 * first byte needs to say "none" (this is on every query's path). */
	a->solvable = 0;
	a->distance = -1;
	a->best_move = -1;
	a->moves[0] = '\0';
	a->method = SDB_METHOD_NONE;
	a->nodes = 0;
	a->heuristic = 0;
	a->heuristic_name = NULL;
	a->note = NULL;
	a->best_moves = 0;
	a->solutions.hi = a->solutions.lo = 0;
	return sdb_board_solvable(start, goal);
}

/* What is wanted of the optimal sequences beyond the first (every best
 * move, their number, the sequences themselves), and what was found. */
typedef struct sdbi_optimal {
	int count_all;           /* count every optimal sequence into count */
	uint64_t limit;          /* give at most this many sequences to fn */
	sdb_path_fn fn;
	void *ctx;
	unsigned best_moves;     /* out: first moves of optimal sequences (caller's) */
	sdb_count count;         /* out, with count_all */
	uint64_t emitted;        /* out: sequences given to fn */
	int stopped;             /* out: fn asked to stop */
} sdbi_optimal;

/* c += v; -1 if the count passes 2^128 - 1 (c is then meaningless). */
static inline int sdbi_count_add(sdb_count *c, uint64_t v)
{
	uint64_t lo = c->lo + v;
	int carry = lo < c->lo;
	c->lo = lo;
	return carry && ++c->hi == 0 ? -1 : 0;
}

/* sdb_answer_search(), then, with en, a second pass at the optimal bound that
 * visits the optimal sequences as en asks (solve.c). */
int sdbi_solve_optimal(sdb_answer *a, sdb_solve_stats *stats, const sdb_heuristic *h,
                      const sdb_board *start, const sdb_board *goal,
                      const sdb_solve_limits *limits, sdbi_optimal *en);

/* The same from a full table (optimal.c): cur is the start in the table's
 * frame f, at distance d. 0, SDB_ECORRUPT (the table contradicts itself;
 * the caller says so), SDB_ENOMEM or SDB_ETOOBIG (over 2^128). */
int sdbi_table_optimal(const sdb_table *t, const sdb_frame *f, const sdb_board *cur, int d,
                      sdbi_optimal *en);

/* The full table in metric (enum sdb_metric) for goals like this one (its
 * data resolved), or NULL with *err and the detail set (SDB_ENOTFOUND naming
 * the command, SDB_ETOOBIG, SDB_ECORRUPT). */
const sdb_table *sdbi_find_for_goal(const sdb_db *db, const sdb_board *goal, int metric,
                                    int *err);

/* How many cells the blank travels at most in one move of a full table's
 * metric: 1, or sdb_mtm_run() in the multi-tile metric. The moves out of a
 * board are then, in order, for each direction m the slides of 1 .. run
 * cells while sdbi_slide() can go on (n a copy of the board, made for each
 * direction): for (int k = 1; k <= run && sdbi_slide(&n, m); k++) ... */
static inline int sdbi_table_run(const sdb_table *t)
{
	return t->info.kind == SDB_KIND_FULL_MTM ? sdb_mtm_run(t->info.goal.w, t->info.goal.h) : 1;
}

/* Move the blank one cell in direction m: 0 (b unchanged) at the edge.
 * (sdb_board_apply() without its error message: the walks' inner step.) */
static inline int sdbi_slide(sdb_board *b, int m)
{
	const int w = b->w, x = b->blank % w;
	int to;
	switch (m) {
	case SDB_UP: to = b->blank - w; break;
	case SDB_DOWN: to = b->blank + w; break;
	case SDB_LEFT: to = x > 0 ? b->blank - 1 : -1; break;
	default: to = x < w - 1 ? b->blank + 1 : -1; break;
	}
	if (to < 0 || to >= b->n)
		return 0;
	b->cell[b->blank] = b->cell[to];
	b->cell[to] = 0;
	b->blank = (uint8_t)to;
	return 1;
}

/* The error for a distance asked of a two-bit table (random, states): it
 * names the build of a byte table in the table's metric. */
int sdbi_fail_mod3_distance(const sdb_table *t, const sdb_board *goal);

/* --- Random boards (random.c), drawn for sdb_random_* (request.c), the one
 * public family: a caller asks for boards with a seed, never for the
 * generator or the sampler below. */

/* A pseudo-random generator's state: xoshiro256** seeded by splitmix64, so
 * that a seed gives the same boards on every machine and in every version. */
typedef struct sdbi_rng {
	uint64_t s[4];
} sdbi_rng;
void sdbi_rng_seed(sdbi_rng *r, uint64_t seed);
/* The next 64 random bits. */
uint64_t sdbi_rng_next(sdbi_rng *r);
/* A uniform integer in 0 .. n - 1, unbiased (n > 0). */
uint64_t sdbi_rng_below(sdbi_rng *r, uint64_t n);

/* Draws boards uniformly among the states at distance min_distance ..
 * max_distance in metric from a goal (-1, -1: every state that reaches it,
 * no table), as sdb_random_open() says. The errors of sdb_random_open(). */
typedef struct sdbi_sampler sdbi_sampler;
int sdbi_sampler_open(sdbi_sampler **s, const sdb_db *db, const sdb_board *goal,
                      int min_distance, int max_distance, int metric);
/* n boards; const and thread-safe with one generator per thread. 0 or
 * SDB_ECORRUPT. */
int sdbi_sampler_draw(const sdbi_sampler *s, sdb_board *out, size_t n, sdbi_rng *rng);
/* How many states it draws among (UINT64_MAX: every state of a board over
 * 20 cells). */
uint64_t sdbi_sampler_population(const sdbi_sampler *s);
void sdbi_sampler_close(sdbi_sampler *s);

/* A random walk of steps moves from goal that never undoes its previous
 * move; in the multi-tile metric a move is a slide of a uniform length
 * (1 .. as far as the board goes) in a direction that neither undoes nor
 * goes on with the previous one. 0, or SDB_EINVAL for a negative steps. */
int sdbi_random_walk(sdb_board *out, const sdb_board *goal, int steps, int metric,
                     sdbi_rng *rng);

/* The frame of goal; SDB_EINVAL if the heuristic does not serve its class. */
int sdbi_heuristic_frame(const sdb_heuristic *h, sdb_frame *f, const sdb_board *goal);
/* sdb_heuristic_start() in a given frame. */
int sdbi_heuristic_start_in(const sdb_heuristic *h, const sdb_frame *f, sdb_hstate *st,
                           const sdb_board *state);
/* sdb_heuristic_move() with a move of the set's frame, known to be legal. */
int sdbi_heuristic_move_frame(const sdb_heuristic *h, sdb_hstate *st, int m);

/* The heuristic the database answers goals like this one with (larger
 * boards): the sets named (sets non-NULL: "A+B"), else its best sets, else
 * Manhattan with linear conflicts and a note saying why. Opened on first use
 * and kept until the database closes; thread-safe. Its tables' check may
 * still be running (heuristic.h): a caller gives no answer read from them
 * before sdbi_heuristic_checked() passes. A heuristic whose check failed is
 * that error here. */
int sdbi_db_heuristic(const sdb_heuristic **h, const char **note, const sdb_db *db,
                     const sdb_board *goal, const char *sets);

/* The multi-tile metric's heuristic for goals like goal: the split tables
 * of mtm_split.c and the walking distance of mtm_walk.c, built on the first
 * call for a class of goals (seconds: 17 MB on a 4x4; one build at a time
 * in the process, callers of the same class waiting for it) and kept until
 * the database closes; thread-safe. */
int sdbi_db_heuristic_mtm(const sdb_heuristic **h, const sdb_db *db, const sdb_board *goal);

/* How its name begins (then the partition, "+mirror", "+walking-distance"):
 * the name sdb_split_heuristic() gives other processes to open it by. */
#define SDBI_MTM_HEURISTIC "mtm-split-"

/* The tables' check of h: SDB_OK once passed (waiting for it if it runs),
 * else its error (SDB_ECORRUPT, the message in sdb_error_detail()). */
int sdbi_heuristic_checked(const sdb_heuristic *h);

/* Whether h's check has failed already (no wait): a search polls it to stop
 * early on a damaged table. */
int sdbi_heuristic_check_failed(const sdb_heuristic *h);

#endif
