/* SPDX-License-Identifier: MIT */
/* Examples as data: blocks of lines "$ COMMAND" followed by the output
 * they show, run in order in one directory and compared exactly (timings
 * and dates masked). The README's and man pages' examples (test_docs.c)
 * and the command-line cases of tests/cli/ (test_cli_cases.c) go through
 * this one runner.
 *
 * Conventions: a command line may go on over lines ending in a backslash;
 * it ends in "# exit status N" when it fails on purpose (else it must exit
 * 0); an output line ending in "(on stderr)" is expected on stderr, the
 * others on stdout. Commands run in a shell with the programs under test
 * first on PATH and no $SLIDEDB_DB. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kit/cases.h"
#include "kit/files.h"
#include "kit/run.h"

enum { CMD_MAX = 8192 };

static void rstrip(char *s)
{
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/* Cut a trailing "# exit status N" off cmd: N, or 0 when there is none. */
static int exit_status_of(char *cmd)
{
	char *hash = strrchr(cmd, '#');
	int status, used = 0;
	if (hash && sscanf(hash, "# exit status %d%n", &status, &used) == 1 &&
	    hash[used + strspn(hash + used, " \t")] == '\0') {
		*hash = '\0';
		rstrip(cmd);
		return status;
	}
	return 0;
}

/* The examples of a document: in the blocks between lines that start with
 * `open` and lines that start with `close`, each line "$ CMD" and the lines
 * after it up to the next "$ " line or the end of the block. */
int ck_examples_of(ck_example *ex, char *doc, const char *open, const char *close)
{
	char **lines;
	int nlines = ck_split_lines(doc, &lines), n = 0, in_block = 0;
	ck_example *cur = NULL;
	for (int i = 0; i < nlines; i++) {
		char *l = lines[i];
		if (!in_block) {
			in_block = !strncmp(l, open, strlen(open));
			continue;
		}
		if (!strncmp(l, close, strlen(close))) {
			in_block = 0;
			cur = NULL;
			continue;
		}
		rstrip(l);
		if (!strncmp(l, "$ ", 2)) {
			cr_assert_lt(n, CK_MAX_EXAMPLES, "too many examples");
			cur = &ex[n++];
			memset(cur, 0, sizeof *cur);
			cur->line = i + 1;
			ck_sbuf cmd = { 0 };
			ck_sb_printf(&cmd, "%s", l + 2);
			while (cmd.len && cmd.s[cmd.len - 1] == '\\' && i + 1 < nlines) {
				rstrip(lines[++i]);
				ck_sb_printf(&cmd, "\n%s", lines[i]);
			}
			cur->cmd = cmd.s;
			cur->status = exit_status_of(cur->cmd);
			continue;
		}
		if (!cur)
			continue;
		static const char marker[] = "(on stderr)";
		size_t len = strlen(l), mlen = sizeof marker - 1;
		if (len >= mlen && !strcmp(l + len - mlen, marker)) {
			l[len - mlen] = '\0';
			rstrip(l);
			ck_sb_printf(&cur->err, "%s\n", l);
		} else {
			ck_sb_printf(&cur->out, "%s\n", l);
		}
	}
	free(lines);
	return n;
}

/* Text with timings and dates masked and trailing blanks cut from each line:
 * "0.032 s" reads "#.# s", "2026-11-21T10:00:00Z" reads "DATE". */
char *ck_masked(const char *s)
{
	ck_sbuf b = { 0 };
	ck_sb_printf(&b, "%s", "");
	for (const char *p = s; *p;) {
		int y, mo, d, h, mi, se, used = 0;
		if (isdigit((unsigned char)*p) &&
		    sscanf(p, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &y, &mo, &d, &h, &mi, &se, &used) == 6 &&
		    used == 20) {
			ck_sb_printf(&b, "DATE");
			p += used;
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			const char *q = p;
			while (isdigit((unsigned char)*q))
				q++;
			if (*q == '.' && isdigit((unsigned char)q[1])) {
				q++;
				while (isdigit((unsigned char)*q))
					q++;
				ck_sb_printf(&b, "#.#");
			} else {
				ck_sb_printf(&b, "%.*s", (int)(q - p), p);
			}
			p = q;
			continue;
		}
		if (*p == '\n') {
			while (b.len && (b.s[b.len - 1] == ' ' || b.s[b.len - 1] == '\t'))
				b.s[--b.len] = '\0';
		}
		ck_sb_printf(&b, "%c", *p++);
	}
	while (b.len && isspace((unsigned char)b.s[b.len - 1]))
		b.s[--b.len] = '\0';
	return b.s;
}

/* Run cmd in dir with the programs under test first on PATH and the default
 * database path (no $SLIDEDB_DB). */
int ck_run_in(const char *dir, const char *cmd, char **out, char **err)
{
	char bin[1024], line[CMD_MAX];
	snprintf(bin, sizeof bin, "%s", SLIDEDB_GEN);
	*strrchr(bin, '/') = '\0';
	char lookup_bin[1024];
	snprintf(lookup_bin, sizeof lookup_bin, "%s", SLIDEDB_LOOKUP);
	*strrchr(lookup_bin, '/') = '\0';
	int len = snprintf(line, sizeof line,
	                   "cd '%s' && PATH='%s':'%s':\"$PATH\" && export PATH && unset SLIDEDB_DB "
	                   "&& (\n%s\n)", dir, bin, lookup_bin, cmd);
	cr_assert(len > 0 && (size_t)len < sizeof line, "command too long");
	return tk_run(line, NULL, out, err);
}

/* Run the examples in order in dir; each must exit as shown and print what
 * is shown. what names the document. */
void ck_run_examples(const char *dir, ck_example *ex, int n, const char *what)
{
	for (int i = 0; i < n; i++) {
		char *out, *err;
		int rc = ck_run_in(dir, ex[i].cmd, &out, &err);
		char *got_out = ck_masked(out), *got_err = ck_masked(err);
		char *want_out = ck_masked(ex[i].out.s ? ex[i].out.s : "");
		char *want_err = ck_masked(ex[i].err.s ? ex[i].err.s : "");
		cr_expect_eq(rc, ex[i].status, "%s:%d: `%s` exited %d, the example shows %d "
		             "(stderr: %s)", what, ex[i].line, ex[i].cmd, rc, ex[i].status, err);
		cr_expect_str_eq(got_out, want_out, "%s:%d: `%s` printed on stdout\n%s\n"
		                 "--- but the example shows\n%s", what, ex[i].line, ex[i].cmd, out,
		                 ex[i].out.s ? ex[i].out.s : "");
		cr_expect_str_eq(got_err, want_err, "%s:%d: `%s` printed on stderr\n%s\n"
		                 "--- but the example shows\n%s", what, ex[i].line, ex[i].cmd, err,
		                 ex[i].err.s ? ex[i].err.s : "");
		free(got_out);
		free(got_err);
		free(want_out);
		free(want_err);
		free(out);
		free(err);
	}
}

void ck_free_examples(ck_example *ex, int n)
{
	for (int i = 0; i < n; i++) {
		free(ex[i].cmd);
		free(ex[i].out.s);
		free(ex[i].err.s);
	}
}
