/* Command-line helpers; see cli.h. */
#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <string.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"
#include "slidedb.h"

const char *cli_prog = "slidedb";

int cli_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", cli_prog);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (try '%s --help')\n", cli_prog);
	va_end(ap);
	return EXIT_USAGE;
}

static void say(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", cli_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cli_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	return 1;
}

void cli_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

int cli_fail_lib(const char *context)
{
	if (context)
		return cli_fail("%s: %s", context, sdb_errdetail());
	return cli_fail("%s", sdb_errdetail());
}

const char *cli_refused_option(char **argv)
{
	static char name[3];
	if (optopt) {
		name[0] = '-';
		name[1] = (char)optopt;
		return name;
	}
	return argv[optind - 1];
}

int cli_parse_long(long *v, const char *text, long lo, long hi)
{
	char *end;
	errno = 0;
	*v = strtol(text, &end, 10);
	return end != text && !*end && !errno && *v >= lo && *v <= hi;
}

int cli_parse_double(double *v, const char *text, double lo, double hi)
{
	char *end;
	errno = 0;
	*v = strtod(text, &end);
	return end != text && !*end && !errno && *v >= lo && *v <= hi;
}

int cli_default_threads(void)
{
	cpu_set_t set;
	int n = sched_getaffinity(0, sizeof set, &set) ? (int)sysconf(_SC_NPROCESSORS_ONLN)
	                                               : CPU_COUNT(&set);
	return n < 1 ? 1 : n > CLI_MAX_THREADS ? CLI_MAX_THREADS : n;
}

int cli_finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		return cli_fail("writing to standard output failed: %s", strerror(errno ? errno : EIO));
	return rc;
}

int cli_getopt(int argc, char **argv, const cli_option *opts, int nopts, unsigned command)
{
	/* Rebuilt on each call: a few dozen entries, and no state to keep. */
	struct option longopts[128];
	char shortopts[3 * 128 + 2] = ":";
	int n = 0;
	size_t len = 1;
	for (int i = 0; i < nopts && n < 127; i++) {
		const cli_option *o = &opts[i];
		const int mine = (o->commands & command) != 0;
		int listed = 0;   /* a name listed already (one name, two meanings) */
		for (int k = 0; k < n; k++)
			listed |= !strcmp(longopts[k].name, o->name);
		if (listed && !mine)
			continue;
		if (listed) {   /* this command's meaning replaces another's */
			for (int k = 0; k < n; k++)
				if (!strcmp(longopts[k].name, o->name))
					longopts[k] = (struct option){ o->name, o->has_arg, NULL, o->code };
		} else {
			longopts[n++] = (struct option){ o->name, mine ? o->has_arg : no_argument, NULL,
			                                 mine ? o->code : CLI_OPT_ELSEWHERE };
		}
		if (mine && o->code < 256) {
			shortopts[len++] = (char)o->code;
			if (o->has_arg)
				shortopts[len++] = ':';
		}
	}
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };
	shortopts[len] = '\0';
	opterr = 0;
	return getopt_long(argc, argv, shortopts, longopts, NULL);
}

int cli_refuse(char **argv, int c, const cli_option *opts, int nopts, const char *what)
{
	const char *given = c == CLI_OPT_ELSEWHERE ? argv[optind - 1] : cli_refused_option(argv);
	if (c == CLI_OPT_ELSEWHERE)
		return cli_usage("option '%s' does not apply to %s", given, what);
	for (int i = 0; i < nopts; i++)
		if (given[1] != '-' && opts[i].code < 256 && given[1] == opts[i].code)
			return cli_usage("option '%s' does not apply to %s", given, what);
	return cli_usage("unknown option '%s'", given);
}

void cli_options_help(FILE *f, const cli_option *opts, int nopts, unsigned only, unsigned all,
                      const char *const *names)
{
	for (int i = 0; i < nopts; i++) {
		const cli_option *o = &opts[i];
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

static int muted_stderr = -1;

void cli_rank_mute(int rank)
{
	if (!rank)
		return;
	const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	muted_stderr = dup(STDERR_FILENO);
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
}

void cli_rank_speak(const char *prog, int rank)
{
	if (muted_stderr >= 0) {
		dup2(muted_stderr, STDERR_FILENO);
		close(muted_stderr);
		muted_stderr = -1;
	}
	static char name[96];
	if (rank) {
		snprintf(name, sizeof name, "%s (rank %d)", prog, rank);
		cli_prog = name;
	}
}
