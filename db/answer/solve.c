/* IDA*: depth-first searches with a growing bound on f = g + h, in the
 * heuristic's frame, never undoing the previous move. Each depth keeps its
 * own copy of the followed state, so undoing a move costs nothing. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "answer/answer.h"

enum { CHECK_EVERY = 1 << 14, FOUND = 1, STOPPED = 2, NEXT_FIRST = 3, LIMIT_DONE = 4 };

typedef struct search {
	const sdb_heuristic *h;
	sdb_board goal;                 /* in the frame */
	uint64_t nodes, max_nodes;
	double started, deadline;
	const sdb_solve_limits *limits;  /* for its poll, or NULL */
	int bound;                      /* the current bound */
	int polled_stop;                /* the poll asked to stop */
	int next_bound;
	int found_depth;                /* moves to the goal, once found */
	uint8_t order[4];               /* frame moves in the caller's order u d l r,
	                                   so the first sequence found is the
	                                   lexicographically smallest */
	const uint8_t *move_back;       /* frame move -> caller's move */
	sdbi_optimal *en;                /* enumerating every optimal sequence, or NULL */
	uint8_t path[SDB_MAX_MOVES];    /* frame moves */
} search;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int visit(search *s, int g);

/* Every CHECK_EVERY nodes: the clock and the caller's poll. 1 to stop. */
static int checkpoint(search *s)
{
	const double t = now();
	if (s->deadline > 0 && t > s->deadline)
		return 1;
	if (s->limits && s->limits->poll) {
		const sdb_search_progress p = { s->nodes, s->bound, t - s->started };
		if (s->limits->poll(s->limits->poll_ctx, &p))
			return s->polled_stop = 1;
	}
	return 0;
}

static int dfs(search *s, const sdb_hstate *st, int g, int bound, int prev)
{
	int f = g + st->value;
	if (f > bound) {
		if (f < s->next_bound)
			s->next_bound = f;
		return 0;
	}
	/* The goal is the goal board, whatever the heuristic says there: a set
	 * that does not give 0 at the goal (a crafted one) must not hide it. The
	 * blank's cell rules out most nodes before the comparison. */
	if (st->board[0].blank == s->goal.blank && sdb_board_equal(&st->board[0], &s->goal)) {
		s->found_depth = g;
		return s->en ? visit(s, g) : FOUND;
	}
	if (g >= SDB_MAX_MOVES)
		return 0;
	if ((s->max_nodes && s->nodes >= s->max_nodes) ||
	    (++s->nodes % CHECK_EVERY == 0 && checkpoint(s)))
		return STOPPED;
	unsigned moves = sdb_board_moves(&st->board[0]);
	for (int k = 0; k < 4; k++) {
		const int m = s->order[k];
		if (!(moves >> m & 1) || (prev >= 0 && m == (prev ^ 1)))   /* u^1 = d, l^1 = r */
			continue;
		sdb_hstate child = *st;
		sdbi_heuristic_move_frame(s->h, &child, m);
		s->path[g] = (uint8_t)m;
		int r = dfs(s, &child, g + 1, bound, m);
		if (r == NEXT_FIRST && g == 0)
			continue;   /* this first move is known to be optimal: try the next */
		if (r)
			return r;
	}
	return 0;
}

/* An optimal sequence found while enumerating at the optimal bound. */
static int visit(search *s, int g)
{
	sdbi_optimal *en = s->en;
	if (g > 0)
		en->best_moves |= 1u << s->move_back[s->path[0]];
	if (en->count_all && sdbi_count_add(&en->count, 1))
		return STOPPED;   /* cannot happen below 2^128 sequences; stop rather than wrap */
	if (en->emitted < en->limit) {
		char moves[SDB_MAX_MOVES + 1];
		for (int k = 0; k < g; k++)
			moves[k] = sdb_move_letter(s->move_back[s->path[k]]);
		moves[g] = '\0';
		en->emitted++;
		if (en->fn(en->ctx, moves)) {
			en->limit = en->emitted;   /* the caller has enough */
			en->stopped = 1;
		}
	}
	if (en->count_all || en->emitted < en->limit)
		return 0;
	if (en->limit > 0 || en->stopped)
		return LIMIT_DONE;
	return NEXT_FIRST;   /* only first moves wanted: one sequence per first move */
}

int sdb_solve(sdb_answer *a, sdb_solve_stats *stats, const sdb_heuristic *h,
              const sdb_board *start, const sdb_board *goal, const sdb_solve_limits *limits)
{
	return sdbi_solve_optimal(a, stats, h, start, goal, limits, NULL);
}

static int limit_error(const search *s, const sdb_solve_limits *limits, double seconds,
                       const char *what)
{
	if (s->polled_stop)
		return sdbi_fail(SDB_ELIMIT, "search stopped by its caller (%llu nodes, %.1f s, %s)",
		                (unsigned long long)s->nodes, seconds, what);
	if (s->max_nodes && s->nodes >= s->max_nodes)
		return sdbi_fail(SDB_ELIMIT, "search stopped at its limit of %llu nodes (%.1f s, %s)",
		                (unsigned long long)s->max_nodes, seconds, what);
	if (limits && limits->timeout > 0)
		return sdbi_fail(SDB_ELIMIT, "search stopped at its time limit of %g s (%llu nodes, "
		                "%s)", limits->timeout, (unsigned long long)s->nodes, what);
	return sdbi_fail(SDB_ELIMIT, "more than 2^128 optimal solutions");
}

int sdbi_solve_optimal(sdb_answer *a, sdb_solve_stats *stats, const sdb_heuristic *h,
                      const sdb_board *start, const sdb_board *goal,
                      const sdb_solve_limits *limits, sdbi_optimal *en)
{
	double t0 = now();
	memset(stats, 0, sizeof *stats);
	int ok = sdbi_answer_begin(a, start, goal);
	if (ok <= 0)
		return sdbi_done(ok);   /* an error, or answered: unsolvable */
	search s;
	memset(&s, 0, sizeof s);
	s.h = h;
	sdb_frame frame;
	int err = sdbi_heuristic_frame(h, &frame, goal);
	if (err)
		return err;
	sdb_frame_board(&frame, &s.goal, goal);
	memcpy(s.order, frame.move_in, sizeof s.order);
	s.move_back = frame.move_back;
	s.started = t0;
	if (limits) {
		s.limits = limits;
		s.max_nodes = limits->max_nodes;
		s.deadline = limits->timeout > 0 ? t0 + limits->timeout : 0;
	}
	sdb_hstate st;
	int bound = stats->heuristic = sdbi_heuristic_start_in(h, &frame, &st, start);
	if (bound < 0)
		return bound;
	int r;
	for (;;) {
		s.next_bound = 1 << 30;
		s.bound = bound;
		r = dfs(&s, &st, 0, bound, -1);
		if (r || s.next_bound >= SDB_MAX_MOVES + 1)
			break;
		bound = s.next_bound;
	}
	stats->nodes = s.nodes;
	stats->seconds = now() - t0;
	char what[64];
	snprintf(what, sizeof what, "no solution within %d moves", bound - 1);
	if (r == STOPPED)
		return limit_error(&s, limits, stats->seconds, what);
	if (r != FOUND)
		return sdbi_fail(SDB_ELIMIT, "no solution within %d moves", SDB_MAX_MOVES);
	/* The answer is what was found: the depth at the goal and the path to it
	 * (the bound can only differ if the heuristic overestimates). */
	const int depth = s.found_depth;
	a->solvable = 1;
	a->distance = depth;
	for (int k = 0; k < depth; k++)
		a->moves[k] = sdb_move_letter(frame.move_back[s.path[k]]);
	a->moves[depth] = '\0';
	a->best_move = depth ? frame.move_back[s.path[0]] : -1;
	a->method = SDB_METHOD_SEARCH;
	a->nodes = stats->nodes;
	a->heuristic = stats->heuristic;
	a->heuristic_name = sdb_heuristic_name(h);
	if (en) {
		/* Every optimal sequence has exactly depth moves: search that bound
		 * once more and visit them all (or as many as wanted). */
		s.en = en;
		s.bound = depth;
		r = dfs(&s, &st, 0, depth, -1);
		stats->nodes = a->nodes = s.nodes;
		stats->seconds = now() - t0;
		if (r == STOPPED)
			return limit_error(&s, limits, stats->seconds, "while counting the optimal "
			                   "solutions");
	}
	return sdbi_done(SDB_OK);
}
