/* SPDX-License-Identifier: MIT */
/* The library's promise that one read-only database handle may answer on
 * several threads at once: full-table answers (with counts of solutions and
 * every best move), searches whose heuristic is opened on first use and
 * shared, table reads, and random boards drawn, at the same time, and a
 * 15-puzzle in the multi-tile metric, whose split tables are built on
 * threads of their own while the others wait; then one search split over
 * three threads (every iteration split), whose answer must be the single
 * thread's; and the same searches split, through
 * slidedb_engine.h's split API, between the library's copy and a second
 * one opened as another process would (slidedb-lookup-mpi's contract).
 * A plain program (Criterion's runner does not start under ThreadSanitizer):
 * scripts/test.sh runs it under ThreadSanitizer, ctest under ASan.
 *   test_threads SLIDEDB_GEN SCRATCH_DIR */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slidedb.h"
#include "slidedb_engine.h"

enum { THREADS = 4, ROUNDS = 40 };

typedef struct worker {
	const sdb_db *db;
	const sdb_board *goal;        /* of the draws at distance 20: a draw each thread */
	unsigned seed;
	int answers, failures;
} worker;

/* Whether the moves lead from start to goal, each one legal. */
static int replays(const sdb_board *start, const char *moves, const sdb_board *goal)
{
	sdb_board b = *start;
	for (const char *m = moves; *m; m++)
		if (sdb_board_apply(&b, sdb_move_from_letter(*m)))
			return 0;
	return sdb_board_equal(&b, goal);
}

static void *work(void *arg)
{
	worker *w = arg;
	sdb_random_request at20 = SDB_RANDOM_REQUEST_INIT;
	at20.distance = 20;
	at20.seed = w->seed;
	at20.seed_given = 1;
	sdb_random *draw;
	if (sdb_random_open(&draw, w->db, w->goal, &at20)) {
		w->failures++;
		return NULL;
	}
	sdb_board g3, g4;
	sdb_board_goal(&g3, 3, 3, 8);
	sdb_board_goal(&g4, 4, 4, 15);
	for (int r = 0; r < ROUNDS; r++) {
		const sdb_board *goal = r % 2 ? &g4 : &g3;
		sdb_board s = *goal;
		for (int k = 0; k < (r % 2 ? 12 : 40); k++)
			sdb_board_apply(&s, rand_r(&w->seed) % 4);   /* illegal moves are refused */
		sdb_answer a;
		/* every other round also counts the solutions and finds every best move */
		const sdb_answer_opts all = { .version = SDB_ANSWER_OPTS_VERSION,
		                              .want_moves = 1, .want_best_moves = 1,
			                      .want_count = r % 4 < 2 };
		int err = sdb_answer_query(&a, w->db, &s, goal, &all);
		w->answers++;
		if (err || !a.solvable || (int)strlen(a.moves) != a.distance || !replays(&s, a.moves, goal))
			w->failures++;
		if (a.distance > 0 && !(a.best_moves >> a.best_move & 1))
			w->failures++;
		if (r % 4 < 2 && a.solutions.lo == 0 && a.solutions.hi == 0)
			w->failures++;
		/* a board at distance 20, drawn beside the other threads' */
		sdb_board drawn;
		const sdb_answer_opts plain = { .version = SDB_ANSWER_OPTS_VERSION,
		                                .want_moves = 0 };
		if (sdb_random_draw(draw, &drawn, 1) ||
		    sdb_answer_query(&a, w->db, &drawn, &g3, &plain) || a.distance != 20)
			w->failures++;
		if (!sdb_table_data(sdb_table_at(w->db, r % sdb_table_count(w->db))))
			w->failures++;
		if (r == 1) {   /* the multi-tile search: its split tables built on the
		                   cores while the other threads wait for them */
			const sdb_answer_opts mtm = { .version = SDB_ANSWER_OPTS_VERSION,
			                              .want_moves = 1, .metric = SDB_METRIC_MTM };
			err = sdb_answer_query(&a, w->db, &s, goal, &mtm);
			w->answers++;
			if (err || !replays(&s, a.moves, goal) ||
			    sdb_moves_length(a.moves, SDB_METRIC_MTM) != a.distance)
				w->failures++;
		}
	}
	sdb_random_close(draw);
	return NULL;
}


/* --- Two copies of a search, as two processes would hold them. */

static sdb_db *second_db;
static int hook_failures;

typedef struct other {
	sdb_split *lead, *copy;
} other;

/* The copy's threads claim from the lead's counter; what they find and
 * finish is told to the lead, as ranks.c's messages would. */
static int other_take(void *ctx)
{
	other *o = ctx;
	int i;
	return sdb_split_claim(o->lead, 1, &i) ? i : -1;
}

static void other_done(void *ctx, int subtree)
{
	other *o = ctx;
	sdb_split_mark_done(o->lead, subtree);
}

static int two_copies(void *ctx, sdb_split *sp, int bound, uint64_t last, sdb_split_result *res)
{
	(void)ctx;
	(void)last;
	sdb_board start, goal;
	sdb_split_boards(sp, &start, &goal);
	other o = { sp, NULL };
	if (sdb_split_open(&o.copy, second_db, sdb_split_heuristic(sp), &start, &goal)) {
		hook_failures++;
		return 1;
	}
	int depth = 0, copy_depth;
	const int n = sdb_split_cut(sp, bound, &depth, 64);
	copy_depth = depth;
	if (n < 0 || sdb_split_cut(o.copy, bound, &copy_depth, 0) != n || copy_depth != depth) {
		hook_failures++;   /* the same bound and depth: the same subtrees */
		sdb_split_close(o.copy);
		return 1;
	}
	sdb_split_result mine, theirs;
	if (sdb_split_start(sp, 1, sdb_split_take, NULL, sp) ||
	    sdb_split_start(o.copy, 2, other_take, other_done, &o)) {
		hook_failures++;
		return 1;
	}
	/* the caller's loop: tell the lead what the copy found, and the copy
	 * what the lead found */
	while (sdb_split_running(sp) || sdb_split_running(o.copy)) {
		sdb_split_found(o.copy, &theirs);
		if (theirs.found)
			sdb_split_abandon(sp, theirs.subtree);
		sdb_split_found(sp, &mine);
		if (mine.found)
			sdb_split_abandon(o.copy, mine.subtree);
		sdb_split_poll(sp);
		usleep(100);
	}
	sdb_split_finish(sp, &mine);
	sdb_split_finish(o.copy, &theirs);
	*res = mine.found && (!theirs.found || mine.subtree < theirs.subtree) ? mine : theirs;
	res->next_bound = mine.next_bound < theirs.next_bound ? mine.next_bound : theirs.next_bound;
	res->stopped = mine.stopped || theirs.stopped;
	sdb_split_close(o.copy);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s SLIDEDB_GEN SCRATCH_DIR\n", argv[0]);
		return 2;
	}
	char path[512], cmd[2048];
	snprintf(path, sizeof path, "%s/threads-%d.lmdb", argv[2], (int)getpid());
	/* built on one thread: under ThreadSanitizer only this program's threads run */
	snprintf(cmd, sizeof cmd, "mkdir -p '%s' && %s full 3x3 -t 1 -q --db '%s' && "
	         "%s pdb 4x4 --partition 5-5-5 -t 1 -q --db '%s'", argv[2], argv[1], path, argv[1],
	         path);
	if (system(cmd) != 0) {
		fprintf(stderr, "test_threads: building the tables failed\n");
		return 1;
	}
	/* every pattern set's verify split over threads too (TSan sees them): a
	 * thread per 4 KiB */
	sdb_tuning tuning = SDB_TUNING_INIT;
	tuning.verify_bytes = 4096;
	sdb_engine_tune(&tuning);
	sdb_db *db;
	if (sdb_db_open(&db, path, SDB_RDONLY)) {
		fprintf(stderr, "test_threads: %s\n", sdb_error_detail());
		return 1;
	}
	sdb_board g3;
	sdb_board_goal(&g3, 3, 3, 8);
	pthread_t th[THREADS];
	worker w[THREADS];
	for (int i = 0; i < THREADS; i++) {
		w[i] = (worker){ db, &g3, 77u + (unsigned)i, 0, 0 };
		if (pthread_create(&th[i], NULL, work, &w[i]))
			return 1;
	}
	int answers = 0, failures = 0;
	for (int i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		answers += w[i].answers;
		failures += w[i].failures;
	}
	/* a set's recount on threads (the tuning's verify_bytes: a thread per
	 * 4 KiB): the counts the build stored */
	for (int i = 0; i < sdb_table_count(db); i++) {
		const sdb_table *t = sdb_table_at(db, i);
		const sdb_table_info *in = sdb_table_meta(t);
		uint64_t counts[SDB_MAX_DISTANCE];
		if (in->kind != SDB_KIND_PATTERN)
			continue;
		if (sdb_table_count_entries(counts, t) ||
		    memcmp(counts, in->counts, sizeof counts)) {
			fprintf(stderr, "test_threads: %s: recounted unlike its stored counts\n", in->name);
			failures++;
		}
	}
	/* one search on several threads: the same moves as one thread's */
	tuning.split_nodes = 0;   /* every iteration split */
	sdb_engine_tune(&tuning);
	sdb_board g4;
	sdb_board_goal(&g4, 4, 4, 15);
	sdb_heuristic *h;
	if (sdb_heuristic_open(&h, db, &g4, NULL)) {
		fprintf(stderr, "test_threads: %s\n", sdb_error_detail());
		return 1;
	}
	unsigned seed = 5;
	int split = 0;
	for (int k = 0; k < 12; k++) {
		sdb_board s = g4;
		for (int m = 0; m < 30 + 2 * k; m++)
			sdb_board_apply(&s, rand_r(&seed) % 4);
		sdb_answer one, three;
		sdb_solve_stats st;
		const sdb_solve_limits lim = { .threads = 3 };
		if (sdb_answer_search(&one, &st, h, &s, &g4, NULL) || sdb_answer_search(&three, &st, h, &s, &g4, &lim) ||
		    strcmp(one.moves, three.moves) || !replays(&s, three.moves, &g4))
			failures++;
		split++;
	}
	/* the same searches, every iteration split between two copies */
	second_db = db;
	static const sdb_split_hooks hooks = { two_copies, NULL };
	sdb_split_install(&hooks);
	seed = 7;
	for (int k = 0; k < 6; k++) {   /* farther out: thousands of subtrees */
		sdb_board s = g4;
		for (int m = 0; m < 150; m++)
			sdb_board_apply(&s, rand_r(&seed) % 4);
		sdb_split_install(NULL);
		sdb_answer one, two;
		sdb_solve_stats st;
		const int err = sdb_answer_search(&one, &st, h, &s, &g4, NULL);
		sdb_split_install(&hooks);
		if (err || sdb_answer_search(&two, &st, h, &s, &g4, NULL) || strcmp(one.moves, two.moves) ||
		    !replays(&s, two.moves, &g4))
			failures++;
		split++;
	}
	sdb_split_install(NULL);
	failures += hook_failures;
	sdb_heuristic_close(h);
	sdb_db_close(db);
	snprintf(cmd, sizeof cmd, "rm -f '%s' '%s-lock'", path, path);
	if (system(cmd) != 0)
		return 1;
	printf("test_threads: %d answers on %d threads sharing one handle, %d searches split over 3 "
	       "threads or two copies, %d wrong or failed\n", answers, THREADS, split, failures);
	return failures ? 1 : 0;
}
