/* SPDX-License-Identifier: MIT */
/* What the programs share on the command line: their name, and the usage
 * and failure messages (the one error path: helpers return codes, commands
 * print through these). Options and commands: option.h, command.h. */
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

/* "prog: CONTEXT: " and the library's sdb_error_detail() (no context: none);
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

#endif
