/* The MPI engine's entry points (bfs_mpi.c), plugged into gen_dist by
 * slidedb-gen-mpi's main (gen_mpi_main.c). */
#ifndef SLIDEDB_MPI_ENGINE_H
#define SLIDEDB_MPI_ENGINE_H

#include "gen/bfs.h"

int mpi_bfs(bfs_result *res, uint8_t *table, const bfs_space *space, int two_bit,
            bfs_progress_fn *progress, void *ctx, char *why, size_t cap);
int mpi_write_shard(const sdb_table_info *info);
int mpi_finish(int ok, char *why, size_t cap);

#endif
