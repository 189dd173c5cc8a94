/* SPDX-License-Identifier: MIT */
/* Answers: any (start, goal) pair, from the full table of its size (the
 * query brought into the table's frame, frame.c), or by IDA* for boards too
 * large for full tables. */
#include <stdio.h>
#include <string.h>

#include "answer/answer.h"
#include "store/blocks.h"


/* The first move from cur (index i) to a neighbour at level want: in
 * direction only if only >= 0, else the first direction (u d l r of the
 * table's frame); the shortest slide that way. Its direction, with the
 * neighbour in *cur and *i and the slide's cells in *len; -1 if there is
 * none. A horizontal slide keeps the tile order, so its index is a block
 * per cell away; only vertical ones rank the board. */
static int step_down(const sdb_table *t, sdb_board *cur, uint64_t *i, int want, int only,
                     int *len)
{
	const int run = sdbi_table_run(t);
	const uint64_t block = t->info.states / cur->n;
	if (run == 1 && only >= 0) {   /* a byte table's walk in STM: its one stored move */
		if (!sdbi_slide(cur, only))
			return -1;
		*i = only == SDB_LEFT ? *i - block : only == SDB_RIGHT ? *i + block : sdb_board_rank(cur);
		*len = 1;
		return sdbi_entry_level(t, *i) == want ? only : -1;
	}
	for (int m = only >= 0 ? only : 0; m < (only >= 0 ? only + 1 : 4); m++) {
		sdb_board n = *cur;
		uint64_t next = *i;
		for (int k = 1; k <= run && sdbi_slide(&n, m); k++) {
			next = m == SDB_LEFT ? next - block : m == SDB_RIGHT ? next + block
			                                                    : sdb_board_rank(&n);
			if (sdbi_entry_level(t, next) == want) {
				*cur = n;
				*i = next;
				*len = k;
				return m;
			}
		}
	}
	return -1;
}

/* Whether a step of direction m may follow one of direction prev (-1: the
 * first) on a shortest path: in the multi-tile metric two slides along one
 * line are one slide or none, so a walk that takes them was led by a
 * table that lies (a two-bit table's proof cannot see every such lie). */
static int step_follows(const sdb_table *t, int prev, int m)
{
	return prev < 0 || sdbi_table_run(t) == 1 || (prev >> 1) != (m >> 1);
}

/* MOD3 tables: walk down to the goal from cur (in the table's frame),
 * taking at each step the first move to a neighbour one closer
 * (step_down()); the frame's letters in moves[] (one a cell: a slide of k
 * cells is k letters) when not NULL. The distance, or -1 if the table
 * contradicts itself (an unreached state, no way down, two slides along
 * one line, a walk longer than any distance or its letters longer than an
 * answer holds); the letters' count in *nletters if not NULL. */
static int walk_mod3(const sdb_table *t, const sdb_board *start, uint8_t *moves, int *nletters)
{
	sdb_board cur = *start;
	uint64_t index = sdb_board_rank(&cur);
	int v = sdbi_entry_level(t, index), d = 0, letters = 0, prev = -1;
	if (v == 3)
		return -1;
	while (index != t->goal_index) {
		const int down = (v + 2) % 3;
		int len;
		const int m = step_down(t, &cur, &index, down, -1, &len);
		if (m < 0 || d == SDB_MAX_MOVES || letters + len > SDB_MAX_MOVES ||
		    !step_follows(t, prev, m))
			return -1;
		prev = m;
		v = down;
		if (moves)
			memset(moves + letters, m, (size_t)len);
		letters += len;
		d++;
	}
	if (nletters)
		*nletters = letters;
	return d;
}

int sdb_table_distance(const sdb_table *t, const sdb_board *b)
{
	if (t->info.entry_format != SDB_ENTRY_MOD3) {
		const uint64_t i = sdb_board_rank(b);
		if (__builtin_expect(sdbi_byte_ok(t, i), 1))
			return sdb_dist6(t->data[i]);
		sdbi_damage_reset();
		sdbi_block_check(t, i >> SDBI_BLOCK_SHIFT);
		return sdbi_damage_check();
	}
	sdbi_damage_reset();
	const int d = walk_mod3(t, b, NULL, NULL);
	const int err = sdbi_damage_check();
	return err ? err : d;
}

static int full_kind(int metric)
{
	return metric == SDB_METRIC_MTM ? SDB_KIND_FULL_MTM : SDB_KIND_FULL;
}

/* Whether db has a full table of size w x h in metric (of any class). */
static int has_full_size(const sdb_db *db, int w, int h, int metric)
{
	for (int i = 0; i < sdb_table_count(db); i++) {
		const sdb_table_info *in = sdb_table_meta(sdb_table_at(db, i));
		if (in->kind == full_kind(metric) && in->goal.w == w && in->goal.h == h)
			return 1;
	}
	return 0;
}

/* The full table in metric of the goal's class, if the catalog has one
 * (its data not yet checked). */
static const sdb_table *class_table(const sdb_db *db, const sdb_board *goal, int metric)
{
	const int rep = sdb_sym_representative(goal->w, goal->h, goal->blank);
	for (int i = 0; i < sdb_table_count(db); i++) {   /* a handful of tables */
		const sdb_table *t = sdb_table_at(db, i);
		if (t->info.kind == full_kind(metric) && t->info.goal.w == goal->w &&
		    t->info.goal.h == goal->h && t->blank == rep)
			return t;
	}
	return NULL;
}

/* The table for goals like this one, or NULL with *err set. */
const sdb_table *sdbi_find_for_goal(const sdb_db *db, const sdb_board *goal, int metric,
                                    int *err)
{
	int w = goal->w, h = goal->h;
	if (goal->n > SDB_MAX_FULL_CELLS) {
		*err = sdbi_fail(SDB_ETOOBIG, "%dx%d has %d cells: full tables stop at %d cells "
		         "(larger boards need pattern databases)", w, h, goal->n,
		         SDB_MAX_FULL_CELLS);
		return NULL;
	}
	const sdb_table *t = class_table(db, goal, metric);
	if (t && sdbi_table_resolved(t))
		return t;
	if (t) {
		*err = SDB_ECORRUPT;   /* sdbi_table_resolved() said why */
		return NULL;
	}
	/* The command that builds it: --goal for a class that a build without it
	 * would not make, --db for a database at another path. */
	char dbarg[700], goalarg[80];
	const char *goal_opt = sdbi_hint_goal(goal, goalarg, sizeof goalarg);
	const char *db_opt = sdbi_hint_db(db, dbarg, sizeof dbarg);
	const int mtm = metric == SDB_METRIC_MTM;
	const char *which = mtm ? " multi-tile" : "", *metric_opt = mtm ? " --metric mtm" : "";
	if (has_full_size(db, w, h, metric))
		*err = sdbi_fail(SDB_ENOTFOUND, "%s: no%s %dx%d table for goals with the blank in cell "
		                "%d: build it with `slidedb-gen full %dx%d%s%s%s`", sdb_db_path(db),
		                which, w, h, goal->blank, w, h, metric_opt, goal_opt, db_opt);
	else
		*err = sdbi_fail(SDB_ENOTFOUND, "%s: no%s table for %dx%d: build it with "
		                "`slidedb-gen full %dx%d%s%s%s`", sdb_db_path(db), which, w, h, w, h,
		                metric_opt, goal_opt, db_opt);
	return NULL;
}

const sdb_table *sdb_table_for_goal(const sdb_db *db, const sdb_board *goal)
{
	int err;
	const sdb_table *t = sdbi_find_for_goal(db, goal, SDB_METRIC_STM, &err);
	if (t)
		sdbi_done(SDB_OK);
	return t;
}

static int corrupt_path(const sdb_db *db, const sdb_table *t)
{
	return sdbi_fail(SDB_ECORRUPT, "%s: table '%s' contradicts itself on the path (run "
	                "`slidedb-lookup verify`)", sdb_db_path(db), t->info.name);
}

/* Without the walk, check the start's entry against its neighbours: they are
 * all one move away, so their distances are d-1 or d+1 (or d, in the
 * multi-tile metric), and the best move leads to d-1 (a slide of some
 * length that way). Any single damaged byte at the start breaks this. */
static int check_neighbours(const sdb_db *db, const sdb_table *t, const sdb_board *b, int d,
                            int best)
{
	if (d == 0)
		return sdb_board_rank(b) == t->goal_index ? SDB_OK : corrupt_path(db, t);
	const int run = sdbi_table_run(t);
	int best_ok = 0;
	for (int m = 0; m < 4; m++) {
		sdb_board n = *b;
		for (int k = 1; k <= run && sdbi_slide(&n, m); k++) {
			const int dn = sdbi_entry_dist(t, sdb_board_rank(&n));
			if (dn != d - 1 && dn != d + 1 && (run == 1 || dn != d))
				return corrupt_path(db, t);
			best_ok |= m == best && dn == d - 1;
		}
	}
	return best_ok ? SDB_OK : corrupt_path(db, t);
}

/* A search, for boards too large for full tables. */
static int answer_by_search(sdb_answer *a, const sdb_db *db, const sdb_board *start,
                            const sdb_board *goal, const sdb_answer_opts *opts, int metric,
                            sdbi_optimal *en)
{
	const sdb_heuristic *h;
	const char *note = NULL;
	if (metric == SDB_METRIC_MTM && opts && opts->sets && *opts->sets)
		return sdbi_fail(SDB_EINVAL, "sets '%.100s' count single-tile moves: a multi-tile "
		                 "search reads its own tables (no sets)", opts->sets);
	int err = metric == SDB_METRIC_MTM ? sdbi_db_heuristic_mtm(&h, db, goal)
	          : sdbi_db_heuristic(&h, &note, db, goal, opts ? opts->sets : NULL);
	if (err)
		return err;
	sdb_solve_stats stats;
	err = sdbi_solve_optimal(a, &stats, h, start, goal, opts ? &opts->limits : NULL, en);
	a->note = note;
	/* The check ran beside the first search: wait for it here, or (deferred)
	 * only say it failed already; the caller waits in sdb_db_checked(). */
	const int defer = opts && opts->version >= 3 && opts->defer_check;
	const int checked = !defer || sdbi_heuristic_check_failed(h) ? sdbi_heuristic_checked(h)
	                                                              : SDB_OK;
	return checked ? checked : err;
}

/* From a MOD3 table: the walk gives the distance, the best move and the
 * moves at once (O(distance) reads whether the moves are wanted or not). */
static int answer_by_mod3(sdb_answer *a, const sdb_db *db, const sdb_table *t,
                          const sdb_frame *frame, const sdb_board *cur, int want_moves,
                          sdbi_optimal *en)
{
	uint8_t moves[SDB_MAX_MOVES];
	int letters;
	const int d = walk_mod3(t, cur, moves, &letters);
	if (d < 0)
		return corrupt_path(db, t);
	a->solvable = 1;
	a->method = SDB_METHOD_TABLE;
	a->distance = d;
	a->best_move = d ? frame->move_back[moves[0]] : -1;
	for (int k = 0; want_moves && k < letters; k++)
		a->moves[k] = sdb_move_letter(frame->move_back[moves[k]]);
	a->moves[want_moves ? letters : 0] = '\0';
	if (en) {
		int err = sdbi_table_optimal(t, frame, cur, d, en);
		if (err == SDB_ECORRUPT)
			return corrupt_path(db, t);
		if (err)
			return sdbi_fail(err, err == SDB_ETOOBIG ? "more than 2^128 optimal solutions"
			                : "out of memory counting optimal solutions");
	}
	return SDB_OK;
}

/* Read from the full table: the distance and best move, and the walk. */
static int answer_by_table(sdb_answer *a, const sdb_db *db, const sdb_board *start,
                           const sdb_board *goal, int metric, int want_moves, sdbi_optimal *en)
{
	int err = SDB_OK;
	const sdb_table *t = sdbi_find_for_goal(db, goal, metric, &err);
	if (!t)
		return err;
	sdb_frame frame;
	sdb_frame_init(&frame, goal, t->blank);
	sdb_board cur;
	sdb_frame_board(&frame, &cur, start);
	if (t->info.entry_format == SDB_ENTRY_MOD3)
		return answer_by_mod3(a, db, t, &frame, &cur, want_moves, en);
	uint64_t index = sdb_board_rank(&cur);
	const int e = sdbi_entry_byte(t, index);
	int d = sdb_dist6((unsigned)e);
	if (d == SDB_DIST6_UNREACHED)
		return sdbi_fail(SDB_ECORRUPT, "%s: table '%s' has no entry for a reachable "
		                "state (run `slidedb-lookup verify`)", sdb_db_path(db), t->info.name);
	a->solvable = 1;
	a->method = SDB_METHOD_TABLE;
	a->distance = d;
	a->best_move = d ? frame.move_back[sdb_move2((unsigned)e)] : -1;
	if (en) {
		int err = sdbi_table_optimal(t, &frame, &cur, d, en);
		if (err == SDB_ECORRUPT)
			return corrupt_path(db, t);
		if (err == SDB_ETOOBIG)
			return sdbi_fail(err, "more than 2^128 optimal solutions");
		if (err)
			return sdbi_fail(err, "out of memory counting optimal solutions");
	}
	if (!want_moves)
		return check_neighbours(db, t, &cur, d, sdb_move2((unsigned)e));
	/* Walk the best moves: each entry's direction, the shortest slide that
	 * way to one closer (one cell in the single-tile metric). */
	int letters = 0, prev = -1;
	for (int k = 0; k < d; k++) {
		const int best = sdb_move2((unsigned)sdbi_entry_byte(t, index));
		int len;
		if (!step_follows(t, prev, best) ||
		    step_down(t, &cur, &index, d - k - 1, best, &len) < 0 ||
		    letters + len > SDB_MAX_MOVES) {
			a->moves[0] = '\0';
			return corrupt_path(db, t);
		}
		memset(a->moves + letters, sdb_move_letter(frame.move_back[best]), (size_t)len);
		letters += len;
		prev = best;
	}
	if (index != t->goal_index) {
		a->moves[0] = '\0';
		return corrupt_path(db, t);
	}
	a->moves[letters] = '\0';
	return SDB_OK;
}

/* Boards of up to SDB_TABLE_ONLY_CELLS cells are answered by their table
 * (or an error naming it); 13 and 14 cells by a table when the database has
 * one for the goal's class, else by a search. */
static int answered_by_table(const sdb_db *db, const sdb_board *goal)
{
	if (goal->n <= SDB_TABLE_ONLY_CELLS)
		return 1;
	if (goal->n > SDB_MAX_FULL_CELLS)
		return 0;
	return class_table(db, goal, SDB_METRIC_STM) != NULL;
}

const char *sdb_db_search_note(const sdb_db *db, const sdb_board *goal)
{
	const sdb_heuristic *h;
	const char *note = NULL;
	if (!answered_by_table(db, goal) && sdbi_db_heuristic(&h, &note, db, goal, NULL))
		note = NULL;
	sdbi_done(SDB_OK);
	return note;
}

int sdbi_answer_metric(const sdb_answer_opts *opts)
{
	if (!opts || opts->version < 4)
		return SDB_METRIC_STM;
	return opts->metric == SDB_METRIC_STM || opts->metric == SDB_METRIC_MTM ? opts->metric : -1;
}

int sdbi_answer_opts_check(const sdb_answer_opts *opts)
{
	if (opts && (opts->version < 2 || opts->version > SDB_ANSWER_OPTS_VERSION))
		return sdbi_fail(SDB_EINVAL, "sdb_answer_opts of version %u (this slidedb reads "
		                 "versions 2 to %u: start from SDB_ANSWER_OPTS_INIT)", opts->version,
		                 SDB_ANSWER_OPTS_VERSION);
	return SDB_OK;
}

/* The answer, and with en what en asks about the optimal sequences. */
static int answer(sdb_answer *a, const sdb_db *db, const sdb_board *start,
                  const sdb_board *goal, const sdb_answer_opts *opts, sdbi_optimal *en)
{
	if (sdbi_answer_opts_check(opts)) {
		memset(a, 0, sizeof *a);
		return SDB_EINVAL;
	}
	const int metric = sdbi_answer_metric(opts);
	if (metric < 0) {
		memset(a, 0, sizeof *a);
		return sdbi_fail(SDB_EINVAL, "metric %d is not one (0 stm, 1 mtm)", opts->metric);
	}
	int ok = sdbi_answer_begin(a, start, goal);
	if (ok <= 0)
		return ok;   /* an error, or answered: unsolvable */
	if (metric == SDB_METRIC_MTM ? goal->n > SDB_MAX_FULL_CELLS : !answered_by_table(db, goal))
		return answer_by_search(a, db, start, goal, opts, metric, en);
	sdbi_damage_reset();
	const int err = answer_by_table(a, db, start, goal, metric, opts ? opts->want_moves : 1, en);
	const int damage = sdbi_damage_check();   /* any damaged byte read overrules */
	if (damage)
		sdbi_answer_begin(a, start, goal);
	return damage ? damage : err;
}

static int no_paths(void *ctx, const char *moves)
{
	(void)ctx;
	(void)moves;
	return 0;
}

int sdb_answer_query(sdb_answer *a, const sdb_db *db, const sdb_board *start,
                     const sdb_board *goal, const sdb_answer_opts *opts)
{
	const int want_optimal = opts && (opts->want_best_moves || opts->want_count);
	sdbi_optimal en = { .fn = no_paths, .count_all = want_optimal && opts->want_count };
	int err = answer(a, db, start, goal, opts, want_optimal ? &en : NULL);
	if (!err && want_optimal && a->solvable) {
		a->best_moves = en.best_moves;
		a->solutions = en.count;
	}
	return sdbi_done(err);
}

int sdb_answer_paths(sdb_answer *a, const sdb_db *db, const sdb_board *start,
                     const sdb_board *goal, uint64_t limit, const sdb_answer_opts *opts,
                     sdb_path_fn fn, void *ctx)
{
	sdb_answer local;
	if (!a)
		a = &local;
	sdbi_optimal en = { .limit = limit, .fn = fn, .ctx = ctx };
	sdb_answer_opts o = { .version = SDB_ANSWER_OPTS_VERSION, .want_moves = 1 };
	if (sdbi_answer_opts_check(opts))
		return sdbi_done(SDB_EINVAL);
	if (opts) {
		o.limits = opts->limits;
		o.sets = opts->sets;
		o.metric = opts->version >= 4 ? opts->metric : SDB_METRIC_STM;
	}
	int err = answer(a, db, start, goal, &o, limit ? &en : NULL);
	return sdbi_done(err);
}
