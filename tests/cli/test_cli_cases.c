/* SPDX-License-Identifier: MIT */
/* The command-line cases of tests/cli/: each file is text with code blocks
 * of "$ COMMAND" lines and the exact output they must give (the README's
 * conventions: "# exit status N", "(on stderr)"), run in order in an empty
 * directory of its own with the programs under test on PATH. A new case is
 * a few lines of a file, not a function (jq's tests/jq.test does the same);
 * the oracle replays (answers against a simple BFS) stay in C.
 *
 * One test per file: the files share nothing, so the runner's --jobs runs
 * them side by side, and a failure names its file. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/cases.h"
#include "kit/files.h"
#include <criterion/parameterized.h>

enum { NAME_MAX_LEN = 256 };

typedef struct case_file {
	char name[NAME_MAX_LEN];   /* in tests/cli */
} case_file;

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_case_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return n > 3 && n < NAME_MAX_LEN && !strcmp(e->d_name + n - 3, ".md") &&
	       strcmp(e->d_name, "README.md");
}

ParameterizedTestParameters(cli_cases, every_case_file_prints_what_it_shows)
{
	struct dirent **files;
	int n = scandir(SLIDEDB_SOURCE_DIR "/tests/cli", &files, is_case_file, by_name);
	case_file *v = cr_calloc(n > 0 ? (size_t)n : 1, sizeof *v);
	for (int i = 0; i < n; i++) {
		snprintf(v[i].name, sizeof v[i].name, "%s", files[i]->d_name);
		free(files[i]);
	}
	if (n > 0)
		free(files);
	return cr_make_param_array(case_file, v, n > 0 ? (size_t)n : 0, NULL);
}

ParameterizedTest(case_file *f, cli_cases, every_case_file_prints_what_it_shows, .timeout = 600)
{
	char path[2048], scratch[512], name[NAME_MAX_LEN + 16];
	snprintf(path, sizeof path, "%s/tests/cli/%s", SLIDEDB_SOURCE_DIR, f->name);
	snprintf(name, sizeof name, "tests/cli/%s", f->name);
	char *text = ck_read_file(path, NULL);
	static ck_example ex[CK_MAX_EXAMPLES];
	const int n = ck_examples_of(ex, text, "```", "```");
	cr_expect_gt(n, 0, "%s has no cases", name);
	ck_scratch_dir(scratch, sizeof scratch, f->name);
	ck_run_examples(scratch, ex, n, name);
	ck_remove_dir(scratch);
	ck_free_examples(ex, n);
	free(text);
	cr_log_info("%s: %d cases", name, n);
}

/* The files are found: an empty list would pass every file of none. */
Test(cli_cases, there_are_case_files)
{
	struct dirent **files;
	int n = scandir(SLIDEDB_SOURCE_DIR "/tests/cli", &files, is_case_file, by_name);
	cr_assert_gt(n, 0, "no case files in %s/tests/cli", SLIDEDB_SOURCE_DIR);
	for (int i = 0; i < n; i++)
		free(files[i]);
	free(files);
}
