/* What the programs share on the command line: their name, the usage and
 * failure messages (the one error path: helpers return codes, commands
 * print through these), and reading option values. */
#ifndef SLIDEDB_CLI_CLI_H
#define SLIDEDB_CLI_CLI_H

#include <stdio.h>

enum { EXIT_USAGE = 2 };

/* A constant of slidedb.h inside a help string: "W*H <= " CLI_STR(SDB_MAX_FULL_CELLS),
 * so that the text cannot drift from the value. */
#define CLI_STR(x) CLI_STR_(x)
#define CLI_STR_(x) #x

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

/* --- MPI programs: every rank reads the same command line, and only rank 0
 * says what is wrong with it or prints --help. */

/* On a rank other than 0: standard output and error go to /dev/null (the
 * error kept for cli_rank_speak). */
void cli_rank_mute(int rank);

/* The command line is read: a muted rank speaks again on standard error,
 * as "PROG (rank R)". */
void cli_rank_speak(const char *prog, int rank);

/* The option getopt_long just refused: a short one by its letter (it may sit
 * inside a group like -zq, so argv alone cannot tell), a long one as typed. */
const char *cli_refused_option(char **argv);

/* --- Commands and their options, from one table (as libgit2's CLI has
 * them): each option says which commands take it (a bit mask). */
typedef struct cli_option {
	const char *name;        /* long name, without "--" */
	int has_arg;             /* no_argument or required_argument (getopt.h) */
	int code;                /* getopt's value: the short letter, or >= 256 */
	unsigned commands;       /* the commands that take it */
	const char *help;        /* its line in --help */
} cli_option;

/* getopt_long's value for an option that only other commands take. */
enum { CLI_OPT_ELSEWHERE = 0x7fff };

/* Parse argv with the options of command (a bit), like getopt_long: each
 * call returns the next option's code, ':' (a value missing), '?' (unknown)
 * or CLI_OPT_ELSEWHERE (an option only other commands take), -1 at the end.
 * Every long name of the table is known to getopt, so an option of another
 * command is matched exactly and refused, never taken as an abbreviation of
 * one of this command's ("--all" is not "--all-best"). Start with
 * optind = 1 and the same table until -1. */
int cli_getopt(int argc, char **argv, const cli_option *opts, int nopts, unsigned command);

/* The usage error (exit 2) for the option getopt just refused: "does not
 * apply to WHAT" when another command takes it, else "unknown option". */
int cli_refuse(char **argv, int c, const cli_option *opts, int nopts, const char *what);

/* Write the options' help lines: those command `only` (a bit) takes, or
 * with only = 0 every option once (a name two commands give two meanings is
 * shown by its first line), followed by "(CMD, CMD)" unless every command
 * of `all` takes it; names[b] names the command of bit 1 << b. */
void cli_options_help(FILE *f, const cli_option *opts, int nopts, unsigned only, unsigned all,
                      const char *const *names);

/* --threads of every program: 1 to CLI_MAX_THREADS, and by default the
 * cores this process may run on (its affinity: taskset, mpirun's binding),
 * as a user of a batch tool expects. */
enum { CLI_MAX_THREADS = 1024 };
int cli_default_threads(void);

/* A whole number lo..hi from text: 1, or 0 if it is not one. */
int cli_parse_long(long *v, const char *text, long lo, long hi);

/* A number lo..hi from text: 1, or 0 if it is not one. */
int cli_parse_double(double *v, const char *text, double lo, double hi);

#endif
