/* SPDX-License-Identifier: MIT */
/* "Build it with" hints: the parts of a slidedb-gen command that make it,
 * run as it is, build what a failed query needed, into the database that
 * was asked; and the database as users open it: the store's open, and when
 * the file is missing, the command that builds one (the advice is this
 * layer's: the store below names no program). */
#include <stdio.h>
#include <string.h>

#include "answer/answer.h"

/* Append text to buf quoted for a POSIX shell: ' becomes '\'' */
static void quote(char *buf, size_t cap, const char *text)
{
	size_t len = strlen(buf);
	if (len + 1 < cap)
		buf[len++] = '\'';
	for (const char *p = text; *p && len + 6 < cap; p++) {
		if (*p == '\'') {
			memcpy(buf + len, "'\\''", 4);
			len += 4;
		} else {
			buf[len++] = *p;
		}
	}
	if (len + 1 < cap)
		buf[len++] = '\'';
	buf[len] = '\0';
}

const char *sdbi_hint_path(const char *path, char *buf, size_t cap)
{
	if (!strcmp(path, sdb_db_default_path()))
		return "";
	snprintf(buf, cap, " --db ");
	quote(buf, cap, path);
	return buf;
}

const char *sdbi_hint_db(const sdb_db *db, char *buf, size_t cap)
{
	return sdbi_hint_path(sdb_db_path(db), buf, cap);
}

const char *sdbi_hint_goal(const sdb_board *goal, char *buf, size_t cap)
{
	int last = goal->n - 1;
	if (sdb_sym_representative(goal->w, goal->h, goal->blank) ==
	    sdb_sym_representative(goal->w, goal->h, last))
		return "";
	char text[3 * SDB_MAX_CELLS];
	sdb_board_format(text, sizeof text, goal);
	snprintf(buf, cap, " --goal ");
	quote(buf, cap, text);
	return buf;
}

int sdb_db_build_hint(char *buf, size_t cap, const char *db_path, const sdb_board *goal)
{
	sdb_board standard;
	if (!goal) {
		sdb_board_goal(&standard, 3, 3, 8);
		goal = &standard;
	}
	char dbarg[700], goalarg[80], spec[64];
	const char *db_opt = sdbi_hint_path(db_path ? db_path : sdb_db_default_path(), dbarg,
	                                   sizeof dbarg);
	const char *goal_opt = sdbi_hint_goal(goal, goalarg, sizeof goalarg);
	int len;
	if (goal->n <= SDB_MAX_FULL_CELLS) {
		len = snprintf(buf, cap, "slidedb-gen full %dx%d%s%s", goal->w, goal->h, goal_opt,
		               db_opt);
	} else {
		sdb_partition_default(spec, sizeof spec, goal->w, goal->h);
		len = snprintf(buf, cap, "slidedb-gen pdb %dx%d --partition %s%s%s", goal->w, goal->h,
		               spec, goal_opt, db_opt);
	}
	if (len < 0 || (size_t)len >= cap)
		return sdbi_fail(SDB_EINVAL, "buffer too small for a command");
	return len;
}

/* The store's open, with the command that builds a database when the file is
 * missing. */
int sdb_db_open(sdb_db **db, const char *path, unsigned flags)
{
	int err = sdbi_db_open_plain(db, path, flags);
	if (err != SDB_ENOTFOUND)
		return err;
	char why[1024], cmd[1024];
	snprintf(why, sizeof why, "%s", sdb_error_detail());
	sdb_db_build_hint(cmd, sizeof cmd, path, NULL);
	return sdbi_fail(err, "%s (build a database with `%s`)", why, cmd);
}
