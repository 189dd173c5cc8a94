/* SPDX-License-Identifier: MIT */
/* A hint button in 30 lines: the best next move and the distance left for a
 * board, read from a slidedb database.
 *
 *   cc hint.c $(pkg-config --cflags --libs slidedb) -o hint
 *   ./hint slidedb.lmdb "1 2 3 4 5 6 0 7 8"      (2 moves left; move the blank r (rr))
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
	sdb_board start, goal;
	sdb_answer a;
	if (sdb_db_open(&db, argv[1], SDB_RDONLY) != SDB_OK ||
	    sdb_board_parse(&start, argv[2], 0, 0) != SDB_OK) {
		fprintf(stderr, "%s: %s\n", argv[0], sdb_error_detail());
		sdb_db_close(db);
		return 1;
	}
	sdb_board_goal(&goal, start.w, start.h, start.n - 1);   /* blank last */
	int err = sdb_answer_query(&a, db, &start, &goal, NULL);
	if (err)
		fprintf(stderr, "%s: %s\n", argv[0], sdb_error_detail());
	else if (!a.solvable)
		printf("unsolvable\n");
	else
		printf("%d move%s left; move the blank %c (%s)\n", a.distance,
		       a.distance == 1 ? "" : "s", a.distance ? sdb_move_letter(a.best_move) : '-',
		       a.moves);
	sdb_db_close(db);
	return err ? 1 : 0;
}
