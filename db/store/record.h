/* SPDX-License-Identifier: MIT */
/* Catalog records (record.c): the bytes stored for a table's catalog entry,
 * and the check of an entry before use. Not installed. */
#ifndef SLIDEDB_STORE_RECORD_H
#define SLIDEDB_STORE_RECORD_H

#include "puzzle/puzzle.h"

/* The record of a catalog entry. Decode takes the file's format version
 * (2 or 3); -1 if the bytes are not a record of it. */
size_t sdbi_record_size(const sdb_table_info *in);
void sdbi_record_encode(uint8_t *buf, const sdb_table_info *in);
int sdbi_record_decode(sdb_table_info *in, const char *name, size_t name_len, const void *buf,
                      size_t len, uint32_t file_version);

/* Why a catalog entry cannot describe a table this slidedb can use (sizes,
 * goal, format, kind, counts), or NULL: every entry is checked before use,
 * on open and on import. The pattern's exact size is checked where the
 * pattern is built (import, heuristic). */
const char *sdbi_info_problem(const sdb_table_info *in);

#endif
