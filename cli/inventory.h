/* SPDX-License-Identifier: MIT */
/* The inventory of a database, for the `info` and `verify` commands (and
 * slidedb-serve's /v1/tables): what it holds, and whether it is intact. */
#ifndef SLIDEDB_CLI_INVENTORY_H
#define SLIDEDB_CLI_INVENTORY_H

#include "cli/out.h"
#include "slidedb.h"

/* Print the metadata of the tables names mean (every table when nnames is
 * 0), in text with the states per distance drawn as a bar chart when
 * with_histogram; returns the exit code. */
int inventory_info(const sdb_db *db, const char *const *names, int nnames, int json,
                   int with_histogram);
/* The tables of list[0..n) as `info --json` prints them: one object with
 * the database's path, the format version and a "tables" array, and a
 * newline. */
void inventory_json(out *o, const sdb_db *db, const sdb_table **list, int n);

/* verify's options: JSON lines, and --prove with its threads (0: every
 * core) and progress (progress_init()'s mode). */
typedef struct inventory_verify_opts {
	int json, prove, threads, progress_mode;
} inventory_verify_opts;

/* Re-check the CRC and counts of the tables names mean (all when nnames is
 * 0), and with prove every entry against its neighbours; returns 0, or 1 on
 * any mismatch or unknown name. */
int inventory_verify(const sdb_db *db, const char *const *names, int nnames,
                     const inventory_verify_opts *v);

#endif
