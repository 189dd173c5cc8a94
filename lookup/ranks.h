/* slidedb-lookup-mpi's searches over ranks (ranks.c); mpi_main.c starts
 * them. */
#ifndef SLIDEDB_LOOKUP_RANKS_H
#define SLIDEDB_LOOKUP_RANKS_H

#include <stdint.h>

#include "dist.h"

/* Rank 0: hand every large iteration of this process's searches to the
 * ranks (sdb_split_install); tables: the database's digest. */
void ranks_lead(sdb_db *db, const lookup_run *run, int nranks, uint32_t tables);

/* Rank 0: every query answered; the other ranks return from ranks_serve. */
void ranks_dismiss(void);

/* The other ranks: search what rank 0 hands out until it dismisses them.
 * The exit code. */
int ranks_serve(sdb_db *db, const lookup_run *run, int rank);

#endif
