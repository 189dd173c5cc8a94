/* SPDX-License-Identifier: MIT */
/* Opening a file a user named: the one rule, for the library and the
 * programs alike (see slidedb_engine.h, "Files").
 *
 * A plain open(2) of a FIFO waits for the other end for ever (reading:
 * until a writer comes; writing: until a reader), and a device's open may
 * wait too. Opened with O_NONBLOCK it returns at once; fstat then tells a
 * regular file from anything else, and only then is O_NONBLOCK cleared, so
 * that reads and writes of a regular file behave as always. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "puzzle/puzzle.h"
#include "store/file.h"

/* What the path holds, in words, for a file that is not regular. */
static const char *kind_of(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) || S_ISBLK(m) ? "a device"
	       : S_ISSOCK(m) ? "a socket" : S_ISDIR(m) ? "a folder"
	       : S_ISLNK(m) ? "a symbolic link" : "of another kind";
}

int sdbi_not_regular(const char *path, unsigned mode)
{
	errno = EINVAL;
	return sdbi_fail(SDB_EIO, "%s: not a regular file (%s)", path, kind_of((mode_t)mode));
}

int sdb_file_open(const char *path, int flags, unsigned mode)
{
	const int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC, (mode_t)mode);
	struct stat st;
	if (fd < 0) {
		/* ENXIO: a FIFO without a reader (opened to write), or a socket;
		 * ELOOP: a link under O_NOFOLLOW; EISDIR: a folder opened to write */
		const int e = errno;
		if ((e == ENXIO || e == ELOOP || e == EISDIR || e == ENODEV) && lstat(path, &st) == 0 &&
		    !S_ISREG(st.st_mode))
			return sdbi_not_regular(path, st.st_mode);
		errno = e;
		return sdbi_fail(e == ENOENT ? SDB_ENOTFOUND : SDB_EIO, "%s: %s", path, strerror(e));
	}
	const int regular = fstat(fd, &st) == 0 ? S_ISREG(st.st_mode) : -1;
	if (!regular) {
		close(fd);
		return sdbi_not_regular(path, st.st_mode);
	}
	const int fl = regular < 0 ? -1 : fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		const int e = errno;
		close(fd);
		errno = e;
		return sdbi_fail(SDB_EIO, "%s: %s", path, strerror(e));
	}
	return fd;
}
