/* SPDX-License-Identifier: MIT */
/* Proofs of a table's entries (prove.c), as the writer and import use
 * them. Not installed. */
#ifndef SLIDEDB_STORE_PROVE_H
#define SLIDEDB_STORE_PROVE_H

#include "puzzle/puzzle.h"

/* A table's entries as a proof reads them: chunks of 2^shift bytes, in
 * order (a whole table: one chunk, shift 63). */
typedef struct sdbi_entries {
	const uint8_t *const *chunk;
	int shift;
} sdbi_entries;
/* sdb_table_prove_entries() of entries in chunks: a table being imported. */
int sdbi_prove(int *proof, const sdb_table_info *info, const sdb_pattern *p,
               const sdbi_entries *e, const sdb_prove_opts *opts);
/* The entries of the table the writer recorded last (sdb_writer_put_meta();
 * writer.c), read back from its transaction: a malloc'ed array of its chunks
 * in *chunk (valid until the transaction's next write) and their size's
 * *shift. */
int sdbi_writer_entries(sdb_writer *w, const uint8_t ***chunk, int *shift);

#endif
