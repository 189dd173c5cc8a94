/* SPDX-License-Identifier: MIT */
/* Files replaced whole or not at all; see durable.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/durable.h"

int durable_write_all(int fd, const void *p, size_t n)
{
	for (const char *b = p; n;) {
		const ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

/* tmp written afresh by fill (never through a link or into a FIFO left
 * there) and flushed to disk; mode 0 keeps what the umask gives 0644, any
 * other is set exactly. 0, or an errno (tmp is then removed). */
static int write_tmp(const char *tmp, unsigned mode, int (*fill)(int fd, void *ctx), void *ctx)
{
	const int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	                    mode ? (mode_t)mode : 0644);
	if (fd < 0)
		return errno;
	int err = mode && fchmod(fd, (mode_t)mode) ? errno : 0;
	if (!err)
		err = fill(fd, ctx);
	if (!err && fsync(fd))
		err = errno;
	if (close(fd) && !err)   /* NFS and quotas report here */
		err = errno;
	if (err)
		unlink(tmp);
	return err;
}

static void sync_dir(const char *dir)
{
	const int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d >= 0) {
		fsync(d);
		close(d);
	}
}

int durable_replace(const char *path, const char *dir, int (*fill)(int fd, void *ctx),
                    void *ctx)
{
	char tmp[4200];
	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
		return ENAMETOOLONG;
	unlink(tmp);
	int err = write_tmp(tmp, 0, fill, ctx);
	if (!err && rename(tmp, path)) {
		err = errno;
		unlink(tmp);
	}
	if (!err)
		sync_dir(dir);
	return err;
}

int durable_create(const char *path, const char *dir, unsigned mode,
                   int (*fill)(int fd, void *ctx), void *ctx)
{
	char tmp[4200];   /* (one per process: two creating at once do not meet) */
	if (snprintf(tmp, sizeof tmp, "%s.tmp%d", path, (int)getpid()) >= (int)sizeof tmp)
		return ENAMETOOLONG;
	unlink(tmp);
	int err = write_tmp(tmp, mode, fill, ctx);
	if (err)
		return err;
	/* link(2) never replaces: whoever links first has made the file */
	err = link(tmp, path) ? errno : 0;
	unlink(tmp);
	if (!err)
		sync_dir(dir);
	return err;
}

int durable_lock_dir(const char *dir)
{
	const int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		const int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return 0;   /* fd stays open: the lock lasts as long as the process */
}
