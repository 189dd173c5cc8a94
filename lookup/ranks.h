/* SPDX-License-Identifier: MIT */
/* slidedb-lookup-mpi's searches over ranks (ranks.c); lookup_mpi_main.c starts
 * them. */
#ifndef SLIDEDB_LOOKUP_RANKS_H
#define SLIDEDB_LOOKUP_RANKS_H

#include <stdint.h>

#include "lookup/ckpt_key.h"
#include "lookup/lookup_mpi.h"

/* Rank 0: hand every large iteration of this process's searches to the
 * ranks (sdb_split_install); tables: the database's digest; key: what
 * seals --checkpoint's files (NULL without one; kept, not copied). */
void ranks_lead(sdb_db *db, const lookup_mpi_run *run, int nranks, uint32_t tables,
                const ckpt_key *key);

/* Rank 0, on a query's thread once its searches are over: 1 when one of
 * them resumed from a checkpoint another run (or another query's search)
 * wrote, with r saying what the answer rests on (its strings valid until
 * the next call on this thread); 0 when none did. Starts the next query's
 * record afresh. */
int ranks_resumed(sdb_fields_resumed *r);

/* Rank 0: every query answered; the other ranks return from ranks_serve. */
void ranks_dismiss(void);

/* The other ranks: search what rank 0 hands out until it dismisses them.
 * The exit code. */
int ranks_serve(sdb_db *db, const lookup_mpi_run *run, int rank);

#endif
