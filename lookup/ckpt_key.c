/* SPDX-License-Identifier: MIT */
/* The key that seals search checkpoints; see ckpt_key.h.
 *
 * The rules are ssh's for a private key: the file is this user's, a regular
 * file (never a link followed), readable and writable by no one else, and it
 * sits in a folder no one else may write to (else another user could put
 * their own key in its place, and seal files of their making with it). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/durable.h"
#include "lookup/ckpt_key.h"
#include "slidedb_engine.h"

static int refuse(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *why, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, cap, fmt, ap);
	va_end(ap);
	return -1;
}

/* Where the key lives (the XDG base directory rules ignore a relative
 * XDG_STATE_HOME). */
static int key_path(ckpt_key *k, char *why, size_t cap)
{
	const char *file = getenv("SLIDEDB_KEY_FILE"), *state = getenv("XDG_STATE_HOME"),
	           *home = getenv("HOME");
	int n;
	if (file && *file)
		n = snprintf(k->path, sizeof k->path, "%s", file);
	else if (state && state[0] == '/')
		n = snprintf(k->path, sizeof k->path, "%s/slidedb/checkpoint.key", state);
	else if (home && home[0] == '/')
		n = snprintf(k->path, sizeof k->path, "%s/.local/state/slidedb/checkpoint.key", home);
	else
		return refuse(why, cap, "no place for the key that seals checkpoints: set "
		              "SLIDEDB_KEY_FILE (or HOME)");
	if (n < 0 || (size_t)n >= sizeof k->path)
		return refuse(why, cap, "the key file's path is too long");
	return 0;
}

/* The key's folder dir, made (with its missing parents, 0700) when absent:
 * one that only this user (or root) may write to, or a sticky one like /tmp,
 * where no one removes another's file. */
static int folder_ok(const char *dir, const char *key, char *why, size_t cap)
{
	char p[sizeof ((ckpt_key *)0)->path];
	snprintf(p, sizeof p, "%s", dir);
	for (char *s = p + 1;; s++)
		if (*s == '/' || !*s) {
			const char c = *s;
			*s = '\0';
			if (mkdir(p, 0700) && errno != EEXIST)
				return refuse(why, cap, "%s: %s (the folder of the key file %s)", p,
				              strerror(errno), key);
			*s = c;
			if (!c)
				break;
		}
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return refuse(why, cap, "%s: not a folder (the folder of the key file %s)", dir, key);
	if ((st.st_uid != geteuid() && st.st_uid != 0) ||
	    ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)))
		return refuse(why, cap, "%s: others may write to it (mode %04o, owner uid %u): the "
		              "folder of the key that seals checkpoints (%s) must be this user's alone",
		              dir, (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid, key);
	return 0;
}

/* The key in fd, the file at k->path, if it is fit to be one. */
static int read_key(ckpt_key *k, int fd, char *why, size_t cap)
{
	struct stat st;
	if (fstat(fd, &st))
		return refuse(why, cap, "%s: %s", k->path, strerror(errno));
	if (st.st_uid != geteuid())
		return refuse(why, cap, "%s: owned by another user (uid %u): the key that seals "
		              "checkpoints must be this user's", k->path, (unsigned)st.st_uid);
	if (st.st_mode & 077)
		return refuse(why, cap, "%s: readable or writable by others (mode %04o): the key that "
		              "seals checkpoints must be this user's alone (chmod 600 %s)", k->path,
		              (unsigned)(st.st_mode & 07777), k->path);
	if (st.st_size != CKPT_KEY_BYTES)
		return refuse(why, cap, "%s: %lld bytes, where the key that seals checkpoints has %d",
		              k->path, (long long)st.st_size, CKPT_KEY_BYTES);
	if (pread(fd, k->bytes, sizeof k->bytes, 0) != (ssize_t)sizeof k->bytes)
		return refuse(why, cap, "%s: %s", k->path, strerror(errno ? errno : EIO));
	return 0;
}

static int fill_key(int fd, void *ctx)
{
	return durable_write_all(fd, ctx, CKPT_KEY_BYTES);
}

/* A new key at k->path, unless another process made one first (then that
 * one is read). */
static int make_key(ckpt_key *k, const char *dir, int *created, char *why, size_t cap)
{
	uint8_t fresh[CKPT_KEY_BYTES];
	for (size_t got = 0; got < sizeof fresh;) {
		const ssize_t n = getrandom(fresh + got, sizeof fresh - got, 0);
		if (n < 0 && errno != EINTR)
			return refuse(why, cap, "%s: no random bytes for a new key: %s", k->path,
			              strerror(errno));
		got += n > 0 ? (size_t)n : 0;
	}
	const int err = durable_create(k->path, dir, 0600, fill_key, fresh);
	explicit_bzero(fresh, sizeof fresh);
	if (err && err != EEXIST)
		return refuse(why, cap, "%s: cannot make the key that seals checkpoints: %s", k->path,
		              strerror(err));
	*created = !err;
	return 0;
}

int ckpt_key_load(ckpt_key *k, int *created, char *why, size_t cap)
{
	*created = 0;
	if (key_path(k, why, cap))
		return -1;
	char dir[sizeof k->path];
	const char *slash = strrchr(k->path, '/');
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - k->path) : 1,
	         slash ? k->path : ".");
	if (!dir[0])
		snprintf(dir, sizeof dir, "/");
	if (folder_ok(dir, k->path, why, cap))
		return -1;
	for (int tries = 0; tries < 2; tries++) {
		const int fd = sdb_file_open(k->path, O_RDONLY | O_NOFOLLOW, 0);
		if (fd >= 0) {
			const int rc = read_key(k, fd, why, cap);
			close(fd);
			return rc;
		}
		if (fd != SDB_ENOTFOUND)
			return refuse(why, cap, "%s (the key that seals checkpoints)",
			              sdb_error_detail());
		if (make_key(k, dir, created, why, cap))
			return -1;
	}
	return refuse(why, cap, "%s: made, then gone", k->path);
}
