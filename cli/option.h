/* SPDX-License-Identifier: MIT */
/* Options as data. A program lists its options once, in one table: each
 * says which of its commands take it, what kind of value it holds (a
 * whole number in a range, seconds, bytes, a word among some, a flag, a
 * text) and which field of the program's options struct the value goes
 * to. One reader (command.c) reads them all, and every program words a
 * value out of range the same way. */
#ifndef SLIDEDB_CLI_OPTION_H
#define SLIDEDB_CLI_OPTION_H

#include <stddef.h>
#include <stdio.h>

typedef enum option_kind {
	OPTION_FLAG,      /* no value: the int field is set to 1 */
	OPTION_FLAG_OFF,  /* no value: the int field is set to 0 (--no-progress) */
	OPTION_TEXT,      /* const char *: the text as given */
	OPTION_INT,       /* int: a whole number in [lo, hi] */
	OPTION_WHOLE,     /* uint64_t: a whole number in [lo, hi] ("1e6" is one) */
	OPTION_BYTES,     /* size_t: a number of bytes in [lo, hi], read as OPTION_WHOLE */
	OPTION_SECONDS,   /* double: seconds in [lo, hi] */
	OPTION_MINUTES,   /* double: minutes in [lo, hi] given, kept in seconds */
	OPTION_CHOICE,    /* int: the value of the word given, among .choices */
	OPTION_READ,      /* the option's own .read() takes the text */
	OPTION_HELP,      /* no value: the help of the command, exit 0 */
	OPTION_VERSION,   /* no value: the program's version, exit 0 */
} option_kind;

/* A word an OPTION_CHOICE takes, and the value it stands for. */
typedef struct option_choice {
	const char *word;
	int value;
} option_choice;

typedef struct option_spec {
	const char *name;        /* the long name, without "--" */
	char letter;             /* the short name, or 0 */
	unsigned commands;       /* the commands that take it (a bit each) */
	option_kind kind;
	size_t field;            /* offsetof() its value in the program's options */
	const char *help;        /* its line in --help */
	double lo, hi;           /* a number's range */
	int said;                /* a number's usage error says its range */
	const char *unit;        /* what an OPTION_INT counts ("moves"), for its error */
	const option_choice *choices;   /* OPTION_CHOICE: the words, ended by { NULL } */
	const char *said_as;     /* the name its usage errors give it, if not its own (an
	                            older name speaks as the new one) */
	/* OPTION_READ: take text into opts (it may cut the text, which is
	 * argv's); -1, or the exit code with the usage error said */
	int (*read)(void *opts, char *text);
} option_spec;

/* Whether the option takes a value (getopt's required_argument). */
int option_has_value(const option_spec *o);

/* Take text as o's value into the program's options opts: -1, or
 * EXIT_USAGE with the error said ("--threads 'x' is not a number from 1 to
 * 1024"). Not for OPTION_HELP and OPTION_VERSION. */
int option_take(void *opts, const option_spec *o, char *text);

/* Write the options' help lines: those of the commands `only` (bits), or
 * with only = 0 every option once (a name two commands give two meanings is
 * shown by its first line), followed by "(CMD, CMD)" unless every command
 * of `all` takes it; names[b] names the command of bit 1 << b. */
void option_help(FILE *f, const option_spec *opts, int n, unsigned only, unsigned all,
                 const char *const *names);

/* --threads of every program: 1 to OPTION_MAX_THREADS, and by default the
 * cores this process may run on (its affinity: taskset, mpirun's binding),
 * as a user of a batch tool expects. */
enum { OPTION_MAX_THREADS = 1024 };
int option_default_threads(void);

/* A whole number lo..hi from text (a port, a count): 1, or 0 if it is not
 * one. */
int option_long(long *v, const char *text, long lo, long hi);

#endif
