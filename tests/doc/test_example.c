/* SPDX-License-Identifier: MIT */
/* The example program builds and answers like the library does. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/run.h"

Test(example, hint_answers)
{
	char db[512], cmd[1400];
	tk_tmp_path(db, sizeof db, "ex.lmdb");
	tk_build(db, "3x3", NULL);
	char *out, *err;
	snprintf(cmd, sizeof cmd, "%s '%s' '1 2 3 4 5 6 0 7 8'", SLIDEDB_EXAMPLE, db);
	cr_assert_eq(tk_run(cmd, NULL, &out, &err), 0, "%s", err);
	cr_assert_str_eq(out, "2 moves left; move the blank r (rr)\n");
	free(out);
	free(err);
	snprintf(cmd, sizeof cmd, "%s '%s' '1 2 3 4 5 6 8 7 0'", SLIDEDB_EXAMPLE, db);
	cr_assert_eq(tk_run(cmd, NULL, &out, NULL), 0);
	cr_assert_str_eq(out, "unsolvable\n");
	free(out);
	snprintf(cmd, sizeof cmd, "%s '%s' '1 2 0'", SLIDEDB_EXAMPLE, db);
	cr_assert_eq(tk_run(cmd, NULL, NULL, &err), 1);
	cr_assert(strstr(err, "3 cells"), "%s", err);
	free(err);
}

/* The heuristic example: a lower bound, one per move, and the optimum. */
Test(example, lower_bound_answers, .timeout = 300)
{
	char db[512], cmd[1400];
	tk_tmp_path(db, sizeof db, "lb.lmdb");
	snprintf(cmd, sizeof cmd, "%s pdb 4x4 --partition 5-5-5 --db '%s' -q", SLIDEDB_GEN, db);
	char *out, *err;
	cr_assert_eq(tk_run(cmd, NULL, NULL, &err), 0, "%s", err);
	free(err);
	snprintf(cmd, sizeof cmd, "%s '%s' '1 2 3 4 5 6 7 8 9 x 10 12 13 14 11 15'",
	         SLIDEDB_EXAMPLE_LB, db);
	cr_assert_eq(tk_run(cmd, NULL, &out, &err), 0, "%s", err);
	/* blank at cell 9: u d l r all legal; the bound is 3 (Manhattan: three tiles
	 * one step each), r goes one closer, the others one further */
	cr_assert_str_eq(out, "set pdb-4x4-b0-5-5-5: lower bound 3\n"
	                      "after u: 4\nafter d: 4\nafter l: 4\nafter r: 2\n"
	                      "optimal: 3 moves rdr (3 nodes)\n");
	free(out);
	free(err);
}
