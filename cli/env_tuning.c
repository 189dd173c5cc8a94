/* SPDX-License-Identifier: MIT */
/* The programs' test knobs, and the user's SLIDEDB_MTM_SPLIT, from the
 * environment into sdb_engine_tune(). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/env_tuning.h"
#include "slidedb_engine.h"

enum kind { BYTES, SECONDS, NODES, FLAG, SPLIT };

/* Each variable and the field of sdb_tuning it sets. */
static const struct knob {
	const char *name;
	enum kind kind;
	size_t field;
} knobs[] = {
	{ "SLIDEDB_CHUNK_BYTES", BYTES, offsetof(sdb_tuning, chunk_bytes) },
	{ "SLIDEDB_COMPACT_PAUSE", SECONDS, offsetof(sdb_tuning, compact_pause) },
	{ "SLIDEDB_VERIFY_BYTES", BYTES, offsetof(sdb_tuning, verify_bytes) },
	{ "SLIDEDB_VERIFY_SLICE", BYTES, offsetof(sdb_tuning, verify_slice) },
	{ "SLIDEDB_SPLIT_NODES", NODES, offsetof(sdb_tuning, split_nodes) },
	{ "SLIDEDB_PROVE_IN_PLACE", FLAG, offsetof(sdb_tuning, prove_in_place) },
	{ "SLIDEDB_MTM_SPLIT", SPLIT, offsetof(sdb_tuning, mtm_split_7_8) },
};

int env_tuning_apply(void)
{
	sdb_tuning t = SDB_TUNING_INIT;
	for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; i++) {
		const char *v = getenv(knobs[i].name);
		if (!v || !*v)
			continue;
		char *end = NULL, *at = (char *)&t + knobs[i].field;
		switch (knobs[i].kind) {
		case BYTES:
			*(uint64_t *)at = strtoull(v, &end, 10);
			break;
		case SECONDS:
			*(double *)at = strtod(v, &end);
			break;
		case NODES:
			*(int64_t *)at = strtoll(v, &end, 10);
			break;
		case FLAG:
			*(int *)at = 1;
			break;
		case SPLIT:   /* the multi-tile split tables (doc/metric.md) */
			if (strcmp(v, "5-5-5") && strcmp(v, "7-8"))
				return cli_usage("%s='%s': the multi-tile split tables are 5-5-5 (the "
				                 "default) or 7-8", knobs[i].name, v);
			*(int *)at = !strcmp(v, "7-8");
			break;
		}
		if (end && (*end || end == v))
			return cli_usage("%s='%s': not a number", knobs[i].name, v);
	}
	if (sdb_engine_tune(&t))
		return cli_usage("the environment's test knobs (SLIDEDB_*): %s",
		                 sdb_error_detail());
	return -1;
}
