/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the board parser and the size parser, on any bytes.
 * Whatever they accept must be a valid board that formats and parses back
 * to itself. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "slidedb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	sdb_board b, again;
	int w, h;
	if (sdb_board_parse(&b, text, 0, 0) == SDB_OK) {
		char out[3 * SDB_MAX_CELLS];
		if (sdb_board_format(out, sizeof out, &b) < 0 ||
		    sdb_board_parse(&again, out, b.w, b.h) != SDB_OK || !sdb_board_equal(&b, &again))
			abort();
	}
	if (sdb_board_size_parse(&w, &h, text) == SDB_OK && !sdb_board_size_valid(w, h))
		abort();
	uint8_t cells[SDB_MAX_CELLS];
	int count;
	if (sdb_board_cells_parse(cells, &count, SDB_MAX_CELLS, text) == SDB_OK &&
	    (count < 1 || count > SDB_MAX_CELLS))
		abort();
	free(text);
	return 0;
}
