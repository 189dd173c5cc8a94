/* SPDX-License-Identifier: MIT */
/* slidedb-gen-mpi: slidedb-gen's full and pdb under mpirun, each rank
 * holding a slice of the index space (bfs_mpi.c). Rank 0 writes the
 * database, or with --shards every rank writes its slice as a shard for
 * `slidedb-gen assemble`. A run that fails on any rank is aborted on every
 * rank (MPI_Abort): nothing is committed. */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gen/bfs_mpi.h"
#include "gen/gen.h"

static int parsed(const char *shards);

/* This rank, and the engine's hooks (gen_mpi.h). */
static gen_mpi ranks = { .bfs = bfs_mpi_run, .write_shard = bfs_mpi_write_shard,
                         .finish = bfs_mpi_finish, .parsed = parsed };

/* Every rank reads the same command line: only rank 0 says what is wrong
 * with it. Once it is read, the others speak again (naming their rank),
 * and each checks its own shard folder. */
static int parsed(const char *shards)
{
	cli_rank_speak("slidedb-gen-mpi", ranks.rank);
	ranks.shards = shards;
	struct stat st;
	errno = 0;
	int bad = shards && (stat(shards, &st) || !S_ISDIR(st.st_mode) || access(shards, W_OK));
	if (bad)
		cli_fail("--shards '%s': %s", shards, errno ? strerror(errno) : "not a folder");
	int any;
	MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return any ? 1 : 0;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &ranks.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &ranks.nranks);
	cli_rank_mute(ranks.rank);   /* data and usage errors come from rank 0 */
	int rc = gen_main(argc, argv, &ranks);
	if (rc == 2) {
		/* a usage error: every rank read the same command line and stopped
		 * there. No MPI_Abort: a rank's abort could kill rank 0 before it
		 * said what is wrong (seen once in CI). */
		MPI_Finalize();
		return rc;
	}
	if (rc) {
		fflush(stdout);
		fflush(stderr);
		MPI_Abort(MPI_COMM_WORLD, rc);
	}
	MPI_Finalize();
	return 0;
}
