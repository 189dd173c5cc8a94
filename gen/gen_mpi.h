/* SPDX-License-Identifier: MIT */
/* A build spread over processes (slidedb-gen-mpi): what the generator's write
 * runs ask of the ranks. slidedb-gen has none (NULL); the MPI program hands
 * its own to gen_main(), so that full and pdb take the same arguments and
 * give the same bytes. */
#ifndef SLIDEDB_GEN_GEN_MPI_H
#define SLIDEDB_GEN_GEN_MPI_H

#include "gen/bfs.h"

typedef struct gen_mpi gen_mpi;
struct gen_mpi {
	int rank, nranks;
	const char *shards;   /* --shards DIR: each rank writes its slice there */
	/* The search of space over every rank, into the two-bit or byte format
	 * of the space. Rank 0 gets the whole table in table (NULL with
	 * shards: each rank keeps its slice for write_shard). Every rank gets
	 * res. 0, or an SDB_E* code with the reason in why. */
	int (*bfs)(const gen_mpi *m, bfs_result *res, uint8_t *table, const bfs_space *space,
	           int two_bit, bfs_progress_fn *progress, void *ctx, char *why, size_t cap);
	/* With shards: write this rank's slice of the table just searched, as
	 * DIR/shard-R.lmdb. 0 or an SDB_E* code with the detail set. */
	int (*write_shard)(const gen_mpi *m, const sdb_table_info *info);
	/* With shards, at the end of the run (ok: it went well on this rank):
	 * the shard is renamed into place when every rank's went well. */
	int (*finish)(const gen_mpi *m, int ok, char *why, size_t cap);
	/* Called once the command line is read (shards: --shards or NULL): 0 to
	 * go on, else the exit code, the reason printed. */
	int (*parsed)(const char *shards);
};

/* Whether this process writes the database: always in slidedb-gen (m is
 * NULL); rank 0 alone in slidedb-gen-mpi without --shards; none with them. */
static inline int gen_mpi_writes_db(const gen_mpi *m)
{
	return !m || (m->rank == 0 && !m->shards);
}

#endif
