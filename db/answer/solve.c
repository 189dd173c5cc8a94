/* SPDX-License-Identifier: MIT */
/* IDA*: iterations of engine.c's depth-first search with a growing bound
 * on f = g + h, and the threads and processes one search is split over.
 *
 * One search on several threads: each iteration whose predecessor was
 * large is cut into subtrees at a depth that gives a few hundred per
 * thread, in lexicographic order (sdbi_collect); threads take them in order
 * and share the bound. The first subtree holding a solution is the
 * answer's, and later subtrees stop as soon as one is found: the answer is
 * the one a single thread finds.
 *
 * The same cut serves a search over several processes (slidedb_engine.h,
 * "Searches split over processes"): a program's hook gets the iteration
 * instead, and other processes cut their own copy of the search the same
 * way; the subtrees' numbers are all that must travel. */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer/engine.h"
#include "slidedb_engine.h"

enum {
	PARALLEL_MIN = 1 << 16,        /* an iteration after one this large is split */
	SUBTREES_PER_THREAD = 256,
	MAX_THREADS = 256,
	MAX_CUT_DEPTH = 40,
};

typedef struct thread_arg {
	worker w;
	sdb_split *sp;
	int started;   /* a thread of its own was started for it */
	int result;
} thread_arg;

/* A search, and its iteration under way when cut into subtrees. */
struct sdb_split {
	engine e;
	shared s;
	worker root;                   /* the start's state, the bound */
	sdb_frame frame;
	sdb_board start, goal;
	const sdb_heuristic *h;
	frontier f;
	_Atomic uint64_t *done;        /* bit per subtree searched to the end */
	atomic_int next;               /* the next subtree to claim */
	atomic_int next_bound;         /* the smallest f cut off by a finished subtree */
	pthread_mutex_t lock;
	int found_subtree;             /* the first this process's threads found, or INT_MAX */
	uint8_t found_path[SDB_MAX_MOVES];
	int found_depth;
	/* the threads of the iteration */
	thread_arg *ta;
	pthread_t *tid;
	int threads;
	atomic_int running;
	sdb_split_take_fn take;
	sdb_split_done_fn on_done;
	void *ctx;
};

static const sdb_split_hooks *installed;

void sdb_split_install(const sdb_split_hooks *hooks)
{
	installed = hooks;
}

/* Fold a thread's next bound into the iteration's. */
static void lower_next_bound(sdb_split *sp, int b)
{
	int cur = atomic_load(&sp->next_bound);
	while (b < cur && !atomic_compare_exchange_weak(&sp->next_bound, &cur, b))
		;
}

int sdb_split_claim(sdb_split *sp, int count, int *first)
{
	const int n = sp->f.goal_at >= 0 ? sp->f.goal_at : sp->f.n;
	int cur = atomic_load(&sp->next);
	for (;;) {
		int i = cur;
		while (i < n && sdb_split_is_done(sp, i))
			i++;
		if (i >= n || i > atomic_load(&sp->s.first_found) || atomic_load(&sp->s.stop))
			return 0;
		int end = i + 1;
		while (end < n && end - i < count && !sdb_split_is_done(sp, end))
			end++;
		if (atomic_compare_exchange_weak(&sp->next, &cur, end)) {
			*first = i;
			return end - i;
		}
	}
}

int sdb_split_take(void *ctx)
{
	int i;
	return sdb_split_claim(ctx, 1, &i) ? i : -1;
}

void sdb_split_mark_done(sdb_split *sp, int subtree)
{
	if (subtree >= 0 && subtree < sp->f.n && sp->done)
		atomic_fetch_or(&sp->done[subtree / 64], 1ull << (subtree % 64));
}

int sdb_split_is_done(sdb_split *sp, int subtree)
{
	return subtree >= 0 && subtree < sp->f.n && sp->done &&
	       (atomic_load_explicit(&sp->done[subtree / 64], memory_order_relaxed) >>
	        (subtree % 64) & 1);
}

/* Take subtrees in order until none is left, or an earlier one has found. */
static void *run_subtrees(void *p)
{
	thread_arg *ta = p;
	worker *w = &ta->w;
	sdb_split *sp = ta->sp;
	shared *s = w->s;
	const int depth = sp->f.depth;
	ta->result = 0;
	for (;;) {
		const int i = sp->take(sp->ctx);
		if (i < 0 || atomic_load(&s->stop))
			break;
		if (i >= sp->f.n || i > atomic_load(&s->first_found))
			continue;   /* (a taker's subtree after a found one) */
		descent d;
		sdbi_descend(w, sp->f.paths + (size_t)i * (size_t)depth, depth, &d);
		w->subtree = i;
		const int r = sdbi_dfs(w, depth, d.prev, d.dup);
		w->subtree = -1;
		sdbi_ascend(w, &d);
		lower_next_bound(sp, w->next_bound);
		if (r == FOUND) {
			pthread_mutex_lock(&sp->lock);
			if (i < sp->found_subtree) {
				sp->found_subtree = i;
				memcpy(sp->found_path, w->path, (size_t)w->found_depth);
				sp->found_depth = w->found_depth;
			}
			pthread_mutex_unlock(&sp->lock);
			sdb_split_abandon(sp, i);
		} else if (r == STOPPED) {
			ta->result = STOPPED;
			break;
		} else if (r == 0) {
			sdb_split_mark_done(sp, i);
			if (sp->on_done)
				sp->on_done(sp->ctx, i);
		}
	}
	atomic_fetch_add(&s->nodes, w->pending);
	w->pending = 0;
	atomic_fetch_sub(&sp->running, 1);
	return NULL;
}

int sdb_split_cut(sdb_split *sp, int bound, int *depth, int want)
{
	worker *w = &sp->root;
	shared *s = &sp->s;
	w->bound = bound;
	for (int d = *depth ? *depth : 4;; d += 2) {
		sp->f.depth = d;
		w->next_bound = INT_MAX;
		const int err = sdbi_collect(w, &sp->f);
		atomic_fetch_add(&s->nodes, w->pending);
		w->pending = 0;
		if (err)
			return sdbi_fail(err, "out of memory");
		if (*depth || sp->f.goal_at >= 0 || sp->f.n == 0 || sp->f.n >= want ||
		    d + 2 > bound || d + 2 > MAX_CUT_DEPTH)
			break;
	}
	*depth = sp->f.depth;
	free(sp->done);
	sp->done = calloc((size_t)sp->f.n / 64 + 1, sizeof *sp->done);
	if (!sp->done)
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	atomic_store(&sp->next, 0);
	atomic_store(&s->first_found, INT_MAX);
	atomic_store(&sp->next_bound, w->next_bound);   /* the cut's own */
	sp->found_subtree = INT_MAX;
	return sp->f.goal_at >= 0 ? sp->f.goal_at : sp->f.n;
}

/* Threads for the last cut's subtrees: all of their own, or (inline) the
 * first on the caller's thread, which returns when it has no more; the
 * first also when not one other could be started. */
static int start(sdb_split *sp, int threads, sdb_split_take_fn take, sdb_split_done_fn done,
                 void *ctx, int inline_first)
{
	sp->ta = calloc((size_t)threads, sizeof *sp->ta);
	sp->tid = calloc((size_t)threads, sizeof *sp->tid);
	if (!sp->ta || !sp->tid) {
		free(sp->ta);
		free(sp->tid);
		sp->ta = NULL;
		sp->tid = NULL;
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	}
	sp->threads = threads;
	sp->take = take;
	sp->on_done = done;
	sp->ctx = ctx;
	for (int i = 0; i < threads; i++) {
		sp->ta[i].w = sp->root;   /* the root state, the bound */
		sp->ta[i].w.nodes = sp->ta[i].w.pending = 0;
		sp->ta[i].w.next_bound = INT_MAX;
		sp->ta[i].w.main_thread = inline_first && i == 0;
		sp->ta[i].sp = sp;
	}
	atomic_store(&sp->running, threads);
	/* a thread that cannot be started leaves its share to the others */
	int started = 0;
	for (int i = inline_first; i < threads; i++) {
		sp->ta[i].started = pthread_create(&sp->tid[i], NULL, run_subtrees, &sp->ta[i]) == 0;
		started += sp->ta[i].started;
	}
	const int run_first = inline_first || !started;   /* on the caller's thread */
	for (int i = 0; i < threads; i++)
		if (!sp->ta[i].started && !(run_first && i == 0))
			atomic_fetch_sub(&sp->running, 1);
	if (run_first)
		run_subtrees(&sp->ta[0]);
	return SDB_OK;
}

int sdb_split_start(sdb_split *sp, int threads, sdb_split_take_fn take, sdb_split_done_fn done,
                    void *ctx)
{
	threads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
	return start(sp, threads, take, done, ctx, 0);
}

int sdb_split_running(sdb_split *sp)
{
	return atomic_load(&sp->running);
}

void sdb_split_abandon(sdb_split *sp, int subtree)
{
	int cur = atomic_load(&sp->s.first_found);
	while (subtree < cur && !atomic_compare_exchange_weak(&sp->s.first_found, &cur, subtree))
		;
}

void sdb_split_stop(sdb_split *sp)
{
	atomic_store(&sp->s.stop, STOPPED);
}

void sdb_split_add_nodes(sdb_split *sp, uint64_t nodes)
{
	atomic_fetch_add(&sp->s.nodes, nodes);
}

uint64_t sdb_split_nodes(sdb_split *sp)
{
	return atomic_load(&sp->s.nodes);
}

int sdb_split_poll(sdb_split *sp)
{
	shared *s = &sp->s;
	const double t = sdbi_now();
	int stop = s->deadline > 0 && t > s->deadline;
	const uint64_t nodes = atomic_load(&s->nodes);
	stop |= s->max_nodes && nodes >= s->max_nodes;
	if (!stop && s->limits && s->limits->poll) {
		const sdb_search_progress p = { nodes, sp->root.bound, t - s->started };
		stop = s->polled_stop = s->limits->poll(s->limits->poll_ctx, &p) != 0;
	}
	if (stop)
		sdb_split_stop(sp);
	return stop || atomic_load(&s->stop);
}

void sdb_split_found(sdb_split *sp, sdb_split_result *res)
{
	pthread_mutex_lock(&sp->lock);
	res->found = sp->found_subtree != INT_MAX;
	res->subtree = sp->found_subtree;
	res->length = res->found ? sp->found_depth : 0;
	if (res->found)
		memcpy(res->path, sp->found_path, (size_t)sp->found_depth);
	pthread_mutex_unlock(&sp->lock);
}

int sdb_split_next_bound(sdb_split *sp)
{
	return atomic_load(&sp->next_bound);
}

int sdb_split_finish(sdb_split *sp, sdb_split_result *res)
{
	memset(res, 0, sizeof *res);
	res->next_bound = INT_MAX;
	for (int i = 0; i < sp->threads; i++) {
		if (sp->ta[i].started)
			pthread_join(sp->tid[i], NULL);
		res->nodes += sp->ta[i].w.nodes;
		if (sp->ta[i].w.next_bound < res->next_bound)
			res->next_bound = sp->ta[i].w.next_bound;
		res->stopped |= sp->ta[i].result == STOPPED;
	}
	if (sp->next_bound < res->next_bound)
		res->next_bound = sp->next_bound;   /* the cut's */
	free(sp->ta);
	free(sp->tid);
	sp->ta = NULL;
	sp->tid = NULL;
	sp->threads = 0;
	sdb_split_found(sp, res);
	return SDB_OK;
}

const char *sdb_split_heuristic(const sdb_split *sp)
{
	return sdb_heuristic_name(sp->h);
}

void sdb_split_boards(const sdb_split *sp, sdb_board *start, sdb_board *goal)
{
	*start = sp->start;
	*goal = sp->goal;
}

/* The search of start -> goal by h in sp (allocated, zeroed): the engine,
 * the root worker at the start; the start's h, or an error. */
static int split_init(sdb_split *sp, const sdb_heuristic *h, const sdb_board *start,
                      const sdb_board *goal, const sdb_solve_limits *limits, double t0)
{
	sp->h = h;
	sp->start = *start;
	sp->goal = *goal;
	sp->found_subtree = INT_MAX;
	sp->f.goal_at = -1;   /* not cut */
	pthread_mutex_init(&sp->lock, NULL);
	atomic_init(&sp->s.first_found, INT_MAX);
	atomic_init(&sp->next_bound, INT_MAX);
	int err = sdbi_heuristic_frame(h, &sp->frame, goal);
	if (err)
		return err;
	if (start->w != h->w || start->h != h->h)
		return sdbi_fail(SDB_EINVAL, "a %dx%d board given to a heuristic of %dx%d boards",
		                start->w, start->h, h->w, h->h);
	sdb_board goal_in_frame;
	sdb_frame_board(&sp->frame, &goal_in_frame, goal);
	sdbi_engine_init(&sp->e, h, &sp->frame, &goal_in_frame);
	sp->s.e = &sp->e;
	sp->s.started = t0;
	sp->s.prune = 1;
	if (limits) {
		sp->s.limits = limits;
		sp->s.max_nodes = limits->max_nodes;
		sp->s.deadline = limits->timeout > 0 ? t0 + limits->timeout : 0;
	}
	return sdbi_worker_start(&sp->root, &sp->s, &sp->frame, start);
}

static void split_free(sdb_split *sp)
{
	if (!sp)
		return;
	pthread_mutex_destroy(&sp->lock);
	free(sp->root.hs);
	free(sp->f.paths);
	free(sp->done);
	free(sp);
}

int sdb_split_open(sdb_split **out, const sdb_db *db, const char *sets, const sdb_board *start,
                   const sdb_board *goal)
{
	*out = NULL;
	const sdb_heuristic *h;
	const char *note;
	/* a multi-tile search names its own tables, built here as there */
	const int mtm = sets && !strncmp(sets, SDBI_MTM_HEURISTIC, strlen(SDBI_MTM_HEURISTIC));
	int err = mtm ? sdbi_db_heuristic_mtm(&h, db, goal)
	              : sdbi_db_heuristic(&h, &note, db, goal, sets);
	if (!err)
		err = sdbi_heuristic_checked(h);
	if (err)
		return err;
	if (h->manhattan)
		return sdbi_fail(SDB_ENOTFOUND, "no pattern-database set '%s' here", sets);
	if (mtm && strcmp(h->name, sets))
		return sdbi_fail(SDB_EINVAL, "the multi-tile search here reads '%s', not '%s' (a "
		                 "different slidedb?)", h->name, sets);
	sdb_split *sp = calloc(1, sizeof *sp);
	if (!sp)
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	err = split_init(sp, h, start, goal, NULL, sdbi_now());
	if (err < 0) {
		split_free(sp);
		return err;
	}
	*out = sp;
	return sdbi_done(SDB_OK);
}

void sdb_split_close(sdb_split *sp)
{
	split_free(sp);
}

/* The iteration's answer from its subtrees' result: the first subtree that
 * found (stopped by a limit, only if every subtree before it was searched
 * to the end: else it may not be the first), else a goal above the cut's
 * depth. FOUND (the path in w), STOPPED, or 0. */
static int iteration_answer(sdb_split *sp, const sdb_split_result *res)
{
	worker *w = &sp->root;
	w->next_bound = res->next_bound;
	int first = res->found;   /* stopped, a subtree before it may be unfinished */
	for (int i = 0; first && res->stopped && i < res->subtree; i++)
		first = sdb_split_is_done(sp, i);
	if (first) {
		memcpy(w->path, res->path, (size_t)res->length);
		w->found_depth = res->length;
		return FOUND;
	}
	if (res->stopped)
		return STOPPED;
	if (sp->f.goal_at >= 0) {   /* no subtree before the goal holds a solution */
		memcpy(w->path, sp->f.goal_path, (size_t)sp->f.goal_depth);
		w->found_depth = sp->f.goal_depth;
		return FOUND;
	}
	return 0;
}

/* One iteration at the root's bound on `threads` threads, the caller's the
 * first: FOUND, STOPPED, 0, or an error. */
static int parallel_iteration(sdb_split *sp, int threads)
{
	int depth = 0;
	int n = sdb_split_cut(sp, sp->root.bound, &depth, SUBTREES_PER_THREAD * threads);
	if (n < 0)
		return n;
	sdb_split_result res;
	int err = start(sp, threads, sdb_split_take, NULL, sp, 1);
	if (err)
		return err;
	sdb_split_finish(sp, &res);
	return iteration_answer(sp, &res);
}

/* An iteration given to the installed hook: as parallel_iteration; or,
 * declined, as without a hook (large: the last was large enough to split). */
static int hooked_iteration(sdb_split *sp, uint64_t last, int threads, int large)
{
	sdb_split_result res;
	memset(&res, 0, sizeof res);
	res.next_bound = INT_MAX;
	sp->f.goal_at = -1;   /* (the hook may answer without a cut) */
	const int r = installed->iteration(installed->ctx, sp, sp->root.bound, last, &res);
	if (r == 1)
		return large && threads > 1 ? parallel_iteration(sp, threads)
		       : sdbi_dfs(&sp->root, 0, -1, 0);
	if (r)
		return sdbi_fail(r < 0 ? r : SDB_EINVAL, "%s", res.error[0] ? res.error
		                 : "a search's hook failed");
	if (res.stopped)
		sdb_split_stop(sp);
	return iteration_answer(sp, &res);
}

int sdb_answer_search(sdb_answer *a, sdb_solve_stats *stats, const sdb_heuristic *h,
                      const sdb_board *start, const sdb_board *goal, const sdb_solve_limits *limits)
{
	return sdbi_solve_optimal(a, stats, h, start, goal, limits, NULL);
}

static int limit_error(const shared *s, uint64_t nodes, double seconds, const char *what)
{
	if (s->polled_stop)
		return sdbi_fail(SDB_ELIMIT, "search stopped by its caller (%llu nodes, %.1f s, %s)",
		                (unsigned long long)nodes, seconds, what);
	if (s->max_nodes && nodes >= s->max_nodes)
		return sdbi_fail(SDB_ELIMIT, "search stopped at its limit of %llu nodes (%llu searched, "
		                "%.1f s, %s)", (unsigned long long)s->max_nodes,
		                (unsigned long long)nodes, seconds, what);
	if (s->limits && s->limits->timeout > 0)
		return sdbi_fail(SDB_ELIMIT, "search stopped at its time limit of %g s (%llu nodes, "
		                "%s)", s->limits->timeout, (unsigned long long)nodes, what);
	return sdbi_fail(SDB_ELIMIT, "more than 2^128 optimal solutions");
}

/* Nodes an iteration must have taken for the next to be split over the
 * threads: PARALLEL_MIN, or the tuning's split_nodes (tests split every
 * iteration of small searches with 0, to compare the answers). */
static uint64_t split_nodes(void)
{
	const int64_t tuned = sdbi_tuning()->split_nodes;
	return tuned >= 0 ? (uint64_t)tuned : PARALLEL_MIN;
}

/* Iterations from the root until one finds the goal (or a limit). */
static int iterate(sdb_split *sp, int bound, int threads, int *last_bound)
{
	worker *w = &sp->root;
	shared *s = &sp->s;
	const uint64_t split = split_nodes();
	uint64_t last = 0;   /* nodes of the last iteration */
	int r;
	for (;;) {
		w->bound = bound;
		w->next_bound = INT_MAX;
		const uint64_t before = atomic_load(&s->nodes) + w->pending;
		const int splittable = !w->e->manhattan && !s->en, large = last >= split;
		if (splittable && installed) {
			r = hooked_iteration(sp, last, threads, large);
		} else if (splittable && large && threads > 1) {
			r = parallel_iteration(sp, threads);
		} else {
			r = sdbi_dfs(w, 0, -1, 0);
		}
		atomic_fetch_add(&s->nodes, w->pending);
		w->pending = 0;
		last = atomic_load(&s->nodes) - before;
		if (r || w->next_bound >= SDB_MAX_MOVES + 1)
			break;
		bound = w->next_bound;
	}
	*last_bound = bound;
	return r;
}

int sdbi_solve_optimal(sdb_answer *a, sdb_solve_stats *stats, const sdb_heuristic *h,
                      const sdb_board *start, const sdb_board *goal,
                      const sdb_solve_limits *limits, sdbi_optimal *en)
{
	double t0 = sdbi_now();
	memset(stats, 0, sizeof *stats);
	int ok = sdbi_answer_begin(a, start, goal);
	if (ok <= 0)
		return sdbi_done(ok);   /* an error, or answered: unsolvable */
	sdb_split *sp = calloc(1, sizeof *sp);
	if (!sp)
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	int threads = 1;
	if (limits)
		threads = limits->threads < 1 ? 1 : limits->threads > MAX_THREADS ? MAX_THREADS
		          : limits->threads;
	int bound = stats->heuristic = split_init(sp, h, start, goal, limits, t0);
	worker *w = &sp->root;
	shared *s = &sp->s;
	w->main_thread = 1;
	int r = bound, err = 0;
	if (bound >= 0)
		r = iterate(sp, bound, threads, &bound);
	const uint64_t nodes = atomic_load(&s->nodes);
	stats->nodes = nodes;
	stats->seconds = sdbi_now() - t0;
	char what[64];
	snprintf(what, sizeof what, "no solution within %d moves", bound - 1);
	if (r < 0)
		err = r;
	else if (r == STOPPED)
		err = limit_error(s, nodes, stats->seconds, what);
	else if (r != FOUND)
		err = sdbi_fail(SDB_ELIMIT, "no solution within %d moves", SDB_MAX_MOVES);
	if (bound >= 0) {
		/* what the search did, also when it stopped at a limit: its nodes
		 * are the caller's to count and to show */
		a->method = SDB_METHOD_SEARCH;
		a->nodes = nodes;
		a->heuristic = stats->heuristic;
		a->heuristic_name = sdb_heuristic_name(h);
	}
	if (!err) {
		/* The answer is what was found: the depth at the goal and the path
		 * to it (the bound can only differ if the heuristic overestimates). */
		const int depth = w->found_depth;
		a->solvable = 1;
		a->distance = depth;
		a->moves[sdbi_path_letters(w, depth, a->moves)] = '\0';
		a->best_move = depth ? sp->frame.move_back[w->path[0] & 3] : -1;
	}
	if (!err && en) {
		/* Every optimal sequence has exactly depth moves: search that bound
		 * once more, pruning only inverse moves, and visit them all (or as
		 * many as wanted). */
		s->en = en;
		s->prune = 0;
		w->bound = a->distance;
		w->next_bound = INT_MAX;
		r = sdbi_dfs(w, 0, -1, 0);
		atomic_fetch_add(&s->nodes, w->pending);
		w->pending = 0;
		stats->nodes = a->nodes = atomic_load(&s->nodes);
		stats->seconds = sdbi_now() - t0;
		if (r == STOPPED)
			err = limit_error(s, stats->nodes, stats->seconds, "while counting the optimal "
			                  "solutions");
	}
	split_free(sp);
	return err ? err : sdbi_done(SDB_OK);
}
