/* SPDX-License-Identifier: MIT */
/* Whole files and database files for the suites. Every helper fails the
 * running test (cr_assert) when it cannot do its job. */
#ifndef SLIDEDB_TESTS_KIT_FILES_H
#define SLIDEDB_TESTS_KIT_FILES_H

#include <stddef.h>

/* The whole file (malloc'ed, NUL-terminated); its length in *size. */
char *ck_read_file(const char *path, size_t *size);   /* size may be NULL */

/* Create or replace the file with the size bytes of data. */
void ck_write_file(const char *path, const void *data, size_t size);

/* 1 if something exists at path, else 0. */
int ck_exists(const char *path);

/* Remove a database file and its lock file (either may be missing). */
void ck_db_remove(const char *path);

/* A scratch folder of its own under the test folder, empty; and gone. */
void ck_scratch_dir(char *dir, size_t cap, const char *name);
void ck_remove_dir(const char *dir);

/* A file's bytes as they were, to show that a refused command left them. */
typedef struct tk_snapshot {
	char path[512];
	char *data;
	size_t size;
} tk_snapshot;

tk_snapshot tk_snap(const char *path);
/* The file is byte for byte as the snapshot has it; what names the case. */
void tk_assert_unchanged(const tk_snapshot *s, const char *what);
void tk_snap_free(tk_snapshot *s);

/* An LMDB file of another program at path, made by mdb_load; the running
 * test is skipped where mdb_load (lmdb-utils) is not installed. */
void ck_foreign_lmdb(const char *path);

#endif
