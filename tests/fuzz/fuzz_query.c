/* SPDX-License-Identifier: MIT */
/* libFuzzer target: query lines as batch mode reads them (with and without a
 * size), and the grid-row test. An accepted query is two valid boards of one
 * size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "slidedb.h"

static void check(const sdb_query *q)
{
	uint8_t seen[SDB_MAX_CELLS];
	const sdb_board *b[2] = { &q->start, &q->goal };
	if (q->start.w != q->goal.w || q->start.h != q->goal.h)
		abort();
	for (int k = 0; k < 2; k++) {
		if (!sdb_board_size_valid(b[k]->w, b[k]->h) || b[k]->n != b[k]->w * b[k]->h ||
		    b[k]->cell[b[k]->blank] != 0)
			abort();
		memset(seen, 0, sizeof seen);
		for (int c = 0; c < b[k]->n; c++)
			if (b[k]->cell[c] >= b[k]->n || seen[b[k]->cell[c]]++)
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	sdb_query q;
	if (sdb_query_parse(&q, text, 0, 0, NULL) == SDB_OK)
		check(&q);
	if (sdb_query_parse(&q, text, 3, 3, NULL) == SDB_OK) {
		check(&q);
		if (q.start.w != 3 || q.start.h != 3)
			abort();
	}
	int width = sdb_query_grid_row(text, 0, 0);
	if (width != 0 && width != 2 && width != 3)
		abort();
	free(text);
	return 0;
}
