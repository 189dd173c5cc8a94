/* SPDX-License-Identifier: MIT */
/* Minimal JSON reading: flat objects, known keys (the first "key": at or
 * after obj is the one read). */
#ifndef SLIDEDB_TESTS_KIT_JSON_H
#define SLIDEDB_TESTS_KIT_JSON_H

#include <stddef.h>

/* Where the value of "key" starts in obj, or NULL. */
const char *ck_json_value(const char *obj, const char *key);

/* A string value: 1 (copied to buf, escapes resolved naively), 0 if null,
 * -1 if the key is missing or of another type. */
int ck_json_str(const char *obj, const char *key, char *buf, size_t cap);

/* An integer value followed by ',' or '}': 1 (in *v), 0 if null, -1 if
 * missing or not a number. */
int ck_json_long(const char *obj, const char *key, long *v);

/* A boolean value: 1 true, 0 false, -1 missing or other. */
int ck_json_bool(const char *obj, const char *key);

#endif
