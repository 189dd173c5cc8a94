/* SPDX-License-Identifier: MIT */
/* Query parameters; see params.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve/params.h"

const char *const params_api_words[][2] = {
	{ "(--size WxH)", "(size=WxH)" },
	{ NULL, NULL },
};

const char *const params_answer_names[] = { "start", "goal", "size", "path", "all_best",
	                                          "solutions", "all", "limit", "tiles", "grid",
	                                          "metric", NULL };

static enum MHD_Result check_name(void *cls, enum MHD_ValueKind kind, const char *key,
                                  size_t key_size, const char *value, size_t value_size)
{
	(void)kind;
	params *p = cls;
	if (strlen(key) != key_size) {
		snprintf(p->bad, sizeof p->bad, "a parameter name holds a NUL byte (%%00)");
		return MHD_NO;
	}
	int k = 0;
	while (p->known[k] && strcmp(p->known[k], key))
		k++;
	if (!p->known[k])
		snprintf(p->bad, sizeof p->bad, "unknown parameter '%.60s'", key);
	else if (p->seen >> k & 1)
		snprintf(p->bad, sizeof p->bad, "parameter '%.60s' is given twice", key);
	else if (value && strlen(value) != value_size)
		snprintf(p->bad, sizeof p->bad, "parameter '%.60s' holds a NUL byte (%%00) at byte "
		         "%zu", key, strlen(value) + 1);
	p->seen |= 1u << k;
	return p->bad[0] ? MHD_NO : MHD_YES;
}

int params_scan(params *p)
{
	MHD_get_connection_values_n(p->c, MHD_GET_ARGUMENT_KIND, check_name, p);
	return !p->bad[0];
}

const char *params_get(const params *p, const char *name)
{
	return MHD_lookup_connection_value(p->c, MHD_GET_ARGUMENT_KIND, name);
}

int params_flag(params *p, const char *name)
{
	const char *v = params_get(p, name);
	int present = MHD_lookup_connection_value_n(p->c, MHD_GET_ARGUMENT_KIND, name,
	                                            strlen(name), NULL, NULL) == MHD_YES;
	if (!present)
		return 0;
	if (!v || !*v || !strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes"))
		return 1;
	if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no"))
		return 0;
	if (!p->bad[0])
		snprintf(p->bad, sizeof p->bad, "%s '%.40s': expected 1 or 0", name, v);
	return 0;
}

long params_number(params *p, const char *name, long lo, long hi, long dflt)
{
	const char *v = params_get(p, name);
	if (!v)
		return dflt;
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < lo || n > hi) {
		if (!p->bad[0])
			snprintf(p->bad, sizeof p->bad, "%s '%.40s': expected a whole number from %ld to "
			         "%ld", name, v, lo, hi);
		return dflt;
	}
	return n;
}

void params_answer_options(answerer_opts *a, params *p, request *rq, int count_flag)
{
	const server *sv = rq->sv;
	memset(a, 0, sizeof *a);
	a->report.json = 1;
	a->report.path = params_flag(p, "path");
	a->report.all_best = params_flag(p, "all_best");
	a->report.count = count_flag && params_flag(p, "solutions");
	a->report.all = params_flag(p, "all");
	a->report.limit = (uint64_t)params_number(p, "limit", 1, 100000, 100);
	if (params_get(p, "limit") && !a->report.all && !p->bad[0])
		snprintf(p->bad, sizeof p->bad, "limit bounds the sequences of all=1: give all=1 too");
	a->report.tiles = params_flag(p, "tiles");
	a->report.grid = params_flag(p, "grid");
	const char *metric = params_get(p, "metric");
	a->report.metric = metric ? sdb_metric_from_name(metric) : SDB_METRIC_STM;
	if (a->report.metric < 0 && !p->bad[0])
		snprintf(p->bad, sizeof p->bad, "metric '%.40s': expected stm or mtm", metric);
	a->limits = sv->opts.limits;
	a->threads = 1;
	a->quiet = 1;
	a->budget = &rq->budget;
	a->words = params_api_words;
	const char *size = params_get(p, "size");
	if (size && sdb_board_size_parse(&a->w, &a->h, size) && !p->bad[0])
		snprintf(p->bad, sizeof p->bad, "size: %s", sdb_error_detail());
}
