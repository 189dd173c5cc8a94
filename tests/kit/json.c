/* SPDX-License-Identifier: MIT */
/* Minimal JSON reading and the tables a listing names; see json.h. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/json.h"

const char *ck_json_value(const char *obj, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof pat, "\"%s\":", key);
	const char *p = strstr(obj, pat);
	return p ? p + strlen(pat) : NULL;
}

int ck_json_str(const char *obj, const char *key, char *buf, size_t cap)
{
	const char *p = ck_json_value(obj, key);
	if (!p)
		return -1;
	if (!strncmp(p, "null", 4))
		return 0;
	if (*p != '"')
		return -1;
	size_t n = 0;
	for (p++; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1])
			p++;
		if (n + 1 < cap)
			buf[n++] = *p;
	}
	buf[n] = '\0';
	return *p == '"' ? 1 : -1;
}

int ck_json_long(const char *obj, const char *key, long *v)
{
	const char *p = ck_json_value(obj, key);
	if (!p)
		return -1;
	if (!strncmp(p, "null", 4))
		return 0;
	char *end;
	*v = strtol(p, &end, 10);
	return end != p && (*end == ',' || *end == '}') ? 1 : -1;
}

int ck_json_bool(const char *obj, const char *key)
{
	const char *p = ck_json_value(obj, key);
	if (p && !strncmp(p, "true", 4))
		return 1;
	if (p && !strncmp(p, "false", 5))
		return 0;
	return -1;
}
