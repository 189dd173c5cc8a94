/* SPDX-License-Identifier: MIT */
/* Command-line helpers; see cli.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdarg.h>
#include <stdio.h>
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
		return cli_fail("%s: %s", context, sdb_error_detail());
	return cli_fail("%s", sdb_error_detail());
}

int cli_finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		return cli_fail("writing to standard output failed: %s", strerror(errno ? errno : EIO));
	return rc;
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
