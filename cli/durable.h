/* SPDX-License-Identifier: MIT */
/* Files replaced or made whole or not at all: what checkpoints and keys are
 * written with. */
#ifndef SLIDEDB_CLI_DURABLE_H
#define SLIDEDB_CLI_DURABLE_H

#include <stddef.h>

/* Write path anew: fill(fd, ctx) writes the content into path.tmp (created
 * afresh: never through a link or into a FIFO left there), which is flushed
 * to disk and renamed over path, and the folder dir flushed, so that a
 * process killed at any moment leaves the old file or the new one whole.
 * fill returns 0 or an errno. 0, or the errno of what failed (path.tmp is
 * then removed). */
int durable_replace(const char *path, const char *dir, int (*fill)(int fd, void *ctx),
                    void *ctx);

/* Make path, which must not exist, as durable_replace() writes a file
 * (fill, flushed, then the folder dir) but with exactly mode and never over
 * another: the file appears whole or not at all. 0, or an errno (EEXIST:
 * there is a file at path, perhaps one another process made meanwhile). */
int durable_create(const char *path, const char *dir, unsigned mode,
                   int (*fill)(int fd, void *ctx), void *ctx);

/* All n bytes at p to fd (a fill's writes): 0 or an errno. */
int durable_write_all(int fd, const void *p, size_t n);

/* Lock folder dir for this process's life (flock): 0, or -1 with errno
 * (EWOULDBLOCK: another process holds it). */
int durable_lock_dir(const char *dir);

#endif
