/* SPDX-License-Identifier: MIT */
/* A database as the programs list it; see catalog.h. */
#define _GNU_SOURCE /* strndup */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/catalog.h"
#include "kit/json.h"
#include "kit/run.h"
#include "kit/text.h"

char *ck_info_json(const char *db, const char *names)
{
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "info --json %s", names ? names : "");
	cr_assert_eq(rc, 0, "info --json %s of %s: exit %d: %s", names ? names : "", db, rc, err);
	cr_assert_str_empty(err);
	cr_assert_eq(tk_lines(out), 1, "info --json is one line: '%s'", out);
	free(err);
	return out;
}

const char *ck_table_object(const char *json, const char *name)
{
	char pat[SDB_NAME_MAX + 16];
	snprintf(pat, sizeof pat, "{\"name\":\"%s\"", name);
	return strstr(json, pat);
}

char *ck_table_object_copy(const char *json, const char *name)
{
	const char *at = ck_table_object(json, name);
	if (!at)
		return NULL;
	const char *end = strstr(at, "]}");
	cr_assert(end, "no end of the object of %s", name);
	return strndup(at, (size_t)(end + 2 - at));
}

ck_names ck_table_names(const char *json)
{
	ck_names r = { 0 };
	for (const char *p = json; (p = strstr(p, "{\"name\":\"")); p++) {
		cr_assert_lt(r.n, CK_MAX_TABLES);
		cr_assert(ck_json_str(p, "name", r.v[r.n], SDB_NAME_MAX) == 1);
		r.n++;
	}
	return r;
}

void ck_assert_tables(const char *json, const char *const *want, int nwant, const char *what)
{
	ck_names got = ck_table_names(json);
	cr_assert_eq(got.n, nwant, "%s: %d tables, expected %d: %s", what, got.n, nwant, json);
	for (int i = 0; i < nwant; i++)
		cr_assert_str_eq(got.v[i], want[i], "%s: table %d", what, i);
}

void ck_assert_verify_ok(const char *db, const char *names, int n, const char *what)
{
	char *out, *err;
	int rc = ck_lookup(db, NULL, &out, &err, "verify %s", names ? names : "");
	cr_assert_eq(rc, 0, "%s: verify exits %d: %s", what, rc, err);
	cr_assert_str_empty(err, "%s: %s", what, err);
	char want[64];
	snprintf(want, sizeof want, ": %d table%s, all intact\n", n, n == 1 ? "" : "s");
	cr_assert(strstr(out, want), "%s: '%s' lacks '%s'", what, out, want);
	cr_assert_eq(tk_lines(out), n + 1, "%s: one line per table and a summary: '%s'", what, out);
	free(out);
	free(err);
}

char *ck_answers(const char *db, const char *queries)
{
	char *out, *err;
	int rc = ck_lookup(db, queries, &out, &err, "%s", "--json --path");
	cr_assert_eq(rc, 0, "answers from %s: %s", db, err);
	cr_assert_str_empty(err);
	free(err);
	return out;
}
