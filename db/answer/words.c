/* Words for people and for bindings: the names of kinds and entry formats
 * as `info` prints them, and the checker's verdicts as sentences. One place
 * for each, so that every program and binding says the same thing. */
#include <stdio.h>

#include "answer/answer.h"

const char *sdb_kind_name(int kind)
{
	return kind == SDB_KIND_FULL ? "full" : kind == SDB_KIND_PATTERN ? "pattern" : "unknown";
}

const char *sdb_format_name(int format)
{
	switch (format) {
	case SDB_ENTRY_DIST6_MOVE2: return "dist6-move2";
	case SDB_ENTRY_DIST8: return "dist8";
	case SDB_ENTRY_NIBBLE_MD: return "nibble-manhattan";
	case SDB_ENTRY_MOD3: return "mod3-2bit";
	default: return "unknown";
	}
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
