/* SPDX-License-Identifier: MIT */
/* Every state of a table once: the states at chosen distances from a goal
 * (or all those that reach it), in the table's index order, as rows of
 * cells. What a learned heuristic's dataset needs where draws with
 * replacement (random.c) would repeat states and miss others. */
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "store/blocks.h"

struct sdb_states {
	sdb_board goal;            /* the caller's */
	const sdb_table *t;        /* NULL: every state of the goal's class */
	sdb_frame frame;           /* the goal's, onto the table's (t only) */
	int cls;                   /* class of the boards listed, in the index's frame */
	int min_d, max_d;
	int metric;                /* enum sdb_metric of the table */
	uint64_t next;             /* the next index to look at */
	uint64_t end;              /* one past the last index */
	uint64_t population;
	uint64_t listed;           /* states given so far */
};

int sdb_states_distances(const sdb_states *s)
{
	return s->t != NULL;
}

uint64_t sdb_states_count(const sdb_states *s)
{
	return s->population;
}

void sdb_states_close(sdb_states *s)
{
	free(s);
}

/* The table, its frame and the population of the range asked. */
static int open_table(sdb_states *s, const sdb_db *db)
{
	int err = SDB_OK;
	if (!(s->t = sdbi_find_for_goal(db, &s->goal, s->metric, &err)))
		return err;
	const sdb_table_info *in = &s->t->info;
	if (in->entry_format == SDB_ENTRY_MOD3)
		return sdbi_fail_mod3_distance(s->t, &s->goal);
	if (s->min_d > s->max_d)
		return sdbi_fail(SDB_EINVAL, "distances %d to %d: the least is above the most",
		                s->min_d, s->max_d);
	for (int d = s->min_d; d <= s->max_d && d <= in->max_distance; d++)
		s->population += in->counts[d];
	sdb_frame_init(&s->frame, &s->goal, s->t->blank);
	sdb_board canonical;
	sdb_frame_board(&s->frame, &canonical, &s->goal);
	s->cls = sdb_rank_class(&canonical);
	s->end = in->states;
	return SDB_OK;
}

int sdb_states_open(sdb_states **out, const sdb_db *db, const sdb_board *goal,
                    int min_distance, int max_distance)
{
	return sdb_states_open_metric(out, db, goal, min_distance, max_distance, SDB_METRIC_STM);
}

int sdb_states_open_metric(sdb_states **out, const sdb_db *db, const sdb_board *goal,
                           int min_distance, int max_distance, int metric)
{
	*out = NULL;
	if (metric != SDB_METRIC_STM && metric != SDB_METRIC_MTM)
		return sdbi_fail(SDB_EINVAL, "metric %d is not one (0 stm, 1 mtm)", metric);
	const int any = min_distance == -1 && max_distance == -1;
	if (!any && (min_distance < 0 || max_distance < 0))
		return sdbi_fail(SDB_EINVAL, "distance %d is negative",
		                min_distance < 0 ? min_distance : max_distance);
	if (goal->n > SDB_MAX_FULL_CELLS) {
		char most[SDB_RANK_COUNT_TEXT];
		sdb_rank_count_format(most, sizeof most, 7, 2);
		return sdbi_fail(SDB_ETOOBIG, "%dx%d has %d cells: its states are listed up to %d "
		                "cells (%s states or fewer)", goal->w, goal->h, goal->n,
		                SDB_MAX_FULL_CELLS, most);
	}
	sdb_states *s = calloc(1, sizeof *s);
	if (!s)
		return sdbi_fail(SDB_ENOMEM, "out of memory");
	s->goal = *goal;
	s->min_d = min_distance;
	s->max_d = max_distance;
	s->metric = metric;
	int err = SDB_OK;
	const sdb_table *t = any && db ? sdbi_find_for_goal(db, goal, metric, &err) : NULL;
	if (any && t && t->info.entry_format != SDB_ENTRY_MOD3) {
		s->min_d = 0;   /* every state, with its distance from the table */
		s->max_d = t->info.max_distance;
		err = open_table(s, db);
	} else if (any) {   /* the goal's class, ranked as it is: no table needed */
		err = SDB_OK;
		s->cls = sdb_rank_class(goal);
		s->population = s->end = sdb_rank_count(goal->w, goal->h);
	} else {
		err = open_table(s, db);
	}
	if (err) {
		sdb_states_close(s);
		return err;
	}
	*out = s;
	return sdbi_done(SDB_OK);
}

/* Write board b as a row of cells and its distance. */
static void put_row(uint8_t *row, int16_t *dist, const sdb_board *b, int d)
{
	memcpy(row, b->cell, b->n);
	if (dist)
		*dist = (int16_t)d;
}

long sdb_states_next(sdb_states *s, uint8_t *cells, int16_t *dist, size_t cap)
{
	const int n = s->goal.n;
	size_t k = 0;
	if (!s->t) {
		for (; k < cap && s->next < s->end; k++, s->next++) {
			sdb_board b;
			if (sdb_board_unrank(&b, s->goal.w, s->goal.h, s->cls, s->next))
				return SDB_EINVAL;   /* cannot happen: every index is below the count */
			put_row(cells + k * (size_t)n, dist ? dist + k : NULL, &b, -1);
		}
		sdbi_done(SDB_OK);
		return (long)k;
	}
	const unsigned lo = (unsigned)s->min_d, span = (unsigned)(s->max_d - s->min_d);
	sdbi_damage_reset();
	for (; k < cap && s->next < s->end; s->next++) {
		const int d = sdbi_entry_dist(s->t, s->next);
		if ((unsigned)(d - (int)lo) > span)
			continue;
		sdb_board f, b;
		sdb_board_unrank(&f, s->goal.w, s->goal.h, s->cls, s->next);
		sdb_frame_unboard(&s->frame, &b, &f);
		put_row(cells + k * (size_t)n, dist ? dist + k : NULL, &b, d);
		k++;
	}
	int err = sdbi_damage_check();
	if (err)
		return err;
	s->listed += k;
	if ((k == 0 || s->next == s->end) && s->listed != s->population)
		return sdbi_fail(SDB_ECORRUPT, "%s: table '%s' lists %llu states where its counts say "
		                "%llu (run `slidedb-lookup verify`)", sdb_db_path(s->t->db),
		                s->t->info.name, (unsigned long long)s->listed,
		                (unsigned long long)s->population);
	sdbi_done(SDB_OK);
	return (long)k;
}
