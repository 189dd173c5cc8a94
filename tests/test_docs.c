/* The documentation agrees with the programs: every long option the
 * programs' --help prints is in their man page and in README.md, and the
 * examples of README.md and of the man pages (lines "$ COMMAND" in a code
 * block, followed by the output) run and print what they show.
 *
 * Conventions of the examples, as the README states them: a command line may
 * go on over lines ending in '\'; it ends in "# exit status N" when it fails
 * on purpose (else it must exit 0); an output line ending in "(on stderr)" is
 * expected on stderr, the others on stdout. Timings (numbers with a decimal
 * point) and dates (2026-11-21T10:00:00Z) are masked before comparing. The
 * README's examples run in order in one empty directory, as a reader would
 * type them; the man pages' then run in the same directory, with the default
 * database the README built. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "casekit.h"

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

/* Every option in opts is in the man page and the README. */
static void assert_documented(char opts[][40], int n, const char *prog, const char *man_rel)
{
	char *man = man_text(man_rel), *readme = source_file("README.md");
	for (int i = 0; i < n; i++) {
		cr_expect(names_option(man, opts[i]), "%s's option %s is missing from %s", prog,
		          opts[i], man_rel);
		cr_expect(names_option(readme, opts[i]), "%s's option %s is missing from README.md",
		          prog, opts[i]);
	}
	free(man);
	free(readme);
}

#ifdef SLIDEDB_SERVE
Test(docs, every_option_of_slidedb_serve_is_documented)
{
	char opts[MAX_OPTIONS][40];
	char *help = help_of(SLIDEDB_SERVE, "--help");
	int n = long_options(opts, 0, help);
	free(help);
	cr_assert_geq(n, 8, "the help shows only %d long options", n);
	assert_documented(opts, n, "slidedb-serve", "doc/slidedb-serve.1");
}
#endif

/* ------------------------------------------------------------------ */
/* Examples                                                             */











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
	char *man = man_text("doc/slidedb-gen.1"), *readme = source_file("README.md");
	for (int c = 0; c < ncmds; c++) {
		char args[64], name[64];
		snprintf(args, sizeof args, "%.31s --help", cmds[c]);
		char *h = help_of(SLIDEDB_GEN, args);
		n = long_options(opts, n, h);
		free(h);
		snprintf(name, sizeof name, "slidedb-gen %.31s", cmds[c]);
		cr_expect(strstr(man, name), "'%s' is missing from doc/slidedb-gen.1", name);
		cr_expect(strstr(readme, name), "'%s' is missing from README.md", name);
	}
	free(man);
	free(readme);
	cr_assert_geq(n, 10, "the help shows only %d long options", n);
	assert_documented(opts, n, "slidedb-gen", "doc/slidedb-gen.1");
}

Test(docs, every_option_of_slidedb_lookup_is_documented)
{
	char opts[MAX_OPTIONS][40];
	char *help = help_of(SLIDEDB_LOOKUP, "--help");
	int n = long_options(opts, 0, help);
	free(help);
	cr_assert_geq(n, 8, "the help shows only %d long options", n);
	assert_documented(opts, n, "slidedb-lookup", "doc/slidedb-lookup.1");
	char *man = man_text("doc/slidedb-lookup.1"), *readme = source_file("README.md");
	static const char *const commands[] = { "info", "verify" };
	for (int c = 0; c < 2; c++) {
		cr_expect(strstr(man, commands[c]), "'%s' is missing from the man page", commands[c]);
		cr_expect(strstr(readme, commands[c]), "'%s' is missing from README.md", commands[c]);
	}
	free(man);
	free(readme);
}

/* ------------------------------------------------------------------ */
/* Examples                                                             */

/* The README's examples in order in one empty directory, then the man
 * pages' examples with output in the same directory: they need the
 * default database the README builds (`slidedb-gen full 3x3`, `slidedb-gen
 * pdb 4x4 --partition 5-5-5`), and building it once keeps the suite fast. */
Test(docs, examples_print_what_they_show, .timeout = 120)
{
	char dir[512];
	ck_scratch_dir(dir, sizeof dir, "examples");
	char *readme = source_file("README.md");
	static ck_example ex[CK_MAX_EXAMPLES];
	int n = ck_examples_of(ex, readme, "```", "```");
	cr_assert_geq(n, 10, "README.md shows only %d examples", n);
	ck_run_examples(dir, ex, n, "README.md");
	ck_free_examples(ex, n);
	free(readme);

	char *err;
	int rc = ck_run_in(dir, "slidedb-lookup info full-3x3 pdb-4x4-b0-5-5-5", NULL, &err);
	cr_assert_eq(rc, 0, "the README's examples no longer build the database the man pages' "
	             "examples use: %s", err);
	free(err);
	static const char *const pages[] = { "doc/slidedb-gen.1", "doc/slidedb-lookup.1" };
	int total = 0;
	for (int p = 0; p < 2; p++) {
		char *man = man_text(pages[p]);
		n = ck_examples_of(ex, man, ".nf", ".fi");
		ck_run_examples(dir, ex, n, pages[p]);
		ck_free_examples(ex, n);
		free(man);
		total += n;
	}
	cr_assert_geq(total, 3, "the man pages show only %d examples with output", total);
	ck_remove_dir(dir);
}
