/* SPDX-License-Identifier: MIT */
/* Another solver's use of slidedb: the pattern-database heuristic as a lower
 * bound, fresh and move by move, and slidedb's own IDA* for comparison.
 *
 *   slidedb-gen pdb 4x4 --partition 5-5-5
 *   cc lower_bound.c $(pkg-config --cflags --libs slidedb) -o lower_bound
 *   ./lower_bound slidedb.lmdb "1 2 3 4 5 6 7 8 9 x 10 12 13 14 11 15"
 */
#include <slidedb.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s DATABASE BOARD\n", argv[0]);
		return 2;
	}
	sdb_db *db = NULL;
	sdb_heuristic *h = NULL;
	sdb_board start, goal;
	if (sdb_db_open(&db, argv[1], SDB_RDONLY) || sdb_board_parse(&start, argv[2], 0, 0) ||
	    sdb_board_goal(&goal, start.w, start.h, start.n - 1) ||
	    sdb_heuristic_open(&h, db, &goal, NULL)) {
		fprintf(stderr, "%s: %s\n", argv[0], sdb_error_detail());
		sdb_db_close(db);
		return 1;
	}
	printf("set %s: lower bound %d\n", sdb_heuristic_name(h), sdb_heuristic_value(h, &start));
	/* One move at a time: copy the followed state, move it, read the bound. */
	sdb_hstate st;
	sdb_heuristic_start(h, &st, &start);
	for (int m = 0; m < 4; m++) {
		sdb_hstate next = st;
		int v = sdb_heuristic_move(h, &next, m);
		if (v >= 0)
			printf("after %c: %d\n", sdb_move_letter(m), v);
	}
	sdb_answer a;
	sdb_solve_stats stats;
	int err = sdb_answer_search(&a, &stats, h, &start, &goal, NULL);
	if (err)
		fprintf(stderr, "%s: %s\n", argv[0], sdb_error_detail());
	else if (!a.solvable)
		printf("unsolvable\n");
	else
		printf("optimal: %d moves %s (%llu nodes)\n", a.distance, a.moves,
		       (unsigned long long)stats.nodes);
	sdb_heuristic_close(h);
	sdb_db_close(db);
	return err ? 1 : 0;
}
