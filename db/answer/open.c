/* The database as users open it: the store's open, and when the file is
 * missing, the command that builds one (the advice is this layer's: the
 * store below names no program). */
#include <stdio.h>

#include "answer/answer.h"

int sdb_db_open(sdb_db **db, const char *path, unsigned flags)
{
	int err = sdbi_db_open_plain(db, path, flags);
	if (err != SDB_ENOTFOUND)
		return err;
	char why[1024], cmd[1024];
	snprintf(why, sizeof why, "%s", sdb_errdetail());
	sdb_hint_build(cmd, sizeof cmd, path, NULL);
	return sdbi_fail(err, "%s (build a database with `%s`)", why, cmd);
}
