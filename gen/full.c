/* slidedb-gen full: exact tables of every state of boards up to 12 cells. */
#include <stdio.h>

#include "gen.h"

/* Build one full table inside the run's transaction, straight into the
 * database's reserved pages. */
static int build_one(run *r, int blank)
{
	const options *o = r->o;
	sdb_table_info info;
	sdb_board goal;
	char name[SDB_NAME_MAX];
	sdb_board_goal(&goal, o->w, o->h, blank);
	sdb_table_name_full(name, sizeof name, o->w, o->h, blank);
	table_info_init(&info, name, SDB_KIND_FULL,
	                o->bits == 2 ? SDB_ENTRY_MOD3 : SDB_ENTRY_DIST6_MOVE2, &goal,
	                sdb_rank_count(o->w, o->h));
	uint8_t *data;
	int err = sdb_writer_reserve(r->wr, &data, info.name, sdb_table_bytes(&info));
	if (err)
		return run_fail_lib(r, err);
	bfs_full_ctx ctx;
	bfs_space space;
	bfs_full_space(&space, &ctx, o->w, o->h, blank);
	if ((err = run_bfs(r, &info, data, &space)))
		return err;
	return run_put(r, &info);
}

/* The blank cells to build tables for: representatives only. With no goal,
 * every class on boards of up to 10 cells, the standard goal's class above. */
static int target_cells(int *cells, const options *o, const sdb_board *goal)
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

int cmd_full(const options *o)
{
	if (o->goal_text && o->all_goals)
		return cli_usage("--goal and --all-goals exclude each other");
	if (o->w * o->h > SDB_MAX_FULL_CELLS) {
		char spec[64];
		sdb_partition_default(spec, sizeof spec, o->w, o->h);
		return cli_fail("%dx%d has %d cells and %llu states: too many for a full table (up "
		                "to %d cells); build pattern databases with `%s pdb %dx%d --partition "
		                "%s`", o->w, o->h, o->w * o->h,
		                (unsigned long long)sdb_rank_count(o->w, o->h), SDB_MAX_FULL_CELLS,
		                cli_prog, o->w, o->h, spec);
	}
	sdb_board goal;
	if (parse_goal(&goal, o))
		return cli_fail_lib("--goal");
	int cells[SDB_MAX_CELLS];
	int count = target_cells(cells, o, &goal);
	run r;
	int err = run_begin(&r, o);
	for (int i = 0; i < count && !err; i++)
		err = build_one(&r, cells[i]);
	return run_end(&r, err);
}
