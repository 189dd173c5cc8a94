/* SPDX-License-Identifier: MIT */
/* The move checker: replay a sequence, then judge it against the optimal
 * distance (what an online judge does with a contestant's answer), and its
 * verdict as a sentence. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "answer/answer.h"

/* The move at moves[*k] (sdbi_moves_token()), or SDB_EINVAL saying why. */
static int read_move(const char *moves, size_t len, size_t *k, int *m, int *count)
{
	if (moves[*k] == ' ' || moves[*k] == '\t')
		return sdbi_fail(SDB_EINVAL, "moves: a blank at position %zu: write the moves as one "
		                 "word (\"rrdl\", \"r2dl\")", *k + 1);
	if (sdbi_moves_token(moves, len, k, m, count) == SDB_OK)
		return SDB_OK;
	char why[160];
	snprintf(why, sizeof why, "%s", sdb_error_detail());
	return sdbi_fail(SDB_EINVAL, "moves: %s", why);
}

int sdb_check_moves(sdb_check *c, const sdb_db *db, const sdb_board *start,
                    const sdb_board *goal, const char *moves, const sdb_answer_opts *opts)
{
	memset(c, 0, sizeof *c);
	c->illegal_move = -1;
	c->distance = c->end_distance = -1;
	c->legal = 1;
	c->end = *start;
	if (sdbi_answer_opts_check(opts))
		return sdbi_done(SDB_EINVAL);
	if (start->w != goal->w || start->h != goal->h)
		return sdbi_fail(SDB_EINVAL, "start is %dx%d but goal is %dx%d", start->w, start->h,
		                goal->w, goal->h);
	const int metric = sdbi_answer_metric(opts);
	if (metric < 0)
		return sdbi_fail(SDB_EINVAL, "metric %d is not one (0 stm, 1 mtm)", opts->metric);
	/* A letter with a count ("r3") is that many letters. In the single-tile
	 * metric each letter is a move, replayed up to the first that leaves
	 * the board; in the multi-tile metric a run of one letter ("r", "r2r")
	 * is one move, replayed whole or not at all. The length and the
	 * illegal step count the metric's moves. */
	const int mtm = metric == SDB_METRIC_MTM;
	const size_t len = strlen(moves);
	int64_t length = 0;
	for (size_t k = 0; k < len;) {
		int m, count, more;
		if (read_move(moves, len, &k, &m, &count))
			return SDB_EINVAL;
		/* the multi-tile move goes on while the letter does */
		while (mtm && k < len && sdb_move_from_letter((unsigned char)moves[k]) == m) {
			if (read_move(moves, len, &k, &m, &more))
				return SDB_EINVAL;
			count += more;
			if (count > SDB_MAX_MOVES * 64)
				return sdbi_fail(SDB_EINVAL, "moves: a slide of more than %d cells",
				                 SDB_MAX_MOVES * 64);
		}
		if (c->legal && mtm) {
			sdb_board end = c->end;
			int i = 0;
			while (i < count && sdbi_slide(&end, m))
				i++;
			if (i == count) {
				c->end = end;
			} else {
				c->legal = 0;
				c->illegal_step = (int)length + 1;
				c->illegal_move = m;
			}
		}
		for (int i = 0; c->legal && !mtm && i < count; i++)
			if (!sdbi_slide(&c->end, m)) {
				c->legal = 0;
				c->illegal_step = (int)length + i + 1;
				c->illegal_move = m;
			}
		if ((length += mtm ? 1 : count) > INT_MAX)
			return sdbi_fail(SDB_EINVAL, "moves: too many to count");
	}
	c->length = (int)length;
	c->reaches_goal = c->legal && sdb_board_equal(&c->end, goal);
	/* The moves keep the pair's solvability: one test says it for both. */
	c->solvable = sdb_board_solvable(start, goal);
	if (!c->solvable)
		return sdbi_done(SDB_OK);
	sdb_answer_opts o = { .version = SDB_ANSWER_OPTS_VERSION, .want_moves = 0, .metric = metric };
	if (opts) {
		o.limits = opts->limits;
		o.sets = opts->sets;
	}
	sdb_answer a;
	int err = sdb_answer_query(&a, db, start, goal, &o);
	if (err)
		return err;
	c->distance = a.distance;
	if (c->reaches_goal) {
		c->end_distance = 0;
	} else if ((err = sdb_answer_query(&a, db, &c->end, goal, &o))) {
		return err;
	} else {
		c->end_distance = a.distance;
	}
	c->optimal = c->reaches_goal && c->length == c->distance;
	return sdbi_done(SDB_OK);
}

int sdb_check_verdict(char *buf, size_t cap, const sdb_check *c)
{
	int len;
	if (!c->solvable)
		len = snprintf(buf, cap, "unsolvable");
	else if (!c->legal)
		len = snprintf(buf, cap, "illegal move '%c' at step %d",
		               sdb_move_letter(c->illegal_move), c->illegal_step);
	else if (!c->reaches_goal)
		len = snprintf(buf, cap, "does not reach the goal (ends %d move%s away)",
		               c->end_distance, c->end_distance == 1 ? "" : "s");
	else if (c->optimal)
		len = snprintf(buf, cap, "optimal");
	else
		len = snprintf(buf, cap, "valid, %d moves longer than optimal",
		               c->length - c->distance);
	if (len < 0 || (size_t)len >= cap)
		return sdbi_fail(SDB_EINVAL, "buffer too small for a verdict");
	return len;
}
