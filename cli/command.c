/* SPDX-License-Identifier: MIT */
/* Commands and their options; see command.h. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/command.h"
#include "cli/env_tuning.h"
#include "slidedb.h"

/* getopt_long's value for an option that only other commands take; a long
 * option of the table is told by its index above LONG_BASE. */
enum { LONG_BASE = 256, ELSEWHERE = 0x7fff, MAX_OPTIONS = 127 };

/* The next option of argv as getopt_long reads it with the options of the
 * commands `bits`: its index in the table (*at), or ':' (its value is
 * missing), '?' (unknown), ELSEWHERE (only other commands take it), -1 at
 * the end. Every long name of the table is known to getopt, so an option of
 * another command is matched exactly and refused, never taken as an
 * abbreviation of one of this command's ("--all" is not "--all-best"). */
static int next_option(int argc, char **argv, const program *p, unsigned bits, int *at)
{
	/* Rebuilt on each call: a few dozen entries, and no state to keep. */
	struct option longopts[MAX_OPTIONS + 1];
	char shortopts[2 * MAX_OPTIONS + 2] = ":";
	int n = 0;
	size_t len = 1;
	for (int i = 0; i < p->noptions && n < MAX_OPTIONS; i++) {
		const option_spec *o = &p->options[i];
		const int mine = (o->commands & bits) != 0;
		const int has_arg = mine && option_has_value(o) ? required_argument : no_argument;
		int listed = -1;   /* a name listed already (one name, two meanings) */
		for (int k = 0; k < n; k++)
			if (!strcmp(longopts[k].name, o->name))
				listed = k;
		if (listed >= 0 && !mine)
			continue;
		/* this command's meaning replaces another's */
		longopts[listed >= 0 ? listed : n++] = (struct option){ o->name, has_arg, NULL,
		                                                        mine ? LONG_BASE + i
		                                                             : ELSEWHERE };
		if (mine && o->letter) {
			shortopts[len++] = o->letter;
			if (has_arg)
				shortopts[len++] = ':';
		}
	}
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };
	shortopts[len] = '\0';
	opterr = 0;
	const int c = getopt_long(argc, argv, shortopts, longopts, NULL);
	*at = c >= LONG_BASE && c != ELSEWHERE ? c - LONG_BASE : -1;
	for (int i = 0; c > 0 && c < LONG_BASE && c != ':' && c != '?' && i < p->noptions; i++)
		if (p->options[i].letter == c && (p->options[i].commands & bits)) {
			*at = i;
			break;
		}
	return c;
}

/* The usage error (exit 2) for the option getopt just refused: "does not
 * apply to WHAT" when another command takes it, else "unknown option". A
 * short option is named by its letter: it may sit inside a group like -zq,
 * so argv alone cannot tell. */
static int refuse(const program *p, const command *c, char **argv, int ch)
{
	static char letter[3];
	const char *given = argv[optind - 1];
	if (ch != ELSEWHERE && optopt) {
		letter[0] = '-';
		letter[1] = (char)optopt;
		given = letter;
	}
	char what[64];
	if (c->name)
		snprintf(what, sizeof what, "'%s'", c->name);
	else
		snprintf(what, sizeof what, "%s", p->names[__builtin_ctz(c->bit)]);
	int elsewhere = ch == ELSEWHERE;
	for (int i = 0; i < p->noptions && given[1] != '-'; i++)
		elsewhere |= p->options[i].letter && given[1] == p->options[i].letter;
	if (elsewhere)
		return cli_usage("option '%s' does not apply to %s", given, what);
	return cli_usage("unknown option '%s'", given);
}

/* Read the options of argv into opts: -1 when all are read, else the exit
 * code (0 after --help or --version). */
static int read_options(const program *p, const command *c, void *opts, int argc, char **argv)
{
	const unsigned bits = p->bits ? p->bits(c, opts) : c->bit;
	int ch, at;
	optind = 1;
	while ((ch = next_option(argc, argv, p, bits, &at)) != -1) {
		if (ch == ':')
			return cli_usage("option '%s' needs a value", argv[optind - 1]);
		if (at < 0)
			return refuse(p, c, argv, ch);
		const option_spec *o = &p->options[at];
		if (o->kind == OPTION_HELP) {
			p->help(stdout, c, opts);
			return 0;
		}
		if (o->kind == OPTION_VERSION) {
			printf("%s %s\n", cli_prog, sdb_version());
			return 0;
		}
		const int rc = option_take(opts, o, optarg);
		if (rc >= 0)
			return rc;
	}
	return -1;
}

int command_run(const program *p, const command *c, void *opts, int argc, char **argv)
{
	int rc = read_options(p, c, opts, argc, argv);
	/* getopt has moved the words behind the options: the command's name first */
	int nargs = argc - optind;
	char **args = argv + optind;
	if (rc < 0 && c->name) {
		nargs--;
		args++;
	}
	const char *name = c->name ? c->name : "", *colon = c->name ? ": " : "";
	if (rc < 0 && nargs < c->min_args)
		rc = cli_usage("%s%smissing argument (%s)", name, colon, c->synopsis);
	else if (rc < 0 && c->max_args >= 0 && nargs > c->max_args)
		rc = cli_usage("%s%sunexpected argument '%s'", name, colon, args[c->max_args]);
	if (p->read)
		rc = p->read(opts, c, rc, nargs, args);
	if (rc < 0)
		rc = env_tuning_apply();
	if (rc >= 0)
		return cli_finish(rc);   /* --help, --version, or a usage error */
	return cli_finish(c->fn(opts, nargs, args));
}

const command *command_named(const command *cmds, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (cmds[i].name && !strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

/* The option of p named by the long option a ("--name" or "--name=value"),
 * or NULL. */
static const option_spec *long_option(const program *p, const char *a)
{
	const size_t len = strcspn(a + 2, "=");
	for (int k = 0; k < p->noptions; k++)
		if (strlen(p->options[k].name) == len && !strncmp(p->options[k].name, a + 2, len))
			return &p->options[k];
	return NULL;
}

const command *command_find(const program *p, const command *cmds, int n, int argc,
                            char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			a = i + 1 < argc ? argv[i + 1] : "";
		} else if (a[0] == '-' && a[1] == '-') {
			const option_spec *o = long_option(p, a);
			i += o && !a[2 + strcspn(a + 2, "=")] && option_has_value(o);   /* its value */
			continue;
		} else if (a[0] == '-' && a[1]) {
			for (const char *l = a + 1; *l; l++) {
				const option_spec *o = NULL;
				for (int k = 0; k < p->noptions; k++)
					if (p->options[k].letter == *l)
						o = &p->options[k];
				if (o && option_has_value(o)) {
					i += !l[1];   /* the rest of the word is its value, or the next word */
					break;
				}
			}
			continue;
		}
		return command_named(cmds, n, a);
	}
	return NULL;
}
