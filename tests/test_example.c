/* The example program builds and answers like the library does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testkit.h"

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
	snprintf(cmd, sizeof cmd, "%s '%s' '1 2 3'", SLIDEDB_EXAMPLE, db);
	cr_assert_eq(tk_run(cmd, NULL, NULL, &err), 1);
	cr_assert(strstr(err, "3 cells"), "%s", err);
	free(err);
}
