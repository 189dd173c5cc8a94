/* SPDX-License-Identifier: MIT */
/* The tuning the tests and benchmarks set (sdb_engine_tune()): one
 * process-wide copy, read where a writer, a compact, a verify or a search
 * begins. The library reads no environment for it: the programs do, and
 * hand it over here. */
#include "store/store.h"

enum { CHUNK_MAX = 1 << 27 };   /* writer.c's chunks: 128 MiB */

static sdb_tuning tuning = SDB_TUNING_INIT;

const sdb_tuning *sdbi_tuning(void)
{
	return &tuning;
}

int sdb_engine_tune(const sdb_tuning *t)
{
	static const sdb_tuning defaults = SDB_TUNING_INIT;
	if (!t)
		t = &defaults;
	if (t->version != SDB_TUNING_VERSION)
		return sdbi_fail(SDB_EINVAL, "a tuning of version %u (this slidedb reads version %u)",
		                 t->version, SDB_TUNING_VERSION);
	const uint64_t c = t->chunk_bytes;
	if (c && (c < SDBI_BLOCK_SIZE || c > CHUNK_MAX || (c & (c - 1))))
		return sdbi_fail(SDB_EINVAL, "chunk_bytes %llu: not a power of two from %d to %d",
		                 (unsigned long long)c, SDBI_BLOCK_SIZE, CHUNK_MAX);
	if (!(t->compact_pause >= 0 && t->compact_pause < 3600))
		return sdbi_fail(SDB_EINVAL, "compact_pause %g: seconds from 0 to under 3600",
		                 t->compact_pause);
	if ((t->verify_bytes && t->verify_bytes < SDBI_BLOCK_SIZE) ||
	    (t->verify_slice && t->verify_slice < SDBI_BLOCK_SIZE))
		return sdbi_fail(SDB_EINVAL, "verify_bytes %llu, verify_slice %llu: 0 (the default) "
		                 "or at least %d", (unsigned long long)t->verify_bytes,
		                 (unsigned long long)t->verify_slice, SDBI_BLOCK_SIZE);
	if (t->split_nodes < -1)
		return sdbi_fail(SDB_EINVAL, "split_nodes %lld: -1 (the default) or at least 0",
		                 (long long)t->split_nodes);
	if (t->mtm_split_7_8 != 0 && t->mtm_split_7_8 != 1)
		return sdbi_fail(SDB_EINVAL, "mtm_split_7_8 %d: 0 (5-5-5, the default) or 1",
		                 t->mtm_split_7_8);
	tuning = *t;
	return sdbi_done(SDB_OK);
}
