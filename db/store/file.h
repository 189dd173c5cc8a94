/* SPDX-License-Identifier: MIT */
/* The database file on the disk. Not installed. */
#ifndef SLIDEDB_STORE_FILE_H
#define SLIDEDB_STORE_FILE_H

/* Files a user named (file.c): sdb_file_open() opens them; this is its
 * refusal of a path that holds no regular file (mode: st_mode), for a check
 * made by stat: SDB_EIO with the detail, errno EINVAL. */
int sdbi_not_regular(const char *path, unsigned mode);

/* Holds on a database file (hold.c): a shared flock for a handle's life,
 * an exclusive one for compact. Each returns the descriptor that
 * holds it, SDBI_HOLD_NONE when no hold could be taken for a reason the
 * caller's own open will report (no such file, no flock), or SDB_EIO with
 * the detail (a compact under way past $SLIDEDB_BUSY_TIMEOUT seconds, or,
 * for the exclusive hold, another process holding the file). */
enum { SDBI_HOLD_NONE = -1000 };
int sdbi_hold_shared(const char *path, int create);
int sdbi_hold_exclusive(const char *path);
/* Whether fd is the file path names now (not replaced since). */
int sdbi_hold_same_file(int fd, const char *path);

#endif
