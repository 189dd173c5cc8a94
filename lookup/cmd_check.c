/* SPDX-License-Identifier: MIT */
/* slidedb-lookup check: the verdict on a move sequence (optimal, longer than
 * optimal, illegal, short), of the words START [GOAL] MOVES or of lines
 * 'START [; GOAL] ; MOVES' on standard input; answered as the answers are
 * (cmd_answer.c). */
#include <string.h>

#include "cli/cli.h"
#include "lookup/lookup.h"

int cmd_check(void *opts, int nargs, char **args)
{
	lookup_options *o = opts;
	if (nargs == 1)
		return cli_usage("check needs START [GOAL] MOVES (or no words: lines from standard "
		                 "input)");
	/* A last word without a move letter is part of a board: MOVES is missing.
	 * (A sequence with other characters is malformed: reported like a bad
	 * batch line, exit 1.) */
	if (nargs > 1 && args[nargs - 1][0] && !strpbrk(args[nargs - 1], "udlrUDLR"))
		return cli_usage("check: the last word '%s' is not a move sequence (letters u d l r; "
		                 "'' for none)", args[nargs - 1]);
	o->answer.check = 1;
	return cmd_answer(o, nargs, args);
}
