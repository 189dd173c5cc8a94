/* SPDX-License-Identifier: MIT */
/* Options as data; see option.h. */
#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/option.h"

int option_has_value(const option_spec *o)
{
	return o->kind != OPTION_FLAG && o->kind != OPTION_FLAG_OFF && o->kind != OPTION_HELP &&
	       o->kind != OPTION_VERSION;
}

int option_long(long *v, const char *text, long lo, long hi)
{
	char *end;
	errno = 0;
	*v = strtol(text, &end, 10);
	return end != text && !*end && !errno && *v >= lo && *v <= hi;
}

/* A number lo..hi from text: 1, or 0 if it is not one. */
static int number(double *v, const char *text, double lo, double hi)
{
	char *end;
	errno = 0;
	*v = strtod(text, &end);
	return end != text && !*end && !errno && *v >= lo && *v <= hi;
}

/* The usage error of a value o does not take: "--NAME 'TEXT' is not " and
 * what o takes, its unit and range as the table says. */
static int refuse_number(const option_spec *o, const char *text)
{
	const char *name = o->said_as ? o->said_as : o->name;
	const char *what = o->kind == OPTION_INT ? o->unit : o->kind == OPTION_SECONDS ? "seconds"
	                   : o->kind == OPTION_MINUTES ? "minutes" : NULL;
	char range[64] = "";
	if (o->said)
		snprintf(range, sizeof range, " from %.15g to %.15g", o->lo, o->hi);
	if (o->kind == OPTION_WHOLE)
		return cli_usage("--%s '%s' is not a %swhole number", name, text,
		                 o->lo >= 1 ? "positive " : "");
	if (o->kind == OPTION_BYTES)
		return cli_usage("--%s '%s' is not a number of bytes", name, text);
	return cli_usage("--%s '%s' is not a number%s%s%s", name, text, what ? " of " : "",
	                 what ? what : "", range);
}

/* "--NAME 'TEXT': expected A, B or C". */
static int refuse_choice(const option_spec *o, const char *text)
{
	char words[256] = "";
	size_t len = 0;
	for (int i = 0; o->choices[i].word && len < sizeof words; i++)
		len += (size_t)snprintf(words + len, sizeof words - len, "%s%s",
		                        !i ? "" : o->choices[i + 1].word ? ", " : " or ",
		                        o->choices[i].word);
	return cli_usage("--%s '%s': expected %s", o->name, text, words);
}

int option_take(void *opts, const option_spec *o, char *text)
{
	char *field = (char *)opts + o->field;
	double v;
	long n;
	switch (o->kind) {
	case OPTION_FLAG:
	case OPTION_FLAG_OFF:
		*(int *)field = o->kind == OPTION_FLAG;
		return -1;
	case OPTION_TEXT:
		*(const char **)field = text;
		return -1;
	case OPTION_INT:
		if (!option_long(&n, text, (long)o->lo, (long)o->hi))
			return refuse_number(o, text);
		*(int *)field = (int)n;
		return -1;
	case OPTION_WHOLE:
		if (!number(&v, text, o->lo, o->hi) || v != (double)(uint64_t)v)
			return refuse_number(o, text);
		*(uint64_t *)field = (uint64_t)v;
		return -1;
	case OPTION_BYTES:
		if (!number(&v, text, o->lo, o->hi) || v != (double)(size_t)v)
			return refuse_number(o, text);
		*(size_t *)field = (size_t)v;
		return -1;
	case OPTION_SECONDS:
	case OPTION_MINUTES:
		if (!number(&v, text, o->lo, o->hi))
			return refuse_number(o, text);
		*(double *)field = o->kind == OPTION_MINUTES ? v * 60 : v;
		return -1;
	case OPTION_CHOICE:
		for (int i = 0; o->choices[i].word; i++)
			if (!strcmp(o->choices[i].word, text)) {
				*(int *)field = o->choices[i].value;
				return -1;
			}
		return refuse_choice(o, text);
	case OPTION_READ:
		return o->read(opts, text);
	default:
		return -1;
	}
}

void option_help(FILE *f, const option_spec *opts, int n, unsigned only, unsigned all,
                 const char *const *names)
{
	for (int i = 0; i < n; i++) {
		const option_spec *o = &opts[i];
		int repeated = 0;
		for (int k = 0; k < i; k++)
			repeated |= !strcmp(opts[k].name, o->name);
		if (only ? !(o->commands & only) : repeated)
			continue;
		fprintf(f, "  %s", o->help);
		if (!only && o->commands != all) {
			fputs(" (", f);
			for (int b = 0, first = 1; (1u << b) <= all; b++)
				if (o->commands >> b & 1) {
					fprintf(f, "%s%s", first ? "" : ", ", names[b]);
					first = 0;
				}
			fputc(')', f);
		}
		fputc('\n', f);
	}
}

int option_default_threads(void)
{
	cpu_set_t set;
	int n = sched_getaffinity(0, sizeof set, &set) ? (int)sysconf(_SC_NPROCESSORS_ONLN)
	                                               : CPU_COUNT(&set);
	return n < 1 ? 1 : n > OPTION_MAX_THREADS ? OPTION_MAX_THREADS : n;
}
