/* SPDX-License-Identifier: MIT */
/* slidedb-lookup's program as a rank of slidedb-lookup-mpi: the hooks by
 * which its answers hand their searches to the ranks (ranks.c), given to
 * lookup_main() (lookup.h) by slidedb-lookup-mpi's main. */
#ifndef SLIDEDB_LOOKUP_LOOKUP_MPI_H
#define SLIDEDB_LOOKUP_LOOKUP_MPI_H

#include "slidedb.h"

/* What the ranks need of the command line. */
typedef struct lookup_mpi_run {
	int threads;                 /* search threads of each rank (--threads) */
	const char *checkpoint;      /* --checkpoint DIR, or NULL */
	double checkpoint_every;     /* seconds between saves */
} lookup_mpi_run;

typedef struct lookup_mpi {
	/* Every rank, once the options are read (the others speak again). */
	void (*parsed)(void);
	/* Every rank, with the database opened (or NULL: it failed, said):
	 * -1 on rank 0 when every rank is ready (it answers the queries);
	 * otherwise the exit code: the other ranks' after serving rank 0's
	 * searches, or any rank's when one could not start. */
	int (*opened)(sdb_db *db, const lookup_mpi_run *run);
	/* Rank 0: every query answered; the others stop. */
	void (*finished)(void);
	/* Rank 0, after a query's searches: what they resumed (answerer_opts). */
	int (*resumed)(sdb_fields_resumed *r);
} lookup_mpi;

#endif
