/* SPDX-License-Identifier: MIT */
/* A distributed search's restart point; see search_ckpt.h.
 *
 * The file is a header of fixed fields (below) and a bitmap of the cut's
 * subtrees. Both carry CRC-32s, and the header the search's identity
 * (boards, sets, a digest of the database's tables): a file is used only if
 * every check passes, and one that fails any is an error naming it, never a
 * restart from wrong facts. Written by durable_replace(): a kill while
 * saving keeps the last file whole.
 *
 * CRCs catch damage, not a person: a file with its bound raised, its
 * subtrees marked done and its CRCs recomputed made a search skip where the
 * answer was and print a longer one (issue #35). What the file claims (no
 * solution below its bound, none in the subtrees marked at it) cannot be
 * checked short of searching again, so the whole file is sealed: an
 * HMAC-SHA256 under the user's key (ckpt_key.h) that only a run of this
 * user's can have written. The CRCs are checked first, so that plain
 * damage is still called damage. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "cli/durable.h"
#include "lookup/search_ckpt.h"
#include "slidedb_engine.h"

/* 4: subtrees cut under the automaton of duplicate words up to 14 moves, so
 * a cut lists other subtrees than 3's (3: sealed; 2: subtrees cut under the
 * words up to 12 moves; 1 counted another frontier) */
enum { VERSION = 4, MAX_SUBTREES = 1 << 26, MAX_DEPTH = 64, SEAL_BYTES = 32 };
static const char magic[8] = "SDBSRCH";

/* Every byte a field: no padding, so the CRC and the seal cover only what
 * is set. */
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
	uint8_t seal[SEAL_BYTES];           /* HMAC-SHA256 of the header (seal and header_crc
	                                       0) and the bitmap, under the user's key */
	uint32_t done_crc, header_crc;      /* header_crc: of the header with it 0 */
} file_header;
_Static_assert(sizeof(file_header) == 256 + SDB_MAX_SETS * SDB_NAME_MAX, "padding");

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

/* The seal of a header and its bitmap under key: 0, or -1 (OpenSSL failed). */
static int seal_of(uint8_t out[SEAL_BYTES], const ckpt_key *key, const file_header *h,
                   const uint8_t *done, size_t bytes)
{
	file_header z = *h;
	memset(z.seal, 0, sizeof z.seal);
	z.header_crc = 0;
	char digest[] = "SHA256";
	OSSL_PARAM params[] = { OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
	                        OSSL_PARAM_construct_end() };
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
	size_t len = 0;
	const int ok = ctx && EVP_MAC_init(ctx, key->bytes, sizeof key->bytes, params) &&
	               EVP_MAC_update(ctx, (const unsigned char *)&z, sizeof z) &&
	               EVP_MAC_update(ctx, done ? done : (const uint8_t *)"", done ? bytes : 0) &&
	               EVP_MAC_final(ctx, out, &len, SEAL_BYTES) && len == SEAL_BYTES;
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return ok ? 0 : -1;
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

/* The header and bitmap of the open file at path (st its stat) into h and
 * c->done: 0, or -1 with why (damaged, another version, unsealed). */
static int read_sealed(int fd, const struct stat *st, const char *path, const ckpt_key *key,
                       file_header *h, search_ckpt *c, char *why, size_t cap)
{
	memset(h, 0, sizeof *h);
	const size_t head = st->st_size < (off_t)sizeof *h ? (size_t)st->st_size : sizeof *h;
	if (pread(fd, h, head, 0) != (ssize_t)head || head < 16 || memcmp(h->magic, magic, sizeof magic))
		return refuse(why, cap, path, "damaged (not a search checkpoint of slidedb)");
	if (h->version != VERSION) {
		char what[160];
		snprintf(what, sizeof what, "written by another version of slidedb (checkpoint format "
		         "%u; this one reads %d): remove it to search afresh", h->version, VERSION);
		return refuse(why, cap, path, what);
	}
	if (head < sizeof *h || h->header_bytes != sizeof *h || h->header_crc != header_crc(h))
		return refuse(why, cap, path, "damaged (its header's size, version or CRC-32 is wrong)");
	const size_t bytes = ((size_t)(h->n > 0 ? h->n : 0) + 7) / 8;
	if (h->bound < 0 || h->bound > SDB_MAX_MOVES || h->depth < 0 || h->depth > MAX_DEPTH ||
	    h->n < 0 || h->n > MAX_SUBTREES || (h->next_bound != INT_MAX && h->next_bound <= h->bound) ||
	    st->st_size != (off_t)(sizeof *h + bytes))
		return refuse(why, cap, path, "damaged (its bound, cut or length is impossible)");
	if (!(c->done = calloc(bytes + 1, 1)))
		return refuse(why, cap, path, "out of memory");
	if (pread(fd, c->done, bytes, sizeof *h) != (ssize_t)bytes || crc_of(c->done, bytes) != h->done_crc)
		return refuse(why, cap, path, "damaged (its subtrees' CRC-32 is wrong)");
	uint8_t seal[SEAL_BYTES];
	if (seal_of(seal, key, h, c->done, bytes))
		return refuse(why, cap, path, "its seal could not be computed (OpenSSL failed)");
	if (CRYPTO_memcmp(seal, h->seal, sizeof seal)) {
		char what[sizeof key->path + 160];
		snprintf(what, sizeof what, "not sealed by this user's key %s: written elsewhere or "
		         "edited (remove it to search afresh)", key->path);
		return refuse(why, cap, path, what);
	}
	return 0;
}

int search_ckpt_load(const char *path, const search_id *id, const ckpt_key *key, search_ckpt *c,
                     char *why, size_t cap)
{
	memset(c, 0, sizeof *c);
	/* no wait on a FIFO: nothing but a regular file (no link either) */
	const int fd = sdb_file_open(path, O_RDONLY | O_NOFOLLOW, 0);
	if (fd == SDB_ENOTFOUND)
		return 0;
	if (fd < 0) {   /* the library's words, past the path they begin with */
		const char *d = sdb_error_detail();
		const size_t n = strlen(path);
		return refuse(why, cap, path, strncmp(d, path, n) || d[n] != ':' ? d : d + n + 2);
	}
	struct stat st;
	file_header h, want;
	int rc = fstat(fd, &st) ? refuse(why, cap, path, strerror(errno))
	         : read_sealed(fd, &st, path, key, &h, c, why, cap);
	close(fd);
	identity(&want, id);
	if (!rc && (memcmp(want.start, h.start, sizeof h.start) ||
	            memcmp(want.goal, h.goal, sizeof h.goal) || want.w != h.w || want.h != h.h ||
	            strcmp(want.sets, h.sets)))
		rc = refuse(why, cap, path, "another search's");
	else if (!rc && want.tables != h.tables)
		rc = refuse(why, cap, path, "written with other tables (the database changed)");
	if (rc) {
		free(c->done);
		c->done = NULL;
		return -1;
	}
	c->bound = h.bound;
	c->depth = h.depth;
	c->n = h.n;
	c->next_bound = h.next_bound;
	c->nodes = h.nodes;
	return 1;
}

typedef struct saving {
	file_header h;
	const uint8_t *done;
	size_t bytes;
} saving;

static int fill(int fd, void *ctx)
{
	const saving *s = ctx;
	const int err = durable_write_all(fd, &s->h, sizeof s->h);
	return err ? err : durable_write_all(fd, s->done, s->bytes);
}

int search_ckpt_save(const char *path, const char *dir, const search_id *id, const ckpt_key *key,
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
	s.done = c->done ? c->done : (const uint8_t *)"";
	s.bytes = c->done ? ((size_t)c->n + 7) / 8 : 0;
	s.h.done_crc = crc_of(s.done, s.bytes);
	if (seal_of(s.h.seal, key, &s.h, s.done, s.bytes))
		return EIO;
	s.h.header_crc = header_crc(&s.h);
	return durable_replace(path, dir, fill, &s);
}
