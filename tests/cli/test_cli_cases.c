/* The command-line cases of tests/cli/: each file is text with code blocks
 * of "$ COMMAND" lines and the exact output they must give (the README's
 * conventions: "# exit status N", "(on stderr)"), run in order in an empty
 * directory of its own with the programs under test on PATH. A new case is
 * a few lines of a file, not a function (jq's tests/jq.test does the same);
 * the oracle replays (answers against a simple BFS) stay in C. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casekit.h"

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int case_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return n > 3 && !strcmp(e->d_name + n - 3, ".md") && strcmp(e->d_name, "README.md");
}

Test(cli_cases, every_case_file_prints_what_it_shows, .timeout = 600)
{
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/tests/cli", SLIDEDB_SOURCE_DIR);
	struct dirent **files;
	int nfiles = scandir(dir, &files, case_file, by_name), total = 0;
	cr_assert_gt(nfiles, 0, "no case files in %s", dir);
	static ck_example ex[CK_MAX_EXAMPLES];
	for (int f = 0; f < nfiles; f++) {
		char path[2048], scratch[512], name[600];
		snprintf(path, sizeof path, "%s/%s", dir, files[f]->d_name);
		snprintf(name, sizeof name, "tests/cli/%s", files[f]->d_name);
		char *text = ck_read_file(path, NULL);
		cr_assert_not_null(text, "%s", path);
		const int n = ck_examples_of(ex, text, "```", "```");
		cr_expect_gt(n, 0, "%s has no cases", name);
		ck_scratch_dir(scratch, sizeof scratch, "cli-case");
		ck_run_examples(scratch, ex, n, name);
		ck_remove_dir(scratch);
		ck_free_examples(ex, n);
		free(text);
		free(files[f]);
		total += n;
	}
	free(files);
	cr_log_info("%d cases in %d files", total, nfiles);
}
