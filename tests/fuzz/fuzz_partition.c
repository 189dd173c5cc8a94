/* SPDX-License-Identifier: MIT */
/* libFuzzer target: partition specs (--partition) for a 4x4 and a 3x3 goal.
 * An accepted partition has disjoint, non-empty groups of at most
 * SDB_MAX_PATTERN tiles of the board, and a pattern space can be made of
 * each group. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "slidedb_engine.h"

static void check(const char *spec, const sdb_board *goal)
{
	sdb_partition pt;
	if (sdb_partition_parse(&pt, spec, goal) != SDB_OK)
		return;
	const uint32_t all = ((1u << goal->n) - 1) & ~1u;
	uint32_t seen = 0;
	if (pt.ngroups < 1 || pt.ngroups > SDB_MAX_CELLS || (pt.tiles & ~all))
		abort();
	for (int g = 0; g < pt.ngroups; g++) {
		uint32_t m = pt.groups[g];
		if (!m || (m & ~all) || (m & seen) || __builtin_popcount(m) > SDB_MAX_PATTERN)
			abort();
		seen |= m;
	}
	if (__builtin_popcount(seen) != __builtin_popcount(pt.tiles) || !memchr(pt.spelling, 0,
	                                                                        sizeof pt.spelling))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + 1);
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	sdb_board g4, g3;
	sdb_board_goal(&g4, 4, 4, 15);
	sdb_board_goal(&g3, 3, 3, 4);
	check(spec, &g4);
	check(spec, &g3);
	free(spec);
	return 0;
}
