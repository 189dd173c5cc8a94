/* SPDX-License-Identifier: MIT */
/* The documentation agrees with the programs: every long option the
 * programs' --help prints is in their man page and their guides in doc/,
 * and the examples of README.md, of each guide and of the man pages (lines
 * "$ COMMAND" in a code block, followed by the output) run and print what
 * they show.
 *
 * Conventions of the examples, as doc/README.md states them: a command line
 * may go on over lines ending in '\'; it ends in "# exit status N" when it
 * fails on purpose (else it must exit 0); an output line ending in "(on
 * stderr)" is expected on stderr, the others on stdout. Timings (numbers
 * with a decimal point) and dates (2026-11-21T10:00:00Z) are masked before
 * comparing. Each document's examples run in order in an empty directory of
 * their own, as a reader would type them: README.md's from nothing, a
 * guide's after the set-up its first block shows, the man pages' after the
 * set-up their EXAMPLES section names. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kit/cases.h"
#include "kit/files.h"
#include "kit/run.h"
#include "kit/text.h"

enum { CMD_MAX = 8192, MAX_OPTIONS = 64, MAX_COMMANDS = 16 };

/* ------------------------------------------------------------------ */
/* Documents                                                            */

static char *source_file(const char *rel)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", SLIDEDB_SOURCE_DIR, rel);
	return ck_read_file(path, NULL);
}

/* A man page as text: "\-" is a hyphen, "\e" a backslash. */
static char *man_text(const char *rel)
{
	char *s = source_file(rel);
	char *w = s;
	for (const char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] == '-') {
			*w++ = '-';
			r++;
		} else if (r[0] == '\\' && r[1] == 'e') {
			*w++ = '\\';
			r++;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
	return s;
}

static int is_option_char(int c)
{
	return isalnum(c) || c == '-';
}

/* Whether text names the long option opt ("--goal"): opt not followed by
 * more of an option name, so "--progress" is not found in "--progress-bar".
 * (A match inside "--no-progress" is impossible: that has one hyphen
 * before "progress".) */
static int names_option(const char *text, const char *opt)
{
	size_t len = strlen(opt);
	for (const char *p = strstr(text, opt); p; p = strstr(p + 1, opt))
		if (!is_option_char((unsigned char)p[len]))
			return 1;
	return 0;
}

/* The long options ("--word") in text, each once, appended to opts. */
static int long_options(char opts[][40], int n, const char *text)
{
	for (const char *p = strstr(text, "--"); p; p = strstr(p + 1, "--")) {
		if (p > text && is_option_char((unsigned char)p[-1]))
			continue;
		size_t len = 2;
		while (is_option_char((unsigned char)p[len]))
			len++;
		if (len < 3 || !isalpha((unsigned char)p[2]) || len >= 40)
			continue;
		int seen = 0;
		for (int i = 0; i < n && !seen; i++)
			seen = strlen(opts[i]) == len && !strncmp(opts[i], p, len);
		if (!seen) {
			cr_assert_lt(n, MAX_OPTIONS, "too many options");
			memcpy(opts[n], p, len);
			opts[n][len] = '\0';
			n++;
		}
	}
	return n;
}

/* Output of a program's help (must exit 0 and say nothing on stderr). */
static char *help_of(const char *prog, const char *args)
{
	char cmd[CMD_MAX], *out, *err;
	snprintf(cmd, sizeof cmd, "'%s' %s", prog, args);
	int rc = tk_run(cmd, NULL, &out, &err);
	cr_assert_eq(rc, 0, "'%s' exited %d: %s", cmd, rc, err);
	cr_assert_str_empty(err, "'%s' wrote to stderr: %s", cmd, err);
	free(err);
	return out;
}

/* The guides of a program (NULL-terminated, the program's own first) as
 * one text: an option is documented when one of them names it. */
static char *guides_text(const char *const *guides)
{
	ck_sbuf all = { 0 };
	for (int g = 0; guides[g]; g++) {
		char *text = source_file(guides[g]);
		ck_sb_printf(&all, "%s\n", text);
		free(text);
	}
	return all.s;
}

/* Every option in opts is in the man page and the program's guides. */
static void assert_documented(char opts[][40], int n, const char *prog, const char *man_rel,
                              const char *const *guides)
{
	char *man = man_text(man_rel), *text = guides_text(guides);
	for (int i = 0; i < n; i++) {
		cr_expect(names_option(man, opts[i]), "%s's option %s is missing from %s", prog,
		          opts[i], man_rel);
		cr_expect(names_option(text, opts[i]), "%s's option %s is missing from its guides "
		          "(%s …)", prog, opts[i], guides[0]);
	}
	free(man);
	free(text);
}

static const char *const gen_guides[] = { "doc/gen.md", "doc/search.md", "doc/database.md",
	                                   "doc/mpi.md", "doc/metric.md", NULL };
static const char *const lookup_guides[] = { "doc/lookup.md", "doc/search.md", "doc/metric.md",
	                                      NULL };
static const char *const serve_guides[] = { "doc/serve.md", NULL };

#ifdef SLIDEDB_SERVE
Test(docs, every_option_of_slidedb_serve_is_documented)
{
	char opts[MAX_OPTIONS][40];
	char *help = help_of(SLIDEDB_SERVE, "--help");
	int n = long_options(opts, 0, help);
	free(help);
	cr_assert_geq(n, 8, "the help shows only %d long options", n);
	assert_documented(opts, n, "slidedb-serve", "doc/slidedb-serve.1", serve_guides);
}
#endif

/* ------------------------------------------------------------------ */
/* The checks can fail                                                  */

Test(docs, matchers_tell_options_and_outputs_apart)
{
	cr_assert(names_option("use --db PATH", "--db"));
	cr_assert(!names_option("use --dbx PATH", "--db"));
	cr_assert(!names_option("[--no-progress]", "--progress"));
	cr_assert(names_option("[--progress | --no-progress]", "--progress"));
	char opts[MAX_OPTIONS][40];
	int n = long_options(opts, 0, "  -a, --all-goals  x --all-goals, --db\n --x-y z-- --");
	cr_assert_eq(n, 3);
	cr_assert_str_eq(opts[0], "--all-goals");
	cr_assert_str_eq(opts[1], "--db");
	cr_assert_str_eq(opts[2], "--x-y");
	char *m = ck_masked("stored 3 tables in 0.032 s  \nbuilt 2026-11-21T10:00:00Z, 181440 states\n");
	cr_assert_str_eq(m, "stored 3 tables in #.# s\nbuilt DATE, 181440 states");
	free(m);

	char doc[] = "text\n```\n$ echo a \\\n  b      # exit status 3\nout\nerr    (on stderr)\n"
	             "$ true\n```\n$ not run\n";
	ck_example ex[4];
	cr_assert_eq(ck_examples_of(ex, doc, "```", "```"), 2);
	cr_assert_str_eq(ex[0].cmd, "echo a \\\n  b");
	cr_assert_eq(ex[0].status, 3);
	cr_assert_str_eq(ex[0].out.s, "out\n");
	cr_assert_str_eq(ex[0].err.s, "err\n");
	cr_assert_str_eq(ex[1].cmd, "true");
	cr_assert_null(ex[1].out.s);
	ck_free_examples(ex, 2);
}

/* ------------------------------------------------------------------ */
/* Options                                                              */

Test(docs, every_option_of_slidedb_gen_is_documented)
{
	char opts[MAX_OPTIONS][40];
	char *help = help_of(SLIDEDB_GEN, "--help");
	int n = long_options(opts, 0, help);
	/* The commands, from the usage lines: "Usage: slidedb-gen CMD ...". */
	char cmds[MAX_COMMANDS][32];
	int ncmds = 0;
	char *copy = strdup(help), **lines;
	int nlines = ck_split_lines(copy, &lines);
	for (int i = 0; i < nlines; i++) {
		const char *at = strstr(lines[i], "slidedb-gen ");
		if (!at || (strncmp(lines[i], "Usage: ", 7) && strncmp(lines[i], "       ", 7)))
			continue;
		at += strlen("slidedb-gen ");
		size_t len = strspn(at, "abcdefghijklmnopqrstuvwxyz");
		cr_assert(len > 0 && len < sizeof cmds[0] && ncmds < MAX_COMMANDS);
		memcpy(cmds[ncmds], at, len);
		cmds[ncmds++][len] = '\0';
	}
	free(lines);
	free(copy);
	free(help);
	cr_assert_geq(ncmds, 6, "the usage lists %d commands", ncmds);
	char *man = man_text("doc/slidedb-gen.1"), *guide = source_file(gen_guides[0]);
	for (int c = 0; c < ncmds; c++) {
		char args[64], name[64];
		snprintf(args, sizeof args, "%.31s --help", cmds[c]);
		char *h = help_of(SLIDEDB_GEN, args);
		n = long_options(opts, n, h);
		free(h);
		snprintf(name, sizeof name, "slidedb-gen %.31s", cmds[c]);
		cr_expect(strstr(man, name), "'%s' is missing from doc/slidedb-gen.1", name);
		cr_expect(strstr(guide, name), "'%s' is missing from %s", name, gen_guides[0]);
	}
	free(man);
	free(guide);
	cr_assert_geq(n, 10, "the help shows only %d long options", n);
	assert_documented(opts, n, "slidedb-gen", "doc/slidedb-gen.1", gen_guides);
}

Test(docs, every_option_of_slidedb_lookup_is_documented)
{
	char opts[MAX_OPTIONS][40];
	char *help = help_of(SLIDEDB_LOOKUP, "--help");
	int n = long_options(opts, 0, help);
	free(help);
	cr_assert_geq(n, 8, "the help shows only %d long options", n);
	assert_documented(opts, n, "slidedb-lookup", "doc/slidedb-lookup.1", lookup_guides);
	char *man = man_text("doc/slidedb-lookup.1"), *guide = source_file(lookup_guides[0]);
	static const char *const commands[] = { "info", "verify" };
	for (int c = 0; c < 2; c++) {
		cr_expect(strstr(man, commands[c]), "'%s' is missing from the man page", commands[c]);
		cr_expect(strstr(guide, commands[c]), "'%s' is missing from %s", commands[c],
		          lookup_guides[0]);
	}
	free(man);
	free(guide);
}

/* ------------------------------------------------------------------ */
/* Examples                                                             */

/* A document's examples (in blocks between lines that start with open and
 * close), run in order in an empty directory of their own named name, after
 * the set-up commands (NULL-terminated; NULL for none); how many ran. */
static int run_document(const char *rel, const char *name, const char *open, const char *close,
                        const char *const *setup)
{
	char dir[512];
	ck_scratch_dir(dir, sizeof dir, name);
	for (int i = 0; setup && setup[i]; i++) {
		char *err;
		int rc = ck_run_in(dir, setup[i], NULL, &err);
		cr_assert_eq(rc, 0, "%s: the set-up `%s` failed: %s", rel, setup[i], err);
		free(err);
	}
	int man = strlen(rel) > 2 && !strcmp(rel + strlen(rel) - 2, ".1");
	char *text = man ? man_text(rel) : source_file(rel);
	static ck_example ex[CK_MAX_EXAMPLES];
	int n = ck_examples_of(ex, text, open, close);
	ck_run_examples(dir, ex, n, rel);
	ck_free_examples(ex, n);
	free(text);
	ck_remove_dir(dir);
	return n;
}

/* The README's tour, from an empty directory. */
Test(docs, readme_examples_print_what_they_show, .timeout = 300)
{
	int n = run_document("README.md", "readme", "```", "```", NULL);
	cr_assert_geq(n, 6, "README.md shows only %d examples", n);
}

/* Each guide in doc/, in a directory of its own: its set-up is its first
 * block, run as its examples are, so a reader sees what it needs. */
Test(docs, guide_examples_print_what_they_show, .timeout = 600)
{
	glob_t g;
	cr_assert_eq(glob(SLIDEDB_SOURCE_DIR "/doc/*.md", 0, NULL, &g), 0, "no guides in doc/");
	int total = 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *rel = g.gl_pathv[i] + strlen(SLIDEDB_SOURCE_DIR) + 1;
		char name[128];
		snprintf(name, sizeof name, "guide-%.*s", (int)(strlen(rel) - strlen("doc/.md")),
		         rel + strlen("doc/"));
		total += run_document(rel, name, "```", "```", NULL);
	}
	globfree(&g);
	cr_assert_geq(total, 30, "the guides show only %d examples", total);
}

/* The man pages' examples with output, after the set-up their EXAMPLES
 * section names ("With the tables of slidedb-gen full 3x3 and ..."). */
Test(docs, man_page_examples_print_what_they_show, .timeout = 300)
{
	static const char *const setup[] = { "slidedb-gen full 3x3 -q",
		                             "slidedb-gen pdb 4x4 --partition 5-5-5 -q", NULL };
	static const char *const pages[] = { "doc/slidedb-gen.1", "doc/slidedb-lookup.1" };
	int total = 0;
	for (int p = 0; p < 2; p++) {
		char *man = man_text(pages[p]), *examples = strstr(man, ".SH EXAMPLES");
		if (!examples || !strstr(examples, "\n$ ")) {
			free(man);
			continue;
		}
		for (int i = 0; setup[i]; i++) {
			char named[64];
			snprintf(named, sizeof named, "%.*s", (int)(strlen(setup[i]) - 3), setup[i]);
			cr_expect(strstr(examples, named), "%s shows examples with output but does not "
			          "name their set-up `%s`", pages[p], named);
		}
		free(man);
		char name[64];
		snprintf(name, sizeof name, "man-%d", p);
		total += run_document(pages[p], name, ".nf", ".fi", setup);
	}
	cr_assert_geq(total, 3, "the man pages show only %d examples with output", total);
}
