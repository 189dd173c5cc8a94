/* What the programs share on the command line: their name, the usage and
 * failure messages (the one error path: helpers return codes, commands
 * print through these), and reading option values. */
#ifndef SLIDEDB_OPTS_H
#define SLIDEDB_OPTS_H

enum { EXIT_USAGE = 2 };

/* The program's name in messages; set once by main. */
extern const char *cli_prog;

/* "prog: MESSAGE (try 'prog --help')" on stderr; returns EXIT_USAGE. */
int cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "prog: MESSAGE" on stderr; returns 1. */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "prog: MESSAGE" on stderr for what is not a failure (a note, a prompt). */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "prog: CONTEXT: " and the library's sdb_errdetail() (no context: none);
 * returns 1. */
int cli_fail_lib(const char *context);

/* The exit code rc, or 1 (said on stderr) if standard output could not be
 * written: "verify >/dev/full" must not exit 0. Call last in main. */
int cli_finish(int rc);

/* The option getopt_long just refused: a short one by its letter (it may sit
 * inside a group like -zq, so argv alone cannot tell), a long one as typed. */
const char *cli_refused_option(char **argv);

/* A whole number lo..hi from text: 1, or 0 if it is not one. */
int cli_parse_long(long *v, const char *text, long lo, long hi);

/* A number lo..hi from text: 1, or 0 if it is not one. */
int cli_parse_double(double *v, const char *text, double lo, double hi);

#endif
