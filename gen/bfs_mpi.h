/* SPDX-License-Identifier: MIT */
/* The MPI engine's entry points (bfs_mpi.c), the hooks of gen_mpi.h that
 * slidedb-gen-mpi's main (gen_mpi_main.c) hands to gen_main(). */
#ifndef SLIDEDB_GEN_BFS_MPI_H
#define SLIDEDB_GEN_BFS_MPI_H

#include "gen/gen_mpi.h"

int bfs_mpi_run(const gen_mpi *m, bfs_result *res, uint8_t *table, const bfs_space *space,
                int two_bit, bfs_progress_fn *progress, void *ctx, char *why, size_t cap);
int bfs_mpi_write_shard(const gen_mpi *m, const sdb_table_info *info);
int bfs_mpi_finish(const gen_mpi *m, int ok, char *why, size_t cap);

#endif
