/* SPDX-License-Identifier: MIT */
/* One command shape for every program, as libgit2's command line has it: a
 * table of commands, each a cmd_x() in a file of its own, run with the
 * options its program's one option table (option.h) gives it. slidedb-gen,
 * slidedb-lookup, slidedb-serve and the MPI twins all run through
 * command_run(). */
#ifndef SLIDEDB_CLI_COMMAND_H
#define SLIDEDB_CLI_COMMAND_H

#include <stdio.h>

#include "cli/option.h"

typedef struct command {
	const char *name;         /* the word that names it; NULL: the program's own command
	                             (slidedb-lookup's answers, slidedb-serve) */
	unsigned bit;             /* its bit in the options' .commands */
	/* Its work, the options read into the program's options struct: the
	 * words after them (its name taken out). The exit code. */
	int (*fn)(void *opts, int nargs, char **args);
	int min_args, max_args;   /* the words it takes; max_args -1: fn() judges them */
	const char *synopsis, *summary;
	const char *example;      /* for --help: a printf format of the program's name */
} command;

/* What command_run() needs of a program beside its commands. */
typedef struct program {
	const option_spec *options;    /* the one option table */
	int noptions;
	const char *const *names;      /* names[b]: the command of bit 1 << b (help, refusals) */
	/* The options command c takes (bits), the program's options in opts
	 * (its defaults: which program it is); NULL: c's own bit. */
	unsigned (*bits)(const command *c, const void *opts);
	/* --help of command c. */
	void (*help)(FILE *f, const command *c, const void *opts);
	/* The options read: rc is -1, or the exit code of a usage error already
	 * said; the words are the command's. -1 to run the command, or the exit
	 * code. NULL: rc. */
	int (*read)(void *opts, const command *c, int rc, int nargs, char **args);
} program;

/* Run command c of program p with the options and words of argv (c's word,
 * if it has one, among them), into the program's options struct opts, which
 * holds their defaults: the options read by the table (an option of another
 * command or a value out of range is a usage error, --help and --version
 * answered), the words counted against what c takes, p->read() called,
 * the environment's test knobs handed to the library (env_tuning.h), then
 * c->fn(). The exit code, with standard output flushed
 * (cli_finish()). */
int command_run(const program *p, const command *c, void *opts, int argc, char **argv);

/* The command whose name is the first word of argv that is neither an
 * option nor an option's value (p's table says which options take one), or
 * NULL when that word names no command (or there is none). */
const command *command_find(const program *p, const command *cmds, int n, int argc,
                            char **argv);

/* The command named name, or NULL. */
const command *command_named(const command *cmds, int n, const char *name);

#endif
