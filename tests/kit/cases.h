/* SPDX-License-Identifier: MIT */
/* Examples as data (cases.c): "$ COMMAND" lines and the output they
 * show, run and compared by one runner. */
#ifndef SLIDEDB_TESTS_KIT_CASES_H
#define SLIDEDB_TESTS_KIT_CASES_H

#include <stddef.h>

#include "kit/text.h"

enum { CK_MAX_EXAMPLES = 512 };

typedef struct ck_example {
	char *cmd;      /* the command, continuation lines included */
	int status;     /* the exit status it shows */
	ck_sbuf out;    /* stdout lines it shows */
	ck_sbuf err;    /* stderr lines it shows */
	int line;       /* where it is in the document */
} ck_example;

/* The examples of a document: in the blocks between lines that start with
 * open and lines that start with close (the document is cut up in place),
 * each "$ CMD" line and the lines after it up to the next "$ " line or the
 * end of the block; how many. */
int ck_examples_of(ck_example *ex, char *doc, const char *open, const char *close);
/* Text with timings and dates masked and trailing blanks cut from each
 * line: "0.032 s" reads "#.# s", "2026-11-21T10:00:00Z" reads "DATE". */
char *ck_masked(const char *s);
/* Run cmd in dir with the programs under test first on PATH and the
 * default database path (no $SLIDEDB_DB); its exit status. */
int ck_run_in(const char *dir, const char *cmd, char **out, char **err);
/* Run the examples in order in dir: each must exit as shown and print what
 * is shown. what names the document. */
void ck_run_examples(const char *dir, ck_example *ex, int n, const char *what);
void ck_free_examples(ck_example *ex, int n);

#endif
