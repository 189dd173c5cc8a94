/* SPDX-License-Identifier: MIT */
/* Query parameters: each endpoint's names, the values' forms, and the words
 * the API says things in. A parameter that is unknown, given twice, or
 * holds a NUL byte (%00: C strings would end there and judge a value the
 * client did not send) is a 400 naming it. */
#ifndef SLIDEDB_SERVE_PARAMS_H
#define SLIDEDB_SERVE_PARAMS_H

#include "cli/answerer.h"
#include "serve/server.h"

typedef struct params {
	struct MHD_Connection *c;
	const char *const *known;   /* the names this endpoint takes */
	char bad[200];              /* the first problem found */
	unsigned seen;              /* bit k: known[k] was given */
} params;

/* The library's and the command line's words said as the API says them:
 * {from, to} pairs for report_reword(), ended by {NULL, NULL}. */
extern const char *const params_api_words[][2];

/* The names known, none twice, no NUL in a name or a value: 1, else 0 with
 * the problem in p->bad. Call before reading any value. */
int params_scan(params *p);

/* A value, or NULL. */
const char *params_get(const params *p, const char *name);
/* A yes/no flag: absent 0; "", "1", "true", "yes" 1; "0", "false", "no" 0. */
int params_flag(params *p, const char *name);
/* A whole number lo..hi, or dflt when absent. */
long params_number(params *p, const char *name, long lo, long hi, long dflt);

/* The answer options every answering endpoint takes (random's "count" is a
 * number of boards, not the count flag: count_flag 0). */
void params_answer_options(answerer_opts *a, params *p, request *rq, int count_flag);

/* The answer options' names. */
extern const char *const params_answer_names[];

#endif
