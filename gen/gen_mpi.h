/* A build spread over processes (slidedb-gen-mpi): what the generator's write
 * runs ask of it. slidedb-gen itself has none (gen_dist is NULL); the MPI
 * program sets it before running the same commands, so that full and pdb
 * take the same arguments and give the same bytes. */
#ifndef SLIDEDB_DIST_H
#define SLIDEDB_DIST_H

#include "gen/bfs.h"

typedef struct dist {
	int rank, nranks;
	const char *shards;   /* --shards DIR: each rank writes its slice there */
	/* The search of space over every rank, into the two-bit or byte format
	 * of the space. Rank 0 gets the whole table in table (NULL with
	 * shards: each rank keeps its slice for write_shard). Every rank gets
	 * res. 0, or an SDB_E* code with the reason in why. */
	int (*bfs)(bfs_result *res, uint8_t *table, const bfs_space *space, int two_bit,
	           bfs_progress_fn *progress, void *ctx, char *why, size_t cap);
	/* With shards: write this rank's slice of the table just searched, as
	 * DIR/shard-R.lmdb. 0 or an SDB_E* code with the detail set. */
	int (*write_shard)(const sdb_table_info *info);
	/* With shards, at the end of the run (ok: it went well on this rank):
	 * the shard is renamed into place when every rank's went well. */
	int (*finish)(int ok, char *why, size_t cap);
	/* Called once the command line is read (shards: --shards or NULL): 0 to
	 * go on, else the exit code, the reason printed. */
	int (*parsed)(const char *shards);
} dist;

/* NULL in slidedb-gen. */
extern const dist *gen_dist;

/* Whether this process writes the database: always in slidedb-gen; rank 0
 * alone in slidedb-gen-mpi without --shards; none with them. */
static inline int dist_writes_db(void)
{
	return !gen_dist || (gen_dist->rank == 0 && !gen_dist->shards);
}

/* slidedb-gen's commands (gen.c); with mpi, only those that build. */
int gen_main(int argc, char **argv, int mpi);

#endif
