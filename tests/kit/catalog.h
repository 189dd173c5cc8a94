/* SPDX-License-Identifier: MIT */
/* A database as the programs list it: `slidedb-lookup info --json`, the
 * tables it names and their objects, `verify`, and the answers to a batch
 * of queries. Every helper fails the running test (cr_assert) when it
 * cannot do its job. */
#ifndef SLIDEDB_TESTS_KIT_CATALOG_H
#define SLIDEDB_TESTS_KIT_CATALOG_H

#include "slidedb_engine.h"

/* `slidedb-lookup info --json [NAMES]` of db (names NULL: every table); it
 * must succeed with one line and nothing on stderr. Malloc'ed. */
char *ck_info_json(const char *db, const char *names);

/* Where the object of table `name` starts in JSON text ({"name":"NAME"...),
 * or NULL. */
const char *ck_table_object(const char *json, const char *name);

/* A malloc'ed copy of the object of table `name` of a listing (it ends
 * with its counts, the last field), or NULL: to compare whole objects. */
char *ck_table_object_copy(const char *json, const char *name);

enum { CK_MAX_TABLES = 32 };

/* Table names, in the order a listing gives them. */
typedef struct ck_names {
	int n;
	char v[CK_MAX_TABLES][SDB_NAME_MAX];
} ck_names;

/* Every table name in JSON text ({"name":"..." objects), in order. */
ck_names ck_table_names(const char *json);

/* The tables in JSON text are exactly want, in that order; what names the
 * case in a failure. */
void ck_assert_tables(const char *json, const char *const *want, int nwant, const char *what);

/* `slidedb-lookup verify [NAMES]` of db succeeds: nothing on stderr, a line
 * per table and the summary "DB: N tables, all intact". */
void ck_assert_verify_ok(const char *db, const char *names, int n, const char *what);

/* The answers of db to a batch of queries, as `--json --path` lines; it
 * must succeed with nothing on stderr. Malloc'ed. */
char *ck_answers(const char *db, const char *queries);

#endif
