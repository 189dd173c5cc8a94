/* SPDX-License-Identifier: MIT */
/* slidedb-gen assemble: join the shards of a distributed build
 * (slidedb-gen-mpi --shards) into an ordinary database, in one transaction.
 *
 * Every shard of the set must be there (one per rank, gathered into one or
 * more folders), of the same run, with the same tables, their slices tiling
 * each table in rank order. Each slice's bytes are checked against its CRC
 * and counted by distance on the way in; the table's counts must be the
 * ones its catalog entry gives, every entry is proved against its
 * neighbours (sdb_writer_prove()), and its CRC is computed as a single
 * machine's build computes it. Anything wrong: an error, nothing written. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gen/gen.h"

enum { MAX_SHARDS = 4096 };

typedef struct shard_set {
	sdb_shard **shard;   /* by rank */
	int n;
} shard_set;

static int is_shard_name(const char *name, int *rank)
{
	char tail[8];
	return sscanf(name, "shard-%d.lm%7s", rank, tail) == 2 && !strcmp(tail, "db") &&
	       *rank >= 0 && strlen(name) < 32;
}

/* Open the shards of a folder into the set, each at its rank. */
static int open_folder(shard_set *set, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return cli_fail("assemble: %s: cannot read the folder", dir);
	int found = 0, rc = 0;
	struct dirent *e;
	while (!rc && (e = readdir(d))) {
		int rank;
		if (!is_shard_name(e->d_name, &rank))
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		sdb_shard *sh;
		if (sdb_shard_open(&sh, path)) {
			rc = cli_fail("assemble: %s", sdb_error_detail());
			break;
		}
		const sdb_shard_info *in = sdb_shard_table(sh, 0);
		if (in->rank != rank || in->nranks > MAX_SHARDS)
			rc = cli_fail("assemble: %s: holds the slice of rank %d of %d", path, in->rank,
			              in->nranks);
		else if (!set->shard && !(set->shard = calloc((size_t)in->nranks, sizeof *set->shard)))
			rc = cli_fail("assemble: out of memory");
		else if (set->n && in->nranks != set->n)
			rc = cli_fail("assemble: %s: a shard of a run of %d ranks, the others are of %d",
			              path, in->nranks, set->n);
		else if (set->shard[rank])
			rc = cli_fail("assemble: %s: rank %d's shard is given twice", path, rank);
		if (rc) {
			sdb_shard_close(sh);
			break;
		}
		set->n = in->nranks;
		set->shard[rank] = sh;
		found++;
	}
	closedir(d);
	if (!rc && !found)
		rc = cli_fail("assemble: %s: no shards in it (files shard-RANK.lmdb)", dir);
	return rc;
}

/* Whether two slices describe the same table of the same run. */
static int same_table(const sdb_shard_info *a, const sdb_shard_info *b)
{
	const sdb_table_info *x = &a->table, *y = &b->table;
	return a->run == b->run && !strcmp(x->name, y->name) && x->kind == y->kind &&
	       x->entry_format == y->entry_format && sdb_board_equal(&x->goal, &y->goal) &&
	       x->states == y->states && x->max_distance == y->max_distance &&
	       !memcmp(x->counts, y->counts, sizeof x->counts);
}

/* Every rank present, every shard with rank 0's tables of rank 0's run,
 * the slices tiling each table in rank order. */
static int check_set(const shard_set *set)
{
	for (int r = 0; r < set->n; r++)
		if (!set->shard[r])
			return cli_fail("assemble: the shard of rank %d of %d is missing (shard-%d.lmdb)",
			                r, set->n, r);
	const sdb_shard *first = set->shard[0];
	for (int r = 0; r < set->n; r++) {
		const sdb_shard *sh = set->shard[r];
		if (sdb_shard_tables(sh) != sdb_shard_tables(first))
			return cli_fail("assemble: shard-%d.lmdb holds %d tables, shard-0.lmdb %d", r,
			                sdb_shard_tables(sh), sdb_shard_tables(first));
		for (int i = 0; i < sdb_shard_tables(sh); i++) {
			const sdb_shard_info *a = sdb_shard_table(first, i), *b = sdb_shard_table(sh, i);
			if (!same_table(a, b))
				return cli_fail("assemble: shard-%d.lmdb is not of the run of shard-0.lmdb "
				                "(its table '%s' differs): shards of one run only", r,
				                b->table.name);
			const uint64_t lo = r ? sdb_shard_table(set->shard[r - 1], i)->hi : 0;
			if (b->lo != lo || (r == set->n - 1 && b->hi != b->table.states))
				return cli_fail("assemble: table '%s': the slice of rank %d does not follow "
				                "rank %d's", b->table.name, r, r - 1);
		}
	}
	return 0;
}

/* Append one rank's slice of table i, checking its CRC and counting it. */
static int append_slice(sdb_writer *w, const sdb_shard *sh, int i, uint64_t *counts)
{
	const sdb_shard_info *s = sdb_shard_table(sh, i);
	const int two_bit = s->table.entry_format == SDB_ENTRY_MOD3;
	const uint64_t total = two_bit ? (s->hi - s->lo + 3) / 4 : s->hi - s->lo;
	sdb_table_info part = s->table;
	uint64_t left = s->hi - s->lo, got[SDB_MAX_DISTANCE];
	uLong crc = crc32(0L, Z_NULL, 0);
	for (uint64_t at = 0; at < total;) {
		uint64_t bytes;
		const uint8_t *data = sdb_shard_chunk(sh, i, at, &bytes);
		if (!data)
			return cli_fail("assemble: %s", sdb_error_detail());
		crc = crc32_z(crc, data, bytes);
		part.states = two_bit ? (left < 4 * bytes ? left : 4 * bytes) : bytes;
		left -= part.states;
		if (sdb_table_recount(got, &part, data))
			return cli_fail("assemble: %s", sdb_error_detail());
		for (int d = 0; d < SDB_MAX_DISTANCE; d++)
			counts[d] += got[d];
		if (sdb_writer_append(w, data, bytes))
			return cli_fail("assemble: %s", sdb_error_detail());
		at += bytes;
	}
	if ((uint32_t)crc != s->crc32)
		return cli_fail("assemble: table '%s': the slice of rank %d fails its CRC-32 check",
		                s->table.name, s->rank);
	return 0;
}

/* Table i of the set into the writer, with its catalog entry. */
static int assemble_table(sdb_writer *w, const sdb_db *db, const shard_set *set, int i,
                          int replace, int threads)
{
	sdb_table_info info = sdb_shard_table(set->shard[0], i)->table;
	if (!replace && sdb_table_find(db, info.name))
		return cli_fail("assemble: table '%s' exists in %s (assemble --replace replaces it)",
		                info.name, sdb_db_path(db));
	if (sdb_writer_open_table(w, info.name, sdb_table_bytes(&info)))
		return cli_fail("assemble: %s", sdb_error_detail());
	uint64_t counts[SDB_MAX_DISTANCE] = { 0 }, want[SDB_MAX_DISTANCE];
	for (int r = 0; r < set->n; r++)
		if (append_slice(w, set->shard[r], i, counts))
			return 1;
	sdb_table_expected_counts(want, &info);
	if (memcmp(counts, want, sizeof counts))
		return cli_fail("assemble: table '%s': its entries do not have the counts per "
		                "distance its catalog entry gives", info.name);
	if (sdb_writer_put_meta(w, &info))
		return cli_fail("assemble: %s", sdb_error_detail());
	/* a slice's CRC-32 is its writer's word, which a file crafted with its
	 * CRC computed again keeps: every entry is proved against its neighbours
	 * before the commit, as an import's are */
	sdb_prove_opts po = SDB_PROVE_OPTS_INIT;
	po.threads = threads;
	int proof;
	if (sdb_writer_prove(w, &proof, &info, &po))
		return cli_fail("assemble: table '%s': %s", info.name, sdb_error_detail());
	if (proof == SDB_PROOF_NONE)
		return cli_fail("assemble: table '%s' is of a kind no proof knows", info.name);
	return 0;
}

int cmd_assemble(void *opts, int nargs, char **args)
{
	const gen_options *o = opts;
	shard_set set = { 0 };
	int rc = 0;
	for (int i = 0; i < nargs && !rc; i++)
		rc = open_folder(&set, args[i]);
	if (!rc)
		rc = check_set(&set);
	sdb_db *db = NULL;
	sdb_writer *w = NULL;
	if (!rc && (sdb_db_open(&db, o->db_path, SDB_CREATE) || sdb_writer_begin(&w, db)))
		rc = cli_fail_lib("assemble");
	const int ntables = rc ? 0 : sdb_shard_tables(set.shard[0]);
	for (int i = 0; i < ntables && !rc; i++)
		rc = assemble_table(w, db, &set, i, o->replace, o->threads);
	if (rc)
		sdb_writer_abort(w);
	else if (sdb_writer_commit(w))
		rc = cli_fail_lib("assemble");
	if (!rc && !o->quiet)
		printf("assembled %d table%s from %d shards into %s\n", ntables,
		       ntables == 1 ? "" : "s", set.n, sdb_db_path(db));
	sdb_db_close(db);
	for (int r = 0; r < set.n && set.shard; r++)
		sdb_shard_close(set.shard[r]);
	free(set.shard);
	return rc;
}
