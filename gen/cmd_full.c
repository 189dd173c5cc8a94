/* SPDX-License-Identifier: MIT */
/* slidedb-gen full: exact tables of every state of boards up to 14 cells. */
#include <stdio.h>

#include "gen/gen.h"
#include "gen/gen_mpi.h"

/* Bits per state: --bits, else 8 up to 12 cells (239.5 MB for 3x4) and 2
 * above (7x2 in 10.9 GB instead of 43.6). */
static int table_bits(const gen_options *o)
{
	return o->bits ? o->bits : o->w * o->h > SDB_TABLE_ONLY_CELLS ? 2 : 8;
}

/* Build one full table inside the run's transaction, straight into the
 * database's reserved pages (or memory of the run's own for tables over
 * 4 GiB). */
static int build_one(run *r, int blank)
{
	const gen_options *o = r->o;
	sdb_table_info info;
	sdb_board goal;
	char name[SDB_NAME_MAX];
	sdb_board_goal(&goal, o->w, o->h, blank);
	sdb_table_name_full_metric(name, sizeof name, o->w, o->h, blank, o->metric);
	run_info_init(&info, name, o->metric == SDB_METRIC_MTM ? SDB_KIND_FULL_MTM : SDB_KIND_FULL,
	                table_bits(o) == 2 ? SDB_ENTRY_MOD3 : SDB_ENTRY_DIST6_MOVE2, &goal,
	                sdb_rank_count(o->w, o->h));
	uint8_t *data;
	int err = run_table_begin(r, &info, &data);
	if (err)
		return err;
	bfs_full_ctx ctx;
	bfs_space space;
	bfs_full_space_metric(&space, &ctx, o->w, o->h, blank, o->metric);
	if ((err = run_bfs(r, &info, data, &space)))
		return err;
	return run_put(r, &info);
}

/* The blank cells to build tables for: representatives only. With no goal,
 * every class on boards of up to 10 cells, the standard goal's class above. */
static int target_cells(int *cells, const gen_options *o, const sdb_board *goal)
{
	int n = o->w * o->h, count = 0;
	if (o->goal_text) {
		cells[count++] = sdb_sym_representative(o->w, o->h, goal->blank);
		return count;
	}
	if (o->all_goals || n <= 10) {
		for (int c = 0; c < n; c++)
			if (sdb_sym_representative(o->w, o->h, c) == c)
				cells[count++] = c;
		return count;
	}
	cells[count++] = sdb_sym_representative(o->w, o->h, n - 1);
	return count;
}

int cmd_full(void *opts, int nargs, char **args)
{
	const gen_options *o = opts;
	(void)nargs;
	(void)args;
	if (o->goal_text && o->all_goals)
		return cli_usage("--goal and --all-goals exclude each other");
	if (o->w * o->h > SDB_MAX_FULL_CELLS && o->metric == SDB_METRIC_MTM) {
		char states[SDB_RANK_COUNT_TEXT];
		sdb_rank_count_format(states, sizeof states, o->w, o->h);
		return cli_fail("%dx%d has %d cells and %s states: too many for a full table (up to %d "
		                "cells), and the multi-tile metric has no pattern databases yet", o->w,
		                o->h, o->w * o->h, states, SDB_MAX_FULL_CELLS);
	}
	if (o->w * o->h > SDB_MAX_FULL_CELLS) {
		char spec[64], states[SDB_RANK_COUNT_TEXT];
		sdb_partition_default(spec, sizeof spec, o->w, o->h);
		sdb_rank_count_format(states, sizeof states, o->w, o->h);
		return cli_fail("%dx%d has %d cells and %s states: too many for a full table (up "
		                "to %d cells); build pattern databases with `%s pdb %dx%d --partition "
		                "%s`", o->w, o->h, o->w * o->h, states, SDB_MAX_FULL_CELLS,
		                cli_prog, o->w, o->h, spec);
	}
	sdb_board goal;
	if (gen_goal(&goal, o))
		return cli_fail_lib("--goal");
	int cells[SDB_MAX_CELLS];
	int count = target_cells(cells, o, &goal);
	/* one transaction: every table's pages stay in memory until it commits */
	char what[64];
	snprintf(what, sizeof what, "%s %dx%d", count == 1 ? "a full table of" : "the tables of",
	         o->w, o->h);
	const uint64_t states = sdb_rank_count(o->w, o->h);
	const int two_bit = table_bits(o) == 2;
	if (gen_mpi_writes_db(o->mpi) &&
	    run_check_fits(what, (uint64_t)count * (two_bit ? (states + 3) / 4 : states), two_bit))
		return 1;
	run r;
	int err = run_begin(&r, o);
	for (int i = 0; i < count && !err; i++)
		err = build_one(&r, cells[i]);
	return run_end(&r, err);
}
