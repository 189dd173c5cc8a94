/* Files replaced whole or not at all; see durable.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>

#include "durable.h"

int durable_replace(const char *path, const char *dir, int (*fill)(int fd, void *ctx),
                    void *ctx)
{
	char tmp[4200];
	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
		return ENAMETOOLONG;
	unlink(tmp);
	const int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno;
	int err = fill(fd, ctx);
	if (!err && fsync(fd))
		err = errno;
	if (close(fd) && !err)   /* NFS and quotas report here */
		err = errno;
	if (!err && rename(tmp, path))
		err = errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	const int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d >= 0) {
		fsync(d);
		close(d);
	}
	return 0;
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
