/* The answer record: what an answer says before anything is known, and
 * how its count of optimal sequences is written. Every way of answering
 * (tables, searches, the checker) starts from here. */
#include <stdio.h>

#include "answer/answer.h"

int sdbi_answer_begin(sdb_answer *a, const sdb_board *start, const sdb_board *goal)
{
	/* Field by field: the moves buffer is most of the struct, and only its
	 * first byte needs to say "none" (this is on every query's path). */
	a->solvable = 0;
	a->distance = -1;
	a->best_move = -1;
	a->moves[0] = '\0';
	a->method = SDB_METHOD_NONE;
	a->nodes = 0;
	a->heuristic = 0;
	a->heuristic_name = NULL;
	a->note = NULL;
	a->best_moves = 0;
	a->solutions.hi = a->solutions.lo = 0;
	return sdb_board_solvable(start, goal);
}

int sdb_count_format(char *buf, size_t cap, const sdb_count *c)
{
	char digits[40];
	int n = 0;
	unsigned __int128 v = (unsigned __int128)c->hi << 64 | c->lo;
	do {
		digits[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	if ((size_t)n >= cap)
		return sdbi_fail(SDB_EINVAL, "buffer too small for a count");
	for (int i = 0; i < n; i++)
		buf[i] = digits[n - 1 - i];
	buf[n] = '\0';
	return n;
}
