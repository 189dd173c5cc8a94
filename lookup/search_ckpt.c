/* A distributed search's restart point; see search_ckpt.h.
 *
 * The file is a header of fixed fields (below) and a bitmap of the cut's
 * subtrees. Both carry CRC-32s, and the header the search's identity
 * (boards, sets, a digest of the database's tables): a file is used only if
 * every check passes, and one that fails any is an error naming it, never a
 * restart from wrong facts. Written by durable_replace(): a kill while
 * saving keeps the last file whole. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "durable.h"
#include "search_ckpt.h"
#include "slidedb_engine.h"

/* 2: subtrees cut under the automaton of duplicate words up to 12 moves
 * (a version 1 file counted another frontier) */
enum { VERSION = 2, MAX_SUBTREES = 1 << 26, MAX_DEPTH = 64 };
static const char magic[8] = "SDBSRCH";

/* Every byte a field: no padding, so the CRC covers only what is set. */
typedef struct file_header {
	char magic[8];
	uint32_t version, header_bytes;
	char tool[32];                      /* sdb_version() of the writer */
	uint8_t start[SDB_MAX_CELLS], goal[SDB_MAX_CELLS];
	uint8_t w, h, zero[6];
	char sets[SDB_MAX_SETS * SDB_NAME_MAX];
	uint32_t tables;
	int32_t bound, depth, n, next_bound;
	uint32_t zero2;
	uint64_t nodes;
	uint32_t done_crc, header_crc;      /* header_crc: of the header with it 0 */
} file_header;
_Static_assert(sizeof(file_header) == 224 + SDB_MAX_SETS * SDB_NAME_MAX, "padding");

static void identity(file_header *h, const search_id *id)
{
	memset(h, 0, sizeof *h);   /* spare bytes too: the CRC covers them */
	memcpy(h->magic, magic, sizeof magic);
	h->version = VERSION;
	h->header_bytes = sizeof *h;
	memcpy(h->start, id->start.cell, id->start.n);
	memcpy(h->goal, id->goal.cell, id->goal.n);
	h->w = id->start.w;
	h->h = id->start.h;
	snprintf(h->sets, sizeof h->sets, "%s", id->sets);
	h->tables = id->tables;
}

static uint32_t crc_of(const void *p, size_t n)
{
	return (uint32_t)crc32(0, p, (uInt)n);
}

static uint32_t header_crc(const file_header *h)
{
	file_header c = *h;
	c.header_crc = 0;
	return crc_of(&c, sizeof c);
}

int search_ckpt_path(char *buf, size_t cap, const char *dir, const search_id *id)
{
	file_header h;
	identity(&h, id);
	const int n = snprintf(buf, cap, "%s/search-%08x.ckpt", dir, crc_of(&h, sizeof h));
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static int refuse(char *why, size_t cap, const char *path, const char *what)
{
	snprintf(why, cap, "checkpoint '%s': %s", path, what);
	return -1;
}

int search_ckpt_load(const char *path, const search_id *id, search_ckpt *c, char *why,
                     size_t cap)
{
	memset(c, 0, sizeof *c);
	/* no wait on a FIFO: nothing but a regular file (no link either) */
	const int fd = sdb_file_open(path, O_RDONLY | O_NOFOLLOW, 0);
	if (fd == SDB_ENOTFOUND)
		return 0;
	if (fd < 0) {   /* the library's words, past the path they begin with */
		const char *d = sdb_errdetail();
		const size_t n = strlen(path);
		return refuse(why, cap, path, strncmp(d, path, n) || d[n] != ':' ? d : d + n + 2);
	}
	struct stat st;
	file_header h, want;
	int rc = -1;
	if (fstat(fd, &st)) {
		refuse(why, cap, path, strerror(errno));
		goto out;
	}
	if (st.st_size < (off_t)sizeof h || read(fd, &h, sizeof h) != (ssize_t)sizeof h ||
	    memcmp(h.magic, magic, sizeof magic) || h.header_bytes != sizeof h ||
	    h.header_crc != header_crc(&h)) {
		refuse(why, cap, path, "damaged (its header's size, name or CRC-32 is wrong)");
		goto out;
	}
	if (h.version != VERSION) {
		refuse(why, cap, path, "written by another version of slidedb");
		goto out;
	}
	identity(&want, id);
	if (memcmp(want.start, h.start, sizeof h.start) || memcmp(want.goal, h.goal, sizeof h.goal) ||
	    want.w != h.w || want.h != h.h || strcmp(want.sets, h.sets)) {
		refuse(why, cap, path, "another search's");
		goto out;
	}
	if (want.tables != h.tables) {
		refuse(why, cap, path, "written with other tables (the database changed)");
		goto out;
	}
	const size_t bytes = ((size_t)(h.n > 0 ? h.n : 0) + 7) / 8;
	if (h.bound < 0 || h.bound > SDB_MAX_MOVES || h.depth < 0 || h.depth > MAX_DEPTH ||
	    h.n < 0 || h.n > MAX_SUBTREES || (h.next_bound != INT_MAX && h.next_bound <= h.bound) ||
	    st.st_size != (off_t)(sizeof h + bytes)) {
		refuse(why, cap, path, "damaged (its bound, cut or length is impossible)");
		goto out;
	}
	c->done = calloc(bytes + 1, 1);
	if (!c->done) {
		refuse(why, cap, path, "out of memory");
		goto out;
	}
	if (read(fd, c->done, bytes) != (ssize_t)bytes || crc_of(c->done, bytes) != h.done_crc) {
		free(c->done);
		c->done = NULL;
		refuse(why, cap, path, "damaged (its subtrees' CRC-32 is wrong)");
		goto out;
	}
	c->bound = h.bound;
	c->depth = h.depth;
	c->n = h.n;
	c->next_bound = h.next_bound;
	c->nodes = h.nodes;
	rc = 1;
out:
	close(fd);
	return rc;
}

typedef struct saving {
	file_header h;
	const uint8_t *done;
	size_t bytes;
} saving;

static int write_all(int fd, const void *p, size_t n)
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

static int fill(int fd, void *ctx)
{
	const saving *s = ctx;
	const int err = write_all(fd, &s->h, sizeof s->h);
	return err ? err : write_all(fd, s->done, s->bytes);
}

int search_ckpt_save(const char *path, const char *dir, const search_id *id,
                     const search_ckpt *c)
{
	saving s;
	identity(&s.h, id);
	snprintf(s.h.tool, sizeof s.h.tool, "%s", sdb_version());
	s.h.bound = c->bound;
	s.h.depth = c->depth;
	s.h.n = c->n;
	s.h.next_bound = c->next_bound;
	s.h.nodes = c->nodes;
	s.done = c->done;
	s.bytes = ((size_t)c->n + 7) / 8;
	s.h.done_crc = crc_of(c->done ? c->done : (const uint8_t *)"", c->done ? s.bytes : 0);
	s.h.header_crc = header_crc(&s.h);
	return durable_replace(path, dir, fill, &s);
}
