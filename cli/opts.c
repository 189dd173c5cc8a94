/* Command-line helpers; see opts.h. */
#include <errno.h>
#include <string.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "opts.h"
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

int cli_finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		return cli_fail("writing to standard output failed: %s", strerror(errno ? errno : EIO));
	return rc;
}
