/* SPDX-License-Identifier: MIT */
/* Forged tables and exports (issue #35), as a careful forger makes them:
 * two entries of a table swapped, so that its counts per distance stay, and
 * every checksum made to match. The suites use them (kit/tables.h asserts
 * on top), and so does bench/forge_export for bench/hostile.sh: no Criterion
 * here. */
#ifndef SLIDEDB_TESTS_KIT_FORGE_H
#define SLIDEDB_TESTS_KIT_FORGE_H

#include <stddef.h>
#include <stdint.h>

#include "slidedb_engine.h"

/* Two entries at other values of a table's bytes, the first from entry
 * `from` on (nibble tables: at the same Manhattan distance with other
 * nibbles, so that their values swap). 0, or -1 when there are none. */
int forge_entries_to_swap(uint64_t at[2], const sdb_table_info *in, const uint8_t *data,
                          uint64_t from);

/* Swap entries at[0] and at[1] of a table's bytes, in its format. */
void forge_swap(uint8_t *data, const sdb_table_info *in, const uint64_t at[2]);

/* The uncompressed bytes of a gzip file (malloc'ed, *len long), or NULL. */
char *forge_gunzip(const char *path, size_t *len);

/* Write text as a fresh gzip file, as an editor of an export would: 0 or -1. */
int forge_gzip(const char *path, const char *text, size_t len);

/* Make the metadata checksum of the table whose metadata holds `inside`
 * match its (edited) lines. */
void forge_reseal_meta(char *text, char *inside);

/* In an export's text, swap entries at[0] and at[1] of table `in`, then
 * recompute its crc32 line and reseal its metadata. 0, or -1 when the
 * export does not hold the table. */
int forge_export(char *text, size_t len, const sdb_table_info *in, const uint64_t at[2]);

#endif
