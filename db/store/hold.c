/* SPDX-License-Identifier: MIT */
/* Holds on a database file: who may have it open while it is compacted.
 *
 * `compact` writes a new file and renames it over the old one. A process
 * that had the old file open, or opened it during the copy, would go on with
 * the old file (a writer's commits lost with it) while the LMDB lock file,
 * which keeps its name, describes the new one (the next writer then commits
 * over the new file's meta page: tables lost). So every handle holds a
 * shared flock(2) on the database file for its whole life, and compact takes
 * an exclusive one: it runs only when no other process has the file open,
 * and a process that opens the file during a compact waits for it, then
 * opens the file the path names afterwards. (flock locks belong to an open
 * file description: they are independent of LMDB's fcntl locks on the lock
 * file, and a process that dies drops them.) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "puzzle/puzzle.h"
#include "store/file.h"

enum { DEFAULT_BUSY_SECONDS = 60, POLL_MS = 20 };

int sdbi_hold_same_file(int fd, const char *path)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* How long an open waits for a compact: $SLIDEDB_BUSY_TIMEOUT seconds. */
static double busy_seconds(void)
{
	const char *env = getenv("SLIDEDB_BUSY_TIMEOUT");
	char *end;
	double v = env && *env ? strtod(env, &end) : DEFAULT_BUSY_SECONDS;
	return env && *env && (*end || v < 0) ? DEFAULT_BUSY_SECONDS : v;
}

int sdbi_hold_shared(const char *path, int create)
{
	const double patience = busy_seconds();
	double waited = 0;
	for (;;) {
		int fd = sdb_file_open(path, O_RDONLY | (create ? O_CREAT : 0), 0644);
		if (fd < 0 && create && errno == EACCES)
			return sdbi_fail(SDB_EIO, "%s: cannot create it (permission denied)", path);
		if (fd < 0 && errno != EINVAL)
			return SDBI_HOLD_NONE;   /* not there, or not readable: the caller's open says why */
		if (fd < 0)
			return fd;   /* a FIFO, a device: said */
		if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
			if (sdbi_hold_same_file(fd, path))
				return fd;
			close(fd);   /* compacted while we waited: the new file */
			continue;
		}
		const int busy = errno == EWOULDBLOCK;
		close(fd);
		if (!busy)
			return SDBI_HOLD_NONE;   /* a file system without flock: no hold */
		if (waited >= patience)
			return sdbi_fail(SDB_EIO, "%s: being compacted by another process (waited %g s; "
			                "SLIDEDB_BUSY_TIMEOUT sets how long to wait)", path, waited);
		nanosleep(&(struct timespec){ 0, POLL_MS * 1000000L }, NULL);
		waited += POLL_MS / 1000.0;
	}
}

/* The processes holding fd's file, from /proc/locks (Linux; best effort):
 * " (process 1234 slidedb-serve, ...)" in buf, or "" when unknown. */
static const char *holders(char *buf, size_t cap, int fd)
{
	struct stat st;
	FILE *f = fstat(fd, &st) ? NULL : fopen("/proc/locks", "r");
	buf[0] = '\0';
	if (!f)
		return buf;
	char line[256], kind[16];
	size_t len = 0;
	int n = 0;
	unsigned maj, min;
	unsigned long long ino;
	int pid;
	while (fgets(line, sizeof line, f) && len + 64 < cap)
		if (sscanf(line, "%*s %15s %*s %*s %d %x:%x:%llu", kind, &pid, &maj, &min, &ino) == 5 &&
		    !strcmp(kind, "FLOCK") && pid != getpid() && ino == (unsigned long long)st.st_ino &&
		    maj == major(st.st_dev) && min == minor(st.st_dev) && n < 8) {
			char comm_path[64], comm[32] = "";
			snprintf(comm_path, sizeof comm_path, "/proc/%d/comm", pid);
			FILE *c = fopen(comm_path, "r");
			if (c) {
				if (fgets(comm, sizeof comm, c))
					comm[strcspn(comm, "\n")] = '\0';
				fclose(c);
			}
			len += (size_t)snprintf(buf + len, cap - len, "%s%d%s%s", n++ ? ", " : " (process ",
			                        pid, comm[0] ? " " : "", comm);
		}
	fclose(f);
	if (n)
		snprintf(buf + len, cap - len, ")");
	return buf;
}

int sdbi_hold_exclusive(const char *path)
{
	int fd = sdb_file_open(path, O_RDONLY, 0);
	if (fd < 0)
		return errno == EINVAL ? fd : SDBI_HOLD_NONE;   /* (else the caller's open says why) */
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return fd;
	const int busy = errno == EWOULDBLOCK;
	char who[512];
	holders(who, sizeof who, fd);
	close(fd);
	if (busy)
		return sdbi_fail(SDB_EIO, "%s: in use by another program%s; compact it when no program "
		                "has it open", path, who);
	return SDBI_HOLD_NONE;
}
