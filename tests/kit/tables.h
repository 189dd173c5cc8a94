/* SPDX-License-Identifier: MIT */
/* Tables through the library and the generator's engine: built, copied,
 * and changed in place as a careful forger would (issue #35, forge.h).
 * Every helper fails the running test (cr_assert) when it cannot do its
 * job. */
#ifndef SLIDEDB_TESTS_KIT_TABLES_H
#define SLIDEDB_TESTS_KIT_TABLES_H

#include <stdint.h>

#include "slidedb_engine.h"

/* Build the full tables of the given blank cells (representatives) of WxH
 * into db at path through the library and the engine, in one transaction. */
void tk_build_lib(const char *path, int w, int h, const int *blanks, int nblanks);

/* The full tables of every goal class of WxH (the representatives of the
 * blank cells), built through the library at a new scratch path (into
 * path); and the same, opened read-only (path may be NULL). */
void tk_build_classes(char *path, size_t cap, int w, int h, const char *name);
sdb_db *tk_open_classes(char *path, size_t cap, int w, int h, const char *name);

/* Every table of the database at `to` is in the one at `from` with the
 * same catalog fields and the same bytes, and verifies; `to` holds count
 * tables (-1: as many as `from`). */
void tk_assert_same_tables(const char *from, const char *to, int count, const char *what);

/* A malloc'ed copy of a table's entries, whole or in chunks. */
uint8_t *tk_table_copy(const sdb_table *t);

/* Two entries of a table to swap, so that its counts stay as they were,
 * from a third of the way on (asserts there are). */
void tk_entries_to_swap(uint64_t at[2], const sdb_table_info *in, const uint8_t *data);

/* Write table `name` of the database at path again, through the library's
 * writer (which computes its CRC-32 and block checksums), with two of its
 * entries swapped (tk_entries_to_swap): a table changed in place whose
 * checksums match. */
void tk_rewrite_swapped(const char *path, const char *name);

#endif
