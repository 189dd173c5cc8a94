/* SPDX-License-Identifier: MIT */
/* Restartable levels: a table's search saved after a level and put back.
 *
 * The file, DIR/NAME.ckpt, is a header (below) and then the engine's state
 * as it lies in memory: the table's bytes, then a two-bit search's marks.
 * It is written as DIR/NAME.ckpt.tmp, flushed to disk, and renamed over
 * the last one (durable_replace), so a build killed while saving keeps the previous
 * checkpoint whole. It is for the machine and the version that wrote it:
 * the header holds the version, the table's name, kind, format, size,
 * goal, tiles and blank mode, the counts so far, and a CRC-32 of itself
 * and of the state, all checked before a byte of it is used. A checkpoint
 * that fails to be written costs the build nothing but the restart
 * point: the search goes on, with a warning. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "cli/cli.h"
#include "cli/durable.h"
#include "gen/checkpoint.h"

enum { CKPT_VERSION = 2 };   /* 2: 64 cells, 64-bit tile masks */
static const char ckpt_magic[8] = "SDBCKPT";

/* Every byte a field: no padding, so the CRC covers only what is set. */
typedef struct ckpt_header {
	char magic[8];
	uint32_t version, header_bytes;
	char tool[32];            /* sdb_version() of the writer */
	char name[SDB_NAME_MAX];
	int32_t kind, entry_format;
	uint64_t pattern;         /* a pattern group's tiles and blank mode */
	int32_t blank_mode;
	uint8_t w, h, cells[SDB_MAX_CELLS];   /* the goal */
	uint8_t zero[2];
	uint64_t states, table_bytes, mark_bytes;
	uint64_t counts[SDB_MAX_DISTANCE];   /* bfs_result: up to the last level done */
	int32_t max_distance;
	uint32_t zero2;
	uint64_t reached;
	double seconds;           /* the search's time until then, over every run */
	uint32_t state_crc;       /* of the table's bytes, then the marks */
	uint32_t header_crc;      /* of this header with header_crc 0 */
} ckpt_header;
_Static_assert(sizeof(ckpt_header) == 240 + 8 * SDB_MAX_DISTANCE, "ckpt_header has padding");

/* The header a file for c's table must have, but for res and the CRCs. */
static void header_for(ckpt_header *h, const checkpoint *c, const bfs_state *st)
{
	memset(h, 0, sizeof *h);   /* the names' spare bytes too: the CRC covers them */
	memcpy(h->magic, ckpt_magic, sizeof h->magic);
	h->version = CKPT_VERSION;
	h->header_bytes = sizeof *h;
	snprintf(h->tool, sizeof h->tool, "%s", sdb_version());
	snprintf(h->name, sizeof h->name, "%s", c->info->name);
	h->kind = c->info->kind;
	h->entry_format = c->info->entry_format;
	h->pattern = c->info->pattern;
	h->blank_mode = c->info->blank_mode;
	h->w = c->info->goal.w;
	h->h = c->info->goal.h;
	memcpy(h->cells, c->info->goal.cell, sizeof h->cells);
	h->states = c->info->states;
	h->table_bytes = st->table_bytes;
	h->mark_bytes = st->marks ? st->mark_bytes : 0;
}

static uint32_t header_crc(const ckpt_header *h)
{
	ckpt_header copy;
	memcpy(&copy, h, sizeof copy);
	copy.header_crc = 0;
	return (uint32_t)crc32_z(0, (const Bytef *)&copy, sizeof copy);
}

/* The counts of a header that checked out: within what the engine holds,
 * and adding up. */
static int counts_sound(const ckpt_header *h)
{
	if (h->max_distance < 1 || h->max_distance >= SDB_MAX_DISTANCE || h->reached > h->states)
		return 0;
	uint64_t sum = 0;
	for (int d = 0; d < SDB_MAX_DISTANCE; d++)
		sum += h->counts[d];
	return sum == h->reached;
}

static int fail(checkpoint *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(checkpoint *c, int err, const char *fmt, ...)
{
	int n = snprintf(c->why, c->why_cap, "%s: ", c->path);
	va_list ap;
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < c->why_cap)
		vsnprintf(c->why + n, c->why_cap - (size_t)n, fmt, ap);
	va_end(ap);
	return err;
}

/* Write or read all of n bytes at p (pieces under 1 GiB), adding them to
 * crc; 0, or -1 with errno set (0 at the end of the file). */
static int whole(int fd, uint8_t *p, uint64_t n, int writing, uLong *crc)
{
	const uint64_t piece = (uint64_t)1 << 30;
	for (uint64_t done = 0; done < n;) {
		const size_t want = (size_t)(n - done < piece ? n - done : piece);
		const ssize_t got = writing ? write(fd, p + done, want) : read(fd, p + done, want);
		if (got <= 0) {
			if (got == 0)   /* the end of the file; a write of nothing, an I/O error */
				errno = writing ? EIO : 0;
			return -1;
		}
		*crc = crc32_z(*crc, p + done, (size_t)got);
		done += (uint64_t)got;
	}
	return 0;
}

/* bfs_restart.load: the file, if there is one, into st. */
static int load(void *ctx, bfs_state *st)
{
	checkpoint *c = ctx;
	const double t0 = progress_now();
	/* no wait on a FIFO, and nothing but a regular file */
	const int fd = sdb_file_open(c->path, O_RDONLY, 0);
	if (fd == SDB_ENOTFOUND)
		return 0;
	if (fd < 0) {
		const int odd = errno == EINVAL;
		snprintf(c->why, c->why_cap, "%s%s", sdb_error_detail(),
		         odd ? ": remove it to start the build afresh" : "");
		return odd ? SDB_EINVAL : SDB_EIO;
	}
	ckpt_header h, want;
	header_for(&want, c, st);
	uLong crc = 0;
	int err = SDB_OK;
	struct stat file;
	if (fstat(fd, &file))
		err = fail(c, SDB_EIO, "%s", strerror(errno));
	else if (whole(fd, (uint8_t *)&h, sizeof h, 0, &crc) || memcmp(h.magic, ckpt_magic, 8) ||
	    h.version != CKPT_VERSION || h.header_bytes != sizeof h ||
	    h.header_crc != header_crc(&h) || !counts_sound(&h))
		err = fail(c, SDB_ECORRUPT, "%s", "not a checkpoint of this version of slidedb-gen, "
		           "or damaged: remove it to start the build afresh");
	else if (memcmp(h.tool, want.tool, sizeof h.tool))
		err = fail(c, SDB_EVERSION, "written by slidedb-gen %.*s, this is %s: remove it to "
		           "start the build afresh", (int)sizeof h.tool, h.tool, want.tool);
	else if (memcmp(h.name, want.name, sizeof h.name) || h.kind != want.kind ||
	         h.pattern != want.pattern || h.blank_mode != want.blank_mode ||
	         h.w != want.w || h.h != want.h ||
	         memcmp(h.cells, want.cells, sizeof h.cells) || h.states != want.states)
		err = fail(c, SDB_EINVAL, "%s", "a checkpoint of another table (another board, goal, "
		           "partition or blank mode): remove it to start the build afresh");
	else if (h.entry_format != want.entry_format || h.table_bytes != want.table_bytes ||
	         h.mark_bytes != want.mark_bytes)
		err = fail(c, SDB_EINVAL, "%s", "a checkpoint of this table with another number of "
		           "bits per state: remove it, or build with the --bits it was written with");
	/* a short file is told before gigabytes are read */
	if (!err && (uint64_t)file.st_size != sizeof h + want.table_bytes + want.mark_bytes)
		err = fail(c, SDB_ECORRUPT, "%s", "truncated, or of the wrong size: remove it to start "
		           "the build afresh");
	crc = 0;
	if (!err && (whole(fd, st->table, st->table_bytes, 0, &crc) ||
	             (st->marks && whole(fd, (uint8_t *)st->marks, st->mark_bytes, 0, &crc))))
		err = errno ? fail(c, SDB_EIO, "%s", strerror(errno))
		            : fail(c, SDB_ECORRUPT, "%s", "truncated: remove it to start the build "
		                   "afresh");
	if (!err && (uint32_t)crc != h.state_crc)
		err = fail(c, SDB_ECORRUPT, "%s", "damaged (its CRC does not match): remove it to "
		           "start the build afresh");
	close(fd);
	if (err)
		return err;
	memset(&st->res, 0, sizeof st->res);
	memcpy(st->res.counts, h.counts, sizeof h.counts);
	st->res.max_distance = h.max_distance;
	st->res.reached = h.reached;
	c->earlier = h.seconds;
	c->resumed = 1;
	progress_rebase(c->bar, h.reached);
	if (!c->quiet)
		cli_note("%s: resuming after level %d (%.1f%% of the states reached) from %s, read in "
		         "%.1f s", c->info->name, h.max_distance,
		         100.0 * (double)h.reached / (double)h.states, c->path, progress_now() - t0);
	c->last = progress_now();
	return 1;
}

static void note_failure(const checkpoint *c, int level, const char *what)
{
	progress_end(c->bar);
	cli_note("warning: %s: no checkpoint after level %d (%s: %s); the build goes on",
	         c->info->name, level, c->tmp, what);
}

/* For the tests: SLIDEDB_GEN_DIE=K makes slidedb-gen die once level K is
 * done (and saved, if a checkpoint was due), as a killed process would. */
static void maybe_die(const checkpoint *c, int level)
{
	const char *spec = getenv("SLIDEDB_GEN_DIE");
	if (spec && atoi(spec) == level) {
		progress_end(c->bar);
		cli_note("%s: dying after level %d (SLIDEDB_GEN_DIE)", c->info->name, level);
		_exit(3);
	}
}

/* What write_state writes: the header (its CRCs once the state is
 * written), then the state. */
typedef struct state_file {
	ckpt_header h;
	const bfs_state *st;
} state_file;

static int fill_state(int fd, void *ctx)
{
	state_file *sf = ctx;
	const bfs_state *st = sf->st;
	uLong crc = 0, ignored = 0;
	int bad = lseek(fd, (off_t)sizeof sf->h, SEEK_SET) < 0 ||
	          whole(fd, st->table, st->table_bytes, 1, &crc) ||
	          (st->marks && whole(fd, (uint8_t *)st->marks, st->mark_bytes, 1, &crc));
	sf->h.state_crc = (uint32_t)crc;
	sf->h.header_crc = header_crc(&sf->h);
	bad = bad || lseek(fd, 0, SEEK_SET) < 0 || whole(fd, (uint8_t *)&sf->h, sizeof sf->h, 1, &ignored);
	return bad ? (errno ? errno : EIO) : 0;
}

/* The state to DIR/NAME.ckpt, whole or not at all (durable_replace). */
static void write_state(checkpoint *c, const bfs_state *st)
{
	const double t0 = progress_now();
	state_file sf = { .st = st };
	ckpt_header *h = &sf.h;
	header_for(h, c, st);
	memcpy(h->counts, st->res.counts, sizeof h->counts);
	h->max_distance = st->res.max_distance;
	h->reached = st->res.reached;
	h->seconds = checkpoint_seconds(c);
	errno = 0;
	const int err = durable_replace(c->path, c->dir, fill_state, &sf);
	if (err) {
		note_failure(c, st->res.max_distance, strerror(err));
	} else if (c->bar->enabled) {
		progress_end(c->bar);
		cli_note("%s: checkpoint after level %d: %.2f GB in %.1f s", c->info->name,
		         st->res.max_distance,
		         (double)(sizeof *h + st->table_bytes + h->mark_bytes) / 1e9,
		         progress_now() - t0);
	}
	c->last = progress_now();
}

/* bfs_restart.save: the state to the file, when one is due. */
static int save(void *ctx, const bfs_state *st)
{
	checkpoint *c = ctx;
	if (progress_now() - c->last >= c->every)
		write_state(c, st);
	maybe_die(c, st->res.max_distance);
	return SDB_OK;
}

/* DIR/NAME.ckpt and suffix: a pattern group's name (SET/gN) with a dot
 * for its slash, so that every file lies in DIR. 0, or -1 when it does not
 * fit cap (never a shortened path: it could name another file). */
static int file_of(char *buf, size_t cap, const char *dir, const char *name, const char *suffix)
{
	int n = snprintf(buf, cap, "%s/", dir);
	for (const char *p = name; *p && n >= 0 && (size_t)n + 1 < cap; p++)
		buf[n++] = *p == '/' ? '.' : *p;
	const int more = n >= 0 && (size_t)n < cap
	                 ? snprintf(buf + n, cap - (size_t)n, ".ckpt%s", suffix) : -1;
	return more < 0 || (size_t)n + (size_t)more >= cap ? -1 : 0;   /* a name cut short too */
}

int checkpoint_init(checkpoint *c, const char *dir, double every, const sdb_table_info *info,
                    progress *bar, int quiet, char *why, size_t why_cap)
{
	memset(c, 0, sizeof *c);
	snprintf(c->dir, sizeof c->dir, "%s", dir);
	if (file_of(c->path, sizeof c->path, dir, info->name, "") ||
	    file_of(c->tmp, sizeof c->tmp, dir, info->name, ".tmp")) {
		snprintf(why, why_cap, "--checkpoint '%.200s...': too long a path", dir);
		return SDB_EINVAL;
	}
	c->info = info;
	c->every = every;
	c->started = c->last = progress_now();
	c->bar = bar;
	c->quiet = quiet;
	c->why = why;
	c->why_cap = why_cap;
	return SDB_OK;
}

double checkpoint_seconds(const checkpoint *c)
{
	return c->earlier + progress_now() - c->started;
}

bfs_restart checkpoint_restart(checkpoint *c)
{
	bfs_restart r = { load, save, c };
	return r;
}

int checkpoint_lock(const char *dir)
{
	return durable_lock_dir(dir);
}

void checkpoint_remove(const char *dir, const char *name)
{
	char path[4096];
	if (!file_of(path, sizeof path, dir, name, ""))
		unlink(path);
	if (!file_of(path, sizeof path, dir, name, ".tmp"))
		unlink(path);
}
